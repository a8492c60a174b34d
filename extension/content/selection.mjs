// The selection toolbar (docs/decisions/selection-toolbar.md), bundled by
// the build into content/selection.js, which the manifests inject into
// every page's top document. It must cost a page almost nothing: until the
// user selects text it is two listeners (mouseup and the extension's
// messages) and no DOM. A selection then shows a small bar (Translate,
// Explain, Proofread, More…) in a closed shadow root the page can neither
// read nor restyle; the first three answer in a card beside the
// selection, More… hands the selection to the side panel. The card's call
// is made by the background (selection_inline): this script only shows
// what comes back, as DOM nodes, never as HTML. Nothing here changes or
// sends anything on the page.
import { TEXT } from './selection-strings.mjs';

const api = globalThis.browser ?? globalThis.chrome;
// Matches wasm/selection: a longer selection goes to the side panel, and a
// card holds at most MAX_ANSWER characters.
const MAX_INLINE = 4000;
const MAX_ANSWER = 64000;
const MAX_CONTEXT = 64000;
const TARGETS = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'pl', 'ru', 'uk', 'tr', 'ar', 'hi', 'zh-CN', 'ja', 'ko'];
const TEXT_INPUTS = new Set(['text', 'search', 'url', 'email', 'tel', '']);

// clip keeps the first n UTF-16 units of s without splitting a surrogate pair.
function clip(s, n) {
  if (s.length <= n) return s;
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

// A rich-text editor (contenteditable, a design-mode document, an
// editor's textbox) has its own formatting bar: WebBrain's stays out.
function inEditor(node) {
  const elem = node?.nodeType === Node.ELEMENT_NODE ? node : node?.parentElement;
  if (!elem) return false;
  if (document.designMode === 'on' || elem.isContentEditable) return true;
  return Boolean(elem.closest('[contenteditable]:not([contenteditable="false"]),[role="textbox"]'));
}

// current returns the selected text and where it is, or null when there is
// nothing the toolbar may offer: no text, a password field, an editor, or
// WebBrain's own bar.
function current() {
  const active = document.activeElement;
  if (active === host) return null;
  if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) {
    if (active instanceof HTMLInputElement && !TEXT_INPUTS.has(active.type)) return null; // password among them
    if (active.autocomplete?.includes('password')) return null;
    const { selectionStart: a, selectionEnd: b } = active;
    if (a == null || b == null || a === b) return null;
    const text = active.value.slice(a, b).trim();
    return text ? { text, rect: active.getBoundingClientRect() } : null;
  }
  const sel = getSelection();
  if (!sel || sel.isCollapsed || sel.rangeCount === 0) return null;
  if (inEditor(sel.anchorNode) || inEditor(sel.focusNode)) return null;
  const range = sel.getRangeAt(0);
  const holder = range.commonAncestorContainer;
  const elem = holder.nodeType === Node.ELEMENT_NODE ? holder : holder.parentElement;
  if (elem?.closest('input[type="password"]')) return null;
  const text = sel.toString().trim();
  if (!text) return null;
  let rect = range.getBoundingClientRect();
  if (!rect.width && !rect.height) rect = elem?.getBoundingClientRect() ?? rect;
  return { text, rect };
}

let host = null; // <webbrain-selection>, created on the first selection
let root = null; // its closed shadow root
let bar = null;
let card = null;
let shown = null; // the selection the bar is for: {text, rect}
let job = null; // the card's call in flight: {id, kind, text, target, continueFrom}

const STYLE = `
:host { all: initial; }
* { box-sizing: border-box; }
.bar, .card, button, select { font: 13px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
strong { font-weight: 700; }
em { font-style: italic; }
.bar, .card { position: absolute; color: #1d2230; background: #fff; border: 1px solid #c9cfdc;
  box-shadow: 0 4px 18px rgba(20, 30, 60, .18); }
.bar { display: flex; gap: 2px; padding: 3px; border-radius: 8px; white-space: nowrap; }
button, select { cursor: pointer; color: inherit; background: transparent; border: 0; border-radius: 6px; padding: 4px 9px; }
button:hover, button:focus-visible, select:hover { background: #e8edf8; outline: none; }
button:focus-visible { box-shadow: 0 0 0 2px #3d6ae0; }
.card { width: min(380px, calc(100vw - 16px)); max-height: 50vh; display: flex; flex-direction: column; border-radius: 10px; }
.head { display: flex; align-items: center; gap: 6px; padding: 6px 6px 6px 12px; border-bottom: 1px solid #e3e7ef; }
.title { font-weight: 600; flex: 1; }
select { border: 1px solid #c9cfdc; padding: 2px 4px; }
.body { padding: 8px 12px; overflow: auto; flex: 1; }
.body p, .body ul, .body ol, .body pre { margin: 0 0 8px; }
.body code, .body pre { font-family: ui-monospace, monospace; background: #f1f3f8; border-radius: 4px; padding: 0 3px; }
.body pre { padding: 6px; white-space: pre-wrap; }
.status { color: #5a6275; }
.error { color: #a12020; }
.note { margin: 0 12px 8px; padding: 6px 8px; border-radius: 6px; background: #fff5db; color: #5b4300; }
.actions { display: flex; flex-wrap: wrap; gap: 4px; padding: 8px 10px 4px; }
.actions button { border: 1px solid #c9cfdc; }
.ask { display: flex; gap: 4px; padding: 4px 10px 10px; }
.question { flex: 1; min-width: 0; font: inherit; color: inherit; background: transparent; border: 1px solid #c9cfdc; border-radius: 6px; padding: 4px 8px; }
.question:focus-visible { outline: 2px solid #3d6ae0; outline-offset: -1px; }
.foot { display: flex; gap: 4px; justify-content: flex-end; padding: 4px 6px; border-top: 1px solid #e3e7ef; }
@media (prefers-color-scheme: dark) {
  .bar, .card { color: #e6e9f0; background: #20242e; border-color: #434a5c; }
  button:hover, button:focus-visible, select:hover { background: #323949; }
  .head, .foot { border-color: #363c4b; }
  .body code, .body pre { background: #2c313d; }
  .status { color: #a9b0c2; }
  .error { color: #ff9b9b; }
  .note { background: #4a3d16; color: #ffe7a6; }
  select { background: #20242e; border-color: #434a5c; }
  .actions button, .question { border-color: #434a5c; }
}`;

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k in node) node[k] = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

// Only the user's own clicks and keys act: a page cannot reach into the
// closed root, and an event it makes up is not trusted.
const trusted = (fn) => (e) => {
  if (!e.isTrusted) return;
  e.preventDefault();
  e.stopPropagation();
  fn(e);
};

function ensureHost() {
  if (host?.isConnected) return;
  host = document.createElement('webbrain-selection');
  // Inline !important declarations win over the page's stylesheets.
  for (const [k, v] of Object.entries({
    all: 'initial',
    position: 'absolute',
    top: '0',
    left: '0',
    width: '0',
    height: '0',
    'z-index': '2147483647',
    display: 'block',
  }))
    host.style.setProperty(k, v, 'important');
  root = host.attachShadow({ mode: 'closed' });
  root.append(el('style', { textContent: STYLE }));
  document.documentElement.append(host);
  // Clicks inside the root stay there: the page's own handlers do not see
  // them, and the mouseup below does not read them as a new selection.
  // Keys typed into the More… question box stay out of the page's
  // bubbling listeners too.
  for (const type of ['mousedown', 'mouseup', 'click', 'pointerdown', 'pointerup', 'keydown', 'keyup', 'keypress', 'input'])
    host.addEventListener(type, (e) => e.stopPropagation());
}

// place puts node below the selection's rectangle (above when there is
// no room), in page coordinates, inside the viewport's width.
function place(node, rect) {
  const w = node.offsetWidth;
  const h = node.offsetHeight;
  let top = rect.bottom + 8;
  if (top + h > innerHeight && rect.top - h - 8 > 0) top = rect.top - h - 8;
  const left = Math.max(8, Math.min(rect.left, innerWidth - w - 16));
  node.style.top = `${top + scrollY}px`;
  node.style.left = `${left + scrollX}px`;
}

function hideBar() {
  bar?.remove();
  bar = null;
  document.removeEventListener('selectionchange', onSelectionChange);
}

function showBar(sel, focus = false) {
  ensureHost();
  hideBar();
  shown = sel;
  const action = (kind) => trusted(() => (kind === 'more' ? openMore(shown) : runCard(kind, shown.text)));
  bar = el(
    'div',
    { class: 'bar', role: 'toolbar', 'aria-label': TEXT.toolbarLabel, onkeydown: barKeys },
    el('button', { type: 'button', textContent: TEXT.translate, onclick: action('translate'), 'data-action': 'translate' }),
    el('button', { type: 'button', textContent: TEXT.explain, onclick: action('explain'), 'data-action': 'explain' }),
    el('button', { type: 'button', textContent: TEXT.proofread, onclick: action('proofread'), 'data-action': 'proofread' }),
    el('button', {
      type: 'button',
      textContent: TEXT.more,
      title: TEXT.moreTitle,
      onclick: action('more'),
      'data-action': 'more',
    }),
  );
  root.append(bar);
  place(bar, sel.rect);
  document.addEventListener('selectionchange', onSelectionChange);
  if (focus) bar.querySelector('button').focus();
}

// Arrow keys move along the bar; Escape closes it.
function barKeys(e) {
  const buttons = [...bar.querySelectorAll('button')];
  const i = buttons.indexOf(root.activeElement);
  if (e.key === 'Escape') {
    hideBar();
  } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
    buttons[(i + (e.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length].focus();
  } else return;
  e.preventDefault();
  e.stopPropagation();
}

function onSelectionChange() {
  if (root?.activeElement) return; // the user is at the bar
  if (!current()) hideBar();
}

// A new selection made with the mouse shows the bar, after the browser
// has settled it.
function onMouseUp(e) {
  if (!e.isTrusted || e.button !== 0 || (host && e.target === host)) return;
  setTimeout(() => {
    const sel = current();
    if (sel) showBar(sel);
    else hideBar();
  }, 0);
}

// --- the card ---

function closeCard() {
  cancelJob();
  card?.remove();
  card = null;
}

function cancelJob() {
  if (!job) return;
  api.runtime.sendMessage({ action: 'selection_inline_cancel', jobId: job.id }).catch(() => {});
  job = null;
}

function defaultTarget() {
  const lang = navigator.language || 'en';
  return TARGETS.includes(lang) ? lang : lang.split('-')[0];
}

function languageName(tag) {
  try {
    return new Intl.DisplayNames([navigator.language || 'en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

// sourceLanguage is the browser's own guess at the selection's language
// (no network call); "" when it has none.
async function sourceLanguage(text) {
  try {
    const got = await api.i18n.detectLanguage(text);
    const best = got?.isReliable && got.languages?.[0]?.language;
    return best && best !== 'und' ? best : '';
  } catch {
    return '';
  }
}

const TITLES = { translate: TEXT.titleTranslate, explain: TEXT.titleExplain, proofread: TEXT.titleProofread };

async function runCard(kind, text, { target = '', continueFrom = '' } = {}) {
  hideBar();
  if (text.length > MAX_INLINE) {
    more({ text, rect: shown?.rect }, TEXT.tooLongForCard);
    return;
  }
  cancelJob();
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  job = { id, kind, text, target: target || defaultTarget(), continueFrom };
  const mine = job;
  const rect = shown?.rect ?? new DOMRect(innerWidth / 2 - 190, 80, 0, 0);
  drawCard(mine, rect, { status: TEXT.working });
  if (kind === 'translate' && !target) {
    // Selected text already in the reader's language is translated into English.
    const source = await sourceLanguage(text);
    if (job !== mine) return;
    if (source && source.split('-')[0] === mine.target.split('-')[0] && !mine.target.startsWith('en')) mine.target = 'en';
    drawCard(mine, rect, { status: TEXT.working });
  }
  let reply;
  try {
    reply = await api.runtime.sendMessage({
      action: 'selection_inline',
      jobId: id,
      kind,
      text,
      target: mine.target,
      continueFrom,
    });
  } catch (err) {
    reply = { ok: false, error: String(err?.message ?? err) };
  }
  if (job !== mine) return; // closed or retargeted meanwhile
  job = null;
  if (!reply?.ok) {
    if (!reply?.cancelled) drawCard(mine, rect, { error: reply?.error ?? '' });
    return;
  }
  const answer = clip(String(reply.text ?? ''), MAX_ANSWER);
  drawCard(mine, rect, {
    answer,
    truncated: Boolean(reply.truncated) || answer.length < String(reply.text ?? '').length,
    notice: reply.notice,
  });
}

function drawCard(j, rect, { status = '', error = null, answer = null, truncated = false, notice = '' }) {
  ensureHost();
  const fresh = !card;
  card?.remove();
  const close = el('button', { type: 'button', textContent: '×', title: TEXT.close, 'aria-label': TEXT.close });
  close.addEventListener('click', trusted(closeCard));
  const head = el('div', { class: 'head' }, el('span', { class: 'title', textContent: TITLES[j.kind] }));
  if (j.kind === 'translate') {
    const pick = el('select', { 'aria-label': TEXT.translateTo, title: TEXT.translateTo });
    const tags = TARGETS.includes(j.target) ? TARGETS : [j.target, ...TARGETS];
    for (const tag of tags) pick.append(el('option', { value: tag, textContent: languageName(tag), selected: tag === j.target }));
    pick.addEventListener('change', (e) => {
      if (e.isTrusted) runCard('translate', j.text, { target: pick.value });
    });
    head.append(pick);
  }
  head.append(close);
  const body = el('div', { class: 'body', 'aria-live': 'polite' });
  if (answer != null) body.append(...markdown(answer));
  else if (error != null) body.append(el('p', { class: 'error', textContent: `${TEXT.failed} ${error}` }));
  else body.append(el('p', { class: 'status', textContent: status }));
  card = el(
    'div',
    {
      class: 'card',
      role: 'dialog',
      'aria-label': TITLES[j.kind],
      'data-state': answer != null ? 'done' : error != null ? 'error' : 'working',
    },
    head,
    body,
  );
  card.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    closeCard();
  });
  if (truncated) card.append(el('p', { class: 'note', textContent: TEXT.truncated, 'data-note': 'truncated' }));
  if (notice) card.append(el('p', { class: 'note', textContent: notice, 'data-note': 'allowance' }));
  const foot = el('div', { class: 'foot' });
  if (answer != null) {
    const copy = el('button', { type: 'button', textContent: TEXT.copy, 'data-action': 'copy' });
    copy.addEventListener(
      'click',
      trusted(async () => {
        await navigator.clipboard?.writeText(answer).catch(() => {});
        copy.textContent = TEXT.copied;
      }),
    );
    foot.append(copy);
    const next = truncated
      ? el('button', { type: 'button', textContent: TEXT.continueInPanel, 'data-action': 'continue' })
      : el('button', { type: 'button', textContent: TEXT.askInPanel, 'data-action': 'ask' });
    next.addEventListener(
      'click',
      trusted(() =>
        handOver({ kind: j.kind, text: j.text, continueFrom: truncated ? answer : '', answer: truncated ? '' : answer }, rect),
      ),
    );
    foot.append(next);
  } else if (error != null) {
    foot.append(el('button', { type: 'button', textContent: TEXT.retry, onclick: trusted(() => runCard(j.kind, j.text, j)) }));
  }
  if (foot.childElementCount) card.append(foot);
  root.append(card);
  place(card, rect);
  if (fresh) close.focus({ preventScroll: true });
}

// markdown turns the model's answer into DOM nodes: paragraphs, lists,
// fenced code, and inline bold, italic and code. Never HTML.
function markdown(text) {
  const out = [];
  const lines = text.split('\n');
  let para = [];
  let list = null;
  const flush = () => {
    if (para.length) out.push(el('p', {}, ...inline(para.join(' '))));
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trimStart().startsWith('```')) {
      flush();
      list = null;
      const code = [];
      while (++i < lines.length && !lines[i].trimStart().startsWith('```')) code.push(lines[i]);
      out.push(el('pre', {}, el('code', { textContent: code.join('\n') })));
      continue;
    }
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const tag = item[1] ? 'ul' : 'ol';
      if (!list || list.tagName.toLowerCase() !== tag) {
        list = el(tag);
        out.push(list);
      }
      list.append(el('li', {}, ...inline(item[3])));
      continue;
    }
    list = null;
    if (!line.trim()) flush();
    else para.push(line.replace(/^#+\s+/, ''));
  }
  flush();
  return out;
}

function inline(s) {
  const out = [];
  const re = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g;
  let last = 0;
  for (const m of s.matchAll(re)) {
    if (m.index > last) out.push(s.slice(last, m.index));
    const t = m[0];
    if (t.startsWith('**')) out.push(el('strong', { textContent: t.slice(2, -2) }));
    else if (t.startsWith('`')) out.push(el('code', { textContent: t.slice(1, -1) }));
    else out.push(el('em', { textContent: t.slice(1, -1) }));
    last = m.index + t.length;
  }
  if (last < s.length) out.push(s.slice(last));
  return out;
}

// --- the side panel ---

// The More… popup: actions that ask in the side panel (the three the bar
// answers in place are left out) and a question box. Each hands the
// selection to the panel with the request, which the panel sends at once
// as an Ask run; an empty question only opens the panel with the quote.
const MORE_ACTIONS = [
  ['summarize', TEXT.summarize, TEXT.promptSummarize],
  ['quiz', TEXT.quiz, TEXT.promptQuiz],
  ['humanize', TEXT.humanize, TEXT.promptHumanize],
];
const MAX_QUESTION = 2000;

function openMore(sel) {
  hideBar();
  if (!sel) return;
  closeCard();
  ensureHost();
  const ask = (prompt) => handOver({ text: sel.text, prompt: prompt.trim() }, sel.rect);
  const input = el('input', {
    type: 'text',
    class: 'question',
    placeholder: TEXT.questionPlaceholder,
    'aria-label': TEXT.questionPlaceholder,
    maxLength: MAX_QUESTION,
  });
  const form = el(
    'form',
    { class: 'ask', onsubmit: trusted(() => ask(input.value)) },
    input,
    el('button', { type: 'submit', textContent: TEXT.askInPanel, 'data-action': 'ask' }),
  );
  card = el(
    'div',
    { class: 'card more', role: 'dialog', 'aria-label': TEXT.moreTitle, 'data-state': 'more', onkeydown: cardKeys },
    el(
      'div',
      { class: 'head' },
      el('span', { class: 'title', textContent: TEXT.moreTitle }),
      el('button', {
        type: 'button',
        textContent: '×',
        'aria-label': TEXT.close,
        title: TEXT.close,
        onclick: trusted(closeCard),
      }),
    ),
    el(
      'div',
      { class: 'actions' },
      ...MORE_ACTIONS.map(([kind, label, prompt]) =>
        el('button', { type: 'button', textContent: label, 'data-action': kind, onclick: trusted(() => ask(prompt)) }),
      ),
    ),
    form,
  );
  root.append(card);
  place(card, sel.rect ?? new DOMRect(80, 80, 0, 0));
  card.querySelector('.actions button').focus();
}

// Escape closes a card, the More… popup among them.
function cardKeys(e) {
  if (e.key !== 'Escape') return;
  e.preventDefault();
  e.stopPropagation();
  closeCard();
}

function more(sel, note = '') {
  hideBar();
  if (!sel) return;
  handOver({ text: sel.text }, sel.rect, note);
}

// handOver keeps the selection for the tab's side panel (selection_context)
// and opens the panel; the background does both.
async function handOver({ kind = '', text, continueFrom = '', answer = '', prompt = '' }, rect, note = '') {
  cancelJob();
  let reply;
  try {
    reply = await api.runtime.sendMessage({
      action: 'selection_context',
      kind,
      text: clip(text, MAX_CONTEXT),
      continueFrom,
      answer,
      prompt: clip(prompt, MAX_QUESTION),
    });
  } catch (err) {
    reply = { ok: false, error: String(err?.message ?? err) };
  }
  if (!reply?.ok) {
    drawCard({ kind: kind || 'explain', text }, rect ?? new DOMRect(80, 80, 0, 0), { error: reply?.error ?? '' });
    return;
  }
  closeCard();
  if (reply.panelOpened && !note) return;
  // The panel could not be opened from here (Firefox opens the sidebar
  // only from its own controls): say where the selection waits.
  ensureHost();
  card = el(
    'div',
    { class: 'card', role: 'status', 'data-state': 'handed' },
    el('p', {
      class: 'note',
      textContent: [note, reply.panelOpened ? TEXT.panelReady : TEXT.panelWaiting].filter(Boolean).join(' '),
    }),
  );
  root.append(card);
  place(card, rect ?? new DOMRect(80, 80, 0, 0));
  setTimeout(() => card?.dataset.state === 'handed' && closeCard(), 6000);
}

// --- start ---

// The extension's own pages have their own controls; the bar is for web
// pages' top documents.
const ownPage = location.protocol.endsWith('-extension:') || location.href.startsWith(api?.runtime?.getURL?.('') ?? '\0');
if (!ownPage && window === window.top && !globalThis.__wbSelectionToolbar) {
  globalThis.__wbSelectionToolbar = true;
  addEventListener('mouseup', onMouseUp, true);
  addEventListener('pagehide', () => cancelJob());
  // The keyboard shortcut (the extension's "selection-toolbar" command) and
  // the context menu's entries arrive from the background, which calls this
  // in the content scripts' world (scripting.executeScript). Not a
  // runtime.onMessage listener: one in every page would answer the
  // background's tool messages before their script is injected.
  globalThis.__wbSelection = (msg) => {
    if (!msg || typeof msg.wbSelection !== 'string') return;
    const sel = current();
    if (msg.wbSelection === 'show') {
      if (sel) showBar(sel, true);
    } else if (msg.wbSelection === 'run' && typeof msg.text === 'string') {
      shown = sel ?? { text: msg.text, rect: null };
      runCard(msg.kind, sel?.text || msg.text);
    }
  };
}
