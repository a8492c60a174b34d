// Content script part: what the page itself says about the state of the
// task (wb_status), for the completion judge in the background. Errors are
// what a person reads as "this did not work": fields the page marks
// invalid (with the message tied to them) and visible alert or error
// messages. Other live messages are notices. It only reads the page.
import { clip, squash } from './text.mjs';
import { doc, isVisible, nameOf } from './core.mjs';

const STATUS_TEXT = 300; // characters of one message
const STATUS_MAX = 12; // messages of each kind
const MESSAGES = '[role=alert],[role=status],[aria-live],output,.error,.errors,.invalid-feedback,.field-error,.form-error,.alert';
// An error class or id names the message as one, in the page's own words.
const ERROR_WORDS = /(^|[-_\s])(error|errors|invalid|danger|failure|failed|fail)([-_\s]|$)/i;

const textOf = (el) => clip(squash(el.innerText ?? el.textContent ?? ''), STATUS_TEXT);

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
    if (!aria && !userInvalid) continue;
    const described = (f.getAttribute('aria-errormessage') || f.getAttribute('aria-describedby') || '')
      .split(/\s+/)
      .map((id) => id && doc.getElementById(id))
      .filter((el) => el && isVisible(el))
      .map(textOf)
      .join(' ');
    const message = described || f.validationMessage || 'marked invalid';
    out.push(`${clip(squash(nameOf(f)), 80) || f.localName}: ${clip(message, STATUS_TEXT)}`);
  }
  return out;
}

function status() {
  const errors = invalidFields();
  const notices = [];
  const seen = new Set(errors);
  for (const el of doc.querySelectorAll(MESSAGES)) {
    if (!isVisible(el)) continue;
    const text = textOf(el);
    if (!text || seen.has(text)) continue;
    seen.add(text);
    const marked = ERROR_WORDS.test(`${el.className?.baseVal ?? el.className ?? ''} ${el.id}`);
    const alert = el.getAttribute('role') === 'alert' || el.getAttribute('aria-live') === 'assertive';
    (marked || (alert && !el.closest('[role=status]')) ? errors : notices).push(text);
  }
  return {
    url: location.href,
    title: clip(squash(doc.title), STATUS_TEXT),
    errors: errors.slice(0, STATUS_MAX),
    notices: notices.slice(0, STATUS_MAX),
  };
}

export { status };
