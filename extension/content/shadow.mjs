// Content script part: web components and flat control lists. The tools
// get_interactive_elements, get_shadow_dom and shadow_dom_query (its open
// roots; the background adds the closed ones in Chrome).
import { clip, squash } from './text.mjs';
import { axExport, describe, doc, fail, hasRef, intArg, isVisible, refOf, resolve } from './core.mjs';
import { FOCUSABLE } from './pointer.mjs';

// get_interactive_elements: the tree's interactive lines, flat. The tree
// walks open shadow roots and same-origin frames, so their controls are
// here with refs like any other.
export function interactiveElements(args) {
  const max = intArg(args.maxItems, 200, 1, 500);
  const r = axExport('__generateAccessibilityTree')({ filter: 'interactive', maxChars: 0 });
  if (!r || r.error) fail('The page could not be read.');
  const lines = String(r.tree ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /\[ref_\d+\]/.test(l));
  if (!lines.length) return 'No interactive elements on the page.';
  const shown = lines.slice(0, max);
  const more = lines.length - shown.length;
  return (
    `${lines.length} interactive elements:\n` +
    shown.join('\n') +
    (more ? `\n[${more} more: call again with a larger maxItems, or read get_accessibility_tree with filter "interactive".]` : '')
  );
}

// The hosts of open shadow roots in root's tree, root included, in
// document order; a host inside a shadow tree shows in its outer host's
// outline.
const hostsUnder = (root) => [root, ...root.querySelectorAll('*')].filter((el) => el.shadowRoot);

const SKIP = new Set(['script', 'style', 'template', 'link', 'meta']);
const CONTROL = `${FOCUSABLE}, [role], [onclick]`;

function startTag(el) {
  let s = '<' + el.localName;
  if (el.id) s += '#' + el.id;
  if (typeof el.className === 'string' && el.className.trim()) s += '.' + el.className.trim().split(/\s+/).join('.');
  for (const a of ['type', 'name', 'role', 'aria-label', 'placeholder', 'slot']) {
    const v = el.getAttribute(a);
    if (v) s += ` ${a}=${JSON.stringify(clip(v, 40))}`;
  }
  return s + '>';
}

// text is an element's or a text node's text, quoted and short.
const text = (n) => JSON.stringify(clip(squash(n.textContent), 40));

// slotted names a node a slot shows: a control as the tree does, another
// element by its tag and text, text as itself.
const slotted = (a) => {
  if (a.nodeType !== 1) return text(a);
  if (a.matches(CONTROL)) return describe(a);
  return squash(a.textContent) ? `${startTag(a)} ${text(a)}` : startTag(a);
};

// A slot or a display: contents box has no box of its own: what it holds
// decides what shows.
const boxless = (el) => el.localName === 'slot' || el.ownerDocument.defaultView.getComputedStyle(el).display === 'contents';

// outline writes n's children, one line per element or text, indented;
// each shadow tree shows down to max levels.
function outline(n, indent, level, max, out) {
  if (level > max) return;
  const pad = ' '.repeat(indent);
  for (const c of n.childNodes) {
    if (c.nodeType === 3) {
      const t = squash(c.nodeValue);
      if (t) out.push(pad + JSON.stringify(clip(t, 80)));
      continue;
    }
    if (c.nodeType !== 1 || SKIP.has(c.localName)) continue;
    const shown = boxless(c) || isVisible(c);
    let line = pad + startTag(c);
    if (!shown) line += ' hidden';
    else if (c.matches(CONTROL)) line += ' ' + describe(c);
    if (c.localName === 'slot') {
      const assigned = c.assignedNodes({ flatten: true }).filter((a) => a.nodeType === 1 || squash(a.nodeValue));
      if (assigned.length) line += ' ← ' + assigned.map(slotted).join(', ');
    }
    out.push(line);
    if (c.shadowRoot) {
      out.push(pad + ' #shadow-root (open)');
      outline(c.shadowRoot, indent + 2, 1, max, out);
    }
    outline(c, indent + 1, level + 1, max, out);
  }
}

// get_shadow_dom {ref, maxDepth}: each open shadow root under the element
// (the page without ref) as an outline of its tree.
export function getShadowDom(args) {
  const root = hasRef(args) ? resolve(args.ref) : doc.documentElement;
  const max = intArg(args.maxDepth, 12, 1, 30);
  const hosts = hostsUnder(root);
  if (!hosts.length) {
    return `No open shadow root under ${hasRef(args) ? describe(root) : 'the page'}. Closed shadow roots cannot be read by the page's script; in Chrome, shadow_dom_query finds elements in them.`;
  }
  const out = [];
  for (const h of hosts) {
    out.push(`${startTag(h)} [${refOf(h)}]`, ' #shadow-root (open)');
    outline(h.shadowRoot, 2, 1, max, out);
  }
  return `${hosts.length} shadow host${hosts.length > 1 ? 's' : ''}:\n` + out.join('\n');
}

// Every open shadow root of d and of its same-origin frames.
function openRoots(d, out = []) {
  const walk = (n) => {
    for (const el of n.querySelectorAll('*')) {
      if (el.shadowRoot) {
        out.push(el.shadowRoot);
        walk(el.shadowRoot);
      }
      if (el.localName === 'iframe' || el.localName === 'frame') {
        let inner = null;
        try {
          inner = el.contentDocument;
        } catch {
          inner = null;
        }
        if (inner) walk(inner);
      }
    }
  };
  walk(d);
  return out;
}

// shadow_dom_query {selector, maxResults}: matches inside open shadow
// roots, each with a ref (describe registers one).
export function shadowDomQuery(args) {
  const selector = String(args.selector ?? '').trim();
  if (!selector) fail('Pass "selector", a CSS selector.');
  const max = intArg(args.maxResults, 30, 1, 100);
  const found = [];
  for (const root of openRoots(doc)) {
    let list;
    try {
      list = root.querySelectorAll(selector);
    } catch {
      fail(`${JSON.stringify(selector)} is not a valid CSS selector.`);
    }
    for (const el of list) found.push({ el, host: root.host });
  }
  if (!found.length) return 'No match in open shadow roots.';
  const lines = found
    .slice(0, max)
    .map(({ el, host }) => `${describe(el)} ${startTag(el)}${isVisible(el) ? '' : ' hidden'} (in <${host.localName}>)`);
  return `${found.length} matches in open shadow roots:\n` + lines.join('\n');
}
