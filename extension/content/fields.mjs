// Content script part: the set_field tool. Selects,
// checkboxes and radios, value inputs (date, color, range...), text
// fields and ARIA comboboxes and listboxes.
import { squash } from './text.mjs';
import {
  FORMATS,
  VALUE_TYPES,
  describe,
  doc,
  fail,
  fire,
  isDisabled,
  isEditable,
  isVisible,
  quote,
  resolve,
  sentences,
  sleep,
} from './core.mjs';
import { clickAt, clickPoint, clickableFor, scrollIntoViewIfNeeded } from './pointer.mjs';
import { clearField, fieldValueText, insertText, setNativeValue, typeInto } from './typing.mjs';
import { observe } from './observe.mjs';

function findOption(options, wanted) {
  const w = squash(wanted).toLowerCase();
  const text = (o) => squash(o.text).toLowerCase();
  return (
    options.find((o) => o.value === wanted) ||
    options.find((o) => text(o) === w) ||
    options.find((o) => squash(o.label).toLowerCase() === w || o.value.toLowerCase() === w) ||
    (() => {
      const c = options.filter((o) => text(o).includes(w));
      return c.length === 1 ? c[0] : null;
    })()
  );
}

const optionList = (opts) =>
  opts
    .slice(0, 25)
    .map((o) => `${quote(o.text, 40)}${o.value !== o.text ? ` (value ${quote(o.value, 30)})` : ''}`)
    .join(', ') + (opts.length > 25 ? `, … (${opts.length} in all)` : '');

function wantedValues(args) {
  if (Array.isArray(args.values)) return args.values.map(String);
  if (Array.isArray(args.value)) return args.value.map(String);
  if (args.value !== undefined && args.value !== null) return [String(args.value)];
  return null;
}

function selectState(sel) {
  const chosen = [...sel.selectedOptions];
  if (!chosen.length) return 'nothing selected';
  return chosen.map((o) => `${quote(o.text)}${o.value !== o.text ? ` (value ${quote(o.value, 40)})` : ''}`).join(', ');
}

export async function setSelect(sel, args) {
  const wanted = wantedValues(args);
  if (!wanted) fail(`Pass "value" (option text or value)${sel.multiple ? ' or "values" (a list)' : ''} for ${describe(sel)}.`);
  if (!sel.multiple && wanted.length !== 1) fail(`${describe(sel)} takes one value; it is not a multiple select.`);
  if (isDisabled(sel)) fail(`${describe(sel)} is disabled.`);
  const opts = [...sel.options];
  const picked = wanted.map((w) => {
    const o = findOption(opts, w);
    if (!o) fail(`${describe(sel)} has no option ${quote(w)}. Options: ${optionList(opts)}.`);
    if (o.disabled) fail(`Option ${quote(o.text)} of ${describe(sel)} is disabled.`);
    return o;
  });
  const { changes } = await observe(
    () => {
      sel.focus({ preventScroll: true });
      if (sel.multiple) for (const o of opts) o.selected = picked.includes(o);
      else Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'selectedIndex').set.call(sel, picked[0].index);
      fire(sel, 'input');
      fire(sel, 'change');
    },
    sel,
    { reportSubject: false },
  );
  return sentences(`${describe(sel)} now: ${selectState(sel)}`, changes);
}

function wantedChecked(args) {
  if (typeof args.checked === 'boolean') return args.checked;
  const v = squash(args.checked ?? args.value).toLowerCase();
  if (['true', 'yes', 'on', 'checked', '1'].includes(v)) return true;
  if (['false', 'no', 'off', 'unchecked', '0'].includes(v)) return false;
  return null;
}

// Checkboxes and radios are clicked, never assigned, so the page's own
// handlers run as they would for a person.
async function setChecked(el, args, isAria) {
  let want = wantedChecked(args);
  const role = isAria ? el.getAttribute('role') : el.type;
  if (want === null) {
    if (role === 'radio' && args.checked === undefined && args.value === undefined) want = true;
    else fail(`Pass "checked": true or false for ${describe(el)}.`);
  }
  const now = () => (isAria ? el.getAttribute('aria-checked') === 'true' : el.checked);
  if (role === 'radio' && !want)
    fail(`${describe(el)} is a radio button; it cannot be unchecked directly. Choose another option of its group.`);
  if (isDisabled(el)) fail(`${describe(el)} is disabled.`);
  if (now() === want) return `${describe(el)} is already ${want ? 'checked' : 'unchecked'}; nothing to do.`;
  const target = clickableFor(el);
  scrollIntoViewIfNeeded(target);
  const p = clickPoint(target) || { x: 0, y: 0 };
  const { changes } = await observe(() => clickAt(target, p.x, p.y), el, { reportSubject: false });
  if (now() !== want)
    fail(
      sentences(
        `Clicked ${describe(el)}, but it is still ${want ? 'unchecked' : 'checked'}: the page reverted it or handles it elsewhere`,
        changes,
      ),
    );
  return sentences(`${describe(el)} is now ${want ? 'checked' : 'unchecked'}`, changes);
}

async function setValueInput(el, args) {
  if (Array.isArray(args.values) || args.value === undefined || args.value === null)
    fail(`Pass "value" in the format ${FORMATS[el.type]} for ${describe(el)}.`);
  if (isDisabled(el) || el.readOnly) fail(`${describe(el)} is ${el.readOnly ? 'read-only' : 'disabled'}.`);
  const v = String(args.value).trim();
  const { changes } = await observe(
    () => {
      el.focus({ preventScroll: true });
      setNativeValue(el, el.type === 'color' ? v.toLowerCase() : v);
      fire(el, 'input');
      fire(el, 'change');
    },
    el,
    { reportSubject: false },
  );
  if (v !== '' && el.value === '') fail(`${quote(v)} is not a valid ${el.type} value; use the format ${FORMATS[el.type]}.`);
  let res = `${describe(el)} is now ${quote(el.value)}`;
  if (el.type === 'range' && el.value !== v)
    res += ` (adjusted to the slider's min ${el.min || 0}, max ${el.max || 100}, step ${el.step || 1})`;
  if (!el.validity.valid) res += ` but the page marks it invalid: ${el.validationMessage}`;
  return sentences(res, changes);
}

async function setTextValue(el, args) {
  const wanted = wantedValues(args);
  if (!wanted || wanted.length !== 1) fail(`Pass "value" (the text) for ${describe(el)}.`);
  if (isDisabled(el) || el.readOnly) fail(`${describe(el)} is ${el.readOnly ? 'read-only' : 'disabled'}.`);
  const v = wanted[0];
  const { changes } = await observe(
    () => {
      el.focus({ preventScroll: true });
      const state = { buffer: '' };
      clearField(el, state);
      if (v) insertText(el, v, state);
      if (!el.isContentEditable) fire(el, 'change');
    },
    el,
    { reportSubject: false },
  );
  return sentences(
    `${describe(el)} now holds ${el.type === 'password' ? fieldValueText(el) : quote(fieldValueText(el), 300)}`,
    changes,
  );
}

function popupOptions(owner) {
  const ids = `${owner.getAttribute('aria-controls') || ''} ${owner.getAttribute('aria-owns') || ''}`
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const lists = ids.map((i) => doc.getElementById(i)).filter(Boolean);
  if (owner.getAttribute('role') === 'listbox') lists.push(owner);
  if (!lists.length) lists.push(...[...doc.querySelectorAll('[role=listbox]')].filter(isVisible));
  return lists.flatMap((l) => [...l.querySelectorAll('[role=option]')]).filter(isVisible);
}

async function waitForOptions(owner, ms) {
  const end = performance.now() + ms;
  for (;;) {
    const opts = popupOptions(owner);
    if (opts.length || performance.now() > end) return opts;
    await sleep(50);
  }
}

function matchOption(opts, wanted) {
  const w = squash(wanted).toLowerCase();
  const t = (o) => squash(o.innerText || o.textContent).toLowerCase();
  return (
    opts.find((o) => t(o) === w) ||
    opts.find((o) => (o.getAttribute('data-value') || '').toLowerCase() === w) ||
    (() => {
      const c = opts.filter((o) => t(o).includes(w));
      return c.length === 1 ? c[0] : null;
    })()
  );
}

async function pickOption(owner, opt) {
  scrollIntoViewIfNeeded(opt);
  const p = clickPoint(opt) || { x: 0, y: 0 };
  return (await observe(() => clickAt(opt, p.x, p.y), owner, { reportSubject: false })).changes;
}

// ARIA comboboxes and listboxes: open or type, then click the option whose
// text matches, as a person would.
async function setAriaChoice(el, args) {
  const wanted = wantedValues(args);
  if (!wanted) fail(`Pass "value" (the option's text) for ${describe(el)}.`);
  if (isDisabled(el)) fail(`${describe(el)} is disabled.`);
  const isList = el.getAttribute('role') === 'listbox';
  const notes = [];
  for (const w of wanted) {
    if (!isList) {
      if (isEditable(el)) await typeInto(el, w, { clear: true });
      else if (el.getAttribute('aria-expanded') !== 'true') {
        const p = clickPoint(el) || { x: 0, y: 0 };
        clickAt(el, p.x, p.y);
      }
    }
    const opts = await waitForOptions(el, 1500);
    const opt = matchOption(opts, w);
    if (!opt) {
      fail(
        `No option ${quote(w)} appeared for ${describe(el)}. ` +
          (opts.length
            ? `Visible options: ${opts
                .slice(0, 20)
                .map((o) => quote(o.innerText || o.textContent, 40))
                .join(', ')}.`
            : 'No options are visible; open it with click_ax and read the tree.'),
      );
    }
    // A listbox option already selected is left alone: clicking it again
    // would deselect it in a multi-select list (set, never toggle).
    notes.push(isList && opt.getAttribute('aria-selected') === 'true' ? '' : await pickOption(el, opt));
  }
  const shown = isEditable(el) ? fieldValueText(el) : squash(el.innerText || el.getAttribute('aria-label') || '');
  const chosen = isList
    ? [...el.querySelectorAll('[role=option][aria-selected=true]')].map((o) => quote(o.textContent, 40)).join(', ')
    : quote(shown, 120);
  return sentences(`${describe(el)} now: ${chosen || 'nothing selected'}`, notes[notes.length - 1]);
}

export async function setField(args) {
  const el0 = resolve(args.ref);
  let el = el0.localName === 'label' && el0.control ? el0.control : el0;
  if (!['input', 'select', 'textarea'].includes(el.localName) && !el.getAttribute('role') && !el.isContentEditable) {
    const inner = [...el.querySelectorAll('input:not([type=hidden]), select, textarea')];
    if (inner.length === 1) el = inner[0];
  }
  const role = el.getAttribute('role');
  if (el.localName === 'select') return setSelect(el, args);
  if (el.localName === 'input') {
    if (el.type === 'checkbox' || el.type === 'radio') return setChecked(el, args, false);
    if (VALUE_TYPES.has(el.type)) return setValueInput(el, args);
    if (el.type === 'file') fail(`${describe(el)} is a file input; a page script cannot choose files for it.`);
    if (['button', 'submit', 'reset', 'image', 'hidden'].includes(el.type))
      fail(`${describe(el)} is a button, not a field; use click_ax.`);
    if (role !== 'combobox') return setTextValue(el, args);
  }
  if (['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio'].includes(role)) return setChecked(el, args, true);
  if (role === 'combobox' || role === 'listbox') return setAriaChoice(el, args);
  if (el.localName === 'textarea' || el.isContentEditable) return setTextValue(el, args);
  fail(`${describe(el0)} is not a form field set_field can change; use click_ax or type_ax.`);
}
