// Content script part: this document's iframes, for the background's frame
// tools (wasm/tools/frames.go). Every frame runs its own copy of the
// content scripts; a frame is named by its path, its index among its
// parent window's child frames at each level, which a frame can compute
// for itself and its parent for the iframe element.
import { describeShowing, doc, fail, isVisible, nameOf, refOf, win } from './core.mjs';

// indexOf is el's index in view.frames, or -1 (not loaded, or a frame of
// a shadow tree, which window.frames leaves out).
function indexOf(view, el) {
  const w = el.contentWindow;
  if (!w) return -1;
  for (let i = 0; i < view.frames.length; i++) if (view.frames[i] === w) return i;
  return -1;
}

// wb_frames: the iframes of this document and, through same-origin ones,
// of the documents inside, each with its path from this document, ref,
// name, src, size and whether a person can see it.
export function childFrames() {
  const out = [];
  const walk = (d, base) => {
    for (const el of d.querySelectorAll('iframe, frame')) {
      const index = indexOf(d.defaultView, el);
      if (index < 0) continue;
      const path = [...base, index];
      const r = el.getBoundingClientRect();
      out.push({
        path,
        ref: refOf(el),
        name: nameOf(el),
        src: el.src || '',
        width: Math.round(r.width),
        height: Math.round(r.height),
        visible: isVisible(el),
      });
      let inner = null;
      try {
        inner = el.contentDocument;
      } catch {
        inner = null;
      }
      if (inner) walk(inner, path);
    }
  };
  walk(doc, []);
  return out;
}

// wb_frame_box {index, x, y}: the point (x, y) of child frame `index`'s
// viewport in this frame's viewport. The frame is scrolled so the point
// shows; something drawn over the frame there fails, as a covered target
// does.
export function frameBox(args) {
  const index = Number(args.index);
  const el = [...doc.querySelectorAll('iframe, frame')].find((f) => indexOf(win, f) === index);
  if (!el) fail('The frame is no longer on the page; call get_frames.');
  if (!isVisible(el)) fail('The frame is hidden, so nothing in it can be clicked.');
  const at = () => {
    const r = el.getBoundingClientRect();
    const st = win.getComputedStyle(el);
    return {
      x: r.left + el.clientLeft + Number.parseFloat(st.paddingLeft) + Number(args.x),
      y: r.top + el.clientTop + Number.parseFloat(st.paddingTop) + Number(args.y),
    };
  };
  let p = at();
  const outside = (q) => q.x < 0 || q.y < 0 || q.x >= win.innerWidth || q.y >= win.innerHeight;
  if (outside(p)) {
    win.scrollBy({ left: p.x - win.innerWidth / 2, top: p.y - win.innerHeight / 2, behavior: 'instant' });
    p = at();
  }
  if (outside(p)) fail('The target in the frame is outside the viewport even after scrolling.');
  const root = el.getRootNode();
  const hit = (typeof root.elementFromPoint === 'function' ? root : doc).elementFromPoint(p.x, p.y);
  if (hit !== el) {
    fail(
      `The frame is covered by ${describeShowing(hit)} at (${Math.round(p.x)}, ${Math.round(p.y)}), so a click would hit that instead. Close or dismiss the covering element first.`,
    );
  }
  return { x: Math.round(p.x), y: Math.round(p.y) };
}
