// Teacher mode's recorder (docs/decisions/workflows.md): while the user's
// tab records, it reports the user's own trusted actions in the top
// document to the background as teach_step, each with the semantic target
// the workflow compiler uses (the tree's role and accessible name) and the
// page it happened on. It never reads a field's value: a completed field is
// reported only as "a value went into the field named …".
import { fail, isEl, isTextField, lineRole, nameOf } from './core.mjs';

const CONTROL =
  'a[href],button,input,select,textarea,summary,[role=button],[role=link],[role=menuitem],[role=tab],[role=switch],[role=option],[role=menuitemcheckbox],[role=menuitemradio],[role=checkbox],[role=radio]';

let stopRecording = null;
// Fields the user typed into and has not yet left or submitted.
let dirty = new WeakSet();
// A script's el.click() on a checkbox makes the browser fire a trusted
// change: set while such a click is being handled, to ignore it.
let scriptedClick = false;
// The form an Enter just submitted: its implicit submission clicks the
// submit button, which is not a second action.
let entered = null;

function runtime() {
  if (typeof browser !== 'undefined' && browser && browser.runtime && browser.runtime.sendMessage) return browser.runtime;
  if (typeof chrome !== 'undefined' && chrome && chrome.runtime && chrome.runtime.sendMessage) return chrome.runtime;
  return null;
}

// report sends one step; the time orders steps whose messages overtake
// each other.
function report(kind, el, extra = {}) {
  const role = lineRole(el);
  const name = nameOf(el);
  const rt = runtime();
  if (!rt || !role || !name) return;
  const step = { kind, role, name, family: location.href, at: performance.timeOrigin + performance.now(), ...extra };
  try {
    Promise.resolve(rt.sendMessage({ action: 'teach_step', step })).catch(() => {});
  } catch {
    /* the extension was reloaded: nothing to report to */
  }
}

// target is the element the event happened on, through open shadow roots.
const target = (e) => {
  const t = e.composedPath ? e.composedPath()[0] : e.target;
  return isEl(t) ? t : null;
};

const editable = (el) => isEl(el) && (isTextField(el) || el.localName === 'textarea' || el.isContentEditable);

function completed(el) {
  if (!dirty.has(el)) return false;
  dirty.delete(el);
  report('field', el, el.type === 'password' ? { password: true } : {});
  return true;
}

const handlers = {
  click(e) {
    const el = target(e);
    const control = el && el.closest(CONTROL);
    if (!control || control.disabled) return;
    // Typing, choices and selects are reported when they change, not when
    // clicked into.
    if (editable(control) || control.localName === 'select') return;
    if (control.localName === 'input' && !/^(button|submit|reset|image)$/.test(control.type)) return;
    if (e.detail === 0 && entered && control.form === entered) return;
    report('click', control);
  },
  input(e) {
    const el = target(e);
    if (editable(el)) dirty.add(el);
  },
  change(e) {
    const el = target(e);
    if (!el || scriptedClick) return;
    if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) report('check', el, { checked: el.checked });
    else if (el.localName === 'select') report('select', el);
    else if (el.localName === 'input' && !editable(el))
      report('field', el); // date, range, color…
    else completed(el);
  },
  focusout(e) {
    const el = target(e);
    if (el) completed(el);
  },
  keydown(e) {
    const el = target(e);
    if (e.key !== 'Enter' || e.isComposing || !el || el.localName !== 'input' || !isTextField(el)) return;
    completed(el);
    report('submit', el);
    entered = el.form;
    setTimeout(() => {
      entered = null;
    }, 500);
  },
};

// teach starts the recorder ({}) or stops it ({stop: true}).
export function teach(args) {
  if (window.top !== window) fail('Teacher mode records only the top document.');
  if (args.stop) {
    if (stopRecording) stopRecording();
    return { recording: false };
  }
  if (stopRecording) return { recording: true };
  const listeners = Object.entries(handlers).map(([type, fn]) => [
    type,
    (e) => {
      if (e.isTrusted)
        fn(e); // a page's own script events are not the user's
      else if (type === 'click') {
        scriptedClick = true;
        setTimeout(() => {
          scriptedClick = false;
        });
      }
    },
  ]);
  for (const [type, fn] of listeners) document.addEventListener(type, fn, true);
  stopRecording = () => {
    for (const [type, fn] of listeners) document.removeEventListener(type, fn, true);
    stopRecording = null;
    dirty = new WeakSet();
  };
  return { recording: true };
}
