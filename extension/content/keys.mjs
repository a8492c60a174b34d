// Content script part: keys. The US-layout key tables,
// chord parsing, one key press with its events, and the press_keys tool.
// What an uncancelled key does is in key-actions.mjs.
import { deepActive } from './dom.mjs';
import { describe, fail, isTextField, sentences } from './core.mjs';
import { defaultAction } from './key-actions.mjs';
import { observe } from './observe.mjs';

// biome-ignore format: a table, packed as written
export const NAMED = {
  enter: ['Enter', 'Enter', 13], return: ['Enter', 'Enter', 13], tab: ['Tab', 'Tab', 9],
  escape: ['Escape', 'Escape', 27], esc: ['Escape', 'Escape', 27], backspace: ['Backspace', 'Backspace', 8],
  delete: ['Delete', 'Delete', 46], del: ['Delete', 'Delete', 46], space: [' ', 'Space', 32],
  arrowup: ['ArrowUp', 'ArrowUp', 38], up: ['ArrowUp', 'ArrowUp', 38],
  arrowdown: ['ArrowDown', 'ArrowDown', 40], down: ['ArrowDown', 'ArrowDown', 40],
  arrowleft: ['ArrowLeft', 'ArrowLeft', 37], left: ['ArrowLeft', 'ArrowLeft', 37],
  arrowright: ['ArrowRight', 'ArrowRight', 39], right: ['ArrowRight', 'ArrowRight', 39],
  home: ['Home', 'Home', 36], end: ['End', 'End', 35], pageup: ['PageUp', 'PageUp', 33],
  pagedown: ['PageDown', 'PageDown', 34], insert: ['Insert', 'Insert', 45],
  capslock: ['CapsLock', 'CapsLock', 20], contextmenu: ['ContextMenu', 'ContextMenu', 93],
  control: ['Control', 'ControlLeft', 17, 1], ctrl: ['Control', 'ControlLeft', 17, 1],
  shift: ['Shift', 'ShiftLeft', 16, 1], alt: ['Alt', 'AltLeft', 18, 1], meta: ['Meta', 'MetaLeft', 91, 1],
};
for (let i = 1; i <= 12; i++) NAMED['f' + i] = ['F' + i, 'F' + i, 111 + i];

// biome-ignore format: a table, packed as written
export const MODIFIERS = {
  control: 'ctrlKey', ctrl: 'ctrlKey', shift: 'shiftKey', alt: 'altKey', option: 'altKey',
  meta: 'metaKey', cmd: 'metaKey', command: 'metaKey', super: 'metaKey',
};
export const MOD_KEYS = { ctrlKey: 'control', shiftKey: 'shift', altKey: 'alt', metaKey: 'meta' };
// biome-ignore format: a table, packed as written
const SHIFTED = {
  '!': '1', '@': '2', '#': '3', $: '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0',
  _: '-', '+': '=', '{': '[', '}': ']', '|': '\\', ':': ';', '"': "'", '<': ',', '>': '.', '?': '/', '~': '`',
};
const UNSHIFTED = Object.fromEntries(Object.entries(SHIFTED).map(([a, b]) => [b, a]));
// biome-ignore format: a table, packed as written
const PUNCT = {
  '-': ['Minus', 189], '=': ['Equal', 187], '[': ['BracketLeft', 219], ']': ['BracketRight', 221],
  '\\': ['Backslash', 220], ';': ['Semicolon', 186], "'": ['Quote', 222], ',': ['Comma', 188],
  '.': ['Period', 190], '/': ['Slash', 191], '`': ['Backquote', 192], ' ': ['Space', 32],
};

export const named = (def) => ({
  key: def[0],
  code: def[1],
  keyCode: def[2],
  modifier: !!def[3],
  text: def[0] === ' ' ? ' ' : '',
});

// charKey describes the US-layout key that types ch.
export function charKey(ch) {
  if (ch === '\n' || ch === '\r') return named(NAMED.enter);
  if (ch === '\t') return named(NAMED.tab);
  if (/^[a-z]$/i.test(ch))
    return {
      key: ch,
      code: 'Key' + ch.toUpperCase(),
      keyCode: ch.toUpperCase().charCodeAt(0),
      shift: ch !== ch.toLowerCase(),
      text: ch,
    };
  if (/^[0-9]$/.test(ch)) return { key: ch, code: 'Digit' + ch, keyCode: 48 + Number(ch), shift: false, text: ch };
  if (SHIFTED[ch]) return { ...charKey(SHIFTED[ch]), key: ch, shift: true, text: ch };
  if (PUNCT[ch]) return { key: ch, code: PUNCT[ch][0], keyCode: PUNCT[ch][1], shift: false, text: ch };
  return { key: ch, code: '', keyCode: 0, shift: false, text: ch };
}

export function fireKey(target, type, k, mods) {
  const w = target.ownerDocument.defaultView;
  const charCode = type === 'keypress' ? (k.key === 'Enter' ? 13 : k.text.codePointAt(0)) : 0;
  const keyCode = type === 'keypress' ? charCode : k.keyCode;
  return target.dispatchEvent(
    new KeyboardEvent(type, {
      key: k.key,
      code: k.code,
      keyCode,
      charCode,
      which: keyCode,
      bubbles: true,
      cancelable: true,
      composed: true,
      view: w,
      ...mods,
    }),
  );
}

export function parseChord(tok) {
  const parts = tok === '+' ? ['+'] : tok.endsWith('++') ? [...tok.slice(0, -2).split('+'), '+'] : tok.split('+');
  const last = parts.pop();
  const mods = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
  for (const p of parts) {
    const m = MODIFIERS[p.toLowerCase()];
    if (!m) fail(`Unknown modifier "${p}" in "${tok}"; use Control, Shift, Alt or Meta.`);
    mods[m] = true;
  }
  let k;
  if (last.length === 1) {
    let ch = last;
    if (mods.shiftKey) ch = /[a-z]/.test(ch) ? ch.toUpperCase() : UNSHIFTED[ch] || ch;
    k = charKey(ch);
  } else {
    const def = NAMED[last.toLowerCase()];
    if (!def)
      fail(
        `Unknown key "${last}" in "${tok}". Use names like Enter, Tab, Escape, Backspace, Delete, ArrowDown, Home, PageDown, F5, Space, or a single character.`,
      );
    k = named(def);
  }
  if (k.modifier) mods[MODIFIERS[k.key.toLowerCase()]] = true;
  return { k, mods, label: tok };
}

// pressChord sends one key or chord to the focused element: modifier
// keydowns, keydown, keypress (printable keys and Enter), the emulated
// default action, keyup, modifier keyups.
export async function pressChord({ k, mods, label }) {
  const t = deepActive();
  const state = { buffer: isTextField(t) ? t.value : '' };
  const held = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
  const modOrder = Object.keys(MOD_KEYS).filter((m) => mods[m] && !(k.modifier && MODIFIERS[k.key.toLowerCase()] === m));
  for (const m of modOrder) {
    held[m] = true;
    fireKey(t, 'keydown', named(NAMED[MOD_KEYS[m]]), held);
  }
  const down = fireKey(t, 'keydown', k, mods);
  const printable = !!k.text && !mods.ctrlKey && !mods.metaKey && !mods.altKey;
  const press = down && (printable || k.key === 'Enter') ? fireKey(t, 'keypress', k, mods) : down;
  const note = down && press ? defaultAction(t, k, mods, state) : 'the page handled the key (cancelled its default)';
  fireKey(deepActive(), 'keyup', k, mods);
  for (const m of modOrder.reverse()) {
    held[m] = false;
    fireKey(deepActive(), 'keyup', named(NAMED[MOD_KEYS[m]]), held);
  }
  return `${label} on ${describe(t)}${note ? ': ' + note : ''}`;
}

export function parseKeys(args) {
  const spec = String(args.keys ?? '').trim();
  if (!spec) fail('Missing "keys", for example "Enter", "Tab Tab Enter" or "Control+a".');
  return spec.split(/\s+/).map(parseChord);
}

export async function pressKeys(args) {
  const chords = parseKeys(args);
  const { value: notes, changes } = await observe(async () => {
    const list = [];
    for (const c of chords) list.push(await pressChord(c));
    return list;
  }, deepActive());
  return sentences(`Pressed ${notes.join('; ')}`, changes);
}
