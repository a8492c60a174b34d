// Content script part: the scroll tool and finding what
// scrolls (the document, or an app's own scrolling pane).
import { describe, doc, fail, hasRef, isVisible, resolve, sleep, win } from './core.mjs';

const canScroll = (el, axis) => {
  const over = axis === 'y' ? el.scrollHeight - el.clientHeight : el.scrollWidth - el.clientWidth;
  if (over <= 1) return false;
  if (el === doc.scrollingElement) return true;
  const s = getComputedStyle(el)[axis === 'y' ? 'overflowY' : 'overflowX'];
  return s === 'auto' || s === 'scroll' || s === 'overlay';
};

// pageScroller is the document, or when the document does not scroll (an
// app with its own scrolling pane) the largest visible scrollable element.
export function pageScroller(axis) {
  const root = doc.scrollingElement || doc.documentElement;
  if (canScroll(root, axis)) return root;
  let best = null,
    area = 0;
  for (const el of doc.body ? doc.body.querySelectorAll('*') : []) {
    if ((axis === 'y' ? el.scrollHeight <= el.clientHeight + 1 : el.scrollWidth <= el.clientWidth + 1) || !canScroll(el, axis))
      continue;
    const r = el.getBoundingClientRect();
    if (r.width * r.height > area && isVisible(el)) {
      best = el;
      area = r.width * r.height;
    }
  }
  return best || root;
}

function scrollableAncestor(el, axis) {
  for (let e = el; e; e = e.parentElement || (e.getRootNode() && e.getRootNode().host) || null) {
    if (canScroll(e, axis)) return e;
  }
  return pageScroller(axis);
}

export function scrollPosition(box) {
  const isPage = box === doc.scrollingElement || box === doc.documentElement;
  const name = isPage ? 'page' : describe(box);
  const y = Math.round(box.scrollTop),
    x = Math.round(box.scrollLeft);
  const maxY = box.scrollHeight - box.clientHeight,
    maxX = box.scrollWidth - box.clientWidth;
  return {
    name,
    x,
    y,
    maxX: Math.max(0, Math.round(maxX)),
    maxY: Math.max(0, Math.round(maxY)),
    h: box.clientHeight,
    w: box.clientWidth,
    H: box.scrollHeight,
    W: box.scrollWidth,
  };
}

function whereText(p) {
  const v =
    p.maxY <= 0
      ? 'no vertical scrolling'
      : p.y <= 0
        ? 'at the top'
        : p.y >= p.maxY - 1
          ? 'at the bottom'
          : `${p.maxY - p.y}px more below`;
  const hz = p.maxX > 0 ? `, x=${p.x} of ${p.W} wide` + (p.x >= p.maxX - 1 ? ' (at the right end)' : '') : '';
  return `${p.name} now at y=${p.y} of ${p.H} high (viewport ${p.h}px), ${v}${hz}`;
}

export async function scroll(args) {
  const dir = args.direction ? String(args.direction).toLowerCase() : '';
  if (dir && !['up', 'down', 'left', 'right', 'top', 'bottom'].includes(dir))
    fail(`Unknown direction "${args.direction}"; use up, down, left, right, top or bottom.`);
  const el = hasRef(args) ? resolve(args.ref) : null;
  if (el && !dir) {
    el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    await sleep(50);
    const r = el.getBoundingClientRect();
    return `Scrolled ${describe(el)} into view: its top-left is at (${Math.round(r.left)}, ${Math.round(r.top)}) in the ${win.innerWidth}×${win.innerHeight} viewport${isVisible(el) ? '' : ' (it is not visible: hidden or zero size)'}. ${whereText(scrollPosition(pageScroller('y')))}.`;
  }
  const d = dir || 'down';
  const axis = d === 'left' || d === 'right' ? 'x' : 'y';
  const box = el ? scrollableAncestor(el, axis) : pageScroller(axis);
  const view =
    axis === 'y'
      ? box === doc.scrollingElement
        ? win.innerHeight
        : box.clientHeight
      : box === doc.scrollingElement
        ? win.innerWidth
        : box.clientWidth;
  let amount;
  if (args.amount === undefined || args.amount === null || args.amount === '' || String(args.amount).toLowerCase() === 'page')
    amount = Math.round(view * 0.85);
  else {
    amount = Number(args.amount);
    if (!Number.isFinite(amount) || amount <= 0)
      fail(`"amount" must be a number of pixels or "page", not ${JSON.stringify(args.amount)}.`);
  }
  const before = scrollPosition(box);
  if (d === 'top') box.scrollTo({ top: 0, behavior: 'instant' });
  else if (d === 'bottom') box.scrollTo({ top: box.scrollHeight, behavior: 'instant' });
  else {
    const sign = d === 'up' || d === 'left' ? -1 : 1;
    box.scrollBy({ [axis === 'y' ? 'top' : 'left']: sign * amount, behavior: 'instant' });
  }
  await sleep(120); // lets lazy loaders react to the scroll event
  const after = scrollPosition(box);
  const moved = axis === 'y' ? after.y - before.y : after.x - before.x;
  const grew = after.H > before.H ? ` The content grew by ${after.H - before.H}px (more was loaded).` : '';
  if (moved === 0) return `Could not scroll ${d}: ${whereText(after)}.${grew}`;
  return `Scrolled ${d} by ${Math.abs(moved)}px: ${whereText(after)}.${grew}`;
}
