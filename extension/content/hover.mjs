// Content script part: the hover tool. Where the pointer goes, the
// synthetic pointer movement of Firefox (and Chrome's fallback), what the
// hover revealed, and the CSS :hover rules synthetic events cannot apply.
import { NO_CHANGE, describe, doc, hasRef, isVisible, resolve, sentences } from './core.mjs';
import { aimAt, fireMouse, pointTarget } from './pointer.mjs';
import { observe } from './observe.mjs';

// What a hover typically reveals: menu items, links and buttons of a
// submenu, tooltips.
const REVEALABLE =
  'a[href],button,input,select,textarea,[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],' +
  '[role=option],[role=link],[role=button],[role=menu],[role=tooltip]';
const REVEAL_SCOPE = 4; // ancestors of the hovered element whose hidden parts are watched
const REVEAL_MAX = 300;
const REVEAL_LISTED = 12;

// hoverTarget is where the pointer goes: the visible centre of the ref's
// element (scrolled into view, not covered), or the point given.
export function hoverTarget(args) {
  if (hasRef(args)) {
    const el = resolve(args.ref);
    const { point, hitTarget } = aimAt(el, 'hovered');
    return { el, target: hitTarget, point };
  }
  const { target, x, y } = pointTarget(args);
  return { el: target, target, point: { x, y } };
}

// revealWatch notes the hidden controls around el before the pointer
// moves; the function it returns lists those showing now, and tooltips
// that appeared anywhere.
export function revealWatch(el) {
  let scope = el;
  for (let i = 0; i < REVEAL_SCOPE && scope.parentElement && scope.parentElement !== doc.body; i++) scope = scope.parentElement;
  const hidden = [...scope.querySelectorAll(REVEALABLE)].filter((e) => !isVisible(e)).slice(0, REVEAL_MAX);
  const tips = new Set([...doc.querySelectorAll('[role=tooltip]')].filter(isVisible));
  return () => {
    const shown = hidden.filter(isVisible);
    for (const t of doc.querySelectorAll('[role=tooltip]')) if (isVisible(t) && !tips.has(t) && !shown.includes(t)) shown.push(t);
    // A shown menu's items say more than the menu; keep the innermost.
    return shown.filter((e) => !shown.some((o) => o !== e && e.contains(o)));
  };
}

// --------------------------------------------------- synthetic pointer

let hovered = null; // the element the synthetic pointer is over

const chain = (el) => {
  const out = [];
  for (let e = el; e; e = e.parentElement) out.push(e);
  return out;
};

// movePointer sends what a real pointer moving from the last hovered
// element onto target sends: out/leave on what it leaves (leave on each
// ancestor it leaves), over/enter on what it enters, then a move. extra
// carries buttons held during a drag.
export function movePointer(target, x, y, extra = {}) {
  const prev = hovered && hovered.isConnected ? hovered : null;
  if (prev !== target) {
    const into = chain(target);
    if (prev) {
      const left = chain(prev).filter((e) => !into.includes(e));
      fireMouse(prev, 'pointerout', x, y, { ...extra, relatedTarget: target });
      for (const e of left) fireMouse(e, 'pointerleave', x, y, extra);
      fireMouse(prev, 'mouseout', x, y, { ...extra, relatedTarget: target });
      for (const e of left) fireMouse(e, 'mouseleave', x, y, extra);
    }
    const from = prev ? chain(prev) : [];
    const entered = into.filter((e) => !from.includes(e)).reverse(); // outermost first
    fireMouse(target, 'pointerover', x, y, { ...extra, relatedTarget: prev });
    for (const e of entered) fireMouse(e, 'pointerenter', x, y, extra);
    fireMouse(target, 'mouseover', x, y, { ...extra, relatedTarget: prev });
    for (const e of entered) fireMouse(e, 'mouseenter', x, y, extra);
    hovered = target;
  }
  fireMouse(target, 'pointermove', x, y, extra);
  fireMouse(target, 'mousemove', x, y, extra);
}

// hoverRule finds a CSS rule that shows something when el or an ancestor
// is hovered ("nav li:hover > ul"): synthetic events never set :hover.
function hoverRule(el) {
  let seen = 0;
  const walk = (rules) => {
    for (const r of rules) {
      if (++seen > 5000) return '';
      if (r.cssRules && !r.selectorText) {
        const inner = walk(r.cssRules);
        if (inner) return inner;
        continue;
      }
      for (const sel of (r.selectorText || '').split(',')) {
        const at = sel.indexOf(':hover');
        if (at < 0) continue;
        const rest = sel.slice(at + 6);
        const end = rest.search(/[\s>+~]/);
        const subject = (sel.slice(0, at) + (end < 0 ? rest : rest.slice(0, end))).replaceAll(':hover', '').trim() || '*';
        try {
          if (el.closest(subject)) return sel.trim();
        } catch {
          /* a selector this engine does not parse */
        }
      }
    }
    return '';
  };
  for (const sheet of doc.styleSheets) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // a cross-origin sheet
    }
    const found = walk(rules);
    if (found) return found;
  }
  return '';
}

// hoverReport says where the pointer went and what it revealed; synthetic
// says the movement was simulated, so :hover rules did not apply.
export function hoverReport(h, changes, shown, synthetic) {
  const at = `(${Math.round(h.point.x)}, ${Math.round(h.point.y)})`;
  const head = `Moved the pointer over ${describe(h.el)} at ${at}${synthetic ? ' with synthetic pointer events' : ''}`;
  const listed = shown.slice(0, REVEAL_LISTED).map(describe);
  const more = shown.length > REVEAL_LISTED ? ` and ${shown.length - REVEAL_LISTED} more` : '';
  const revealed = listed.length ? `Now visible: ${listed.join(', ')}${more}` : '';
  let note = '';
  if (synthetic && !shown.length) {
    const rule = hoverRule(h.el);
    if (rule)
      note =
        `The page shows more on hover through CSS :hover (${JSON.stringify(rule)}), which cannot be triggered by synthetic events in this browser, so that stays hidden. ` +
        'Try click_ax on the item, or focus it with press_keys Tab (many menus also open on focus)';
  }
  return sentences(head, revealed, changes || (revealed || note ? '' : NO_CHANGE), note);
}

// hover is the synthetic tool: Firefox, and Chrome without the debugger.
export async function hover(args) {
  const h = hoverTarget(args);
  const shownNow = revealWatch(h.el);
  const { changes } = await observe(() => movePointer(h.target, h.point.x, h.point.y), h.el, { reportSubject: false });
  return hoverReport(h, changes, shownNow(), true);
}
