// Dev mode's page halves (docs/decisions/dev-mode.md): the live source,
// styles, checked element patches and their exact undo, a temporary
// highlight, the Firefox evaluator of execute_js and the brief tag the
// debugger finds an element by. The background (wasm/tools/devtools.go)
// calls them as internal entries and wraps what they return as page
// content; it has already checked the patch (names canonicalised, no
// script in URLs or handlers).
import { describe, fail, hasRef, intArg, isEl, resolve } from './core.mjs';
import { docId } from './receipts.mjs';
import { clip } from './text.mjs';

// target is the element a ref or a CSS selector names.
function target(args) {
  if (hasRef(args)) return resolve(String(args.ref));
  const sel = typeof args.selector === 'string' ? args.selector.trim() : '';
  if (!sel) fail('Give ref (from get_accessibility_tree) or selector.');
  let el = null;
  try {
    el = document.querySelector(sel);
  } catch {
    fail(`${JSON.stringify(sel)} is not a valid CSS selector.`);
  }
  return el || fail(`No element matches ${JSON.stringify(sel)}.`);
}

// source is the live DOM's HTML (or one element's), a part at a time.
function source(args) {
  const html = args.ref || args.selector ? target(args).outerHTML : document.documentElement.outerHTML;
  const size = intArg(args.maxChars, 6000, 500, 6000);
  const from = intArg(args.offset, 0, 0, html.length);
  const to = Math.min(html.length, from + size);
  return { text: html.slice(from, to), total: html.length, next: to < html.length ? to : 0 };
}

const DEFAULT_PROPS = [
  'display',
  'position',
  'visibility',
  'opacity',
  'z-index',
  'width',
  'height',
  'margin',
  'padding',
  'color',
  'background-color',
  'font-family',
  'font-size',
  'font-weight',
  'line-height',
  'overflow',
  'pointer-events',
  'cursor',
  'flex-direction',
  'justify-content',
  'align-items',
  'transform',
];

// matchedRules lists the readable stylesheet rules whose selector matches
// el; cross-origin sheets cannot be read and are named as such.
function matchedRules(el, max) {
  const out = [];
  let hidden = 0;
  const visit = (rules) => {
    for (const r of rules) {
      if (out.length >= max) return;
      if (r.selectorText) {
        let hit = false;
        try {
          hit = el.matches(r.selectorText);
        } catch {
          /* a selector this engine does not know */
        }
        if (hit) out.push(clip(r.cssText, 300));
      } else if (r.cssRules && (!r.media || matchMedia(r.media.mediaText).matches)) {
        visit(r.cssRules);
      }
    }
  };
  for (const sheet of document.styleSheets) {
    let rules = null;
    try {
      rules = sheet.cssRules;
    } catch {
      hidden++;
    }
    if (rules) visit(rules);
  }
  return { out, hidden };
}

function styles(args) {
  const el = target(args);
  const cs = getComputedStyle(el);
  const props = Array.isArray(args.properties) && args.properties.length ? args.properties.map(String) : DEFAULT_PROPS;
  const box = el.getBoundingClientRect();
  const lines = [
    `Element: ${describe(el)} <${el.localName}${el.id ? ` id="${el.id}"` : ''}>`,
    `Classes: ${el.classList.length ? [...el.classList].join(' ') : '(none)'}`,
    `Inline style: ${el.getAttribute('style') || '(none)'}`,
    `Box: x ${Math.round(box.x)}, y ${Math.round(box.y)}, ${Math.round(box.width)}×${Math.round(box.height)} px`,
    'Computed:',
    ...props.map((p) => `  ${p}: ${cs.getPropertyValue(p) || '(unset)'}`),
  ];
  const { out, hidden } = matchedRules(el, 30);
  lines.push(`Matching rules (${out.length}${hidden ? `; ${hidden} cross-origin stylesheets cannot be read` : ''}):`);
  for (const r of out) lines.push('  ' + r);
  return lines.join('\n');
}

// Patched elements, by patch id: the element itself stays the page's.
const patched = new Map();

const attr = (el, n) => (el.hasAttribute(n) ? el.getAttribute(n) : null);
const URL_ATTRS = /^(href|src|action|formaction|xlink:href|data|poster|background|srcset|ping)$/;
// unsafeURL reads a URL as a browser does: white space and control
// characters inside the scheme do not count.
const unsafeURL = (v) =>
  /^(javascript|vbscript):/i.test([...String(v)].filter((c) => c.charCodeAt(0) > 32 && c.charCodeAt(0) !== 127).join(''));

function patch(args) {
  const el = target(args);
  const p = args.patch || {};
  const changes = [];
  for (const [n, v] of Object.entries(p.attributes || {})) {
    if (/^on/i.test(n) || (v !== null && URL_ATTRS.test(n) && unsafeURL(v))) fail(`${n} cannot be set to script.`);
  }
  for (const [n, v] of Object.entries(p.style || {})) {
    const before = el.style.getPropertyValue(n);
    const priority = el.style.getPropertyPriority(n);
    if (v === null) el.style.removeProperty(n);
    else el.style.setProperty(n, String(v));
    const after = el.style.getPropertyValue(n);
    if (v !== null && !after) {
      restore(el, changes);
      fail(`The browser did not accept ${n}: ${JSON.stringify(v)}; nothing was changed.`);
    }
    changes.push({ kind: 'style', name: n, before: before || null, after: after || null, priority });
  }
  // The class attribute as it was, so an undo restores the token order too.
  const classBefore = attr(el, 'class');
  for (const c of p.addClass || []) {
    const had = el.classList.contains(c);
    el.classList.add(c);
    changes.push({ kind: 'class', name: c, before: had ? c : null, after: c, whole: classBefore });
  }
  for (const c of p.removeClass || []) {
    const had = el.classList.contains(c);
    el.classList.remove(c);
    changes.push({ kind: 'class', name: c, before: had ? c : null, after: null, whole: classBefore });
  }
  for (const [n, v] of Object.entries(p.attributes || {})) {
    const before = attr(el, n);
    if (v === null) el.removeAttribute(n);
    else el.setAttribute(n, String(v));
    changes.push({ kind: 'attribute', name: n, before, after: attr(el, n) });
  }
  patched.set(String(args.patchId), el);
  return { doc: docId(), url: location.href, target: describe(el), changes };
}

// restore puts back each change's before value, newest first.
function restore(el, changes) {
  for (const c of [...changes].reverse()) {
    if (c.kind === 'style') {
      if (c.before === null) el.style.removeProperty(c.name);
      else el.style.setProperty(c.name, c.before, c.priority || '');
      if (el.getAttribute('style') === '') el.removeAttribute('style');
    } else if (c.kind === 'class') {
      el.classList.toggle(c.name, c.before !== null);
      restoreClassOrder(el, c.whole);
    } else if (c.before === null) {
      el.removeAttribute(c.name);
    } else {
      el.setAttribute(c.name, c.before);
    }
  }
}

// restoreClassOrder puts the class attribute back as written when it holds
// the same classes again (the page changed none since).
function restoreClassOrder(el, whole) {
  if (typeof whole !== 'string') return;
  const want = whole.split(/\s+/).filter(Boolean);
  const have = [...el.classList];
  if (want.length === have.length && want.every((c) => el.classList.contains(c))) el.setAttribute('class', whole);
}

function unpatch(args) {
  const el = patched.get(String(args.patchId));
  if (args.doc !== docId() || !el) return { reverted: false };
  restore(el, Array.isArray(args.changes) ? args.changes : []);
  patched.delete(String(args.patchId));
  return { reverted: true };
}

// highlight outlines the element with an overlay that takes no clicks and
// removes itself.
function highlight(args) {
  const el = target(args);
  el.scrollIntoView({ block: 'center', inline: 'nearest' });
  const box = el.getBoundingClientRect();
  const o = document.createElement('div');
  o.setAttribute('data-webbrain-highlight', '');
  o.style.cssText =
    'position:fixed;pointer-events:none;z-index:2147483647;box-sizing:border-box;' +
    'border:3px solid #e8590c;background:rgba(232,89,12,.12);border-radius:3px;' +
    `left:${box.left - 3}px;top:${box.top - 3}px;width:${box.width + 6}px;height:${box.height + 6}px;`;
  if (args.label) {
    const tag = document.createElement('span');
    tag.textContent = clip(String(args.label), 80);
    tag.style.cssText =
      'position:absolute;left:0;top:-22px;background:#e8590c;color:#fff;font:12px/18px sans-serif;padding:0 6px;border-radius:3px;white-space:nowrap;';
    o.append(tag);
  }
  document.documentElement.append(o);
  const ms = intArg(args.durationMs, 3000, 500, 10000);
  setTimeout(() => o.remove(), ms);
  return `Highlighted ${describe(el)} for ${ms} ms.`;
}

// evaluate is Firefox's execute_js: the code is compiled in the page's own
// compartment (wrappedJSObject), so it sees the page's globals as its
// scripts do, and it hands back JSON text only.
async function evaluate(args) {
  const page = window.wrappedJSObject;
  if (!page) fail('execute_js cannot reach the page world in this browser.');
  const max = intArg(args.max, 6000, 100, 6000);
  const src =
    '(async function () {\n' +
    String(args.code) +
    '\n})().then((v) => { if (v === undefined) return "undefined"; const seen = new WeakSet(); let s;' +
    ' try { s = JSON.stringify(v, (k, x) => { if (typeof x === "function") return "[function]"; if (typeof x === "bigint") return String(x);' +
    ' if (x && typeof x === "object") { if (x instanceof Node) return "[" + x.nodeName + "]"; if (seen.has(x)) return "[cycle]"; seen.add(x); } return x; }); }' +
    ' catch (e) { s = String(v); } return s === undefined ? String(v) : s; },' +
    ' (e) => { throw "ERR:" + (e && e.stack ? e.stack : String(e)); })';
  let result;
  try {
    result = page.eval(src);
  } catch (e) {
    const msg = String(e && e.message ? e.message : e);
    if (!/\bCSP\b|content security policy/i.test(msg)) return { error: msg };
    return {
      error: `The page's Content Security Policy forbids compiling script here, so execute_js cannot run on this page in this browser (${msg}).`,
    };
  }
  const ms = intArg(args.timeoutMs, 15000, 1000, 15000);
  let timer;
  const late = new Promise((settle) => {
    timer = setTimeout(() => settle({ error: `The code did not finish within ${ms / 1000} seconds.` }), ms);
  });
  // The page's promise calls back into this world: Firefox lets it only
  // through functions exported to the page.
  const exportTo = globalThis.exportFunction;
  const exported = (fn) => (typeof exportTo === 'function' ? exportTo(fn, window) : fn);
  const done = new Promise((settle) => {
    result.then(
      exported((s) => settle({ value: clip(String(s), max) })),
      exported((e) => settle({ error: String(e).replace(/^ERR:/, '') })),
    );
  });
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

// mark tags one element for the debugger's search, or removes the tag.
function mark(args) {
  const token = String(args.token || '');
  if (!/^mark_[0-9a-f]+$/.test(token)) fail('bad token');
  if (args.remove) {
    for (const el of document.querySelectorAll(`[data-webbrain-mark="${token}"]`)) el.removeAttribute('data-webbrain-mark');
    const el = marked.get(token);
    if (isEl(el)) el.removeAttribute('data-webbrain-mark');
    marked.delete(token);
    return '';
  }
  const el = target(args);
  el.setAttribute('data-webbrain-mark', token);
  marked.set(token, el);
  return describe(el);
}
const marked = new Map();

export const DEV = {
  dev_source: source,
  dev_styles: styles,
  dev_patch: patch,
  dev_unpatch: unpatch,
  dev_highlight: highlight,
  dev_eval: evaluate,
  dev_mark: mark,
};
