// Content script part: what the page itself says about the state of the
// task (wb_status), for the completion judge in the background. It reports
// each visible message with the structure around it (messages), and never
// decides what the words mean: the background reads them with the
// status_message question. errors and notices are the older sorting by
// structure alone (fields marked invalid with the message tied to them and
// alert or error messages; other live messages), which the judge falls back
// on for a message nobody could read. It only reads the page.
import { clip, squash } from './text.mjs';
import { doc, isVisible, nameOf } from './core.mjs';

const STATUS_TEXT = 300; // characters of one message
const VALIDATION_TEXT = 500; // of a message tied to an invalid field or its form
const STATUS_MAX = 12; // errors and notices each
const MESSAGES_MAX = 24;
const MESSAGES = '[role=alert],[role=status],[aria-live],output,.error,.errors,.invalid-feedback,.field-error,.form-error,.alert';
const LIVE = '[role=status],[aria-live=polite],output';
// An error class, id or state names the element as one, in the page's own
// markup (never its text).
const ERROR_WORDS = /(^|[-_\s])(error|errors|invalid|danger|failure|failed|fail)([-_\s]|$)/i;

const fullText = (el) => squash(el.innerText ?? el.textContent ?? '');

function marked(el) {
  const cls = el.className?.baseVal ?? el.className ?? '';
  const state = ['data-state', 'data-status', 'data-variant'].map((a) => el.getAttribute(a) ?? '').join(' ');
  return el.getAttribute('aria-invalid') === 'true' || ERROR_WORDS.test(`${cls} ${el.id} ${state}`);
}

// message is one entry of messages: its text (clipped; long when it was
// longer than one message can be) and its structural evidence.
function message(text, evidence, field) {
  const max = evidence.some((e) => e === 'field' || e === 'tied' || e === 'form') ? VALIDATION_TEXT : STATUS_TEXT;
  const m = { text: clip(text, max), evidence };
  if (text.length > max) m.long = true;
  if (field) m.field = field;
  return m;
}

function evidenceOf(el, forms) {
  const ev = [];
  const form = el.closest('form');
  if (form && forms.has(form)) ev.push('form');
  if (marked(el)) ev.push('marked');
  if (el.getAttribute('role') === 'alert' || el.getAttribute('aria-live') === 'assertive') ev.push('alert');
  if (el.matches(LIVE) || el.closest('[role=status]')) ev.push('status');
  return ev;
}

// invalidFields lists the fields the page marks invalid: aria-invalid, or
// failing the browser's own checks after the user (or agent) edited them.
function invalidFields() {
  const out = [];
  for (const f of doc.querySelectorAll('[aria-invalid=true], input, select, textarea')) {
    if (!isVisible(f)) continue;
    const aria = f.getAttribute('aria-invalid') === 'true';
    let userInvalid = false;
    try {
      userInvalid = f.matches(':user-invalid');
    } catch {
      // an engine without :user-invalid judges by aria-invalid alone
    }
    if (aria || userInvalid) out.push(f);
  }
  return out;
}

function status() {
  const fields = invalidFields();
  const forms = new Set(fields.map((f) => f.closest('form')).filter(Boolean));
  const errors = [];
  const notices = [];
  const messages = [];
  const seen = new Set();
  const tied = new Set();
  for (const f of fields) {
    const els = (f.getAttribute('aria-errormessage') || f.getAttribute('aria-describedby') || '')
      .split(/\s+/)
      .map((id) => id && doc.getElementById(id))
      .filter((el) => el && isVisible(el));
    const described = els.map(fullText).join(' ');
    const ev = ['field'];
    if (described) ev.push('tied');
    for (const el of els) {
      tied.add(el);
      for (const e of evidenceOf(el, forms)) if (!ev.includes(e)) ev.push(e);
    }
    const name = clip(squash(nameOf(f)), 80) || f.localName;
    const text = described || squash(f.validationMessage);
    const line = `${name}: ${clip(text || 'marked invalid', STATUS_TEXT)}`;
    errors.push(line);
    seen.add(line);
    if (text) seen.add(clip(text, STATUS_TEXT));
    messages.push(message(text, ev, name));
  }
  for (const el of doc.querySelectorAll(MESSAGES)) {
    if (!isVisible(el) || tied.has(el)) continue;
    const text = fullText(el);
    const short = clip(text, STATUS_TEXT);
    if (!text || seen.has(short)) continue;
    seen.add(short);
    const ev = evidenceOf(el, forms);
    const alert = ev.includes('alert') && !el.closest('[role=status]');
    (ev.includes('marked') || alert ? errors : notices).push(short);
    messages.push(message(text, ev));
  }
  return {
    url: location.href,
    title: clip(squash(doc.title), STATUS_TEXT),
    errors: errors.slice(0, STATUS_MAX),
    notices: notices.slice(0, STATUS_MAX),
    messages: messages.slice(0, MESSAGES_MAX),
  };
}

export { status };
