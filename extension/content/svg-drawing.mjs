// svg-drawing.mjs — what the page tree says about the parts of an inline
// <svg> a person reads or clicks (docs/decisions/svg-drawings.md): the
// words for a part without a name of its own (its id read as words or a
// point, else its shape and colour), its colour as a word, and the
// selectors of :hover rules that give a part a pointer cursor. Pure
// functions of an element and its computed style; the walk is in
// accessibility-tree.mjs.
import { clip, squash } from './text.mjs';

export const SVG_PARTS_MAX = 100; // parts shown per svg: targets and text pieces
export const SVG_VISIT_MAX = 600; // elements looked at per svg
export const SVG_TEXT_MAX = 80; // longest piece of drawn text

// Elements that draw something or group what does; the rest (defs,
// clipPath, mask, marker, pattern, symbol, gradients, title, desc, style,
// script, foreignObject) are not looked into.
// biome-ignore format: a table, packed as written
export const SVG_DRAWN = new Set(['circle', 'ellipse', 'rect', 'polygon', 'polyline', 'path', 'line', 'text', 'g', 'use',
  'image', 'a', 'svg', 'switch']);
// Of those, the ones whose children are looked into.
export const SVG_GROUPS = new Set(['g', 'a', 'svg', 'switch']);

// Basic colour words and the common shades a page draws them with
// (named CSS colours, the usual chart palettes); a colour within
// COLOUR_NEAR of one of them is called by its word, another by its hex.
// biome-ignore format: a table, packed as written
const COLOURS = [
  ['red', 'ff0000 dc143c b22222 d62728 e74c3c f44336 c0392b cc0000 ee0000 ff3333 e53935'],
  ['green', '008000 00ff00 2ca02c 228b22 32cd32 4caf50 27ae60 006400 00aa00 00cc00 2e8b57 3cb371'],
  ['blue', '0000ff 1f77b4 4169e1 1e90ff 2196f3 3498db 00008b 000080 0000cd 4682b4 0066cc 3366cc 0000aa'],
  ['yellow', 'ffff00 ffd700 f1c40f ffeb3b ffcc00 eeee00'],
  ['orange', 'ffa500 ff7f0e ff8c00 ff9800 e67e22 ff6600'],
  ['purple', '800080 9467bd 8e44ad 9c27b0 663399 4b0082 8a2be2 9932cc'],
  ['pink', 'ffc0cb ff69b4 e377c2 ff1493 e91e63 ffb6c1'],
  ['brown', 'a52a2a 8c564b 8b4513 d2691e 795548 a0522d'],
  ['cyan', '00ffff 17becf 00bcd4 40e0d0 00ced1'],
  ['lightblue', 'add8e6 87ceeb 87cefa b0c4de 6495ed 7fb0ff 90caf9 64b5f6 85c1e9 aec7e8'],
  ['magenta', 'ff00ff ee00ee'],
  ['gray', '808080 7f7f7f a9a9a9 c0c0c0 d3d3d3 696969 9e9e9e 95a5a6 888888 999999 aaaaaa bbbbbb cccccc 666666 777777'],
  ['black', '000000 111111 222222'],
  ['white', 'ffffff f5f5f5 fafafa eeeeee'],
].flatMap(([word, list]) =>
  list.split(' ').map((hex) => [word, parseInt(hex.slice(0, 2), 16), parseInt(hex.slice(2, 4), 16), parseInt(hex.slice(4), 16)]),
);
const COLOUR_NEAR = 40;
// CSS colour keywords a page writes that the words above would blur (lime
// and green side by side, olive and yellow): a colour that is exactly one
// of them is called by it, as the page's author and a task's text call it.
// biome-ignore format: a table, packed as written
const KEYWORDS = new Map(Object.entries({'00ff00': 'lime', '808000': 'olive', '000080': 'navy', '008080': 'teal',
  'c0c0c0': 'silver', '800000': 'maroon', ffd700: 'gold', '4b0082': 'indigo', ee82ee: 'violet', ff7f50: 'coral',
  fa8072: 'salmon', f0e68c: 'khaki', d2b48c: 'tan', dc143c: 'crimson', '40e0d0': 'turquoise', ff6347: 'tomato',
  e6e6fa: 'lavender', da70d6: 'orchid', '7fffd4': 'aquamarine', '87ceeb': 'skyblue', '90ee90': 'lightgreen',
  add8e6: 'lightblue', '8b0000': 'darkred', '006400': 'darkgreen', '00008b': 'darkblue'}));

// paint is a computed fill or stroke ("rgb(0, 0, 255)", "none",
// "url(#g) …") as {word, hex}, or null for no paint or a pattern or
// gradient.
export function paint(value) {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+%?))?\s*\)$/.exec(value || '');
  if (!m) return null;
  if (m[4] !== undefined && parseFloat(m[4]) === 0) return null;
  const r = Math.round(+m[1]);
  const g = Math.round(+m[2]);
  const b = Math.round(+m[3]);
  const six = [r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('');
  const hex = '#' + six;
  let word = KEYWORDS.get(six) || '';
  if (word) return { word, hex };
  let best = COLOUR_NEAR * COLOUR_NEAR + 1;
  for (const [w, cr, cg, cb] of COLOURS) {
    const d = (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2;
    if (d < best) {
      best = d;
      word = w;
    }
  }
  return { word, hex };
}

// idWords is an id or data-name that reads as words ("north-america",
// "Texas", "pieSlice") or as a point ("(1,-2)", "3,4"), as shown; "" for
// a generated one ("path123", "svg_7", "a1b2c3").
export function idWords(id) {
  const s = squash(id || '');
  if (!s || s.length > 40) return '';
  if (/^\(?\s*-?\d+(?:\.\d+)?\s*,\s*-?\d+(?:\.\d+)?\s*\)?$/.test(s)) return s;
  if (/\d/.test(s)) return '';
  const words = s
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean);
  if (!words.length || words.some((w) => !/^[A-Za-z]{2,}$/.test(w) && !/^\p{L}+$/u.test(w))) return '';
  return words.join(' ');
}

// shapeKind is what a person calls a drawn element of that tag and box.
export function shapeKind(el, tag, rect) {
  switch (tag) {
    case 'circle':
      return 'circle';
    case 'ellipse':
      return Math.abs(rect.width - rect.height) < 1 ? 'circle' : 'ellipse';
    case 'rect':
      return Math.abs(rect.width - rect.height) < 1 ? 'square' : 'rectangle';
    case 'polygon': {
      const n = el.points ? el.points.numberOfItems : 0;
      return { 3: 'triangle', 4: 'quadrilateral', 5: 'pentagon', 6: 'hexagon', 8: 'octagon' }[n] || 'polygon';
    }
    case 'line':
    case 'polyline':
      return 'line';
    case 'image':
      return 'image';
    case 'use': {
      const ref = (el.getAttribute('href') || el.getAttribute('xlink:href') || '').replace(/^.*#/, '');
      return idWords(ref.replace(/^(icon|ico|ic|svg|i)[-_]/i, '')) || 'icon';
    }
    default:
      return 'shape';
  }
}

// partText is the text an svg part draws (a <text>, a group's labels),
// squashed and clipped.
export function partText(el, tag) {
  if (tag === 'text') return clip(squash(drawnText(el)), SVG_TEXT_MAX);
  const texts = el.getElementsByTagName('text');
  if (!texts.length) return '';
  let s = '';
  for (let i = 0; i < texts.length && i < 6 && s.length < SVG_TEXT_MAX; i++) s += ' ' + drawnText(texts[i]);
  return clip(squash(s), SVG_TEXT_MAX);
}

// drawnText is a <text>'s characters, a space before each <tspan> placed
// on its own (a new line of a wrapped label: x, y or dy set).
function drawnText(text) {
  let s = '';
  for (let n = text.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3) s += n.nodeValue;
    else if (n.nodeType === 1 && n.localName !== 'title' && n.localName !== 'desc') {
      if (n.localName === 'tspan' && (n.hasAttribute('x') || n.hasAttribute('y') || n.hasAttribute('dy'))) s += ' ';
      s += drawnText(n);
    }
  }
  return s;
}

// firstShape is the first drawn element of a group, which stands for it
// when the group has no text or name.
export function firstShape(el) {
  for (const c of el.querySelectorAll('circle, ellipse, rect, polygon, polyline, path, line, image, use')) {
    if (!c.closest('defs, clipPath, mask, marker, pattern, symbol')) return c;
  }
  return null;
}

// pointerHoverSelector is the element part of one selector of a :hover
// rule that sets a pointer cursor ("svg .point:hover" → "svg .point"), or
// "" when :hover is inside a function (":not(:hover)") or what is left is
// not a valid selector.
export function pointerHoverSelector(sel) {
  if (/\(\s*[^)]*:hover/.test(sel)) return '';
  const s = sel.replace(/:hover/g, '').trim();
  if (!s || /[\s>+~]$/.test(s) || s.includes('::')) return '';
  try {
    document.createDocumentFragment().querySelector(s);
  } catch {
    return '';
  }
  return s;
}
