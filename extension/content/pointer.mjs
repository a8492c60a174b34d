// Content script part: clicks. Where a pointer lands, what
// covers a target, the synthetic pointer and mouse sequence, and the
// click_ax and click tools.
import { deepActive } from './dom.mjs';
import { NO_CHANGE, describe, describeShowing, doc, fail, hasRef, isDisabled, isVisible, quote, resolve, win } from './core.mjs';
import { observe } from './observe.mjs';
import { setSelect } from './fields.mjs';

function viewportSize(w = win) {
  return { w: w.innerWidth, h: w.innerHeight };
}

// clickPoint is the centre of the element's first box that shows in the
// viewport (a wrapped link has several boxes; a huge one is partly shown).
export function clickPoint(el) {
  const { w, h } = viewportSize(el.ownerDocument.defaultView);
  const boxes = [...el.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
  if (!boxes.length) boxes.push(el.getBoundingClientRect());
  for (const r of boxes) {
    const left = Math.max(r.left, 0),
      right = Math.min(r.right, w);
    const top = Math.max(r.top, 0),
      bottom = Math.min(r.bottom, h);
    if (right > left && bottom > top) {
      const centre = { x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) };
      return el.ownerSVGElement ? onShape(el, centre, left, top, right, bottom) : centre;
    }
  }
  return null;
}

// onShape is a point of the shown box where a drawn svg part itself is hit,
// nearest the centre: a donut's arc, a ring or a thin slice does not cover
// the centre of its box (the hole, another slice). The centre when it
// already hits the part, or when no point of a coarse grid does.
function onShape(el, centre, left, top, right, bottom) {
  const root = el.getRootNode();
  const from = typeof root.elementFromPoint === 'function' ? root : el.ownerDocument;
  const hits = (x, y) => {
    const h = from.elementFromPoint(x, y);
    return !!h && (h === el || el.contains(h));
  };
  if (hits(centre.x, centre.y)) return centre;
  const n = 9;
  let best = null;
  let bestD = Infinity;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const x = Math.round(left + ((right - left) * (i + 0.5)) / n);
      const y = Math.round(top + ((bottom - top) * (j + 0.5)) / n);
      const d = (x - centre.x) ** 2 + (y - centre.y) ** 2;
      if (d < bestD && hits(x, y)) {
        best = { x, y };
        bestD = d;
      }
    }
  }
  return best || centre;
}

export function scrollIntoViewIfNeeded(el) {
  const p = clickPoint(el);
  const r = el.getBoundingClientRect();
  const { w, h } = viewportSize(el.ownerDocument.defaultView);
  if (p && r.top >= 0 && r.left >= 0 && r.bottom <= h && r.right <= w) return;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}

const labelFor = (el, node) => {
  const lab = node.closest && node.closest('label');
  return !!lab && (lab.control === el || lab.contains(el) || (el.localName === 'label' && lab === el));
};

// hitTest says what a real pointer at (x, y) would reach: the element, a
// part of it, its own label, or something covering it.
function hitTest(el, x, y) {
  const root = el.getRootNode();
  const top = (typeof root.elementFromPoint === 'function' ? root : el.ownerDocument).elementFromPoint(x, y);
  if (!top) return { blocker: null, outside: true };
  if (top === el || el.contains(top)) return { target: top };
  if (top.contains(el)) return { target: el }; // el ignores pointer events; its container gets them
  if (labelFor(el, top)) return { target: el };
  if (el.localName === 'label' && el.control && (top === el.control || el.control.contains(top))) return { target: top };
  return { blocker: top };
}

// A visually hidden native checkbox or radio is operated through its label,
// as a person does.
export function clickableFor(el) {
  if (isVisible(el) || !el.labels) return el;
  return [...el.labels].find(isVisible) || el;
}

// -------------------------------------------------------- pointer events

// Events are built with this script's own constructors: in a Firefox
// content script the page's constructors are reached through Xray
// wrappers, and an event from either realm dispatches the same.
export function fireMouse(target, type, x, y, extra = {}) {
  const w = target.ownerDocument.defaultView;
  const noBubble = /^(mouse|pointer)(enter|leave)$/.test(type);
  const init = {
    bubbles: !noBubble,
    cancelable: !noBubble,
    composed: true,
    view: w,
    clientX: x,
    clientY: y,
    screenX: w.screenX + x,
    screenY: w.screenY + y,
    button: 0,
    buttons: 0,
    detail: type.startsWith('pointer') ? 0 : 1,
    ...extra,
  };
  const Ctor = type.startsWith('pointer') && typeof PointerEvent === 'function' ? PointerEvent : MouseEvent;
  if (type.startsWith('pointer'))
    Object.assign(init, {
      pointerId: 1,
      pointerType: 'mouse',
      isPrimary: true,
      width: 1,
      height: 1,
      pressure: init.buttons ? 0.5 : 0,
    });
  return target.dispatchEvent(new Ctor(type, init));
}

export const FOCUSABLE =
  'a[href], area[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable]:not([contenteditable=false])';

// A mousedown's default action moves focus; synthetic ones do not, so do it.
function focusFromPointer(target) {
  const f = target.closest(FOCUSABLE);
  if (f && !isDisabled(f)) {
    f.focus({ preventScroll: true });
    return;
  }
  const a = deepActive();
  if (a && a !== doc.body && !a.contains(target) && typeof a.blur === 'function') a.blur();
}

// clickAt dispatches the full pointer and mouse sequence a real click makes.
// A cancelled pointerdown suppresses the compatibility mouse events, as in
// browsers; the click is still sent.
export function clickAt(target, x, y) {
  fireMouse(target, 'pointerover', x, y);
  fireMouse(target, 'pointerenter', x, y);
  fireMouse(target, 'mouseover', x, y);
  fireMouse(target, 'mouseenter', x, y);
  fireMouse(target, 'pointermove', x, y);
  fireMouse(target, 'mousemove', x, y);
  const down = fireMouse(target, 'pointerdown', x, y, { buttons: 1 });
  const mdown = down ? fireMouse(target, 'mousedown', x, y, { buttons: 1 }) : false;
  if (mdown) focusFromPointer(target);
  fireMouse(target, 'pointerup', x, y);
  if (down) fireMouse(target, 'mouseup', x, y);
  return fireMouse(target, 'click', x, y);
}

// ----------------------------------------------------------- click tools

// aimAt scrolls el into view and finds where a pointer must go to click
// it, refusing a hidden, disabled or covered target (a pointer that only
// moves over it, verb "hovered", may reach a disabled one).
export function aimAt(el, verb = 'clicked') {
  const target0 = clickableFor(el);
  scrollIntoViewIfNeeded(target0);
  const point = clickPoint(target0);
  if (!point || !isVisible(target0)) {
    fail(
      `${describe(el)} is not visible on the page (hidden or zero size), so it cannot be ${verb}. ` +
        'It may appear after opening a menu or section; read the tree again.',
    );
  }
  if (verb === 'clicked' && isDisabled(el))
    fail(`${describe(el)} is disabled; a click would do nothing. Complete the fields it depends on first.`);
  const hit = hitTest(target0, point.x, point.y);
  if (hit.outside) fail(`${describe(el)} is outside the viewport even after scrolling.`);
  if (hit.blocker) {
    fail(
      `${describe(el)} is covered by ${describeShowing(hit.blocker)} at (${point.x}, ${point.y}), so ${verb === 'clicked' ? 'a click would hit' : 'the pointer would reach'} that instead. ` +
        'Close or dismiss the covering element first (a dialog, banner or overlay), or scroll so the target is clear.',
    );
  }
  return { target0, point, hitTarget: hit.target };
}

export const clickedText = (el, target0, point, changes) =>
  `Clicked ${describe(el)}${target0 !== el ? ` through its label ${quote(target0.innerText || target0.textContent)}` : ''} at (${point.x}, ${point.y}). ${changes || NO_CHANGE}`;

export async function clickElement(el) {
  if (el.localName === 'option' && el.parentElement) {
    const sel = el.closest('select');
    if (sel) return setSelect(sel, { values: [el.value] });
  }
  const { target0, point, hitTarget } = aimAt(el);
  const { changes } = await observe(() => clickAt(hitTarget, point.x, point.y), el);
  return clickedText(el, target0, point, changes);
}

export async function clickAx(args) {
  return clickElement(resolve(args.ref));
}

// pointTarget checks click coordinates and finds what is under them.
export function pointTarget(args) {
  const x = Number(args.x),
    y = Number(args.y);
  if (!Number.isFinite(x) || !Number.isFinite(y)) fail('Pass "ref", or both "x" and "y" (viewport CSS pixels).');
  const { w, h } = viewportSize();
  if (x < 0 || y < 0 || x >= w || y >= h)
    fail(`(${x}, ${y}) is outside the ${w}×${h} viewport; scroll first or use coordinates inside it.`);
  const target = doc.elementFromPoint(x, y);
  if (!target) fail(`Nothing is at (${x}, ${y}).`);
  return { target, x, y };
}

export async function click(args) {
  if (hasRef(args)) return clickAx(args);
  const { target, x, y } = pointTarget(args);
  const { changes } = await observe(() => clickAt(target, x, y), target);
  return `Clicked ${describe(target)} at (${x}, ${y}). ${changes || NO_CHANGE}`;
}
