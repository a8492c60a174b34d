// Content script part: the drag_drop tool. HTML5 drag and drop (the
// dragstart … dragend sequence with one shared DataTransfer) for
// draggable elements, and a pressed-pointer drag for lists that follow the
// pointer (synthetic here; Chrome sends the pointer drag as trusted input,
// trusted.mjs).
import { describe, doc, fail, isVisible, resolve, sentences, win } from './core.mjs';
import { clickPoint, fireMouse, scrollIntoViewIfNeeded } from './pointer.mjs';
import { movePointer } from './hover.mjs';
import { observe } from './observe.mjs';

const STEPS = 10; // pointer moves between press and release

function inViewport(p) {
  return !!p && p.x >= 0 && p.y >= 0 && p.x < win.innerWidth && p.y < win.innerHeight;
}

// endOf resolves one end of the drag: a ref's element and the visible
// centre of its box, or the element at the coordinates given.
function endOf(args, end) {
  const ref = args[`${end}Ref`];
  if (ref !== undefined && ref !== null && String(ref).trim() !== '') {
    const el = resolve(ref);
    if (!isVisible(el)) fail(`${describe(el)}, the ${end} of the drag, is not visible on the page (hidden or zero size).`);
    return { el, at: () => clickPoint(el) };
  }
  const x = Number(args[`${end}X`]),
    y = Number(args[`${end}Y`]);
  if (!Number.isFinite(x) || !Number.isFinite(y)) fail(`Pass ${end}Ref, or both ${end}X and ${end}Y (viewport CSS pixels).`);
  if (!inViewport({ x, y }))
    fail(`(${x}, ${y}), the ${end} of the drag, is outside the ${win.innerWidth}×${win.innerHeight} viewport.`);
  const el = doc.elementFromPoint(x, y);
  if (!el) fail(`Nothing is at (${x}, ${y}), the ${end} of the drag.`);
  return { el, at: () => ({ x, y }) };
}

// positionOf is where el sits among its parent's children.
function positionOf(el) {
  const parent = el.parentElement;
  return { parent, index: parent ? [...parent.children].indexOf(el) : -1, count: parent ? parent.children.length : 0 };
}

// dragPlan finds both ends with both in view: a pointer drag cannot leave
// the viewport.
export function dragPlan(args) {
  const src = endOf(args, 'source');
  const tgt = endOf(args, 'target');
  if (src.el === tgt.el || src.el.contains(tgt.el))
    fail(`The target is the dragged element itself (${describe(src.el)}); drop it on another element.`);
  scrollIntoViewIfNeeded(src.el);
  if (!inViewport(tgt.at())) tgt.el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
  const from = src.at(),
    to = tgt.at();
  if (!inViewport(from) || !inViewport(to))
    fail(
      `${describe(src.el)} and ${describe(tgt.el)} do not fit in the viewport together, and a drag cannot leave it. ` +
        'Make the window taller with resize_window, or move the element in steps to places in between.',
    );
  const draggable = src.el.closest('[draggable=true]');
  const method = args.method === 'html5' || args.method === 'pointer' ? args.method : draggable ? 'html5' : 'pointer';
  return { src: src.el, tgt: tgt.el, from, to, method, draggable: draggable || src.el, before: positionOf(src.el) };
}

// html5Drop runs the browser's drag-and-drop sequence with synthetic
// DragEvents sharing one DataTransfer: the drop happens only when the
// target's dragover is cancelled, as in browsers.
function html5Drop(plan) {
  const dt = new DataTransfer();
  const send = (el, type, p, cancelable = true) =>
    el.dispatchEvent(
      new DragEvent(type, {
        bubbles: true,
        cancelable,
        composed: true,
        view: win,
        clientX: p.x,
        clientY: p.y,
        screenX: win.screenX + p.x,
        screenY: win.screenY + p.y,
        dataTransfer: dt,
      }),
    );
  const source = plan.draggable;
  if (!send(source, 'dragstart', plan.from)) return { started: false };
  send(source, 'drag', plan.from);
  const over = doc.elementFromPoint(plan.to.x, plan.to.y) || plan.tgt;
  send(over, 'dragenter', plan.to);
  send(source, 'drag', plan.to);
  const accepted = !send(over, 'dragover', plan.to);
  if (accepted) send(over, 'drop', plan.to);
  else send(over, 'dragleave', plan.to, false);
  send(source, 'dragend', plan.to, false);
  return { started: true, accepted, over };
}

// pointerDrag presses on the source, moves in steps to the target with the
// button held and releases there, with synthetic pointer and mouse events.
function pointerDrag(plan) {
  const { from, to } = plan;
  const press = doc.elementFromPoint(from.x, from.y) || plan.src;
  movePointer(press, from.x, from.y);
  const down = fireMouse(press, 'pointerdown', from.x, from.y, { buttons: 1 });
  if (down) fireMouse(press, 'mousedown', from.x, from.y, { buttons: 1 });
  for (let i = 1; i <= STEPS; i++) {
    const x = from.x + ((to.x - from.x) * i) / STEPS,
      y = from.y + ((to.y - from.y) * i) / STEPS;
    movePointer(doc.elementFromPoint(x, y) || press, x, y, { buttons: 1 });
  }
  const release = doc.elementFromPoint(to.x, to.y) || plan.tgt;
  fireMouse(release, 'pointerup', to.x, to.y);
  if (down) fireMouse(release, 'mouseup', to.x, to.y);
}

// dragReport says where the dragged element ended up.
export function dragReport(plan, changes, outcome) {
  const at = (p) => `(${Math.round(p.x)}, ${Math.round(p.y)})`;
  const parts = [
    `Dragged ${describe(plan.src)} from ${at(plan.from)} onto ${describe(plan.tgt)} at ${at(plan.to)} (${plan.method === 'html5' ? 'HTML5 drag and drop' : 'pointer drag'})`,
  ];
  if (outcome && !outcome.started) parts.push('The page cancelled the drag as it started (dragstart), so nothing moved');
  else if (outcome && !outcome.accepted)
    parts.push(`${describe(outcome.over)} did not accept a drop (it did not handle dragover), so no drop happened`);
  const b = plan.before,
    now = positionOf(plan.src);
  if (!plan.src.isConnected) parts.push('The dragged element was removed from the page (the page may have replaced it)');
  else if (now.parent !== b.parent) parts.push(`It is now inside ${describe(now.parent)}, item ${now.index + 1} of ${now.count}`);
  else if (now.index !== b.index)
    parts.push(`It moved from item ${b.index + 1} to item ${now.index + 1} of ${now.count} in its list`);
  else parts.push('It is still where it was in its list');
  return sentences(...parts, changes);
}

// dragDrop is the synthetic tool: Firefox, Chrome without the debugger,
// and the HTML5 path everywhere.
export const dragDrop = (args) => html5OrPointer(dragPlan(args));

// html5OrPointer drops by the plan's method and reports.
export async function html5OrPointer(plan) {
  let outcome = null;
  const { changes } = await observe(
    () => {
      if (plan.method === 'html5') outcome = html5Drop(plan);
      else pointerDrag(plan);
    },
    plan.src,
    { reportSubject: false },
  );
  return dragReport(plan, changes, outcome);
}
