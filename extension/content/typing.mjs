// Content script part: typing. Text insertion into fields
// (through the native value setter) and editors, one key at a time, and
// the type_ax and type_text tools.
import { squash } from './text.mjs';
import { deepActive } from './dom.mjs';
import {
  TEXT_TYPES,
  describe,
  doc,
  fail,
  fire,
  fireInput,
  isDisabled,
  isEditable,
  isTextField,
  isVisible,
  quote,
  resolve,
  sentences,
} from './core.mjs';
import { scrollIntoViewIfNeeded } from './pointer.mjs';
import { charKey, fireKey, parseChord, pressChord } from './keys.mjs';
import { observe } from './observe.mjs';

// setNativeValue goes through the prototype's setter, so frameworks that
// shadow `value` on the node (React's value tracker) see a real change.
export function setNativeValue(el, value) {
  const proto =
    el.localName === 'textarea'
      ? HTMLTextAreaElement.prototype
      : el.localName === 'select'
        ? HTMLSelectElement.prototype
        : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
}

export function selectionOf(el) {
  try {
    if (typeof el.selectionStart === 'number') return [el.selectionStart, el.selectionEnd];
  } catch {
    /* types without selection (email, number) */
  }
  return null;
}

// insertIntoField inserts like the browser's own text insertion: at the
// caret, respecting maxlength, with beforeinput/input around it.
function insertIntoField(el, text, state) {
  const sel = selectionOf(el);
  const value = sel ? el.value : state.buffer;
  const [s, e] = sel || [value.length, value.length];
  if (el.maxLength >= 0 && value.length - (e - s) + text.length > el.maxLength) {
    state.rejected = true;
    return;
  }
  const inputType = text === '\n' ? 'insertLineBreak' : 'insertText';
  if (!fireInput(el, 'beforeinput', inputType, text)) return;
  const next = value.slice(0, s) + text + value.slice(e);
  setNativeValue(el, next);
  state.buffer = next;
  if (sel)
    try {
      el.setSelectionRange(s + text.length, s + text.length);
    } catch {
      /* not selectable */
    }
  fireInput(el, 'input', inputType, text);
}

// editingHost is the contenteditable root that takes focus for el.
export function editingHost(el) {
  let h = el;
  while (h.isContentEditable && h.parentElement && h.parentElement.isContentEditable) h = h.parentElement;
  return h;
}

function caretIn(el) {
  const sel = el.ownerDocument.getSelection();
  if (sel.rangeCount && el.contains(sel.anchorNode)) return sel;
  const r = el.ownerDocument.createRange();
  r.selectNodeContents(el);
  r.collapse(false);
  sel.removeAllRanges();
  sel.addRange(r);
  return sel;
}

// insertIntoEditable sends beforeinput first: editors that handle it
// (Slate, Lexical) cancel it and insert themselves. Otherwise execCommand
// edits the DOM the way typing does and fires input, which the rest
// (ProseMirror, Draft, plain contenteditable) pick up.
function insertIntoEditable(el, text) {
  const sel = caretIn(el);
  const paragraph = text === '\n';
  const inputType = paragraph ? 'insertParagraph' : 'insertText';
  if (!fireInput(el, 'beforeinput', inputType, paragraph ? null : text)) return;
  const edoc = el.ownerDocument;
  if (edoc.execCommand(paragraph ? 'insertParagraph' : 'insertText', false, paragraph ? null : text)) return;
  const r = sel.getRangeAt(0);
  r.deleteContents();
  const node = edoc.createTextNode(text);
  r.insertNode(node);
  r.setStartAfter(node);
  r.collapse(true);
  sel.removeAllRanges();
  sel.addRange(r);
  fireInput(el, 'input', inputType, paragraph ? null : text);
}

export function insertText(el, text, state) {
  if (el.isContentEditable) insertIntoEditable(el, text);
  else insertIntoField(el, text, state);
}

export function clearField(el, state) {
  if (el.isContentEditable) {
    if (!squash(el.textContent)) return;
    const sel = el.ownerDocument.getSelection();
    const r = el.ownerDocument.createRange();
    r.selectNodeContents(el);
    sel.removeAllRanges();
    sel.addRange(r);
    if (!fireInput(el, 'beforeinput', 'deleteContentBackward')) return;
    if (!el.ownerDocument.execCommand('delete', false)) {
      r.deleteContents();
      fireInput(el, 'input', 'deleteContentBackward');
    }
    return;
  }
  state.buffer = '';
  if (el.value === '') return;
  if (!fireInput(el, 'beforeinput', 'deleteContentBackward')) return;
  setNativeValue(el, '');
  fireInput(el, 'input', 'deleteContentBackward');
}

// focusField focuses the field typing goes into. Text appended to a
// field that did not have focus goes at its end (focus alone may put the
// caret at the start); a focused field keeps its caret.
export function focusField(el, clear) {
  const host = editingHost(el);
  if (deepActive() === host) return;
  host.focus({ preventScroll: true });
  if (clear) return;
  if (el.isContentEditable) {
    const sel = el.ownerDocument.getSelection();
    sel.selectAllChildren(el);
    sel.collapseToEnd();
  } else {
    placeCaret(el, el.value.length);
  }
}

export function placeCaret(el, at) {
  try {
    el.setSelectionRange(at, at);
  } catch {
    /* types without selection (email, number) */
  }
}

// typeInto types text one key at a time so keydown/keypress/keyup listeners
// see every character; a key whose keydown or keypress the page cancels
// inserts nothing, as in a browser.
export async function typeInto(el, text, { clear }) {
  focusField(el, clear);
  const state = { buffer: isTextField(el) ? el.value : '', rejected: false };
  const start = isTextField(el) ? el.value : '';
  if (clear) clearField(el, state);
  const single = el.localName === 'input';
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    if (ch === '\n' && single) {
      await pressChord(parseChord('Enter'));
      continue;
    }
    const k = charKey(ch);
    const mods = { shiftKey: !!k.shift };
    const keyK = ch === '\n' ? { ...k, text: '\n' } : k;
    if (fireKey(el, 'keydown', keyK, mods) && fireKey(el, 'keypress', keyK, mods)) insertText(el, ch, state);
    fireKey(el, 'keyup', keyK, mods);
  }
  if (isTextField(el) && el.value !== start) fire(el, 'change');
  return state;
}

export function fieldValueText(el) {
  if (el.isContentEditable) return squash(el.innerText);
  if (el.type === 'password') return `(${el.value.length} characters, hidden)`;
  return el.value;
}

// editableOf finds the text entry a ref stands for: the element, the
// control of a label, or the one text entry inside a wrapper (a web
// component's open shadow root included).
function editableOf(el) {
  if (isEditable(el)) return el;
  if (el.localName === 'label' && el.control) return isEditable(el.control) ? el.control : null;
  const inner = [el, el.shadowRoot]
    .filter(Boolean)
    .flatMap((r) => [...r.querySelectorAll('input, textarea, [contenteditable]:not([contenteditable=false])')])
    .filter((e) => isEditable(e) && isVisible(e));
  return inner.length === 1 ? inner[0] : null;
}

// ---------------------------------------------------------- typing tools

// typeStart checks the field and notes what it holds before typing and
// what it should hold after: the text replaces the selection of a focused
// field, else goes at the end (focusField).
export function typeStart(el, text, { clear, submit }, what) {
  if (isDisabled(el) || el.readOnly) fail(`${what} is ${el.readOnly ? 'read-only' : 'disabled'}; it does not accept text.`);
  const original = fieldRaw(el);
  const at = !clear && isTextField(el) && deepActive() === el ? selectionOf(el) : null;
  const expected = clear ? text : at ? original.slice(0, at[0]) + text + original.slice(at[1]) : original + text;
  return { el, text, submit, what, original, expected, at };
}

export const fieldRaw = (el) => (el.isContentEditable ? squash(el.innerText) : el.value);

// typeResult says what the field holds after typing, or fails when the
// text did not land.
export function typeResult({ el, text, submit, what, original, expected }, state, changes) {
  const now = fieldRaw(el);
  // A field that reformats what it gets (a phone mask) still took the text;
  // one left empty or as it was (a framework restoring its state) did not.
  const landed = el.isContentEditable
    ? now.includes(squash(text))
    : !text || state.rejected || now === expected || (now !== original && now !== '');
  if (!landed && el.isConnected && !submit) {
    fail(
      `Typed into ${what}, but the text did not land: it now holds ${quote(fieldValueText(el), 200)}. ` +
        'The page may use a custom editor; click it with click_ax first, then use type_text.',
    );
  }
  let res = `Typed ${el.type === 'password' ? `${text.length} characters` : quote(text, 200)} into ${what}`;
  if (el.isConnected) res += `; it now holds ${el.type === 'password' ? fieldValueText(el) : quote(now, 300)}`;
  if (state.rejected) res += ` (some characters were refused: maxlength ${el.maxLength})`;
  else if (el.isConnected && !el.isContentEditable && !submit && now !== expected)
    res += ' (the page reformatted or changed the text)';
  if (state.submitNote) res += `. Pressed ${state.submitNote}`;
  return sentences(res, changes);
}

async function typeAndReport(el, text, { clear, submit }, what) {
  const start = typeStart(el, text, { clear, submit }, what);
  const { value: state, changes } = await observe(
    async () => {
      const st = await typeInto(el, text, { clear });
      if (submit) st.submitNote = await pressChord(parseChord('Enter'));
      return st;
    },
    el,
    { reportSubject: false },
  );
  return typeResult(start, state, changes);
}

// typeAxField finds and scrolls to the field type_ax types into.
export function typeAxField(args) {
  const el0 = resolve(args.ref);
  const el = editableOf(el0);
  if (!el) {
    const hint =
      el0.localName === 'select' || (el0.localName === 'input' && !TEXT_TYPES.has(el0.type))
        ? ' Use set_field for this control.'
        : '';
    fail(`${describe(el0)} is not a text field or editable area.${hint}`);
  }
  if (args.text === undefined || args.text === null) fail('Missing "text" to type.');
  scrollIntoViewIfNeeded(el);
  return el;
}

export async function typeAx(args) {
  const el = typeAxField(args);
  return typeAndReport(el, String(args.text), { clear: args.clear !== false, submit: !!args.submit }, describe(el));
}

// focusedField is the element type_text types into.
export function focusedField(args) {
  if (args.text === undefined || args.text === null) fail('Missing "text" to type.');
  const a = deepActive();
  if (!isEditable(a)) {
    fail(
      `The focused element is ${a === doc.body ? 'the page itself' : describe(a)}, which does not take text. ` +
        'Click a text field first (click_ax) or use type_ax with its ref.',
    );
  }
  return a;
}

export async function typeText(args) {
  const a = focusedField(args);
  return typeAndReport(a, String(args.text), { clear: false, submit: false }, describe(a));
}
