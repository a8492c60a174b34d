// WebBrain page tools: the content-script half of every tool that acts on
// or reads the page (docs/content-tools.md). The background sends
// {wb: "tool", name, args}; the reply is {ok: true, result} or
// {ok: false, error}, both plain text for the model. Elements are reached
// only through refs from the accessibility tree (its own content script,
// injected before this one) or viewport coordinates.
//
// The script is kept in ES modules, one concern each; main.mjs is the
// entry, and the build bundles it with what it imports into the one
// content/content.js the background injects (esbuild, an IIFE: no name
// reaches the page or the world's global scope). test/content injects the
// same bundle.
//
// core.mjs holds what every part uses: errors and replies, text helpers,
// the bridge to the tree's refs, element roles, names and visibility, plain
// events.
// Start-up only defines functions and registers one message listener;
// nothing touches the DOM until a tool runs.
import { clip, squash } from './text.mjs';
import { ownFunction } from './dom.mjs';

export const RESULT_CAP = 8000; // the agent's cap for tool results other than the tree
export const win = window;
export const doc = document;

export class ToolError extends Error {}
export const fail = (msg) => { throw new ToolError(msg); };

// replyOf runs act and answers {ok: true, result} or {ok: false, error}:
// text for the model (clipped to RESULT_CAP, the tree aside), or an
// object for the background (internal).
export async function replyOf(name, act, internal) {
  try {
    if (internal) return { ok: true, result: await act() };
    const text = String(await act());
    return { ok: true, result: name === 'get_accessibility_tree' ? text : clip(text, RESULT_CAP) };
  } catch (e) {
    if (e instanceof ToolError) return { ok: false, error: e.message };
    return { ok: false, error: `${name} failed on this page: ${e && e.message ? e.message : String(e)}` };
  }
}

// ---------------------------------------------------------------- text

export const quote = (s, n = 80) => JSON.stringify(clip(squash(s), n));
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const sentences = (...parts) => parts.filter(Boolean).map((p) => (/[.!?]$/.test(p) ? p : p + '.')).join(' ');
export const NO_CHANGE = 'No visible change detected (the page may respond later; read it again to check).';

export function intArg(v, def, min, max) {
  const n = v === undefined || v === null || v === '' ? def : Math.round(Number(v));
  if (!Number.isFinite(n)) return def;
  return Math.min(max, Math.max(min, n));
}

// ------------------------------------------------------- accessibility bridge

export const hasRef = (args) => args.ref !== undefined && args.ref !== null && String(args.ref).trim() !== '';

export function normRef(ref) {
  const s = String(ref ?? '').trim().replace(/^\[|\]$/g, '');
  if (!s) fail('Missing "ref": pass a ref shown by get_accessibility_tree, for example {"ref": "ref_12"}.');
  return /^\d+$/.test(s) ? 'ref_' + s : s;
}

// axExport returns a function accessibility-tree.mjs exports, or fails.
export function axExport(name) {
  return ownFunction(name) || fail('The accessibility tree is not available on this page (its script did not load); reload the page, then call get_accessibility_tree.');
}

function axLookup(id) {
  return axExport('__wb_ax_lookup')(id);
}

// resolve returns the live element behind a ref or fails naming what the
// ref was and the refs that still work near where it was.
export function resolve(ref) {
  const id = normRef(ref);
  const el = axLookup(id);
  if (el && el.isConnected) return el;
  fail(staleMessage(id));
}

export function staleMessage(id) {
  const nearby = ownFunction('__wb_ax_nearby');
  const info = nearby ? nearby(id, 6) : null;
  const was = info && info.known ? ` (${info.known.role} ${quote(info.known.name || '', 40)})` : '';
  const near = info && info.nearby && info.nearby.length
    ? 'Nearby live refs: ' + info.nearby.map((r) => `${r.role} ${quote(r.name || '', 40)} [${r.ref}]`).join(', ') + '; '
    : '';
  return `${id}${was} is stale (the element was removed or replaced). ${near}call get_accessibility_tree again.`;
}

// refOf gives an element's ref, registering it with the tree when the
// tree has not shown it yet, so results can name what they found.
export function refOf(el) {
  const ref = ownFunction('__wb_ax_ref');
  return ref && isEl(el) ? ref(el) : '';
}

// ------------------------------------------------------------- elements

const INPUT_ROLES = {
  checkbox: 'checkbox', radio: 'radio', range: 'slider', button: 'button', submit: 'button',
  reset: 'button', image: 'button', search: 'searchbox', number: 'spinbutton', file: 'file input',
  date: 'date input', time: 'time input', 'datetime-local': 'date-time input', month: 'month input',
  week: 'week input', color: 'color input',
};
export const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);
export const VALUE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);
export const FORMATS = {
  date: 'YYYY-MM-DD', time: 'HH:MM or HH:MM:SS', 'datetime-local': 'YYYY-MM-DDTHH:MM',
  month: 'YYYY-MM', week: 'YYYY-Www (e.g. 2026-W05)', color: '#rrggbb', range: 'a number',
};

export const isEl = (n) => !!n && n.nodeType === 1;
export const isTextField = (el) => isEl(el) && (el.localName === 'textarea' || (el.localName === 'input' && TEXT_TYPES.has(el.type)));
export const isEditable = (el) => isTextField(el) || (isEl(el) && el.isContentEditable);

export function roleOf(el) {
  const r = el.getAttribute('role');
  if (r) return r.split(/\s+/)[0];
  const t = el.localName;
  if (t === 'a') return el.hasAttribute('href') ? 'link' : 'a';
  if (t === 'button' || t === 'summary') return 'button';
  if (t === 'select') return el.multiple ? 'listbox' : 'combobox';
  if (t === 'textarea') return 'textbox';
  if (t === 'input') return INPUT_ROLES[el.type] || 'textbox';
  if (/^h[1-6]$/.test(t)) return 'heading';
  if (t === 'dialog') return 'dialog';
  if (t === 'img') return 'img';
  if (el.isContentEditable) return 'textbox';
  const id = el.id ? '#' + el.id : '';
  const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/)[0] : '';
  return t + (id || cls);
}

export function nameOf(el) {
  const aria = el.getAttribute('aria-label');
  if (aria && aria.trim()) return aria;
  const by = el.getAttribute('aria-labelledby');
  if (by) {
    const t = by.split(/\s+/).map((i) => el.ownerDocument.getElementById(i)?.textContent || '').join(' ');
    if (t.trim()) return t;
  }
  if (el.labels && el.labels.length) {
    const t = [...el.labels].map((l) => l.innerText || l.textContent).join(' ');
    if (t.trim()) return t;
  }
  if (el.localName === 'input' && ['button', 'submit', 'reset'].includes(el.type)) return el.value;
  if (el.localName === 'img') return el.alt;
  if (el.localName !== 'select' && !isTextField(el)) {
    const t = el.innerText ?? el.textContent;
    if (t && t.trim()) return t;
  }
  return el.getAttribute('title') || el.getAttribute('placeholder') || el.getAttribute('alt') || el.getAttribute('name') || '';
}

export function describe(el) {
  if (!isEl(el)) return 'nothing';
  const name = clip(squash(nameOf(el)), 60);
  const ref = refOf(el);
  return roleOf(el) + (name ? ' ' + JSON.stringify(name) : '') + (ref ? ` [${ref}]` : '');
}

export function isVisible(el) {
  if (!isEl(el) || !el.isConnected) return false;
  if (el.checkVisibility && !el.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

export const isDisabled = (el) => el.disabled === true || el.getAttribute('aria-disabled') === 'true' || !!el.closest('[inert]');

export function openDialogs() {
  return [...doc.querySelectorAll('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]')].filter(isVisible);
}

// ---------------------------------------------------------------- events

export function fire(el, type, init = {}) {
  return el.dispatchEvent(new Event(type, { bubbles: true, cancelable: false, composed: true, ...init }));
}

export function fireInput(el, type, inputType, data = null) {
  return el.dispatchEvent(new InputEvent(type, { bubbles: true, cancelable: type === 'beforeinput', composed: true, inputType, data }));
}
