// Content script part: watching an action's effect.
// Records navigation, submits, the subject's state, dialogs, focus, live
// regions and new content, and says what changed.
import { squash } from './text.mjs';
import { deepActive } from './dom.mjs';
import { describe, describeShowing, doc, isEl, isTextField, isVisible, kindOf, openDialogs, quote, win } from './core.mjs';

function liveTexts() {
  const m = new Map();
  for (const el of doc.querySelectorAll('[role=alert], [role=status], [aria-live]:not([aria-live=off]), output')) {
    if (isVisible(el)) m.set(el, squash(el.innerText));
  }
  return m;
}

function stateOf(el) {
  if (!isEl(el)) return {};
  const box = el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio');
  return {
    checked: box ? String(el.checked) : el.getAttribute('aria-checked'),
    expanded: el.getAttribute('aria-expanded'),
    pressed: el.getAttribute('aria-pressed'),
    selected: el.getAttribute('aria-selected'),
    open: el.localName === 'summary' && el.parentElement?.localName === 'details' ? String(el.parentElement.open) : null,
    value: (el.localName === 'select' || isTextField(el)) && el.type !== 'password' ? el.value : null,
  };
}

function snapshot(subject) {
  const ctl = subject && subject.localName === 'label' && subject.control ? subject.control : subject;
  return { url: location.href, focus: deepActive(), dialogs: openDialogs(), live: liveTexts(), ctl, state: stateOf(ctl) };
}

const STATE_WORDS = {
  checked: { true: 'checked', false: 'unchecked', mixed: 'partly checked' },
  expanded: { true: 'expanded', false: 'collapsed' },
  pressed: { true: 'pressed', false: 'not pressed' },
  selected: { true: 'selected', false: 'not selected' },
  open: { true: 'open', false: 'closed' },
};

function addedText(nodes) {
  const parts = [];
  for (const n of nodes) {
    if (!n.isConnected) continue;
    if (n.nodeType === 3) {
      if (n.parentElement && isVisible(n.parentElement)) parts.push(n.data);
      continue;
    }
    if (!isEl(n) || ['script', 'style', 'link', 'meta', 'template'].includes(n.localName) || !isVisible(n)) continue;
    parts.push(n.innerText || n.getAttribute('aria-label') || '');
  }
  return squash(parts.join(' '));
}

// watch starts recording what the page does: navigation, form
// submission, the subject's own state, dialogs, focus, live messages and
// new content. stop() waits for the page to settle and reports; abort()
// drops the recording. The trusted-input path (Chrome) acts between the
// two from outside the page.
export function watch(subject, { reportSubject = true } = {}) {
  const before = snapshot(subject);
  const t0 = performance.now();
  const log = { count: 0, last: t0, added: [], removed: 0, submits: [], nav: '', unloading: false };
  const mo = new MutationObserver((recs) => {
    log.count += recs.length;
    log.last = performance.now();
    for (const r of recs) {
      if (r.type !== 'childList') continue;
      log.removed += r.removedNodes.length;
      for (const n of r.addedNodes) if (log.added.length < 50) log.added.push(n);
    }
  });
  const onSubmit = (e) => log.submits.push(e);
  const onNavigate = (e) => {
    if (e.destination && !e.destination.sameDocument) log.nav = e.destination.url;
  };
  const onUnload = () => {
    log.unloading = true;
  };
  // Where the Navigation API is missing (Firefox), an element with id
  // "navigation" would answer win.navigation: only the real one counts.
  const nav = Object.getOwnPropertyDescriptor(win, 'navigation') ? win.navigation : null;
  mo.observe(doc.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  doc.addEventListener('submit', onSubmit, true);
  win.addEventListener('beforeunload', onUnload);
  win.addEventListener('pagehide', onUnload);
  if (nav) nav.addEventListener('navigate', onNavigate);
  const abort = () => {
    mo.disconnect();
    doc.removeEventListener('submit', onSubmit, true);
    win.removeEventListener('beforeunload', onUnload);
    win.removeEventListener('pagehide', onUnload);
    if (nav) nav.removeEventListener('navigate', onNavigate);
  };
  const stop = async () => {
    try {
      await settle(log, performance.now());
    } finally {
      abort();
    }
    return summarize(before, snapshot(subject), log, subject, reportSubject);
  };
  return { stop, abort };
}

// observe runs an action and reports what it changed.
export async function observe(action, subject, opts) {
  const w = watch(subject, opts);
  let value;
  try {
    value = await action();
  } catch (e) {
    w.abort();
    throw e;
  }
  return { value, changes: await w.stop() };
}

// settle waits for the page to stop changing after an action, briefly:
// it returns at once when a navigation starts (the page is going away).
function settle(log, t0, quietMs = 150, maxMs = 1500) {
  return new Promise((resolve) => {
    const check = () => {
      const now = performance.now();
      if (log.nav || log.unloading || now - t0 >= maxMs || now - log.last >= quietMs) resolve();
      else setTimeout(check, 25);
    };
    check(); // a navigation the action started answers before the page unloads
  });
}

// summarize returns '' when nothing was observed; callers decide whether
// that is worth saying.
function summarize(before, after, log, subject, reportSubject) {
  const out = [];
  if (log.nav) out.push(`navigation started to ${log.nav} (read the page again once it has loaded)`);
  else if (log.unloading) out.push('the page started unloading (a navigation began)');
  else if (after.url !== before.url) out.push(`URL changed to ${after.url}`);
  for (const e of log.submits)
    out.push(`${describe(e.target)} was submitted` + (e.defaultPrevented ? ' (the page handled it with script)' : ''));
  if (reportSubject && after.ctl && after.ctl.isConnected) {
    for (const [key, words] of Object.entries(STATE_WORDS)) {
      const a = before.state[key],
        b = after.state[key];
      if (a !== b && b !== null && b !== undefined) out.push(`${describe(after.ctl)} is now ${words[b] || b}`);
    }
    if (before.state.value !== after.state.value && after.state.value !== null)
      out.push(`${describe(after.ctl)} value is now ${quote(after.state.value)}`);
  } else if (subject && !subject.isConnected) {
    out.push('the clicked element was removed from the page');
  }
  for (const d of after.dialogs) if (!before.dialogs.includes(d)) out.push(`a dialog opened: ${describeShowing(d)}`);
  for (const d of before.dialogs)
    if (!after.dialogs.includes(d)) out.push('a dialog closed' + (d.isConnected ? ': ' + describe(d) : ''));
  if (after.focus !== before.focus && after.focus && after.focus !== doc.body && after.focus !== after.ctl)
    out.push(`focus moved to ${describe(after.focus)}`);
  let messages = 0;
  for (const [el, text] of after.live) {
    if (text && before.live.get(el) !== text && messages++ < 3) out.push(`${kindOf(el)} says ${quote(text, 200)}`);
  }
  const added = addedText(log.added);
  if (added) out.push(`new content: ${quote(added, 240)}`);
  else if (log.count && out.length === 0)
    out.push(`the page changed (${log.count} DOM updates${log.removed ? `, ${log.removed} nodes removed` : ''})`);
  return out.length ? 'Changes: ' + out.join('; ') + '.' : '';
}
