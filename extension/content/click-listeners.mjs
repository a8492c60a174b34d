// click-listeners.mjs — runs in the page's own world before its scripts
// (the manifests' content script with world MAIN, at document_start, in
// every frame) and notes which elements the page's scripts listen to for
// clicks. A box a script made clickable with addEventListener or an
// onclick property shows no sign of it to a content script, whose world
// sees neither; a person sees a coloured square and clicks it. The tree
// asks for the noted elements when it reads a document
// (docs/decisions/click-listeners.md).
//
// It changes nothing of the page and sends nothing: it only counts, and
// answers a query event by firing an answer event at each element still
// in a document. A page can fake both events; all it gains is refs on
// elements of its own choosing, which markup (onclick, cursor: pointer)
// already gives it.
import { LISTENERS_ANSWER, LISTENERS_QUERY } from './listener-events.mjs';

// The events a click on a box starts with; a handler for any of them acts
// on a click.
const CLICK_TYPES = new Set(['click', 'dblclick', 'mousedown', 'mouseup', 'pointerdown', 'pointerup']);
const ANSWERS_MAX = 20000; // elements answered for at most, per query
// An element listening for more click types than this is where a framework
// handles every click of the page (React's root), not a target.
const TYPES_MAX = 4;

(() => {
  const target = globalThis.EventTarget && EventTarget.prototype;
  if (!target) return;

  // Element → {click type: number of handlers}. Weak: a removed element is
  // not kept alive by being noted.
  const handlers = new WeakMap();
  let noted = []; // WeakRefs of the elements in handlers, for the answer
  let sweepAt = 1000;

  const note = (el, type, delta) => {
    if (!el || el.nodeType !== 1 || !CLICK_TYPES.has(type)) return;
    let byType = handlers.get(el);
    if (!byType) {
      if (delta < 0) return;
      // The list holds at most twice the elements still alive (the page's
      // own): the collected ones go when it has doubled.
      if (noted.length >= sweepAt) {
        noted = noted.filter((r) => r.deref() !== undefined);
        sweepAt = Math.max(1000, noted.length * 2);
      }
      byType = {};
      handlers.set(el, byType);
      noted.push(new WeakRef(el));
    }
    const n = (byType[type] || 0) + delta;
    byType[type] = Math.max(n, 0);
  };

  // The page's calls go to the browser's own functions unchanged; a Proxy
  // keeps their name, length and native source text.
  const wrap = (fn, delta) =>
    new Proxy(fn, {
      apply(f, self, args) {
        try {
          if (typeof args[1] === 'function' || (args[1] && typeof args[1] === 'object')) note(self, args[0], delta);
        } catch {
          // an odd receiver or argument: the call below decides
        }
        return Reflect.apply(f, self, args);
      },
    });
  target.addEventListener = wrap(target.addEventListener, 1);
  target.removeEventListener = wrap(target.removeEventListener, -1);

  // el.onclick = fn: one handler of that type while the property holds a
  // function (read back through the browser's getter before and after).
  for (const proto of [globalThis.HTMLElement?.prototype, globalThis.SVGElement?.prototype]) {
    if (!proto) continue;
    for (const type of CLICK_TYPES) {
      const d = Object.getOwnPropertyDescriptor(proto, 'on' + type);
      if (!d || !d.set || !d.get || !d.configurable) continue;
      const get = d.get;
      const holds = (self) => {
        try {
          return typeof Reflect.apply(get, self, []) === 'function';
        } catch {
          return false; // not an element: the setter below decides
        }
      };
      d.set = new Proxy(d.set, {
        apply(f, self, args) {
          const had = holds(self);
          const result = Reflect.apply(f, self, args);
          const has = holds(self);
          if (has !== had) note(self, type, has ? 1 : -1);
          return result;
        },
      });
      Object.defineProperty(proto, 'on' + type, d);
    }
  }

  // jQuery's delegated handlers ($(document).on('click', '.swatch', …))
  // are one listener on a container; jQuery keeps each one's selector in
  // its own data. The elements those selectors match are the targets.
  const delegated = (container, out) => {
    const jq = globalThis.jQuery;
    if (typeof jq !== 'function' || typeof jq._data !== 'function') return;
    let events;
    try {
      events = jq._data(container, 'events');
    } catch {
      return; // another library under the name, or an odd container
    }
    if (!events || typeof events !== 'object') return;
    for (const type of CLICK_TYPES) {
      const list = events[type];
      if (!Array.isArray(list)) continue;
      for (const h of list) {
        if (!h || typeof h.selector !== 'string' || !h.selector) continue;
        try {
          for (const el of container.querySelectorAll(h.selector)) out.add(el);
        } catch {
          // a selector only jQuery's engine takes (":visible")
        }
      }
    }
  };

  // The answer: an event at each noted element that is in a document and
  // is not a whole page's root or a framework's, and at each element a
  // delegated jQuery handler acts for.
  const answer = (query) => {
    const targets = new Set();
    const doc = query.target;
    if (doc && doc.nodeType === 9) delegated(doc, targets);
    for (const r of noted) {
      const el = r.deref();
      if (!el || !el.isConnected) continue;
      const byType = handlers.get(el);
      let types = 0;
      if (byType) for (const type of CLICK_TYPES) if (byType[type] > 0) types++;
      if (types === 0) continue;
      delegated(el, targets);
      const tag = el.localName;
      if (types > TYPES_MAX || tag === 'html' || tag === 'body') continue;
      targets.add(el);
    }
    // One event object serves every answer: dispatched one after another.
    const event = new CustomEvent(LISTENERS_ANSWER, { composed: true });
    let n = 0;
    for (const el of targets) {
      if (++n > ANSWERS_MAX) break;
      el.dispatchEvent(event);
    }
  };
  // Captured at the window: the query is fired at a document and does not bubble.
  Reflect.apply(target.addEventListener, globalThis, [LISTENERS_QUERY, answer, true]);
})();
