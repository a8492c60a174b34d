// Content script part: the verify_form tool. Reads back every field of a
// form (or of the page): label, type, value, state, whether it is required
// and valid, the browser's validation message, aria-invalid and the error
// text the page shows beside it. It only reads: validity comes from each
// field's validity state, never checkValidity(), which would fire
// `invalid` events the page may answer.
import { clip, squash } from './text.mjs';
import { describe, doc, hasRef, isDisabled, isVisible, nameOf, resolve } from './core.mjs';
import { SUBMITTERS } from './key-actions.mjs';

const FIELDS =
  'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]), select, textarea, ' +
  '[contenteditable]:not([contenteditable=false]), [role=combobox], [role=checkbox], [role=switch], [role=radio], [role=textbox], [role=listbox], [role=slider], [role=spinbutton]';
const ERRORISH =
  '[role=alert],[aria-live],.error,.errors,.invalid-feedback,.field-error,.form-error,[class*=error],[class*=invalid],[id*=error]';
const MAX_FIELDS = 60;
const VALUE_CHARS = 200;
const MESSAGE_CHARS = 200;

const textOf = (el) => clip(squash(el.innerText ?? el.textContent ?? ''), MESSAGE_CHARS);

function typeOf(f) {
  if (f.localName === 'input') return f.type;
  if (f.localName === 'select') return f.multiple ? 'select-multiple' : 'select';
  if (f.localName === 'textarea') return 'textarea';
  return f.getAttribute('role') || 'contenteditable';
}

// shownValue is the field's value as a person sees it; a password shows only
// its length (other secrets are masked by the background).
function shownValue(f, type) {
  if (f.localName === 'select') {
    const picked = [...f.selectedOptions].map((o) => JSON.stringify(clip(squash(o.text), 80)));
    return picked.length
      ? `${picked.join(', ')} selected (of ${f.options.length} options)`
      : `nothing selected (of ${f.options.length} options)`;
  }
  if (type === 'checkbox' || type === 'radio') return f.checked ? 'checked' : 'unchecked';
  if (type === 'password') return f.value ? `(${f.value.length} characters, hidden)` : 'empty';
  if (f.localName === 'input' || f.localName === 'textarea')
    return f.value ? JSON.stringify(clip(f.value, VALUE_CHARS)) : 'empty';
  if (f.isContentEditable) {
    const t = squash(f.innerText);
    return t ? JSON.stringify(clip(t, VALUE_CHARS)) : 'empty';
  }
  const aria = f.getAttribute('aria-checked') ?? f.getAttribute('aria-valuetext') ?? f.getAttribute('aria-valuenow');
  if (aria !== null) return aria === 'true' ? 'checked' : aria === 'false' ? 'unchecked' : JSON.stringify(aria);
  const t = squash(f.innerText);
  return t ? JSON.stringify(clip(t, VALUE_CHARS)) : 'empty';
}

function isEmpty(f, type) {
  if (type === 'checkbox' || type === 'radio') return !f.checked;
  if (f.localName === 'select' || f.localName === 'input' || f.localName === 'textarea') return !f.value;
  return !squash(f.innerText);
}

// fieldBox is the field's own container: the largest ancestor (up to
// three levels) that holds no other field, where its error text sits.
function fieldBox(f) {
  let box = f.parentElement;
  for (let i = 0; i < 3 && box && box.parentElement && box.parentElement !== doc.body; i++) {
    if (box.parentElement.querySelectorAll(FIELDS).length > 1) break;
    box = box.parentElement;
  }
  return box;
}

// pageMessages is what the page says about the field: the elements its
// aria-errormessage and aria-describedby name, and visible error text in
// its own container.
function pageMessages(f) {
  const out = [];
  const add = (t) => {
    if (t && !out.includes(t)) out.push(t);
  };
  for (const id of `${f.getAttribute('aria-errormessage') || ''} ${f.getAttribute('aria-describedby') || ''}`.split(/\s+/)) {
    const el = id && doc.getElementById(id);
    if (el && isVisible(el)) add(textOf(el));
  }
  const box = fieldBox(f);
  if (box) {
    for (const el of box.querySelectorAll(ERRORISH)) {
      if (el === f || el.contains(f) || !isVisible(el)) continue;
      add(textOf(el));
    }
  }
  return out;
}

function fieldLine(f, n) {
  const type = typeOf(f);
  const flags = [type];
  const required = f.required || f.getAttribute('aria-required') === 'true';
  if (required) flags.push('required');
  if (isDisabled(f)) flags.push('disabled');
  if (f.readOnly) flags.push('read-only');
  let line = `${n}. ${describe(f)} (${flags.join(', ')}): ${shownValue(f, type)}`;
  const problems = [];
  const browser = f.validity && !f.validity.valid ? f.validationMessage || 'invalid' : '';
  if (browser) problems.push(`the browser says ${JSON.stringify(clip(squash(browser), MESSAGE_CHARS))}`);
  if (f.getAttribute('aria-invalid') === 'true') problems.push('aria-invalid="true"');
  const said = pageMessages(f);
  if (said.length) problems.push(`the page says ${said.map((t) => JSON.stringify(t)).join('; ')}`);
  const invalid = !!browser || f.getAttribute('aria-invalid') === 'true';
  if (invalid) line += ` — INVALID: ${problems.join('; ')}`;
  else if (said.length) line += ` — valid to the browser; ${problems.join('; ')}`;
  else line += ' — valid';
  return { line, invalid, missing: required && isEmpty(f, type) };
}

function formTitle(form) {
  if (!form) return 'Fields outside any form';
  const head = form.querySelector('legend,h1,h2,h3,h4,[role=heading]');
  const name = squash(nameOf(form) || (head && head.innerText) || form.getAttribute('name') || form.id || '');
  const submit = [...form.elements].filter(SUBMITTERS).map(describe);
  return `Form ${describe(form)}${name && !nameOf(form) ? ` ${JSON.stringify(clip(name, 60))}` : ''}${submit.length ? `, submitted by ${submit.join(', ')}` : ''}`;
}

export function verifyForm(args) {
  const scope = hasRef(args) ? resolve(args.ref) : doc.body;
  const all = [...(scope.matches && scope.matches(FIELDS) ? [scope] : []), ...scope.querySelectorAll(FIELDS)].filter(
    (f) => isVisible(f) && !(f.isContentEditable && f.parentElement && f.parentElement.isContentEditable),
  );
  if (!all.length) return `No visible form fields in ${hasRef(args) ? describe(scope) : 'the page'}.`;
  const groups = new Map();
  for (const f of all.slice(0, MAX_FIELDS)) {
    const form = f.form || f.closest('form');
    if (!groups.has(form)) groups.set(form, []);
    groups.get(form).push(f);
  }
  const out = [];
  let invalid = 0,
    missing = 0,
    n = 0;
  for (const [form, fields] of groups) {
    out.push(`${formTitle(form)}:`);
    for (const f of fields) {
      const r = fieldLine(f, ++n);
      if (r.invalid) invalid++;
      if (r.missing) missing++;
      out.push(r.line);
    }
  }
  const more = all.length > MAX_FIELDS ? ` (the first ${MAX_FIELDS} are listed; pass the ref of one form for the rest)` : '';
  const head = `${all.length} field${all.length === 1 ? '' : 's'}${more}: ${invalid} invalid, ${missing} required and empty.`;
  return [head, ...out].join('\n');
}
