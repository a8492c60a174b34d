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
// the bridge to the tree (refs, roles, names), visibility, plain events.
// Start-up only defines functions and registers one message listener;
// nothing touches the DOM until a tool runs.
import { clip, squash } from './text.mjs';
import { ownFunction } from './dom.mjs';

export const RESULT_CAP = 8000; // the agent's cap for tool results other than the tree
export const win = window;
export const doc = document;

export class ToolError extends Error {}
export const fail = (msg) => {
  throw new ToolError(msg);
};

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
export const sentences = (...parts) =>
  parts
    .filter(Boolean)
    .map((p) => (/[.!?]$/.test(p) ? p : p + '.'))
    .join(' ');
export const NO_CHANGE = 'No visible change detected (the page may respond later; read it again to check).';

export function intArg(v, def, min, max) {
  const n = v === undefined || v === null || v === '' ? def : Math.round(Number(v));
  if (!Number.isFinite(n)) return def;
  return Math.min(max, Math.max(min, n));
}

// ------------------------------------------------------- accessibility tree

// The tree's script owns refs, roles and accessible names; these reach it
// through the functions it defines on window (accessibility-tree.mjs).

// axExport returns a function the tree exports, or fails.
export function axExport(name) {
  return (
    ownFunction(name) ||
    fail(
      'The accessibility tree is not available on this page (its script did not load); reload the page, then call get_accessibility_tree.',
    )
  );
}

export const hasRef = (args) => args.ref !== undefined && args.ref !== null && String(args.ref).trim() !== '';

// resolve returns the live element behind a ref or fails naming what the
// ref was and the refs that still work near where it was.
export function resolve(ref) {
  if (!hasRef({ ref })) fail('Missing "ref": pass a ref shown by get_accessibility_tree, for example {"ref": "ref_12"}.');
  const el = axExport('__wb_ax_lookup')(ref);
  if (el) return el;
  fail(staleMessage(ref));
}

export function staleMessage(ref) {
  const info = axExport('__wb_ax_nearby')(ref, 6);
  const was = info.known ? ` (${info.known.role} ${quote(info.known.name || '', 40)})` : '';
  const near = info.nearby.length
    ? 'Nearby live refs: ' + info.nearby.map((r) => `${r.role} ${quote(r.name || '', 40)} [${r.ref}]`).join(', ') + '; '
    : '';
  return `${info.ref}${was} is stale (the element was removed or replaced). ${near}call get_accessibility_tree again.`;
}

// refOf gives an element's ref, registering it with the tree when the
// tree has not shown it yet, so results can name what they found.
export function refOf(el) {
  const ref = ownFunction('__wb_ax_ref');
  return ref && isEl(el) ? ref(el) : '';
}

const LINELESS = new Set(['generic', 'none', 'presentation']);

// lineRole is the role of el's line in the tree: '' for a plain container,
// which has no line of its own.
export function lineRole(el) {
  const role = ownFunction('__wb_ax_role');
  const r = role && isEl(el) ? role(el) : '';
  return LINELESS.has(r) ? '' : r;
}

// nameOf is the accessible name the tree gives el ('' for none).
export function nameOf(el) {
  const name = ownFunction('__wb_ax_name');
  return name && isEl(el) ? name(el) : '';
}

// ------------------------------------------------------------- elements

export const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);
export const VALUE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);
// biome-ignore format: a table, packed as written
export const FORMATS = {
  date: 'YYYY-MM-DD', time: 'HH:MM or HH:MM:SS', 'datetime-local': 'YYYY-MM-DDTHH:MM',
  month: 'YYYY-MM', week: 'YYYY-Www (e.g. 2026-W05)', color: '#rrggbb', range: 'a number',
};

export const isEl = (n) => !!n && n.nodeType === 1;
export const isTextField = (el) =>
  isEl(el) && (el.localName === 'textarea' || (el.localName === 'input' && TEXT_TYPES.has(el.type)));
export const isEditable = (el) => isTextField(el) || (isEl(el) && el.isContentEditable);

// kindOf is what a result calls el: its role in the tree, or for a plain
// container, which has no line there, its tag and its id or first class
// (div#cookie, span.price).
export function kindOf(el) {
  const role = lineRole(el);
  if (role) return role;
  const id = el.id ? '#' + el.id : '';
  const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/)[0] : '';
  return el.localName + (id || cls);
}

// describe names an element in a result as the tree shows it: role,
// accessible name and ref (button "Save" [ref_4]; div#cookie "Cookie
// consent").
export function describe(el) {
  if (!isEl(el)) return 'nothing';
  const name = clip(squash(nameOf(el)), 60);
  const ref = refOf(el);
  return kindOf(el) + (name ? ' ' + JSON.stringify(name) : '') + (ref ? ` [${ref}]` : '');
}

// describeShowing is describe, and for an element without a name the
// text it shows: what a dialog says, what covers a target.
export function describeShowing(el) {
  const d = describe(el);
  if (!isEl(el) || nameOf(el)) return d;
  const text = squash(el.innerText ?? el.textContent);
  return text ? `${d} showing ${quote(text, 80)}` : d;
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
  return el.dispatchEvent(
    new InputEvent(type, { bubbles: true, cancelable: type === 'beforeinput', composed: true, inputType, data }),
  );
}
