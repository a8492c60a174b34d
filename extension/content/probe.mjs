// Content script part: what the action gate sees before a
// page action is sent (wb_probe) and the links the page visibly shows
// (wb_links). Both only read the page; the background's guard decides
// (docs/decisions/action-gate.md). The probe never runs the action and changes nothing.
import { clip, squash } from './text.mjs';
import { deepActive } from './dom.mjs';
import { doc, fail, hasRef, isEditable, isEl, isTextField, isVisible, lineRole, nameOf, resolve } from './core.mjs';
import { pointTarget } from './pointer.mjs';
import { editingHost } from './typing.mjs';

const PROBE_TEXT = 400; // captions and values
const PROBE_RECORD = 2000; // the bounded container of the item acted on
const PROBE_FIELDS = 40;
const ACTIONABLE =
  'a[href],area[href],button,input,select,textarea,summary,label,[role=button],[role=link],' +
  '[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=tab],[role=option],[role=switch],[role=checkbox],[role=radio]';
const RECORD = 'tr,li,article,[role=row],[role=listitem],[role=article],[role=gridcell]';
const DIALOG = 'dialog,[role=dialog],[role=alertdialog]';

const textOf = (el, n) => clip(squash(el ? (el.innerText ?? el.textContent) : ''), n);
const attr = (el, a) => clip(squash(el.getAttribute(a) || ''), PROBE_TEXT);

// actionable is the element a click on el operates: the link or button
// around an icon, a label's control.
function actionable(el) {
  const a = el.closest(ACTIONABLE) || el;
  if (a.localName === 'label' && a.control) return a.control;
  return a;
}

const fieldLabel = (f) => clip(squash(nameOf(f)), 120);

function fieldValue(f) {
  const t = (f.type || '').toLowerCase();
  if (t === 'password') return f.value ? '(hidden)' : '';
  if (t === 'checkbox' || t === 'radio') return f.checked ? f.value || 'on' : '';
  if (f.localName === 'select') return [...f.selectedOptions].map((o) => squash(o.text)).join(', ');
  if (f.isContentEditable) return textOf(f, PROBE_TEXT);
  return clip(String(f.value ?? ''), PROBE_TEXT);
}

function formFields(form) {
  const out = [];
  for (const f of form.elements) {
    if (out.length >= PROBE_FIELDS) break;
    const t = (f.type || f.localName || '').toLowerCase();
    if (['submit', 'button', 'reset', 'image', 'fieldset', 'object', 'output'].includes(t)) continue;
    out.push({ name: f.name || f.id || '', label: fieldLabel(f), type: t, value: fieldValue(f) });
  }
  // Rich-text composers are not form elements but are sent with the form.
  for (const e of form.querySelectorAll('[contenteditable=""],[contenteditable=true]')) {
    if (out.length >= PROBE_FIELDS) break;
    if (e.parentElement && e.parentElement.isContentEditable) continue;
    out.push({ name: e.id || '', label: fieldLabel(e), type: 'richtext', value: fieldValue(e) });
  }
  return out;
}

// formName is the form's accessible name, else its heading, name or id.
function formName(form) {
  const head = form.querySelector('legend,h1,h2,h3,h4,[role=heading]');
  return clip(
    squash(nameOf(form) || (head && (head.innerText || head.textContent)) || form.getAttribute('name') || form.id || ''),
    120,
  );
}

const BUTTONS = 'button,[role=button],input[type=submit],input[type=button],input[type=image],a[href]';
const FIELDS =
  'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=image]):not([type=reset]),' +
  'textarea,select,[contenteditable=""],[contenteditable=true]';
const STOP = 'main,nav,header,footer,aside,[role=main],[role=navigation],body';

// recordOf is the element holding the item an action is about: the
// largest ancestor in which the control is the only button or link (a
// row, card or list item; a grid of cards is not one item), within the
// bound and below landmarks.
function recordOf(el) {
  let best = null;
  for (let a = el.parentElement; a && a !== doc.body; a = a.parentElement) {
    if (a.matches(STOP)) break;
    if ([...a.querySelectorAll(BUTTONS)].some((b) => b !== el && !el.contains(b) && !b.contains(el) && isVisible(b))) break;
    if (textOf(a, PROBE_RECORD + 1).length > PROBE_RECORD) break;
    best = a;
    if (a.matches(RECORD + ',form,' + DIALOG)) break;
  }
  return best;
}

function headingOf(rec) {
  const h = rec && rec.querySelector('h1,h2,h3,h4,h5,h6,[role=heading],legend,caption,strong,b');
  return h ? textOf(h, 200) : '';
}

// pseudoForm is where the fields a script-driven control sends live when
// there is no <form>: the nearest ancestor holding fields, below
// landmarks.
function pseudoForm(el) {
  for (let a = el.parentElement; a && a !== doc.body; a = a.parentElement) {
    if (a.matches(STOP)) return null;
    if (a.querySelector(FIELDS)) return a;
  }
  return null;
}

function looseFields(box) {
  const out = [];
  for (const f of box.querySelectorAll(FIELDS)) {
    if (out.length >= PROBE_FIELDS) break;
    if (f.isContentEditable && f.parentElement && f.parentElement.isContentEditable) continue;
    out.push({
      name: f.name || f.id || '',
      label: fieldLabel(f),
      type: f.isContentEditable ? 'richtext' : (f.type || f.localName || '').toLowerCase(),
      value: fieldValue(f),
    });
  }
  return out;
}

function formOf(el) {
  return el.form || el.closest('form');
}

function absHref(el) {
  if (!el.hasAttribute || !el.hasAttribute('href')) return '';
  try {
    return new URL(el.getAttribute('href'), el.baseURI).href;
  } catch {
    return '';
  }
}

function controlOf(el, tool) {
  const form = formOf(el);
  const tag = el.localName;
  let type = (el.getAttribute('type') || '').toLowerCase();
  if (tag === 'button' && !type) type = form ? 'submit' : 'button';
  if (tag === 'input' && !type) type = 'text';
  const dlg = el.closest(DIALOG);
  const rec = recordOf(el);
  // A button that opens a menu or popup only opens it (the classifier's
  // "popupbutton", as Chrome's computed role names it).
  const popup = (el.getAttribute('aria-haspopup') || 'false') !== 'false' && /^(button|a|div|span)$/.test(tag);
  const c = {
    tool,
    tag,
    role: popup ? 'popupbutton' : lineRole(el),
    type,
    name: clip(squash(nameOf(el)), PROBE_TEXT),
    text: textOf(el, PROBE_TEXT),
    title: attr(el, 'title'),
    ariaLabel: attr(el, 'aria-label'),
    value: tag === 'input' && ['submit', 'button', 'reset', 'image'].includes(type) ? clip(squash(el.value), PROBE_TEXT) : '',
    href: absHref(el),
    inForm: !!form,
    record: rec ? textOf(rec, PROBE_RECORD) : '',
    heading: headingOf(rec),
    dialog: dlg ? textOf(dlg, 600) : '',
    pageUrl: location.href,
    pageTitle: clip(squash(doc.title), 200),
    editable: isEditable(el),
    multiline: tag === 'textarea' || !!el.isContentEditable,
    placeholder: attr(el, 'placeholder'),
  };
  if (form) {
    c.formAction = form.action || location.href;
    c.formMethod = (form.getAttribute('method') || 'get').toLowerCase();
    c.formFields = formFields(form);
    c.formName = formName(form);
    c.chips = chipsIn(form);
  } else if (!el.isContentEditable && !isTextField(el)) {
    const box = pseudoForm(el);
    if (box) {
      c.formFields = looseFields(box);
      c.chips = chipsIn(box);
    }
  }
  return c;
}

// defaultSubmit is the control Enter in a form's field activates.
function defaultSubmit(form) {
  return (
    [...form.querySelectorAll('button,input[type=submit],input[type=image]')].find(
      (b) => (b.localName !== 'button' || (b.getAttribute('type') || 'submit').toLowerCase() === 'submit') && !b.disabled,
    ) || null
  );
}

// Headings that name a conversation sit above its composer, outside the
// message list, the sidebar and any message or row.
const HEADING = 'h1,h2,h3,h4,[role=heading]';
const NOT_HEADER =
  '[role=log],[role=list],[role=listitem],[role=feed],[role=row],[role=grid],article,[role=article],nav,[role=navigation],aside,ul,ol';
// The conversation list of a chat app: its region ends the conversation's.
const RAIL = 'nav,[role=navigation],aside';
const COMPOSER = '[contenteditable=true],textarea,[role=textbox]';
const SELECTED = '[aria-current=page],[aria-current=true],[aria-selected=true]';

// conversationOf names the conversation a control or composer sends into,
// for the recipient check of messaging sites: the distinct texts of the
// visible headings before it in the nearest container that has any, below
// the container that also holds the conversation list; else the longest
// selected conversation-list entry that the composer's own label names
// ("Message #general"). Several names mean the evidence is ambiguous;
// none, that it is missing. Message text, input values and list rows are
// never read as a name.
function conversationOf(el) {
  for (let box = el.parentElement; box && box !== doc.documentElement; box = box.parentElement) {
    if (box.querySelector(RAIL)) break; // past the conversation's own region
    const names = new Set();
    for (const h of box.querySelectorAll(HEADING)) {
      if (!(h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) || h.contains(el)) continue;
      if (!isVisible(h) || h.closest(NOT_HEADER)) continue;
      const t = textOf(h, 120);
      if (t) names.add(t);
    }
    if (names.size > 0) return [...names].slice(0, 4);
  }
  const rail = selectedInLabel(el);
  return rail ? [rail] : [];
}

// nearComposer reports whether a control that is not itself a field sits
// beside a message box: within the few containers around it, not across
// the conversation list.
function nearComposer(el) {
  if (isEditable(el)) return false;
  let box = el.parentElement;
  for (let i = 0; i < 2 && box && box !== doc.body && !box.matches(RAIL); i++, box = box.parentElement) {
    if ([...box.querySelectorAll(COMPOSER)].some((f) => f !== el && isVisible(f))) return true;
  }
  return false;
}

// selectedInLabel is the longest text of a selected entry that the label
// of the composer around el contains, or ''.
function selectedInLabel(el) {
  let composer = el.matches(COMPOSER) ? el : null;
  for (let box = el.parentElement; !composer && box && box !== doc.body; box = box.parentElement) {
    if (box.matches(RAIL)) break;
    composer = box.querySelector(COMPOSER);
  }
  const label = composer ? squash(nameOf(composer) || composer.getAttribute('placeholder') || '').toLowerCase() : '';
  let best = '';
  if (!label) return best;
  for (const item of doc.querySelectorAll(SELECTED)) {
    const t = textOf(item, 120);
    if (t.length > best.length && isVisible(item) && label.includes(t.toLowerCase())) best = t;
  }
  return best;
}

// Address chips: a mail composer shows each recipient as a chip outside
// any field. A chip is an element that carries an address in the
// attributes mail apps give it, or an option, list item or button whose
// label, title or text holds one; what a field or a message body holds is
// not a chip. Each reports the row it sits in: the one text field of the
// nearest container that has one, and the label of that row (an element
// labelled between the chip and the row, else the row's own <label>).
const CHIP =
  '[email],[data-hovercard-id],[data-email],[data-address],[role=option],[role=listitem],[role=button],[role=gridcell]';
const CHIP_ATTRS = ['email', 'data-hovercard-id', 'data-email', 'data-address'];
const ADDRESS = /[^\s<>()"',;:@]+@[^\s<>()"',;:@]+\.[a-z]{2,}/i;
const ROW_FIELD =
  'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=image]):not([type=reset]):not([type=checkbox]):not([type=radio])';
const MAX_CHIPS = 20;
const MESSAGE_CONTEXT = '[role=log],[role=feed],article,[role=article],[role=row]';

function chipAddress(el) {
  for (const a of CHIP_ATTRS) {
    const m = (el.getAttribute(a) || '').match(ADDRESS);
    if (m) return m[0];
  }
  for (const t of [el.getAttribute('aria-label'), el.getAttribute('title'), textOf(el, 300)]) {
    const m = (t || '').match(ADDRESS);
    if (m) return m[0];
  }
  return '';
}

// chipRow is the row a chip sits in, or null when the nearest container
// holding a field also holds a message box (the chip would be a name in a
// message or a thread, not a recipient row's).
function chipRow(chip, box) {
  let row = null;
  for (let a = chip.parentElement; a && box.contains(a); a = a.parentElement) {
    if (a.querySelector(ROW_FIELD)) {
      row = a;
      break;
    }
    if (a === box) break;
  }
  if (!row || row.querySelector(COMPOSER)) return null;
  let label = '';
  for (let a = chip.parentElement; a && row.contains(a); a = a.parentElement) {
    if (a.hasAttribute('aria-label') || a.hasAttribute('aria-labelledby')) {
      label = clip(squash(nameOf(a)), 120);
      if (label) break;
    }
    if (a === row) break;
  }
  if (!label) {
    const l = row.querySelector('label');
    if (l) label = textOf(l, 120);
  }
  const field = row.querySelector(ROW_FIELD);
  return {
    row: label,
    fieldName: field.name || field.id || '',
    fieldLabel: fieldLabel(field),
    fieldType: (field.type || '').toLowerCase(),
  };
}

function chipsIn(box) {
  const out = [];
  const seen = new Set();
  for (const el of box.querySelectorAll(CHIP)) {
    if (out.length >= MAX_CHIPS) break;
    if (isEditable(el) || el.closest('textarea,[contenteditable=""],[contenteditable=true],' + MESSAGE_CONTEXT)) continue;
    const address = isVisible(el) ? chipAddress(el) : '';
    if (!address || seen.has(address.toLowerCase())) continue;
    const row = chipRow(el, box);
    if (!row) continue;
    seen.add(address.toLowerCase());
    out.push({ address, label: clip(squash(nameOf(el) || textOf(el, 120)), 120), ...row });
  }
  return out;
}

// The chat observation of a protected messaging route (the guard's
// chat.go): the body the message box holds and the conversation's last
// message rows, each with its label, its text, what the page's structure
// says of its author (WhatsApp marks outgoing and incoming rows) and the
// label of its status mark. No word of the page is interpreted here.
const MESSAGE_ROW = '[role=row],[role=listitem],[role=article],article,li';
const MAX_MESSAGES = 15;

function composerFor(el) {
  if (isEditable(el)) return editingHost(el);
  for (let box = el.parentElement; box && box !== doc.body; box = box.parentElement) {
    if (box.matches(RAIL)) break;
    const c = [...box.querySelectorAll(COMPOSER)].find((f) => f !== el && isVisible(f));
    if (c) return c;
  }
  return null;
}

function messageLabel(row) {
  const own = attr(row, 'aria-label');
  if (own) return clip(own, 200);
  for (const e of row.querySelectorAll('[aria-label]')) {
    if (e.matches('button,a,[role=button],[role=link],img,svg,[role=img]')) continue;
    if (textOf(e, 1)) return clip(attr(e, 'aria-label'), 200);
  }
  return '';
}

function messageStatus(row) {
  let status = '';
  for (const e of row.querySelectorAll('[aria-label],[title]')) {
    if (e.matches('button,a,[role=button],[role=link]') || textOf(e, 1)) continue;
    status = attr(e, 'aria-label') || attr(e, 'title') || status;
  }
  return clip(status, 80);
}

function messageSide(row) {
  if (row.matches('.message-out') || row.querySelector('.message-out') || row.closest('.message-out')) return 'self';
  if (row.matches('.message-in') || row.querySelector('.message-in') || row.closest('.message-in')) return 'other';
  return '';
}

function chatOf(el) {
  const composer = composerFor(el);
  if (!composer) return { body: '', messages: [] };
  let region = composer.parentElement;
  while (region && region.parentElement && region !== doc.body && !region.parentElement.querySelector(RAIL))
    region = region.parentElement;
  const rows = [];
  for (const r of (region || doc.body).querySelectorAll(MESSAGE_ROW)) {
    if (r.contains(composer) || r.closest(RAIL) || (r.parentElement && r.parentElement.closest(MESSAGE_ROW))) continue;
    if (isVisible(r)) rows.push(r);
  }
  const messages = rows.slice(-MAX_MESSAGES).map((r) => ({
    label: messageLabel(r),
    text: textOf(r, PROBE_TEXT),
    side: messageSide(r),
    status: messageStatus(r),
  }));
  return { body: fieldValue(composer), messages };
}

// openConversation names the conversation the page has open: that of its
// one visible message box outside the conversation list (none or several
// boxes name none), with the page's address.
function openConversation() {
  const boxes = [...doc.querySelectorAll(COMPOSER)].filter((b) => isVisible(b) && !b.closest(RAIL));
  return { pageUrl: location.href, conversation: boxes.length === 1 ? conversationOf(boxes[0]) : [] };
}

// probeTarget finds what an action would reach: a ref, a point, or the
// focused element; with enter, what Enter in that field submits.
export function probe(args) {
  if (args.composer) return openConversation();
  let el;
  if (hasRef(args)) el = resolve(args.ref);
  else if (args.x !== undefined && args.y !== undefined) el = pointTarget(args).target;
  else el = deepActive();
  if (!isEl(el)) fail('Nothing to probe.');
  const tool = String(args.tool || '');
  if (!args.enter) {
    const target = actionable(el);
    const near = nearComposer(target);
    const chat = args.messages && (near || isEditable(target)) ? chatOf(target) : {};
    return { ...controlOf(target, tool), conversation: conversationOf(target), nearComposer: near, ...chat };
  }
  const field = isEditable(el) ? editingHost(el) : el;
  const form = formOf(field);
  const sub = form && defaultSubmit(form);
  const chat = args.messages ? chatOf(field) : {};
  if (sub) return { ...controlOf(sub, tool), enterFrom: controlOf(field, tool), conversation: conversationOf(field), ...chat };
  return { ...controlOf(field, tool), enter: true, conversation: conversationOf(field), ...chat };
}

// visibleLinks lists the absolute URLs of the links a person can see, with
// the page's own URL.
export function visibleLinks() {
  const out = new Set();
  for (const a of doc.querySelectorAll('a[href],area[href]')) {
    if (out.size >= 3000) break;
    if (!isVisible(a)) continue;
    const h = absHref(a);
    if (/^https?:/i.test(h)) out.add(h);
  }
  return { url: location.href, links: [...out] };
}

// fieldNow (wb_field) is what the field with ref holds now, for the
// completion judge's read-back of what the run typed: passwords hidden,
// long values cut. A ref that no longer resolves fails like any tool.
export function fieldNow(args) {
  const el = resolve(args.ref);
  const own = isTextField(el) || el.isContentEditable || el.localName === 'select';
  const f = own ? el : (el.querySelector('input, textarea, select, [contenteditable="true"]') ?? el);
  return { type: (f.type || f.localName || '').toLowerCase(), label: fieldLabel(f), value: fieldValue(f) };
}
