// Content script part: reading the page. The tools
// get_accessibility_tree, read_page, get_selection and get_window_info.
import { clip, squash } from './text.mjs';
import { deepActive } from './dom.mjs';
import {
  RESULT_CAP,
  axExport,
  describe,
  doc,
  fail,
  intArg,
  isTextField,
  isVisible,
  openDialogs,
  quote,
  staleMessage,
  win,
} from './core.mjs';
import { selectionOf } from './typing.mjs';
import { scrollPosition } from './scroll.mjs';
import { clearWalls, gateLine, isWithheld, readWalls } from './walls.mjs';

export function getTree(args) {
  const generate = axExport('__generateAccessibilityTree');
  const opts = {};
  for (const k of ['filter', 'refId', 'maxDepth', 'maxChars', 'continuation']) {
    if (args[k] !== undefined && args[k] !== null && args[k] !== '') opts[k] = args[k];
  }
  // The tree reads 0 as "no limit"; the model always gets a bounded page.
  if (opts.maxChars !== undefined) opts.maxChars = Number(opts.maxChars) > 0 ? intArg(opts.maxChars, 6000, 500, 16000) : 6000;
  const r = generate(opts);
  if (r && r.error && opts.refId) fail(staleMessage(opts.refId));
  if (!r || r.error) fail(r && r.error ? String(r.error) : 'The accessibility tree could not be generated.');
  let text = String(r.tree ?? '');
  if (r.truncated) {
    const next = { ...(r.continuationArgs || opts), continuation: r.continuationToken || r.continuation };
    text += `\n[The tree continues: call get_accessibility_tree with ${JSON.stringify(next)} for the next part.]`;
  }
  return text;
}

// ------------------------------------------------------------- read_page

// biome-ignore format: a table, packed as written
export const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'canvas', 'iframe', 'object', 'select', 'datalist', 'textarea', 'input', 'button', 'video', 'audio', 'map']);

// TextOut collects lines: inline text joins into the current line and
// block boundaries end it.
class TextOut {
  constructor() {
    this.lines = [];
    this.buf = '';
    this.prefix = '';
  }
  inline(s) {
    this.buf += s;
  }
  flush() {
    const t = squash(this.buf);
    this.buf = '';
    if (!t) return;
    const line = this.prefix + t;
    this.prefix = '';
    if (this.lines[this.lines.length - 1] !== line) this.lines.push(line);
  }
  line(s) {
    this.flush();
    const t = s.trimEnd();
    if (t.trim()) this.lines.push(t);
  }
}

export const cellText = (c) => squash(c.innerText).replace(/\|/g, '/');

function readTable(table, out) {
  out.flush();
  const caption = table.caption && squash(table.caption.innerText);
  if (caption) out.line(`Table: ${caption}`);
  const rows = table.rows ? [...table.rows] : [...table.querySelectorAll('[role=row]')];
  for (const row of rows) {
    if (!isVisible(row)) continue;
    const cells = row.cells
      ? [...row.cells]
      : [...row.querySelectorAll('[role=cell], [role=gridcell], [role=columnheader], [role=rowheader]')];
    const texts = cells.filter((c) => isVisible(c)).map(cellText);
    if (texts.some(Boolean)) out.line('| ' + texts.join(' | ') + ' |');
  }
}

function walk(node, out, skip, listDepth) {
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (isWithheld(c)) continue;
    if (c.nodeType === 3) {
      out.inline(c.data);
      continue;
    }
    if (c.nodeType !== 1 || c === skip || SKIP_TAGS.has(c.localName)) continue;
    if (c.hidden || c.getAttribute('aria-hidden') === 'true') continue;
    const st = getComputedStyle(c);
    if (st.display === 'none' || st.visibility === 'hidden' || st.visibility === 'collapse' || st.contentVisibility === 'hidden')
      continue;
    const tag = c.localName;
    const level = /^h([1-6])$/.exec(tag)?.[1] || (c.getAttribute('role') === 'heading' && (c.getAttribute('aria-level') || '2'));
    if (level) {
      out.line('#'.repeat(Number(level)) + ' ' + squash(c.innerText));
      continue;
    }
    if (tag === 'br') {
      out.flush();
      continue;
    }
    if (tag === 'img') {
      const alt = squash(c.alt);
      if (alt) out.inline(` [image: ${alt}] `);
      continue;
    }
    if (tag === 'pre') {
      out.flush();
      for (const l of c.innerText.split('\n')) out.line(l);
      continue;
    }
    if (tag === 'table' || c.getAttribute('role') === 'table' || c.getAttribute('role') === 'grid') {
      readTable(c, out);
      continue;
    }
    if (tag === 'li' || c.getAttribute('role') === 'listitem') {
      out.flush();
      out.prefix =
        '  '.repeat(Math.max(0, listDepth - 1)) + (node.localName === 'ol' ? `${[...node.children].indexOf(c) + 1}. ` : '- ');
      walk(c, out, skip, listDepth);
      out.flush();
      out.prefix = '';
      continue;
    }
    const inline = st.display.startsWith('inline') || st.display === 'contents';
    if (!inline) out.flush();
    walk(c, out, skip, tag === 'ul' || tag === 'ol' || c.getAttribute('role') === 'list' ? listDepth + 1 : listDepth);
    if (!inline) out.flush();
  }
}

function mainElement() {
  const main = [...doc.querySelectorAll('main, [role=main]')].find(isVisible);
  if (main) return main;
  const articles = [...doc.querySelectorAll('article')].filter(isVisible);
  return articles.length === 1 ? articles[0] : null;
}

function pageText() {
  const out = new TextOut();
  const found = mainElement();
  let main = found;
  for (let a = found; a; a = a.parentNode) if (isWithheld(a)) main = null; // a wall withholds it all
  if (main && main !== doc.body) {
    walk(main, out, null, 0);
    out.flush();
    const n = out.lines.length;
    walk(doc.body, out, main, 0);
    out.flush();
    if (out.lines.length > n) out.lines.splice(n, 0, '', '--- Rest of the page (navigation, sidebars, footer) ---');
  } else if (doc.body) {
    walk(doc.body, out, null, 0);
    out.flush();
  }
  return out.lines.join('\n');
}

function pageSlice(text, offset, maxChars) {
  if (offset >= text.length) return { part: '', end: text.length };
  let end = Math.min(text.length, offset + maxChars);
  if (end < text.length) {
    const nl = text.lastIndexOf('\n', end);
    if (nl > offset + maxChars / 2) end = nl + 1;
  }
  return { part: text.slice(offset, end), end };
}

export function readPage(args) {
  const maxChars = intArg(args.maxChars, 6000, 500, 12000);
  const offset =
    args.continuation === undefined || args.continuation === null || args.continuation === '' ? 0 : Number(args.continuation);
  if (!Number.isInteger(offset) || offset < 0)
    fail(`"continuation" must be the value a previous read_page returned, not ${JSON.stringify(args.continuation)}.`);
  const text = pageText();
  if (!text) return `Page: ${quote(doc.title, 120)} ${location.href}\nThe page shows no readable text.`;
  if (offset >= text.length)
    fail(
      `continuation ${offset} is past the end of the page text (${text.length} characters); the page may have changed. Call read_page without continuation.`,
    );
  const { part, end } = pageSlice(text, offset, maxChars);
  const head = `Page: ${quote(doc.title, 120)} ${location.href}\n(characters ${offset}–${end} of ${text.length})\n`;
  const more =
    end < text.length
      ? `\n[More text follows: call read_page with ${JSON.stringify({ maxChars, continuation: String(end) })}]`
      : '\n[End of page text]';
  return head + part.replace(/\n$/, '') + more;
}

// readWithWalls (wb_read) is read_page or get_accessibility_tree with the
// agent's readings of the page's walls (walls.mjs): the text with what a
// wall withholds left out, the gate and the texts nobody has read yet.
export function readWithWalls(args) {
  const { gate, needed } = readWalls(args.walls);
  try {
    const a = args.args && typeof args.args === 'object' ? args.args : {};
    const text = args.tool === 'get_accessibility_tree' ? getTree(a) : clip(readPage(a), RESULT_CAP - 400);
    return { text: gateLine(gate) + text, pageGate: gate, pageTextsNeeded: needed };
  } finally {
    clearWalls(); // a later read without the readings withholds nothing
  }
}

// pageTextInfo (wb_text) is the readable text of the whole page, as
// read_page pages it, for research_url's background tab: the background
// pages it itself.
export const PAGE_TEXT_MAX = 200000;
export function pageTextInfo() {
  const text = pageText();
  return { url: location.href, title: doc.title, text: text.slice(0, PAGE_TEXT_MAX), total: text.length };
}

// --------------------------------------------------------- small readers

export function getSelectionTool() {
  const a = deepActive();
  let text = '',
    where = null;
  const sel = isTextField(a) ? selectionOf(a) : null;
  if (sel && sel[1] > sel[0]) {
    if (a.type === 'password') return `The selection is in ${describe(a)}, a password field; its text is not read.`;
    text = a.value.slice(sel[0], sel[1]);
    where = a;
  } else {
    const s = (a.ownerDocument || doc).getSelection();
    text = s ? s.toString() : '';
    const n = s && s.anchorNode;
    where = n ? (n.nodeType === 1 ? n : n.parentElement) : null;
    const host = where && where.closest && where.closest('[contenteditable]:not([contenteditable=false])');
    where =
      host ||
      (where && where.closest && where.closest('p, li, td, th, h1, h2, h3, h4, h5, h6, blockquote, pre, section, article')) ||
      where;
  }
  if (!text.trim()) return 'Nothing is selected on the page.';
  return `Selected text (${text.length} characters${where ? ', in ' + describe(where) : ''}):\n${clip(text, RESULT_CAP - 200)}`;
}

export function getWindowInfo() {
  const p = scrollPosition(doc.scrollingElement || doc.documentElement);
  const focus = deepActive();
  const dialogs = openDialogs();
  return [
    `URL: ${location.href}`,
    `Title: ${doc.title || '(none)'}`,
    `Viewport: ${win.innerWidth}×${win.innerHeight} CSS pixels (device pixel ratio ${win.devicePixelRatio})`,
    `Scroll: x=${p.x}, y=${p.y}; page size ${p.W}×${p.H}` +
      (p.maxY > 0 ? (p.y >= p.maxY - 1 ? ' (at the bottom)' : p.y <= 0 ? ' (at the top)' : '') : ' (fits in the viewport)'),
    `Focused: ${focus && focus !== doc.body ? describe(focus) : 'nothing (the page itself)'}`,
    `Dialog open: ${dialogs.length ? dialogs.map(describe).join(', ') : 'none'}`,
    `Loading state: ${doc.readyState}`,
  ].join('\n');
}
