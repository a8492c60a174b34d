// Content script part: the extract_data tool. Tables,
// lists, links, headings and form fields as JSON text.
import { clip, squash } from './text.mjs';
import {
  RESULT_CAP,
  describe,
  doc,
  fail,
  hasRef,
  intArg,
  isDisabled,
  isTextField,
  isVisible,
  nameOf,
  refOf,
  resolve,
} from './core.mjs';
import { SUBMITTERS } from './key-actions.mjs';
import { cellText } from './read.mjs';

// jsonText keeps rows of plain values on one line each, so tables stay
// readable as text while the whole stays valid JSON.
function jsonText(v, indent = '') {
  const flat = (x) =>
    x === null ||
    typeof x !== 'object' ||
    (Array.isArray(x)
      ? x.every((y) => y === null || typeof y !== 'object')
      : Object.values(x).every(
          (y) => y === null || typeof y !== 'object' || (Array.isArray(y) && y.every((z) => typeof z !== 'object')),
        ));
  if (flat(v)) return JSON.stringify(v);
  const next = indent + ' ';
  if (Array.isArray(v)) return '[\n' + v.map((x) => next + jsonText(x, next)).join(',\n') + '\n' + indent + ']';
  const entries = Object.entries(v).filter(([, x]) => x !== undefined);
  return '{\n' + entries.map(([k, x]) => next + JSON.stringify(k) + ': ' + jsonText(x, next)).join(',\n') + '\n' + indent + '}';
}

const within = (scope, sel) =>
  [...(scope.matches && scope.matches(sel) ? [scope] : []), ...scope.querySelectorAll(sel)].filter(isVisible);

function extractTables(scope, maxRows) {
  return within(scope, 'table, [role=table], [role=grid], [role=treegrid]')
    .filter((t) => !(t.rows && t.rows.length === 1 && t.rows[0].cells.length === 1))
    .slice(0, 10)
    .map((t) => {
      const rows = (t.rows ? [...t.rows] : [...t.querySelectorAll('[role=row]')]).filter(isVisible);
      const cellsOf = (r) =>
        r.cells ? [...r.cells] : [...r.querySelectorAll('[role=cell], [role=gridcell], [role=columnheader], [role=rowheader]')];
      const isHead = (r) =>
        r.parentElement?.localName === 'thead' ||
        cellsOf(r).every((c) => c.localName === 'th' || c.getAttribute('role') === 'columnheader');
      const head = rows.length > 1 && isHead(rows[0]) ? rows.shift() : null;
      return {
        name: squash(nameOf(t)) || undefined,
        ref: refOf(t) || undefined,
        columns: head ? cellsOf(head).map(cellText) : undefined,
        rows: rows.slice(0, maxRows).map((r) => cellsOf(r).map(cellText)),
        totalRows: rows.length,
      };
    });
}

function extractLists(scope, maxRows) {
  return within(scope, 'ul, ol, dl, [role=list]')
    .slice(0, 20)
    .map((l) => {
      const items =
        l.localName === 'dl'
          ? [...l.querySelectorAll(':scope > dt, :scope > div > dt')].map(
              (dt) => `${squash(dt.innerText)}: ${squash(dt.nextElementSibling?.innerText || '')}`,
            )
          : [...l.children]
              .filter((c) => (c.localName === 'li' || c.getAttribute('role') === 'listitem') && isVisible(c))
              .map((c) => clip(squash(c.innerText), 200));
      return {
        name: squash(nameOf(l)) || undefined,
        ref: refOf(l) || undefined,
        items: items.slice(0, maxRows),
        totalItems: items.length,
      };
    })
    .filter((l) => l.totalItems > 0);
}

function extractLinks(scope, maxRows) {
  const seen = new Set();
  const links = [];
  for (const a of within(scope, 'a[href]')) {
    const text = clip(squash(nameOf(a) || a.innerText), 120); // a link too long to be named is known by its text
    const key = text + '\n' + a.href;
    if (seen.has(key)) continue;
    seen.add(key);
    links.push({ text, href: a.href });
  }
  return { links: links.slice(0, maxRows), totalLinks: links.length };
}

function extractHeadings(scope, maxRows) {
  const hs = within(scope, 'h1, h2, h3, h4, h5, h6, [role=heading]').map((h) => ({
    level: Number(/^h([1-6])$/.exec(h.localName)?.[1] || h.getAttribute('aria-level') || 2),
    text: clip(squash(h.innerText), 200),
  }));
  return { headings: hs.slice(0, maxRows), totalHeadings: hs.length };
}

function fieldInfo(f) {
  const type =
    f.localName === 'input'
      ? f.type
      : f.localName === 'select'
        ? f.multiple
          ? 'select-multiple'
          : 'select'
        : f.localName === 'textarea'
          ? 'textarea'
          : f.getAttribute('role') || 'contenteditable';
  const info = { label: clip(squash(nameOf(f)), 80), type, ref: refOf(f) || undefined };
  if (f.localName === 'select') {
    info.value = [...f.selectedOptions].map((o) => o.text);
    info.options = [...f.options].slice(0, 20).map((o) => squash(o.text));
  } else if (type === 'checkbox' || type === 'radio') info.checked = f.checked;
  else if (type === 'password') info.value = f.value ? `(${f.value.length} characters, hidden)` : '';
  else if (isTextField(f) || f.localName === 'input') info.value = f.value;
  else if (f.isContentEditable) info.value = clip(squash(f.innerText), 200);
  else info.value = f.getAttribute('aria-checked') ?? f.getAttribute('aria-valuenow') ?? clip(squash(f.innerText), 80);
  if (f.required || f.getAttribute('aria-required') === 'true') info.required = true;
  if (isDisabled(f)) info.disabled = true;
  if (f.validity && !f.validity.valid && f.validationMessage) info.invalid = f.validationMessage;
  return info;
}

function extractForm(scope, maxRows) {
  const fields = within(
    scope,
    'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]), select, textarea, [contenteditable]:not([contenteditable=false]), [role=combobox], [role=checkbox], [role=switch], [role=radio], [role=textbox], [role=listbox], [role=slider], [role=spinbutton]',
  ).filter((f) => !(f.isContentEditable && f.parentElement && f.parentElement.isContentEditable));
  const groups = new Map();
  for (const f of fields.slice(0, maxRows)) {
    const form = f.form || f.closest('form');
    if (!groups.has(form)) groups.set(form, []);
    groups.get(form).push(fieldInfo(f));
  }
  const forms = [...groups].map(([form, list]) => ({
    form: form
      ? clip(squash(nameOf(form) || form.getAttribute('name') || form.id || ''), 60) || '(unnamed form)'
      : '(fields outside any form)',
    submit: form ? [...form.elements].filter(SUBMITTERS).map(describe) : undefined,
    fields: list,
  }));
  return { forms, totalFields: fields.length };
}

const EXTRACTORS = {
  table: (s, n) => ({ tables: extractTables(s, n) }),
  list: (s, n) => ({ lists: extractLists(s, n) }),
  links: extractLinks,
  headings: extractHeadings,
  form: extractForm,
};

export function extractData(args) {
  const kind = String(args.kind || '')
    .toLowerCase()
    .replace(/s$/, '')
    .replace(/^link$/, 'links')
    .replace(/^heading$/, 'headings');
  const fn = EXTRACTORS[kind];
  if (!fn) fail(`Unknown kind ${JSON.stringify(args.kind)}; use table, list, links, headings or form.`);
  const scope = hasRef(args) ? resolve(args.ref) : doc.body;
  let maxRows = intArg(args.maxRows, kind === 'links' ? 100 : 50, 1, 1000);
  for (;;) {
    const text = jsonText(fn(scope, maxRows));
    if (text.length <= RESULT_CAP || maxRows === 1) return clip(text, RESULT_CAP);
    maxRows = Math.max(1, Math.floor(maxRows / 2)); // fit the result cap with fewer rows
  }
}
