// Content script part: the walls in front of an article (pageGate;
// docs/decisions/page-walls.md). A page read finds the candidates (an
// overlay on an article page, a block inside the article offering a
// control a wall would), reads them with the readings the agent sends
// (texts a model read with the page_blocker question), withholds what a
// wall keeps from the reader and reports the texts nobody has read yet.
// The page decides nothing here: a text is a wall only when a model read
// it as one, and an unread text is no wall.
import { squash } from './text.mjs';
import { defineExport, ownFunction } from './dom.mjs';
import { doc, isVisible, win } from './core.mjs';

export const CHUNK = 600; // characters of one text
export const MAX_CHUNKS = 30; // chunks read per candidate
export const MAX_NEEDED = 40; // unread texts one read reports
const BLOCK_MAX = 2000; // a wall block is short: climbing stops at a longer parent

const WALL = 'wall';

// keyOf is a text as the readings know it: spaces collapsed, at most
// limit UTF-16 units, and a text cut at its limit loses a trailing space
// or half of a surrogate pair. wasm/tools/walls.go keys alike.
export function keyOf(text, limit = CHUNK) {
  let s = squash(text);
  if (s.length > limit) {
    s = s.slice(0, limit);
    const c = s.charCodeAt(s.length - 1);
    if (c >= 0xd800 && c <= 0xdbff) s = s.slice(0, -1);
    s = s.replace(/ $/, '');
  }
  return s;
}

// shapeOf is a text with its numbers blanked: texts differing only in
// their numbers (a countdown) share it.
export const shapeOf = (key) => key.replace(/[0-9]+/g, '#');

// Readings the agent sent: exact texts, and the shapes read only as walls.
class Readings {
  constructor(args) {
    this.exact = new Map();
    for (const r of Array.isArray(args.readings) ? args.readings : []) {
      if (Array.isArray(r) && typeof r[0] === 'string' && typeof r[1] === 'string') this.exact.set(r[0], r[1]);
    }
    this.shapes = args.shapes && typeof args.shapes === 'object' ? args.shapes : {};
  }
  // of answers {wall, read, need}: read is false for a text nobody read;
  // need asks for it to be read (unread, or a shape seen as a wall once).
  of(key) {
    if (this.exact.has(key)) return { wall: this.exact.get(key) === WALL, read: true, need: false };
    const n = Number(Object.hasOwn(this.shapes, shapeOf(key)) ? this.shapes[shapeOf(key)] : 0);
    if (n > 0) return { wall: true, read: true, need: n < 2 };
    return { wall: false, read: false, need: true };
  }
}

const isBlockDisplay = (st) => !(st.display.startsWith('inline') || st.display === 'contents');
const HEADING = /^h[1-6]$/;
const isHeading = (el) => HEADING.test(el.localName) || el.getAttribute('role') === 'heading';
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object']);

function shown(el) {
  if (SKIP.has(el.localName) || el.hidden) return false;
  const st = getComputedStyle(el);
  return st.display !== 'none' && st.visibility !== 'hidden' && st.visibility !== 'collapse';
}

// textOf is an element's rendered text, read once per wall read (a block
// is found by climbing from each control, which reads the same ancestors).
let textCache = null;
function textOf(el) {
  let t = textCache && textCache.get(el);
  if (t === undefined) {
    t = squash(el.innerText ?? el.textContent);
    if (textCache) textCache.set(el, t);
  }
  return t;
}

// pieces splits a long inline text into texts of at most CHUNK units,
// never inside a surrogate pair.
function pieces(s) {
  const out = [];
  while (s.length > CHUNK) {
    let cut = CHUNK;
    const c = s.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut--;
    out.push(s.slice(0, cut));
    s = s.slice(cut);
  }
  if (s) out.push(s);
  return out;
}

// units lists el's readable parts in page order: el itself, or, when it is
// longer than a chunk and has block children, its block children (each
// read the same way) and the inline stretches between them.
function units(el, out) {
  const text = textOf(el);
  if (!text) return;
  const blocks = [...el.children].filter((c) => shown(c) && isBlockDisplay(getComputedStyle(c)));
  if (text.length <= CHUNK || blocks.length === 0) {
    const heading = startsWithHeading(el, text);
    for (const p of pieces(text)) out.push({ el, text: p, heading });
    return;
  }
  let inline = '';
  let inlineEl = null;
  const flush = () => {
    const t = squash(inline);
    if (t) for (const p of pieces(t)) out.push({ el: inlineEl || el, text: p, heading: false });
    inline = '';
    inlineEl = null;
  };
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3) {
      inline += c.data;
      continue;
    }
    if (c.nodeType !== 1 || !shown(c)) continue;
    if (blocks.includes(c)) {
      flush();
      units(c, out);
    } else {
      inlineEl = inlineEl || c;
      inline += ' ' + (c.innerText ?? '');
    }
  }
  flush();
}

// startsWithHeading: el is a heading or its text begins with one.
function startsWithHeading(el, text) {
  if (isHeading(el)) return true;
  const h = el.querySelector('h1, h2, h3, h4, h5, h6, [role=heading]');
  return !!h && text.startsWith(textOf(h));
}

// chunksOf gathers el's units into texts of at most CHUNK characters, a
// heading starting a new one; at most MAX_CHUNKS, in page order. Each
// chunk names the element it begins in and the elements it holds.
export function chunksOf(el) {
  const list = [];
  units(el, list);
  const out = [];
  let cur = null;
  for (const u of list) {
    if (cur && !u.heading && cur.text.length + 1 + u.text.length <= CHUNK) {
      cur.text += ' ' + u.text;
      if (!cur.els.includes(u.el)) cur.els.push(u.el);
      continue;
    }
    if (cur) out.push(cur);
    if (out.length >= MAX_CHUNKS) return out;
    cur = { el: u.el, els: [u.el], text: u.text };
  }
  if (cur && out.length < MAX_CHUNKS) out.push(cur);
  return out;
}

// ownTexts are an element's own name and title.
function ownTexts(el) {
  const out = [];
  let name = el.getAttribute('aria-label') || '';
  const by = el.getAttribute('aria-labelledby');
  if (!name && by)
    name = by
      .split(/\s+/)
      .map((id) => {
        const n = doc.getElementById(id);
        return n ? n.textContent : '';
      })
      .join(' ');
  if (squash(name)) out.push(squash(name));
  const title = squash(el.getAttribute('title'));
  if (title && title !== squash(name)) out.push(title);
  return out;
}

// articleRoot is the article a page shows: its one visible article, else
// its main region; null on a page without one.
export function articleRoot() {
  const articles = [...doc.querySelectorAll('article')].filter((a) => !a.parentElement?.closest('article') && isVisible(a));
  if (articles.length === 1) return articles[0];
  const main = [...doc.querySelectorAll('main, [role=main]')].find(isVisible);
  return main || null;
}

const OVERLAY_ROLES = new Set(['dialog', 'alertdialog']);

function isOverlay(el, st) {
  const role = el.getAttribute('role');
  const positioned = st.position === 'fixed' || st.position === 'sticky';
  const modal = (el.localName === 'dialog' && el.open) || OVERLAY_ROLES.has(role) || el.getAttribute('aria-modal') === 'true';
  if (!positioned && !modal) return false;
  if (el.localName === 'nav' || el.localName === 'header' || role === 'navigation' || role === 'banner') return false;
  if (!isVisible(el) || !textOf(el)) return false;
  const r = el.getBoundingClientRect();
  return modal || r.width * r.height >= win.innerWidth * win.innerHeight * 0.1 || !!el.querySelector(CONTROLS);
}

// overlays are the outermost overlays of the page; an element holding
// the article (an app's fixed frame) is none, and is looked into.
function overlays(root) {
  const out = [];
  const walk = (node) => {
    for (const c of node.children) {
      if (!shown(c)) continue;
      if (!c.contains(root) && isOverlay(c, getComputedStyle(c))) out.push(c);
      else walk(c);
    }
  };
  if (doc.body) walk(doc.body);
  return out;
}

const CONTROLS = 'button, input:not([type=hidden]), select, textarea, form, [role=button], a[href]';

function blockOf(el) {
  let b = el.parentElement;
  while (b && !isBlockDisplay(getComputedStyle(b))) b = b.parentElement;
  return b;
}

// standsAlone: a link is the whole text of its block.
const standsAlone = (a) => {
  const b = blockOf(a);
  return !!b && textOf(b) === textOf(a);
};

// articleBlocks are the blocks inside root that offer a control a wall
// would: a button, a field, a form or a link standing on its own. A
// block is the control's highest ancestor below root that stays short.
function articleBlocks(root, skip) {
  const out = [];
  for (const c of root.querySelectorAll(CONTROLS)) {
    if (skip.some((o) => o.contains(c)) || !isVisible(c)) continue;
    if (c.localName === 'a' && !standsAlone(c)) continue;
    let b = c;
    while (b.parentElement && b.parentElement !== root && textOf(b.parentElement).length <= BLOCK_MAX) b = b.parentElement;
    if (!textOf(b) || out.some((o) => o.contains(b))) continue;
    for (let i = out.length - 1; i >= 0; i--) if (b.contains(out[i])) out.splice(i, 1);
    out.push(b);
  }
  return out;
}

// state is the last read's withholding, for the tree's script too.
let withheldNodes = new Set();
const withheld = (n) => withheldNodes.has(n);
if (!ownFunction('__wb_withheld')) defineExport('__wb_withheld', withheld);
export const isWithheld = withheld;
export function clearWalls() {
  withheldNodes = new Set();
}

// around adds to set what a wall at keep withholds inside root: every
// sibling on the way up (following ones only, for a wall inside the
// article: the preview before it stays).
function around(set, root, keep, followingOnly) {
  for (let a = keep; a && a !== root; a = a.parentNode) {
    for (let s = a.nextSibling; s; s = s.nextSibling) set.add(s);
    if (!followingOnly) for (let s = a.previousSibling; s; s = s.previousSibling) set.add(s);
  }
}

const firstLine = (el) => (el.innerText || '').split('\n').map(squash).find(Boolean) || '';

// readWalls reads the candidates with the readings in args and sets what
// the next page read withholds. It answers {gate, needed}: gate is null or
// {blocking, kind, label}; needed the unread texts, overlays first.
export function readWalls(args) {
  textCache = new Map();
  try {
    return readWallsNow(args);
  } finally {
    textCache = null;
  }
}

function readWallsNow(args) {
  withheldNodes = new Set();
  const root = articleRoot();
  if (!root) return { gate: null, needed: [] };
  const readings = new Readings(args || {});
  const needed = [];
  const seen = new Set();
  const need = (key) => {
    if (needed.length < MAX_NEEDED && key && !seen.has(key)) {
      seen.add(key);
      needed.push(key);
    }
  };
  // One candidate's texts in order up to the first wall: index of the
  // wall (-1: none) and of the first unread text before it.
  const readTexts = (texts) => {
    let unread = -1;
    for (let i = 0; i < texts.length; i++) {
      const key = keyOf(texts[i].text);
      if (!key) continue;
      const r = readings.of(key);
      if (r.need) need(key);
      if (r.wall) return { wall: i, unread };
      if (!r.read && unread < 0) unread = i;
    }
    return { wall: -1, unread };
  };

  const overs = overlays(root);
  for (const o of overs) {
    const texts = [...ownTexts(o).map((text) => ({ text, own: true })), ...chunksOf(o)];
    const r = readTexts(texts);
    if (r.wall >= 0) {
      const names = ownTexts(o);
      if (root.contains(o)) around(withheldNodes, root, o, false);
      else withheldNodes.add(root);
      return { gate: { blocking: true, kind: 'overlay', label: names[0] || firstLine(o) }, needed };
    }
  }
  let best = null;
  for (const b of articleBlocks(root, overs)) {
    const own = ownTexts(b);
    const chunks = chunksOf(b);
    const r = readTexts([...own.map((text) => ({ text, own: true })), ...chunks]);
    if (r.wall < 0) continue;
    const texts = [...own.map((text) => ({ text, el: b })), ...chunks];
    const startAt = r.unread >= 0 ? r.unread : r.wall;
    const start = texts[startAt].el || b;
    if (best && !(best.start.compareDocumentPosition(start) & Node.DOCUMENT_POSITION_PRECEDING)) continue;
    let label = own[0] || '';
    if (!label && r.unread < 0) label = firstLine(start);
    // The wall itself: in its chunk, the first element holding a control
    // (what comes before it in the chunk goes with the article), else the
    // smallest element around the chunk that holds one, inside the block.
    // What follows the wall is the article.
    const hasControl = (e) => e.matches(CONTROLS) || !!e.querySelector(CONTROLS);
    const chunk = texts[r.wall];
    let wall = chunk.el || b;
    let before = [];
    const at = chunk.els ? chunk.els.findIndex(hasControl) : -1;
    if (at >= 0) {
      wall = chunk.els[at];
      before = chunk.els.slice(0, at);
    } else {
      while (wall !== b && !hasControl(wall)) wall = wall.parentElement;
    }
    best = { block: b, start, wall, before, label, chunks, from: startAt - own.length, to: r.wall - own.length };
  }
  if (best) {
    around(withheldNodes, root, best.wall, true);
    // Unread chunks of the wall's block before its text go with it, and so
    // does the part of its own chunk before it.
    const gone = [...best.chunks.slice(Math.max(0, best.from), Math.max(0, best.to)).flatMap((c) => c.els), ...best.before];
    for (const el of gone) if (!el.contains(best.wall)) withheldNodes.add(el);
    return { gate: { blocking: true, kind: 'inline', label: best.label }, needed };
  }
  return { gate: null, needed };
}

// gateLine opens a walled page's read: what WebBrain withheld.
export function gateLine(gate) {
  if (!gate || !gate.blocking) return '';
  const what = gate.kind === 'overlay' ? 'an overlay' : 'a block inside the article';
  const label = gate.label ? ` (${JSON.stringify(gate.label.slice(0, 120))})` : '';
  return `[Page wall: ${what}${label} keeps the article from the reader until they subscribe, register or sign in. WebBrain withholds the article's text, links, forms and frames behind it; the wall's own text and controls, and any preview before it, are shown.]\n`;
}
