/*
 * accessibility-tree.mjs — WebBrain's page reader for the model, and the
 * one place that says what an element is called: its role, its accessible
 * name and its ref.
 *
 * The entry of its own content script (the build bundles it with the small
 * modules it imports into content/accessibility-tree.js): no extension
 * API, safe to inject twice (the second run keeps the first one's refs).
 * It defines:
 *
 *   window.__generateAccessibilityTree(options) → {
 *     tree,            // the page of lines: `role "name" [ref_N] attrs`, one space per depth level; text as `"…"`
 *     truncated,       // more lines follow this page
 *     continuation,    // {startAfter, anchor} for the next page, or null
 *     continuationToken, // the same as a string "startAfter:anchor", or null
 *     continuationArgs,  // the exact options for the next call, or null
 *     startLine, endLine, totalLines, totalChars, nodeCount, refCount, overlays,
 *     filter, whole,   // whole: the interactive filter showed a short page's whole tree
 *     error?           // set (and tree empty) when refId names no live element
 *   }
 *   options: {filter: "interactive" (default) | "visible" | "all", refId, maxDepth,
 *             maxChars (default 6000; 0 or Infinity = unlimited), continuation (object or token),
 *             wholeBelow (default 3000; 0 = never): the interactive filter shows the whole
 *             tree when it is shorter than this many characters}
 *
 *   window.__wb_ax_lookup(ref) → Element | null
 *     ref is "ref_7", "7" or 7. null when the element was removed, disconnected or collected.
 *
 *   window.__wb_ax_nearby(ref, limit = 5) → {ref, live, known, nearby}
 *     known: {role, name} the ref had when last rendered (null if never rendered);
 *     nearby: up to `limit` live refs [{ref, role, name}] rendered closest to it in
 *     the same tree read, same role+name first. For "stale ref" errors.
 *
 *   window.__wb_ax_ref(el, register = true) → "ref_N" | ""
 *     the element's ref; a new one when it has none and register is true.
 *
 *   window.__wb_ax_role(el) → role, window.__wb_ax_name(el) → name
 *     what the tree's line for el says ("generic" and "" for an element the
 *     tree shows no line for); for a hidden element, what the same rules
 *     give without the layout. The page tools name elements with these.
 *
 * Refs are "ref_N"; "N" and "[ref_N]" are read as "ref_N" too.
 *
 * These are own, non-writable properties of window; the ref registry
 * ({ids: WeakMap<Element, ref>, refs: Map<ref, WeakRef<Element>>, info, next,
 * gen}) is private to this script. Nothing here reads a window property a
 * page could shadow with an element's id or name (DOM named access reaches
 * the content script's world too): scripts read these exports with
 * Object.getOwnPropertyDescriptor (ownFunction in dom.mjs).
 *
 * Filters: "all" = everything rendered, on or off screen; "visible" = rendered
 * and intersecting the viewport; "interactive" = only elements with refs, under
 * their headings and landmark/dialog/form containers, or a short page's whole
 * tree. Nothing hidden is ever shown. docs/accessibility-tree.md explains the rules.
 */
import {clip, squash} from './text.mjs';
import {deepActive, defineExport, ownFunction} from './dom.mjs';
import {LISTENERS_ANSWER, LISTENERS_QUERY} from './listener-events.mjs';
import {
  SVG_DRAWN,
  SVG_GROUPS,
  SVG_PARTS_MAX,
  SVG_VISIT_MAX,
  firstShape,
  idWords,
  paint,
  partText,
  pointerHoverSelector,
  shapeKind,
} from './svg-drawing.mjs';

const DEFAULT_MAX_CHARS = 6000;
const WHOLE_BELOW = 3000; // a page whose whole tree is shorter gets it under the interactive filter
const NAME_MAX = 150; // longest name folded from content; longer content stays as child lines
const TEXT_MAX = 160; // longest text piece
const TEXT_RUN_MAX = 400; // longest line a run of text pieces is joined into
const VALUE_MAX = 100;
const HREF_MAX = 36;
// Separators, shared: items are never changed once made.
const BR = Object.freeze({br: true});
const SPACE = Object.freeze({text: ' '});
const PRIVATE_USE = /[\ue000-\uf8ff]/;
const PRIVATE_USE_ALL = /[\ue000-\uf8ff]/g;
// Preserved white space (<pre>, white-space: pre…): a block keeps its line
// breaks and indentation up to PRE_LINES lines and PRE_CHARS characters.
const PRE_LINES = 24;
const PRE_CHARS = 800;
const PRE_TOTAL = 4000; // all blocks of one read together; later ones read as other text
// While text is merged, preserved breaks, spaces and tabs are held as
// private-use characters (icon glyphs are already gone), which squash()
// leaves alone.
const KEEP_NL = '\ue000';
const KEEP_SP = '\ue001';
const KEEP_TAB = '\ue002';
const KEPT = /[\ue000-\ue002]/;

const registry = {ids: new WeakMap(), refs: new Map(), info: new Map(), next: 1, gen: 0};

// biome-ignore format: a table, packed as written
const SKIP_TAGS = new Set(['script', 'style', 'template', 'head', 'meta', 'link', 'base',
  'datalist', 'param', 'source', 'track', 'map', 'object', 'embed', 'br', 'wbr', 'hr']);
// biome-ignore format: a table, packed as written
const LEAF_TAGS = new Set(['input', 'textarea', 'select', 'img', 'svg', 'iframe', 'frame', 'progress', 'meter',
  'video', 'audio', 'math']);
// biome-ignore format: a table, packed as written
const ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell checkbox code ' +
  'columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure ' +
  'form generic grid gridcell group heading img insertion link list listbox listitem log main marquee math menu ' +
  'menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph presentation ' +
  'progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton ' +
  'status strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip ' +
  'tree treegrid treeitem').split(' '));
// Roles that print no line without a name: their children are hoisted.
// biome-ignore format: a table, packed as written
const TRANSPARENT = new Set(['generic', 'img', 'none', 'presentation', 'group', 'region', 'figure', 'paragraph', 'rowgroup',
  'document', 'application', 'note', 'blockquote', 'code', 'emphasis', 'strong', 'deletion', 'insertion',
  'subscript', 'superscript', 'time', 'term', 'definition', 'caption', 'marquee', 'directory']);
// biome-ignore format: a table, packed as written
const INTERACTIVE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton',
  'treeitem', 'clickable']);
// biome-ignore format: a table, packed as written
const NAME_FROM_CONTENT = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'heading', 'cell', 'gridcell', 'columnheader',
  'rowheader', 'tooltip', 'clickable']);
// Roles besides the transparent ones a pointer cursor makes clickable (a
// table row that opens its record).
const POINTER_ROLES = new Set(['listitem', 'heading', 'cell', 'gridcell', 'img', 'row']);
const FLEX_DISPLAYS = new Set(['flex', 'inline-flex', 'grid', 'inline-grid']);
// Containers kept by the "interactive" filter when they hold refs.
// biome-ignore format: a table, packed as written
const CONTEXT_ROLES = new Set(['dialog', 'alertdialog', 'form', 'navigation', 'main', 'banner', 'contentinfo',
  'complementary', 'search', 'region', 'tablist', 'menu', 'menubar', 'listbox', 'radiogroup', 'toolbar', 'grid',
  'tree', 'treegrid', 'iframe', 'group', 'table', 'row']);
// biome-ignore format: a table, packed as written
const TEXT_INPUT_TYPES = new Set(['', 'text', 'email', 'tel', 'url', 'password', 'search', 'number', 'date',
  'time', 'datetime-local', 'month', 'week', 'color']);
// biome-ignore format: a table, packed as written
const SHOWN_TYPES = new Set(['email', 'tel', 'url', 'password', 'date', 'time', 'datetime-local', 'month', 'week',
  'color', 'file']);
// biome-ignore format: a table, packed as written
const INPUT_ROLES = {button: 'button', submit: 'button', reset: 'button', image: 'button', file: 'button',
  checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton'};

// ---------- refs ----------

function refFor(el) {
  let id = registry.ids.get(el);
  if (!id) {
    id = 'ref_' + registry.next++;
    registry.ids.set(el, id);
    registry.refs.set(id, new WeakRef(el));
  }
  return id;
}

function normRef(ref) {
  if (ref === null || ref === undefined) return '';
  const s = String(ref)
    .trim()
    .replace(/^\[|\]$/g, '');
  return /^\d+$/.test(s) ? 'ref_' + s : s;
}

function lookup(ref) {
  const w = registry.refs.get(normRef(ref));
  const el = w && w.deref();
  return el && el.isConnected ? el : null;
}

function pruneRegistry() {
  for (const [id, w] of registry.refs) {
    if (!w.deref()) {
      registry.refs.delete(id);
      registry.info.delete(id);
    }
  }
}

function nearby(ref, limit) {
  const id = normRef(ref);
  const max = limit > 0 ? limit : 5;
  const known = registry.info.get(id) || null;
  const gen = known ? known.gen : registry.gen;
  const order = known ? known.order : 0;
  const cands = [];
  for (const [other, inf] of registry.info) {
    if (other === id || inf.gen !== gen || !lookup(other)) continue;
    const same = known && inf.role === known.role && inf.name === known.name ? 0 : 1;
    cands.push({same, dist: Math.abs(inf.order - order), ref: other, role: inf.role, name: inf.name});
  }
  cands.sort((a, b) => a.same - b.same || a.dist - b.dist);
  return {
    ref: id,
    live: !!lookup(id),
    known: known ? {role: known.role, name: known.name} : null,
    nearby: cands.slice(0, max).map((c) => ({ref: c.ref, role: c.role, name: c.name})),
  };
}

// ---------- small text helpers ----------

function quote(s) {
  return JSON.stringify(s);
}

function hashLine(s) {
  let h = 5381;
  for (let i = 0; i < s.length; i++) h = ((h * 33) ^ s.charCodeAt(i)) >>> 0;
  return h.toString(36);
}

// ---------- one traversal ----------

// A Walker holds the caches of one call: computed styles and rects are read
// once per element, and nothing is written to the DOM, so layout is computed
// at most once. A walker that does not register gives interactive elements
// a stand-in ref, so that naming one element allocates no refs.
class Walker {
  constructor(filter, register = true) {
    this.filter = filter;
    this.register = register;
    this.styles = new Map();
    this.roles = new Map();
    this.moving = new Map();
    this.preRoots = new Map();
    this.overlays = [];
    this.refsBefore = 0;
    this.assigned = 0;
    // What a wall withholds (walls.mjs, in the page tools' script) is not
    // shown: the article behind it, its links, forms and frames.
    this.withheld = ownFunction('__wb_withheld');
  }

  style(el) {
    let st = this.styles.get(el);
    if (!st) {
      const view = el.ownerDocument.defaultView || window;
      st = view.getComputedStyle(el);
      this.styles.set(el, st);
    }
    return st;
  }

  ref(el) {
    this.assigned++;
    return this.register ? refFor(el) : 'ref';
  }

  // Walks one document (the top page or a same-origin iframe's).
  frameContext(doc, parent) {
    const view = doc.defaultView || window;
    return {
      // What is the same for every element of the document, shared by all
      // their contexts: one object per element is made for the rest.
      f: {
        doc,
        // Naming one element (a walker that does not register) reads no stylesheets.
        hover: this.register ? this.hoverRules(doc) : null,
        links: linkBase(doc),
        vw: view.innerWidth,
        vh: view.innerHeight,
        sx: view.scrollX,
        sy: view.scrollY,
        expandSelect: null,
        hoverPointed: undefined, // elements a :hover rule gives a pointer, found on first need
        listened: undefined, // elements the page's scripts listen to for clicks, asked on first need
        active: undefined, // the focused element, read on first need
      },
      textOk: true,
      inView: true,
      inInteractive: parent ? parent.inInteractive : false,
      skipText: false,
      decor: false,
      cursor: 'auto',
      parts: null,
      iconsApart: false,
      inOverlay: parent ? parent.inOverlay : false,
      flexItems: false,
      prev: null,
      clip: null,
      clipHold: false,
      optionParent: '',
    };
  }

  children(parentEl, ctx, out) {
    // Slotted nodes come as an array; otherwise the walk follows siblings,
    // which is cheaper than indexing a live child list.
    const assigned = parentEl.localName === 'slot' ? parentEl.assignedNodes({flatten: true}) : null;
    let i = 0;
    let n = assigned?.length ? assigned[0] : (parentEl.shadowRoot || parentEl).firstChild;
    ctx.prev = null;
    let ws = 0; // how parentEl renders white space, read at its first text: 1 collapsed, 2 breaks kept, 3 all kept
    for (; n; n = assigned?.length ? assigned[++i] : n.nextSibling) {
      if (n.nodeType === 3) {
        if (ctx.textOk && ctx.inView && !(this.withheld && this.withheld(n))) {
          const raw = n.nodeValue;
          // Icon-font glyphs (private-use code points) read as nothing.
          let v = PRIVATE_USE.test(raw) ? raw.replace(PRIVATE_USE_ALL, '') : raw;
          // White space between flex or grid items is not rendered.
          if (v && !(ctx.flexItems && !v.trim())) {
            if (ctx.flexItems) out.push(BR); // an anonymous flex item
            if (!ws) ws = whiteSpaceMode(this.style(parentEl));
            const item = {text: v, hidden: ctx.skipText, decor: ctx.decor};
            if (ws > 1) {
              item.text = v = keepWhiteSpace(v, ws);
              item.pre = this.preRoot(parentEl);
            }
            out.push(item);
            if (v.trim()) ctx.prev = null;
          }
        }
      } else if (n.nodeType === 1) {
        this.element(n, ctx, out);
      }
    }
  }

  // hoverRules is the document's :hover rules that reveal content, and the
  // elements their hovered part matches (one query per call): {rules, set}
  // or null.
  hoverRules(doc) {
    const rules = hoverRulesOf(doc);
    if (!rules.size) return null;
    let set;
    try {
      set = new Set(doc.querySelectorAll([...rules.keys()].join(',')));
    } catch {
      set = new Set();
    }
    return set.size ? {rules, set} : null;
  }

  // opensOnHover reports whether el opens a menu only on hover: a :hover
  // rule or a mouse-over handler in markup reveals controls that are
  // hidden now (docs/decisions/tree-hover-and-states.md).
  opensOnHover(el, tag, ctx, names) {
    if (tag === 'body' || tag === 'html') return false;
    const h = ctx.f.hover;
    if (h && h.set.has(el)) {
      for (const [prefix, list] of h.rules) {
        if (!el.matches(prefix)) continue;
        for (const r of list) {
          if (r.sib) {
            for (let sib = el.nextElementSibling, n = 0; sib && n < 3; sib = sib.nextElementSibling, n++) {
              if (sib.matches(r.rest) && this.closedMenu(sib)) return true;
              if (r.sib === '+') break;
            }
          } else {
            const found = el.querySelectorAll(r.rest);
            for (let i = 0; i < found.length && i < 3; i++) if (this.closedMenu(found[i])) return true;
          }
        }
      }
    }
    const handler = names.length > 0 && hoverHandler(el, names);
    if (!handler) return false;
    if (handler === 'menu') return true;
    for (let c = el.firstElementChild, n = 0; c && n < 8; c = c.nextElementSibling, n++) if (this.closedMenu(c)) return true;
    return !!el.nextElementSibling && this.closedMenu(el.nextElementSibling);
  }

  // closedMenu reports whether el holds controls and is not drawn now.
  closedMenu(el) {
    if (!el.matches(MENU_CONTROLS) && !el.querySelector(MENU_CONTROLS)) return false;
    const st = this.style(el);
    if (st.display === 'none' || st.visibility !== 'visible' || st.opacity === '0') return true;
    const r = el.getBoundingClientRect();
    return r.width < 1 || r.height < 1 || r.right <= -window.scrollX || r.bottom <= -window.scrollY;
  }

  // preRoot is the outermost element around el that keeps white space (a
  // <pre>, a code viewer): the lines of one such block make one text line.
  preRoot(el) {
    let root = this.preRoots.get(el);
    if (root) return root;
    root = el;
    for (let p = el.parentElement; p && p.localName !== 'body'; p = p.parentElement) {
      if (whiteSpaceMode(this.style(p)) < 2) break;
      root = p;
    }
    this.preRoots.set(el, root);
    return root;
  }

  // What separates el's text from its neighbours' as the page renders it:
  // a line break around blocks, nothing around inline boxes (the page's own
  // white space is in its text nodes), and for an inline-block or flex/grid
  // item nothing when it touches or overlaps the previous box on the same
  // line ("6gHF" drawn letter by letter, also skewed letters whose boxes
  // overlap), else a space or a break.
  separator(display, rect, ctx) {
    if (!rect || display === 'inline') return '';
    const atomic = display.startsWith('inline');
    if (!atomic && !ctx.flexItems) return 'br';
    const p = ctx.prev;
    if (p && rect.left - p.right <= 1 && rect.left > p.left && rect.top < p.bottom && rect.bottom > p.top) return '';
    return atomic ? ' ' : 'br';
  }

  element(el, ctx, out) {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) {
      if (tag === 'br') out.push(BR);
      return;
    }
    // Visibility rule (docs/decisions/tree-visibility.md): what a sighted
    // user can operate is shown, aria-hidden or not; only what the user
    // cannot reach is left out: inert, not rendered, transparent, clipped
    // to nothing, of no size, covered, in a closed <details> or outside an
    // open modal dialog.
    const attrs = el.hasAttributes();
    // Its attribute names, read once for the checks below.
    const names = attrs ? el.getAttributeNames() : NO_NAMES;
    if (attrs && names.includes('inert')) return;
    if (this.withheld && this.withheld(el)) return;
    if (tag === 'noscript' && !el.firstElementChild) return; // scripting on: its content is raw text
    const st = this.style(el);
    const display = st.display;
    if (display === 'none') return;
    if (tag === 'details' && !el.open) return this.closedDetails(el, ctx, out);

    const contents = display === 'contents';
    const rect = contents ? null : el.getBoundingClientRect();
    const visible = st.visibility === 'visible';
    const formControl = tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'button';
    // Read once: each computed-style read costs about a microsecond, a
    // large page's walk thousands of them. An inline box is never absolute
    // or fixed (positioning makes it a block), so its position is not read.
    const pos = rect && display !== 'inline' ? st.position : 'static';
    if (rect) {
      if (isClipped(st, pos, rect)) {
        // Screen-reader-only text: not on screen, but it names its control.
        const t = domText(el, this);
        if (t) out.push({text: t, hidden: true});
        return;
      }
      if (st.opacity === '0' && !formControl) return;
      if (rect.width > 0 && rect.height > 0 && (rect.right + ctx.f.sx <= 0 || rect.bottom + ctx.f.sy <= 0)) {
        // Parked off the page (text-indent: -9999px): its text may still
        // name the control it is in.
        if (ctx.inInteractive) this.namingText(el, out);
        return;
      }
    }
    const sized = !rect || rect.width > 0 || rect.height > 0;
    if (!sized && st.overflow !== 'visible') return; // nothing of it can show
    // Clipped to nothing by an ancestor that hides its overflow (a carousel's
    // other slides, an accordion collapsed to no height). A fixed box, or an
    // absolute one whose containing block is outside the clipping box,
    // escapes the clip.
    let clipBox = ctx.clip;
    if (clipBox && rect) {
      if (pos === 'fixed' || (pos === 'absolute' && !ctx.clipHold)) clipBox = null;
      else if (
        rect.width > 0 &&
        // A focused field cut off still takes the keys typed (a terminal's
        // input under the prompt, outside the box it scrolls in).
        !(formControl && focusedEl(el, ctx)) &&
        rect.height > 0 &&
        (rect.right <= clipBox.l + 0.5 ||
          rect.left >= clipBox.r - 0.5 ||
          rect.bottom <= clipBox.t + 0.5 ||
          rect.top >= clipBox.b - 0.5)
      ) {
        // Its text may still name the control it is in (text moved out of
        // an icon button's box).
        if (ctx.inInteractive) this.namingText(el, out);
        return;
      }
    }
    const inView =
      this.filter !== 'visible'
        ? true
        : !rect
          ? ctx.inView
          : rect.right > 0 && rect.bottom > 0 && rect.left < ctx.f.vw && rect.top < ctx.f.vh;

    let role = roleOf(el, tag, this);
    const block = !contents && !display.startsWith('inline');
    const sep = this.separator(display, rect, ctx);
    if (rect && sized) ctx.prev = rect;

    // Label whose control is hidden: the label stands in for it.
    let proxy = null;
    if (tag === 'label' && el.control && !ctx.inInteractive && !this.controlShown(el.control)) {
      proxy = el.control;
      role = controlRole(proxy, this);
    }

    let interactive = isInteractive(el, tag, role, names) || !!proxy;
    // A pointer a :hover rule gives (".controls span:hover") is the
    // pointer a person sees on the element; a click handler a script added
    // marks a target as that pointer does.
    const pointed =
      !interactive && (st.cursor === 'auto' || st.cursor === 'default') && (this.hoverPointed(el, ctx) || this.listened(el, ctx));
    const cursor = pointed ? 'pointer' : st.cursor;
    // A part of a pointer box taken apart is a target of its own.
    const part = ctx.parts !== null && ctx.parts === el.parentElement;
    // A pointer cursor where it starts (not inherited from the parent) marks
    // a click target the page handles in script, also inside another one
    // ("Reply" and "Forward" in a clickable row); so does an icon drawn in
    // a pointer box that inherits its cursor (a row's trash can).
    const pointerCandidate =
      !interactive &&
      (TRANSPARENT.has(role) || POINTER_ROLES.has(role)) &&
      (part || cursor === 'pointer' || cursor === 'grab' || cursor === 'move') &&
      tag !== 'body' &&
      tag !== 'html' &&
      !!rect &&
      rect.width * rect.height < ctx.f.vw * ctx.f.vh * 0.5 &&
      (part || pointed || ctx.cursor !== cursor || (ctx.iconsApart && iconBox(el, st, rect)));
    // A pointer box whose parts are drawn as buttons of their own ("Reply"
    // and "Forward" side by side) is not one target: clicked in its middle
    // it may hit neither. Its parts are taken one by one instead.
    const starts = pointerCandidate && !part && (pointed || ctx.cursor !== cursor);
    // A row's cells are its data, not buttons of their own.
    const parts = starts && role !== 'row' && separateParts(el, this);
    if (interactive && TRANSPARENT.has(role)) role = sliderHandle(el, names) ? 'slider' : 'clickable';
    // What has focus takes the keys, whatever is drawn over it (a
    // terminal's transparent input under its prompt).
    if (interactive && visible && rect && !focusedEl(el, ctx) && this.covered(el, rect, ctx)) return;

    const overlay = !ctx.inOverlay && visible && sized && rect && isOverlay(el, tag, role, st, pos, rect, ctx);
    const ariaHidden = names.includes('aria-hidden') && el.getAttribute('aria-hidden') === 'true';

    const child = {
      f: ctx.f,
      textOk: visible,
      inView: inView,
      inInteractive: ctx.inInteractive || interactive,
      // A canvas's fallback content is not drawn: its text only names.
      skipText: ctx.skipText || (tag === 'label' && !!el.control) || tag === 'legend' || tag === 'caption' || tag === 'canvas',
      // aria-hidden inside a control hides decoration (an icon glyph) from
      // its name; the control's own text still names it.
      decor: interactive ? false : ctx.decor || (ariaHidden && ctx.inInteractive),
      cursor: parts ? '' : cursor,
      parts: parts ? el : null,
      // Icons in a row or card with text of its own are its actions; in a
      // button with a short label they only draw it.
      iconsApart: interactive ? false : starts ? !parts && el.textContent.trim().length > 24 : ctx.iconsApart,
      inOverlay: ctx.inOverlay || overlay,
      flexItems: FLEX_DISPLAYS.has(display),
      prev: null,
      clip: clipBox,
      clipHold: clipBox ? ctx.clipHold || pos !== 'static' : false,
      // Role-less children of a list box or menu are its options or items
      // (React Select's options, a menu of plain divs).
      optionParent:
        tag === 'select' ? '' : role === 'listbox' ? 'option' : role === 'menu' || role === 'menubar' ? 'menuitem' : '',
    };
    // Inline boxes do not clip (overflow does not apply to them); the
    // page's own overflow is the viewport's. One read of the shorthand
    // ("hidden", or "hidden auto" for x and y), for clipping and scrolling.
    const overflow = rect && display !== 'inline' && tag !== 'body' && tag !== 'html' ? st.overflow : 'visible';
    if (overflow !== 'visible') clipChildren(child, st, overflow, pos, rect);

    const items = [];
    const before = this.assigned;
    // A box of nothing but small filled squares (blocks to count, a row of
    // coloured dots) reads as their count and colour.
    const squares = !interactive && visible && el.firstElementChild ? drawnBoxes(el, this, ctx) : '';
    if (squares) items.push({text: ' ' + squares + ' '});
    else if (LEAF_TAGS.has(tag)) this.leaf(el, tag, child, items);
    else this.children(el, child, items);
    const childRefs = this.assigned !== before;

    let weak = false;
    // A control that opens a menu only on hover (no ARIA says so).
    const hover = visible && sized && inView && (attrs || ctx.f.hover) && this.opensOnHover(el, tag, ctx, names);
    if (!interactive && !childRefs && visible && sized && inView) {
      const option = ctx.optionParent && TRANSPARENT.has(role) && items.length > 0;
      const drawn = pointerCandidate || buttonClass(el, role);
      if (drawn || option || hover || (tag === 'li' && menuList(el.parentElement, this))) {
        if (this.covered(el, rect, ctx)) return;
        interactive = true;
        weak = drawn && ctx.inInteractive;
        if (option) role = ctx.optionParent;
        else if (TRANSPARENT.has(role) || role === 'listitem')
          role = (drawn && !ownContent(items) && toggleClass(el)) || 'clickable';
      }
    } else if (pointerCandidate && childRefs && visible && sized && inView && (parts || ownContent(items))) {
      // A clickable card: the pointer box around its own buttons is a
      // target too, when it shows something besides them or its parts were
      // taken apart (the box may be what acts).
      if (!this.covered(el, rect, ctx)) {
        interactive = true;
        if (TRANSPARENT.has(role) || role === 'listitem') role = 'clickable';
      }
    }

    // A box that scrolls by itself with content out of its view (terms to
    // read to the end, a chat pane, a long list) says which way it scrolls,
    // and gets a ref for the scroll tool.
    const scroll = overflow !== 'visible' && visible && sized && inView ? scrollDirections(el, overflow) : '';
    if (scroll && !interactive) {
      interactive = true;
      if (TRANSPARENT.has(role)) role = 'scrollable';
    }

    // Its first control says the menu opens on hover.
    if (hover && !interactive && childRefs) hoverHint(firstRef(items));
    // A box of no size still shows its overflowing (e.g. positioned) content.
    const shown = visible && inView && (sized || items.length > 0);
    const name = shown ? explicitName(el, tag, this, proxy) : '';
    if (!shown || (TRANSPARENT.has(role) && !name && !overlay)) {
      if (!shown && !items.length) return;
      if (!items.length && (ctx.flexItems || display.startsWith('inline-'))) {
        // An empty box with a size (a divider, an icon) draws a gap.
        out.push(SPACE);
        ctx.prev = null;
        return;
      }
      pushSep(out, sep);
      for (const it of items) out.push(it);
      if (sep === 'br' && !ctx.flexItems) out.push(BR); // flex items: the next one's separator
      return;
    }
    if (role === 'generic' && !overlay && name) {
      // A named generic (aria-label on a div) names its content but adds no line.
      out.push({group: true, nameText: name, items});
      return;
    }

    const node = {
      role: role === 'generic' ? 'group' : role,
      name,
      explicit: !!name,
      el,
      attrs: [],
      children: items,
      overlay,
      weak,
    };
    if (interactive) node.ref = this.ref(el);
    node.fallback = name ? '' : fallbackName(el, role);
    attributes(node, el, tag, proxy, ctx, names);
    if (scroll) node.attrs.push('scroll=' + scroll);
    // A target that is only a coloured box (a swatch to pick) is told
    // apart by its colour, as a person tells it.
    if (interactive && !name && !node.fallback && !items.length && role === 'clickable') {
      const fill = boxFill(el, st);
      if (fill) node.attrs.push('fill=' + fill);
    }
    if (hover && interactive) hoverHint(node);
    if (overlay) {
      this.overlays.push(node);
      return;
    }
    pushSep(out, block ? 'br' : ' ');
    out.push(node);
    pushSep(out, block ? 'br' : ' ');
  }

  // namingText adds el's text as text that is not drawn but names the
  // control around it.
  namingText(el, out) {
    const t = domText(el, this);
    if (t) out.push({text: t, hidden: true});
  }

  // covered reports whether other boxes hide el wholly where it is on
  // screen (hit tests at five points). A small fixed or sticky box (a
  // header) does not count: scrolling moves el out from under it; nor does
  // el's own label.
  covered(el, rect, ctx) {
    const x0 = Math.max(rect.left, 0);
    const x1 = Math.min(rect.right, ctx.f.vw);
    const y0 = Math.max(rect.top, 0);
    const y1 = Math.min(rect.bottom, ctx.f.vh);
    if (x1 - x0 < 1 || y1 - y0 < 1) return false; // off screen: nothing to test
    const root = el.getRootNode();
    const hitRoot = root.elementFromPoint ? root : ctx.f.doc;
    const w = x1 - x0;
    const h = y1 - y0;
    const points = [0.5, 0.5, 0.25, 0.25, 0.75, 0.25, 0.25, 0.75, 0.75, 0.75];
    for (let i = 0; i < points.length; i += 2) {
      const hit = hitRoot.elementFromPoint(x0 + w * points[i], y0 + h * points[i + 1]);
      if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return false;
      if (this.movesAway(hit, ctx) || labelFor(hit, el)) return false;
      if (i === 0) {
        // One box over all of it (a banner, a backdrop) settles it at once.
        const r = hit.getBoundingClientRect();
        if (r.left <= x0 && r.top <= y0 && r.right >= x1 && r.bottom >= y1) return true;
      }
    }
    return true;
  }

  movesAway(hit, ctx) {
    let moves = this.moving.get(hit);
    if (moves !== undefined) return moves;
    moves = false;
    for (let p = hit, n = 0; p && n < 30; p = p.parentElement, n++) {
      const pos = this.style(p).position;
      if (pos === 'fixed' || pos === 'sticky') {
        const r = p.getBoundingClientRect();
        moves = r.width * r.height < ctx.f.vw * ctx.f.vh * 0.5;
        break;
      }
    }
    this.moving.set(hit, moves);
    return moves;
  }

  controlShown(control) {
    if (control.checkVisibility && !control.checkVisibility({visibilityProperty: true})) return false;
    const r = control.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const st = this.style(control);
    return !isClipped(st, st.position, r);
  }

  closedDetails(el, ctx, out) {
    const summary = Array.prototype.find.call(el.children, (c) => c.localName === 'summary');
    out.push(BR);
    if (summary) this.element(summary, ctx, out);
    out.push(BR);
  }

  leaf(el, tag, ctx, out) {
    if (tag === 'select') {
      const listbox = el.multiple || el.size > 1;
      if (!listbox && ctx.f.expandSelect !== el) return;
      for (const opt of el.querySelectorAll('option')) {
        if (opt.hidden || !ctx.textOk) continue;
        const node = {role: 'option', name: optionName(opt), attrs: [], children: [], el: opt};
        node.ref = this.ref(opt);
        if (opt.selected) node.attrs.push('selected');
        if (opt.disabled) node.attrs.push('disabled');
        out.push(BR, node);
      }
      return;
    }
    if (tag === 'iframe' || tag === 'frame') {
      let doc = null;
      try {
        doc = el.contentDocument;
      } catch {
        doc = null;
      }
      if (doc && doc.body) {
        const frameCtx = this.frameContext(doc, ctx);
        frameCtx.textOk = ctx.textOk;
        frameCtx.inView = ctx.inView;
        // An editor's frame (TinyMCE, CKEditor 4) is one field: its body
        // is contenteditable or the document is in design mode.
        if (doc.body.isContentEditable || doc.designMode === 'on') this.element(doc.body, frameCtx, out);
        else this.children(doc.body, frameCtx, out);
      }
      return;
    }
    if (tag === 'svg') {
      // An svg's insides are drawing; its <title> names it. What a person
      // clicks or reads in it is shown, outside a control only.
      const t = svgTitle(el);
      if (t) out.push({text: t, hidden: true});
      if (!ctx.inInteractive && ctx.textOk) this.svgParts(el, t, ctx, out);
    }
  }

  // ---------- svg drawings (docs/decisions/svg-drawings.md) ----------

  // svgParts adds the click targets drawn in svg (lines with refs and
  // their shape, colour, size and place) and the text it draws, in
  // document order; only the targets when a title already says what it is.
  svgParts(svg, title, ctx, out) {
    if (!svg.firstElementChild) return;
    const box = svg.getBoundingClientRect();
    const s = {svg, box, ctx, svgPointer: this.style(svg).cursor === 'pointer', parts: [], visited: 0, targets: 0, more: false};
    this.svgWalk(svg, s.svgPointer ? 'pointer' : 'auto', s);
    if (!s.targets && (title || !s.parts.length)) return;
    let prevText = null;
    for (const p of s.parts) {
      if (!p.target) {
        if (title && !s.targets) continue;
        // Pieces on one row (an axis's labels) read as one line.
        const row = prevText && Math.abs(p.rect.top - prevText.top) < 2 && p.rect.left >= prevText.left;
        out.push(row ? SPACE : BR, {text: p.text});
        prevText = p.rect;
        continue;
      }
      prevText = null;
      out.push(BR, this.svgTarget(p, box), BR);
    }
    // Bounded: say that the drawing holds more.
    if (s.more) out.push(BR, {text: '… (more drawn parts not listed)'});
    out.push(BR);
    sizeWords(s.parts);
  }

  // svgWalk collects the parts under parent: targets (their insides name
  // them) and drawn text, up to SVG_PARTS_MAX of SVG_VISIT_MAX elements.
  svgWalk(parent, parentCursor, s) {
    for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
      if (s.visited >= SVG_VISIT_MAX || s.parts.length >= SVG_PARTS_MAX) {
        s.more = true;
        return;
      }
      s.visited++;
      const tag = c.localName;
      if (!SVG_DRAWN.has(tag)) continue;
      const st = this.style(c);
      if (st.display === 'none' || st.opacity === '0') continue;
      const shown = st.visibility === 'visible';
      const isTarget = shown && this.svgClickable(c, tag, st, parentCursor, s);
      if (isTarget || (shown && tag === 'text')) {
        const rect = c.getBoundingClientRect();
        if (rect.width <= 0 || rect.height <= 0) continue;
        if (s.ctx.f && this.filter === 'visible' && !inViewport(rect, s.ctx.f)) continue;
        if (isTarget) {
          s.targets++;
          s.parts.push({target: true, el: c, tag, st, rect});
        } else {
          const text = partText(c, tag);
          if (text) s.parts.push({text, rect});
        }
        continue;
      }
      if (SVG_GROUPS.has(tag)) this.svgWalk(c, st.cursor, s);
    }
  }

  // svgClickable reports whether a drawn part is a click target: ARIA or
  // markup says so, it is a link, or its own pointer cursor (set on it, or
  // by a :hover rule) marks a part the page handles in script.
  svgClickable(el, tag, st, parentCursor, s) {
    if (el.hasAttributes()) {
      const names = el.getAttributeNames();
      if (INTERACTIVE_ROLES.has(el.getAttribute('role'))) return true;
      if (clickAttr(el, names)) return true;
      const ti = el.getAttribute('tabindex');
      if (ti !== null && parseInt(ti, 10) >= 0) return true;
      if (tag === 'a' && (names.includes('href') || names.includes('xlink:href'))) return true;
    }
    if (this.listened(el, s.ctx)) return true;
    if (s.svgPointer) return false;
    if (st.cursor === 'pointer' && parentCursor !== 'pointer') return true;
    return this.hoverPointed(el, s.ctx);
  }

  // listened reports whether the page's scripts listen to el for clicks
  // (addEventListener or an onclick property, which a content script cannot
  // see): the page-world click-listeners script noted it. Asked once per
  // document.
  listened(el, ctx) {
    const f = ctx.f;
    if (f.listened === undefined) f.listened = this.register ? askListeners(f.doc) : null;
    return !!f.listened && f.listened.has(el);
  }

  // hoverPointed reports whether a :hover rule gives el a pointer cursor:
  // the elements its selectors match, found once per document.
  hoverPointed(el, ctx) {
    const f = ctx.f;
    if (f.hoverPointed === undefined) {
      const list = [];
      if (this.register) hoverRulesOf(f.doc, list);
      const sel = [...new Set(list)].join(',');
      f.hoverPointed = null;
      if (sel) {
        try {
          f.hoverPointed = new Set(f.doc.querySelectorAll(sel));
        } catch {
          // a selector this document's engine does not take
        }
      }
    }
    return !!f.hoverPointed && f.hoverPointed.has(el);
  }

  // svgTarget is the line of one drawn click target.
  svgTarget(p, box) {
    const {el, tag, st, rect} = p;
    const role = tag === 'a' ? 'link' : INTERACTIVE_ROLES.has(el.getAttribute('role')) ? el.getAttribute('role') : 'clickable';
    const shape = tag === 'g' || tag === 'a' ? firstShape(el) : el;
    const kind = shape ? shapeKind(shape, shape.localName, shape === el ? rect : shape.getBoundingClientRect()) : 'shape';
    const shapeSt = shape && shape !== el ? this.style(shape) : st;
    let colour = tag === 'text' ? paint(st.fill) : paint(shapeSt.fill);
    let stroke = false;
    if (!colour && tag !== 'text') {
      colour = paint(shapeSt.stroke);
      stroke = !!colour;
    }
    const name = svgTitle(el) || partText(el, tag) || idWords(el.id) || idWords(el.getAttribute('data-name'));
    const attrs = [];
    if (colour) attrs.push((stroke ? 'stroke=' : 'fill=') + (colour.word || colour.hex));
    attrs.push('size=' + Math.round(rect.width) + 'x' + Math.round(rect.height));
    const x = Math.round(rect.left + rect.width / 2 - box.left);
    const y = Math.round(rect.top + rect.height / 2 - box.top);
    attrs.push('at=' + x + ',' + y);
    const node = {role, name, explicit: true, el, attrs, children: [], ref: this.ref(el), fallback: ''};
    if (!name) {
      // Described by what it looks like: "blue circle" ("small", "large"
      // come from sizeWords when its like differ in size).
      node.name = (colour && colour.word ? colour.word + ' ' : '') + kind;
      p.described = {node, key: node.name, area: rect.width * rect.height};
    }
    p.node = node;
    return node;
  }
}

// sizeWords tells described targets of the same colour and kind apart by
// size: the smallest is "small …", the largest "large …".
function sizeWords(parts) {
  const groups = new Map();
  for (const p of parts) {
    if (!p.described) continue;
    const g = groups.get(p.described.key);
    if (g) g.push(p.described);
    else groups.set(p.described.key, [p.described]);
  }
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    let min = g[0];
    let max = g[0];
    for (const d of g) {
      if (d.area < min.area) min = d;
      if (d.area > max.area) max = d;
    }
    if (max.area < min.area * 1.5) continue;
    min.node.name = 'small ' + min.node.name;
    max.node.name = 'large ' + max.node.name;
  }
}

function inViewport(rect, f) {
  return rect.right > 0 && rect.bottom > 0 && rect.left < f.vw && rect.top < f.vh;
}

// pointerHoverRule adds to list the element parts of a :hover rule's
// selectors (the rule sets a pointer cursor).
function pointerHoverRule(sel, list) {
  if (!list) return;
  for (const one of splitSelectors(sel)) {
    const p = one.includes(':hover') && pointerHoverSelector(one);
    if (p) list.push(p);
  }
}

// iconBox reports whether el, in a pointer row or card and inheriting its
// cursor, is an icon of its own: a small box with no text that draws a picture
// (a background image, an image as its content, an img, an svg or an icon
// font's empty <i>).
function iconBox(el, st, rect) {
  if (rect.width < 6 || rect.height < 6 || rect.width > 32 || rect.height > 32) return false;
  if (el.textContent.trim()) return false;
  return st.backgroundImage !== 'none' || st.content.startsWith('url(') || !!el.querySelector('img, svg') || !!iconName(el);
}

// drawnBoxes is what a box holding nothing but small squares filled with a
// colour shows a person ("3 blue boxes", "2 red boxes, 1 green box"): up
// to 50 childless, textless span/div/i/b/li boxes of 4 to 48 px, no picture,
// no icon glyph, none a target (a role, a pointer, a click handler); ''
// for any other box.
const BOX_TAGS = new Set(['span', 'div', 'i', 'b', 'li']);
function drawnBoxes(el, walker, ctx) {
  if (el.childElementCount > 50) return '';
  // The shape and text first, node by node (cheap, and most boxes fail at
  // their first child: a paragraph at its text).
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3) {
      if (n.nodeValue.trim()) return '';
    } else if (n.nodeType === 1 && (n.firstElementChild || !BOX_TAGS.has(n.localName) || n.textContent.trim())) return '';
  }
  const counts = new Map();
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    const tag = c.localName;
    const st = walker.style(c);
    if (st.display === 'none') continue;
    const r = c.getBoundingClientRect();
    if (r.width < 4 || r.height < 4 || r.width > 48 || r.height > 48) return '';
    if (st.cursor === 'pointer' || isInteractive(c, tag, roleOf(c, tag, walker))) return '';
    if (walker.hoverPointed(c, ctx) || walker.listened(c, ctx)) return '';
    const fill = boxFill(c, st);
    if (!fill) return '';
    counts.set(fill, (counts.get(fill) || 0) + 1);
  }
  return [...counts].map(([fill, n]) => `${n} ${fill} box${n === 1 ? '' : 'es'}`).join(', ');
}

// scrollDirections is the way a box that scrolls by itself (its overflow,
// the computed shorthand, is auto or scroll vertically) can be scrolled to
// show what is out of its view: "down", "up,down" or "up"; '' when it shows
// all (8 px of slack) or is too low to read in (under 24 px). Only
// vertical: boxes that scroll sideways (code, wide tables, carousels) are
// read whole or have buttons.
function scrollDirections(el, overflow) {
  const sp = overflow.indexOf(' ');
  const oy = sp < 0 ? overflow : overflow.slice(sp + 1);
  if (oy !== 'auto' && oy !== 'scroll' && oy !== 'overlay') return '';
  if (el.localName === 'textarea' && !el.value) return ''; // a long placeholder
  const over = el.scrollHeight - el.clientHeight;
  if (over <= 8 || el.clientHeight < 24) return '';
  const top = el.scrollTop;
  if (top <= 1) return 'down';
  return top >= over - 1 ? 'up' : 'up,down';
}

// boxFill is the colour word (or hex) of a box that draws nothing but its
// background colour: no text, no child element, no picture, no icon glyph
// drawn before or after it; '' for any other.
function boxFill(el, st) {
  if (st.backgroundImage !== 'none' || el.firstElementChild || el.textContent.trim() || iconName(el)) return '';
  const colour = paint(st.backgroundColor);
  if (!colour) return '';
  const view = el.ownerDocument.defaultView;
  for (const pseudo of ['::before', '::after']) {
    const content = view.getComputedStyle(el, pseudo).content;
    if (content && content !== 'none' && content !== 'normal' && content !== '""') return '';
  }
  return colour.word || colour.hex;
}

// separateParts reports whether the pointer box el is a row of parts drawn
// as buttons of their own: two to six element boxes, nothing else, side by
// side on one line with space between them, each a short label or an icon,
// two of them labels; or a list whose items (up to twelve, 40 characters
// each) stack, a pop-up menu's entries. A card whose parts stack (a
// picture over a title) or whose text is long, or a toggle of one label
// between icons (a menu's "My Account" with its chevron), stays one target.
function separateParts(el, walker) {
  // A list's items may stack (a pop-up menu's entries): up to twelve.
  const list = el.localName === 'ul' || el.localName === 'ol' || el.getAttribute('role') === 'menu';
  let n = 0;
  let labels = 0;
  let prev = null;
  let stacked = false;
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3) {
      if (c.nodeValue.trim()) return false;
      continue;
    }
    if (c.nodeType !== 1) continue;
    const st = walker.style(c);
    if (st.display === 'none') continue;
    if (st.display === 'inline' || st.display === 'contents') return false;
    const r = c.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    const len = c.textContent.trim().length;
    if (++n > (list ? 12 : 6) || len > (list ? 40 : 24)) return false;
    if (len) labels++;
    if (prev) {
      const beside = r.left >= prev.right + 2 && r.top < prev.bottom && r.bottom > prev.top;
      const below = list && c.localName === 'li' && r.top >= prev.bottom - 1;
      if (!beside && !below) return false;
      if (below) stacked = true;
      else if (stacked) return false;
    } else if (list && c.localName !== 'li') return false;
    prev = r;
  }
  return labels >= 2;
}

// A label drawn over its own control (a custom checkbox) passes the click on.
function labelFor(hit, el) {
  const label = hit.closest('label');
  return !!label && label.control === el;
}

// ownContent reports whether items show something outside the controls
// among them: text, or a named element without a ref.
function ownContent(items) {
  for (const it of items) {
    if (it.text !== undefined) {
      if (!it.hidden && !it.decor && it.text.trim()) return true;
    } else if (it.group) {
      if (ownContent(it.items)) return true;
    } else if (it.role && !it.ref && (it.name || ownContent(it.children))) return true;
  }
  return false;
}

function pushSep(out, sep) {
  if (sep === 'br') out.push(BR);
  else if (sep) out.push(SPACE);
}

// ---------- preserved white space ----------

// whiteSpaceMode is how an element renders the white space of its text:
// 1 collapsed (normal, nowrap), 2 line breaks kept (pre-line), 3 all kept
// (pre, pre-wrap, break-spaces).
function whiteSpaceMode(st) {
  const c = st.whiteSpaceCollapse || st.whiteSpace;
  if (!c || c === 'collapse' || c === 'normal' || c === 'nowrap') return 1;
  return c === 'pre-line' || c === 'preserve-breaks' ? 2 : 3;
}

// keepWhiteSpace marks the white space a person sees in text rendered with
// mode (2 or 3) so that merging text does not collapse it.
function keepWhiteSpace(v, mode) {
  const s = v.replace(/\r\n?/g, '\n');
  if (mode === 2) return s.replace(/[ \t]*\n[ \t]*/g, KEEP_NL);
  return s.replace(/[ \t\n]/g, (c) => (c === '\n' ? KEEP_NL : c === ' ' ? KEEP_SP : KEEP_TAB));
}

// keptText turns the marks back into white space: trailing blanks of each
// line and blank lines at the ends dropped, runs of blank lines made one.
function keptText(t) {
  return t
    .replace(/\ue000/g, '\n')
    .replace(/\ue001/g, ' ')
    .replace(/\ue002/g, '\t')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\s+$/g, '');
}

// preLines clips a block of kept lines to maxLines lines and maxChars
// characters, each line to TEXT_MAX: {head, left} (left: lines left out).
function preLines(text, maxLines = PRE_LINES, maxChars = PRE_CHARS) {
  const lines = text.split('\n');
  const kept = [];
  let size = 0;
  for (const l of lines) {
    if (kept.length >= maxLines || size >= maxChars) break;
    const c = clip(l, Math.min(TEXT_MAX, Math.max(maxChars - size, 20)));
    kept.push(c);
    size += c.length + 1;
  }
  return {head: kept.join('\n'), left: lines.length - kept.length};
}

// preBlock is a clipped block as its line shows it, saying how many lines
// are left out.
function preBlock(clipped, more = 0) {
  const left = clipped.left + more;
  return left > 0 ? clipped.head + '\n… (' + left + ' more lines)' : clipped.head;
}

// A role-less box a stylesheet draws as a button ("btn", "close-btn",
// "card__button"; not "btn-group") is a click target.
const BUTTON_CLASS = /(?:^|\s)(?:btn|button|clickable)(?:\s|$)|[-_](?:btn|button)(?:\s|$)/i;
function buttonClass(el, role) {
  if (!TRANSPARENT.has(role)) return false;
  const c = el.getAttribute('class');
  return !!c && BUTTON_CLASS.test(c);
}

// A drawn click target without text whose class says it is a checkbox,
// radio button or switch ("custom-checkbox checked", "switch is-on") is
// one: its state is in its class too (classStates), its caption beside it.
// "toggle" alone is left out: menus' openers are "navbar-toggle".
const TOGGLE_CLASS = /(?:^|[\s_-])(checkbox|radio|switch)(?:$|[\s_-])/i;
const NOT_TOGGLE_CLASS = /(?:^|[\s_-])(?:wrapper|container|group|list|label|text)(?:$|[\s_-])/i;
function toggleClass(el) {
  const c = el.getAttribute('class');
  if (!c || NOT_TOGGLE_CLASS.test(c)) return '';
  const m = TOGGLE_CLASS.exec(c);
  return m ? m[1].toLowerCase() : '';
}

// ---------- hover menus ----------

// What a revealed menu must hold to count: a control.
const MENU_CONTROLS =
  'a[href], button, input, select, textarea, [role=menuitem], [role=link], [role=button], [role=option], [onclick], [tabindex]';

// hoverHint marks node's control as opening a menu on hover, unless ARIA
// already says it opens one.
function hoverHint(node) {
  if (!node || !node.ref) return;
  for (const a of node.attrs) if (a.startsWith('haspopup') || a === 'expanded' || a === 'collapsed') return;
  node.attrs.push('haspopup=hover');
}

function firstRef(items) {
  for (const it of items) {
    if (it.group) {
      const r = firstRef(it.items);
      if (r) return r;
    } else if (it.role) {
      if (it.ref) return it;
      const r = firstRef(it.children);
      if (r) return r;
    }
  }
  return null;
}

// hoverHandler says whether el has a mouse-over handler in markup (onmouseover,
// a framework's binding, jsaction): "menu" when its code names a menu,
// true for another, "" for none.
// It runs on every element with attributes: the names come as strings
// (getAttributeNames), not as Attr objects, which took twice the time.
function hoverHandler(el, names) {
  for (let i = 0; i < names.length; i++) {
    const n = names[i];
    let hit = false;
    if (n === 'jsaction') hit = /mouse(enter|over)\s*:/.test(el.getAttribute(n));
    else if (n === 'data-hover') hit = el.getAttribute(n) === 'dropdown';
    else hit = n.length > 9 && (n.endsWith('mouseover') || n.endsWith('mouseenter'));
    if (hit) return /menu|dropdown|flyout|popup|popover|mega/i.test(el.getAttribute(n)) ? 'menu' : true;
  }
  return '';
}

// Per stylesheet, its :hover rules that reveal content, read once (again
// when its rule count changes): a cross-origin sheet cannot be read and is
// skipped.
const hoverSheets = new WeakMap();

// hoverRulesOf is the document's revealing :hover rules by their hovered
// part: Map<prefix, [{rest, sib}]>. "nav li:hover > ul" is "nav li" →
// ":scope > ul"; "a:hover + .menu" is "a" → ".menu" with sib "+".
// pointer, when given, gets the selectors of the elements a :hover rule
// gives a pointer cursor (hoverPointed).
function hoverRulesOf(doc, pointer = null) {
  const out = new Map();
  const sheets = [...doc.styleSheets];
  try {
    if (doc.adoptedStyleSheets) sheets.push(...doc.adoptedStyleSheets);
  } catch {
    // not reachable from this world (Firefox's wrappers)
  }
  for (const sheet of sheets) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // another origin's sheet
    }
    if (!rules) continue;
    let found = hoverSheets.get(sheet);
    if (!found || found.n !== rules.length) {
      found = {n: rules.length, list: [], pointer: []};
      scanHoverRules(rules, found.list, 0, found.pointer);
      hoverSheets.set(sheet, found);
    }
    if (pointer) pointer.push(...found.pointer);
    for (const r of found.list) {
      const list = out.get(r.prefix);
      if (list) list.push(r);
      else out.set(r.prefix, [r]);
    }
  }
  return out;
}

function scanHoverRules(rules, list, depth, pointer) {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    const sel = rule.selectorText;
    if (sel === undefined) {
      // @media, @supports, @layer: their rules.
      if (rule.cssRules && depth < 3) scanHoverRules(rule.cssRules, list, depth + 1, pointer);
      continue;
    }
    if (!sel.includes(':hover')) continue;
    if (rule.style.cursor === 'pointer') pointerHoverRule(sel, pointer);
    if (!reveals(rule.style)) continue;
    for (const one of splitSelectors(sel)) {
      const r = one.includes(':hover') && hoverSelector(one);
      if (r) list.push(r);
    }
  }
}

// reveals reports whether a rule's declarations can bring hidden content
// into view.
function reveals(st) {
  if (st.display && st.display !== 'none') return true;
  if (st.visibility === 'visible' || (st.opacity && st.opacity !== '0')) return true;
  return !!(st.maxHeight || st.height || st.transform || st.left || st.top || st.clipPath || st.clip);
}

function splitSelectors(sel) {
  if (!sel.includes(',')) return [sel];
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < sel.length; i++) {
    const c = sel[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(sel.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(sel.slice(start));
  return parts;
}

// hoverSelector splits one selector at its last :hover compound into the
// hovered part and what it reveals, or null when nothing beyond the hovered
// element changes, the :hover is inside a function, or a part is not valid.
function hoverSelector(sel) {
  const at = sel.lastIndexOf(':hover');
  let depth = 0;
  for (let i = 0; i < at; i++) {
    const c = sel[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
  }
  if (depth) return null;
  let end = at + 6;
  for (; end < sel.length; end++) {
    const c = sel[end];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && (c === ' ' || c === '>' || c === '+' || c === '~')) break;
  }
  const prefix = sel
    .slice(0, end)
    .replace(/:hover/g, '')
    .trim();
  let rest = sel.slice(end).trim();
  if (!prefix || !rest || /[\s>+~]$/.test(prefix) || prefix.includes('::') || rest.includes('::') || rest.includes(':hover'))
    return null;
  let sib = '';
  if (rest[0] === '+' || rest[0] === '~') {
    sib = rest[0];
    rest = rest.slice(1).trim();
    const cut = rest.search(/[\s>+~]/); // the sibling is what is revealed
    if (cut > 0) rest = rest.slice(0, cut);
  } else rest = ':scope ' + rest;
  try {
    document.createDocumentFragment().querySelector(prefix);
    document.createDocumentFragment().querySelector(rest);
  } catch {
    return null;
  }
  return {prefix, rest, sib};
}

// A role-less list item in a menu, a tree view or a pop-up list is a click
// target.
function menuList(list, walker) {
  if (!list) return false;
  const r = list.getAttribute('role');
  if (r) return /^(menu|menubar|tree|listbox)$/.test(r);
  const c = list.getAttribute('class');
  if (c && /(^|[-_\s])(menu|dropdown|tree)/i.test(c)) return true;
  // A list drawn over the page (positioned, stacked above it) is a pop-up
  // menu: a post's "more" list of Share, Embed, Block.
  const st = walker.style(list);
  return (st.position === 'absolute' || st.position === 'fixed') && parseInt(st.zIndex, 10) > 0 && list.childElementCount >= 2;
}

// ---------- visibility ----------

// clipChildren narrows the box el's descendants are clipped to (child.clip,
// viewport coordinates) by el's overflow (o, the computed shorthand),
// axis by axis: hidden or clip cuts to el's box; a scrolling axis lifts the
// clip on that axis (the model scrolls the content into view); visible
// keeps the ancestors' clip.
// child.clipHold says whether an absolute descendant stays clipped (its
// containing block is inside the clipping box).
function clipChildren(child, st, o, pos, rect) {
  const sp = o.indexOf(' ');
  const ox = sp < 0 ? o : o.slice(0, sp);
  const oy = sp < 0 ? o : o.slice(sp + 1);
  const c = child.clip || {l: -Infinity, t: -Infinity, r: Infinity, b: Infinity};
  const n = {l: c.l, t: c.t, r: c.r, b: c.b};
  let cuts = false;
  if (ox === 'hidden' || ox === 'clip') {
    n.l = Math.max(n.l, rect.left);
    n.r = Math.min(n.r, rect.right);
    cuts = true;
  } else if (ox !== 'visible') {
    n.l = -Infinity;
    n.r = Infinity;
  }
  if (oy === 'hidden' || oy === 'clip') {
    n.t = Math.max(n.t, rect.top);
    n.b = Math.min(n.b, rect.bottom);
    cuts = true;
  } else if (oy !== 'visible') {
    n.t = -Infinity;
    n.b = Infinity;
  }
  const open = n.l === -Infinity && n.r === Infinity && n.t === -Infinity && n.b === Infinity;
  child.clip = open ? null : n;
  if (cuts) child.clipHold = pos !== 'static' || st.transform !== 'none';
}

// Visually-hidden ("sr-only") technique: clipped to nothing, or a 1px box
// that hides its overflow.
function isClipped(st, pos, rect) {
  if (pos !== 'absolute' && pos !== 'fixed') return false;
  const clipRect = st.clip;
  if (clipRect && clipRect.startsWith('rect(') && /^rect\((0|1)px,? (0|1)px,? (0|1)px,? (0|1)px\)$/.test(clipRect)) return true;
  const cp = st.clipPath;
  if (cp && (cp === 'inset(50%)' || cp === 'inset(100%)')) return true;
  return rect.width <= 1 && rect.height <= 1 && st.overflow !== 'visible' && st.overflow !== '';
}

function isOverlay(el, tag, role, st, pos, rect, ctx) {
  if (rect.right <= 0 || rect.bottom <= 0 || rect.left >= ctx.f.vw || rect.top >= ctx.f.vh) return false;
  if (tag === 'dialog' && el.open) return true;
  if (role === 'dialog' || role === 'alertdialog' || el.getAttribute('aria-modal') === 'true') return true;
  if (el.hasAttribute('popover') && el.matches(':popover-open')) return true;
  if (pos !== 'fixed') return false;
  const z = parseInt(st.zIndex, 10);
  return z > 0 && rect.width * rect.height >= ctx.f.vw * ctx.f.vh * 0.3;
}

// ---------- roles ----------

function explicitRole(el) {
  if (!el.hasAttributes()) return '';
  const attr = el.getAttribute('role');
  if (!attr) return '';
  for (const r of attr.trim().toLowerCase().split(/\s+/)) if (ROLES.has(r)) return r;
  return '';
}

function insideSection(el) {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const t = p.localName;
    if (t === 'article' || t === 'aside' || t === 'main' || t === 'nav' || t === 'section') return true;
  }
  return false;
}

function layoutTable(table) {
  if (table.caption || table.tHead || table.querySelector('th, colgroup')) return false;
  const border = table.getAttribute('border');
  if (border && border !== '0') return false;
  if (table.querySelector('table')) return true;
  const rows = table.rows;
  return rows.length < 2 || rows[0].cells.length < 2;
}

function tableOf(el) {
  for (let p = el.parentElement; p; p = p.parentElement) if (p.localName === 'table') return p;
  return null;
}

function implicitRole(el, tag, walker) {
  // biome-ignore format: a table, packed as written
  switch (tag) {
    case 'a': case 'area': return el.hasAttribute('href') ? 'link' : 'generic';
    case 'button': return 'button';
    case 'summary': return 'button';
    case 'input': return controlRole(el, walker);
    case 'textarea': return 'textbox';
    case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
    case 'ul': case 'ol': case 'menu': return 'list';
    case 'li': return 'listitem';
    case 'nav': return 'navigation';
    case 'main': return 'main';
    case 'aside': return 'complementary';
    case 'header': return insideSection(el) ? 'generic' : 'banner';
    case 'footer': return insideSection(el) ? 'generic' : 'contentinfo';
    case 'form': return 'form';
    case 'search': return 'search';
    case 'section': return 'region';
    case 'article': return 'article';
    case 'dialog': return 'dialog';
    case 'option': return 'option'; // a <select>'s, which leaf() lists
    case 'fieldset': return 'group';
    case 'img': return el.getAttribute('alt') === '' ? 'none' : 'img';
    case 'svg': case 'canvas': return 'img';
    case 'iframe': case 'frame': return 'iframe';
    case 'progress': return 'progressbar';
    case 'meter': return 'meter';
    case 'output': return 'status';
    case 'p': return 'paragraph';
    case 'math': return 'math';
    case 'table': return layoutTable(el) ? 'generic' : 'table';
    case 'tr': case 'td': case 'th': {
      const table = tableOf(el);
      if (!table || walker.style(table).display === 'none' || roleOf(table, 'table', walker) !== 'table') return 'generic';
      if (tag === 'tr') return 'row';
      if (tag === 'td') return 'cell';
      return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
    }
    default:
      // An editing host carries the attribute (isContentEditable is read
      // only then: it is not free).
      if (
        el.hasAttribute('contenteditable') &&
        el.isContentEditable &&
        !(el.parentElement && el.parentElement.isContentEditable)
      )
        return 'textbox';
      if (tag === 'body' && el.ownerDocument.designMode === 'on') return 'textbox';
      return 'generic';
  }
}

function controlRole(el, walker) {
  if (el.localName !== 'input') return implicitRole(el, el.localName, walker);
  const type = (el.type || '').toLowerCase();
  if (INPUT_ROLES[type]) return INPUT_ROLES[type];
  if (type === 'search') return el.list ? 'combobox' : 'searchbox';
  return el.list ? 'combobox' : 'textbox';
}

function roleOf(el, tag, walker) {
  let role = walker.roles.get(el);
  if (role) return role;
  role = explicitRole(el) || implicitRole(el, tag, walker);
  if ((role === 'none' || role === 'presentation') && focusable(el, tag)) role = implicitRole(el, tag, walker);
  walker.roles.set(el, role);
  return role;
}

function focusable(el, tag) {
  const ti = el.getAttribute('tabindex');
  if (ti !== null && parseInt(ti, 10) >= 0) return true;
  return (
    (tag === 'a' && el.hasAttribute('href')) || tag === 'button' || tag === 'input' || tag === 'select' || tag === 'textarea'
  );
}

function isInteractive(el, tag, role, names = null) {
  if (INTERACTIVE_ROLES.has(role)) return !(role === 'option' && tag === 'option');
  if (tag === 'iframe' || tag === 'frame' || tag === 'summary') return true;
  if (role === 'listbox' && tag === 'select') return true;
  if (!el.hasAttributes()) return false; // the rest are attributes
  if ((tag === 'video' || tag === 'audio') && el.hasAttribute('controls')) return true;
  const attrNames = names || el.getAttributeNames();
  if (clickAttr(el, attrNames)) return true;
  if (tag === 'a' && scriptedAnchor(el, attrNames)) return true;
  if (dragSource(el, attrNames)) return true;
  const ti = el.getAttribute('tabindex');
  return ti !== null && parseInt(ti, 10) >= 0 && role !== 'dialog' && role !== 'alertdialog';
}

// dragSource reports an element the page lets a person drag: draggable
// (HTML drag and drop) or a jQuery UI sortable item or draggable. The drag
// tools take its ref.
const DRAG_CLASS = /(?:^|\s)ui-(?:sortable-handle|draggable-handle|draggable)(?:\s|$)/;
function dragSource(el, names) {
  if (names.includes('draggable') && el.getAttribute('draggable') === 'true') return true;
  return names.includes('class') && DRAG_CLASS.test(el.getAttribute('class'));
}

// focusedEl reports whether el has focus (read once per document).
function focusedEl(el, ctx) {
  if (ctx.f.active === undefined) ctx.f.active = deepActive(ctx.f.doc);
  return ctx.f.active === el;
}

// sliderHandle reports a focusable box whose class says it is a slider's
// handle (jQuery UI, rc-slider, noUiSlider draw it without a role): it
// takes the arrow keys as a slider does.
const SLIDER_CLASS = /(?:^|\s)(?:ui-slider-handle|rc-slider-handle|noUi-handle|slider-handle|slider-thumb)(?:\s|$)/i;
function sliderHandle(el, names) {
  return names.includes('class') && SLIDER_CLASS.test(el.getAttribute('class'));
}

// Data attributes a framework or a test suite puts on every element.
const MARKUP_DATA = /^data-(v-|react|testid|test-id)/;
// scriptedAnchor reports an <a> without href that a script acts on: one
// with a title or data-* attributes (jQuery UI's datepicker "Prev" has
// both) and something to show. A named anchor (a link target), a bare <a>
// or one with only a class (Wikipedia's link to the page itself) or a
// framework's markers (Vue's data-v-…, React's data-reactid) is text;
// one the page styles with a pointer is a target by its cursor.
function scriptedAnchor(el, names) {
  if (names.includes('href') || names.includes('name')) return false;
  let marked = false;
  for (const n of names) if (n === 'title' || (n.startsWith('data-') && !MARKUP_DATA.test(n))) marked = true;
  return marked && (names.includes('title') || !!el.textContent.trim() || !!el.firstElementChild);
}

// askListeners fires the query of the page-world click-listeners script at
// doc and gathers the elements it answers for: a Set, or null when none
// answered (the script is not in pages opened before the extension was).
// The answers come while the query is dispatched; composedPath finds an
// element inside an open shadow root.
const LISTENED_MAX = 20000;
function askListeners(doc) {
  const view = doc.defaultView;
  if (!view) return null;
  const found = new Set();
  const take = (e) => {
    const t = e.composedPath()[0];
    if (t && t.nodeType === 1 && found.size < LISTENED_MAX) found.add(t);
  };
  view.addEventListener(LISTENERS_ANSWER, take, true);
  try {
    doc.dispatchEvent(new CustomEvent(LISTENERS_QUERY));
  } finally {
    view.removeEventListener(LISTENERS_ANSWER, take, true);
  }
  return found.size ? found : null;
}

// clickAttr reports a click handler declared in markup: onclick, or a
// framework's binding (Angular, Vue, Alpine, Google's jsaction). Handlers
// added with addEventListener are invisible to a content script
// (askListeners asks the page world for them).
// biome-ignore format: a table, packed as written
const CLICK_ATTRS = new Set(['onclick', 'ng-click', 'data-ng-click', '@click', 'v-on:click', 'x-on:click',
  // Bootstrap's toggles, Livewire, Phoenix LiveView, htmx.
  'data-bs-toggle', 'data-toggle', 'wire:click', 'phx-click', 'hx-get', 'hx-post']);
function clickAttr(el, names) {
  // One read of the names (most elements have one to three) instead of a
  // look-up per framework.
  for (let i = 0; i < names.length; i++) {
    const n = names[i];
    if (CLICK_ATTRS.has(n)) return true;
    if (n === 'jsaction') {
      const js = el.getAttribute(n);
      if (js.includes('click') || (!!js.trim() && !js.includes(':'))) return true;
    }
  }
  return false;
}

// ---------- names ----------

// Text alternative of a subtree for labels and aria-labelledby targets.
function domText(node, walker, skip) {
  let s = '';
  const visit = (n) => {
    if (s.length > NAME_MAX * 2) return;
    if (n.nodeType === 3) {
      s += n.nodeValue;
      return;
    }
    if (n.nodeType !== 1 || n === skip) return;
    const tag = n.localName;
    if (SKIP_TAGS.has(tag) || n.getAttribute('aria-hidden') === 'true') return;
    if (tag === 'noscript' && !n.firstElementChild) return;
    const al = n.getAttribute('aria-label');
    if (al && al.trim()) {
      s += ' ' + al + ' ';
      return;
    }
    if (tag === 'img' || (tag === 'input' && n.type === 'image')) {
      s += ' ' + (n.getAttribute('alt') || '') + ' ';
      return;
    }
    if (tag === 'svg') {
      s += ' ' + svgTitle(n) + ' ';
      return;
    }
    if (tag === 'input' || tag === 'select' || tag === 'textarea') return;
    // A slot reads as what is slotted into it (a web component's label).
    const slotted = tag === 'slot' ? n.assignedNodes({flatten: true}) : null;
    const kids = slotted && slotted.length ? slotted : n.shadowRoot ? n.shadowRoot.childNodes : n.childNodes;
    const block = walker && !walker.style(n).display.startsWith('inline');
    if (block) s += ' ';
    for (let i = 0; i < kids.length; i++) visit(kids[i]);
    if (block) s += ' ';
  };
  visit(node);
  return squash(s);
}

function svgTitle(svg) {
  const al = svg.getAttribute('aria-label');
  if (al && al.trim()) return squash(al);
  for (const c of svg.children) if (c.localName === 'title') return squash(c.textContent);
  return '';
}

function labelledBy(el, walker) {
  const ids = el.getAttribute('aria-labelledby');
  if (!ids) return '';
  const root = el.getRootNode();
  const parts = [];
  for (const id of ids.trim().split(/\s+/)) {
    const target = root.getElementById ? root.getElementById(id) : el.ownerDocument.getElementById(id);
    if (target) parts.push(target === el ? squash(el.getAttribute('aria-label') || '') : domText(target, walker));
  }
  return squash(parts.join(' '));
}

function labelsText(el, walker) {
  const labels = el.labels;
  if (!labels || !labels.length) return '';
  const parts = [];
  for (const l of labels) parts.push(domText(l, walker, el));
  return squash(parts.join(' '));
}

// Name from aria-labelledby, aria-label or the host language; content,
// title and placeholder come later (see fallbackName and finish).
function explicitName(el, tag, walker, proxy) {
  if (el.hasAttributes()) {
    const lb = labelledBy(el, walker);
    if (lb) return clip(lb, NAME_MAX);
    const al = el.getAttribute('aria-label');
    if (al && al.trim()) return clip(squash(al), NAME_MAX);
  }
  let n = '';
  if (proxy) n = domText(el, walker);
  else if (tag === 'input') {
    const type = (el.type || '').toLowerCase();
    if (type === 'submit' || type === 'reset' || type === 'button') {
      n =
        el.labels && el.labels.length
          ? labelsText(el, walker)
          : el.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
    } else if (type === 'image') n = el.alt || el.value || 'Submit';
    else n = labelsText(el, walker);
  } else if (tag === 'textarea' || tag === 'select' || tag === 'progress' || tag === 'meter' || tag === 'output') {
    n = labelsText(el, walker);
  } else if (tag === 'img' || tag === 'area') n = el.getAttribute('alt') || '';
  else if (tag === 'svg') n = svgTitle(el);
  else if (tag === 'fieldset') {
    const legend = Array.prototype.find.call(el.children, (c) => c.localName === 'legend');
    if (legend) n = domText(legend, walker);
  } else if (tag === 'table') {
    if (el.caption) n = domText(el.caption, walker);
  } else if (tag === 'iframe' || tag === 'frame') n = el.title || el.name || '';
  else if (tag === 'option') n = optionName(el);
  else if (tag === 'button' && el.labels && el.labels.length) n = labelsText(el, walker);
  return clip(squash(n), NAME_MAX);
}

// optionList is a closed <select>'s options as its line shows them: their
// names when they are few and short ("S|M|L"), else how many there are
// (read the select with refId to list them).
function optionList(select) {
  const opts = select.options;
  if (opts.length > 8) return String(opts.length);
  const names = [];
  let len = 0;
  for (const o of opts) {
    const n = optionName(o);
    len += n.length + 1;
    if (len > 100 || n.includes('|')) return String(opts.length);
    names.push(n);
  }
  return quote(names.join('|'));
}

// optionName is what a <select>'s option is called.
function optionName(opt) {
  return squash(opt.label || opt.textContent);
}

function fallbackName(el, role) {
  const title = el.getAttribute('title');
  if (title && title.trim()) return clip(squash(title), NAME_MAX);
  if (el.localName === 'body') {
    // An editor frame's body is called what its frame is.
    const view = el.ownerDocument.defaultView;
    const frame = view && view.frameElement;
    if (frame && frame.title) return clip(squash(frame.title), NAME_MAX);
  }
  if (role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'spinbutton') {
    // data-placeholder: an editor's placeholder drawn by CSS (Quill, ProseMirror).
    const ph = el.getAttribute('placeholder') || el.getAttribute('aria-placeholder') || el.getAttribute('data-placeholder');
    if (ph && ph.trim()) return clip(squash(ph), NAME_MAX);
  }
  return '';
}

// Words that tell an unnamed control apart: its description, test id, id,
// class words, icon reference or image file name.
function hintFor(el) {
  const words = [];
  // Generated words say nothing: numbers, hashes ("gzonxhes6bl4p9k4gzpl"),
  // CSS-in-JS names, atomic CSS ("Cur(p)", "Fz(18px)!", two-letter classes).
  const add = (s, min = 2) => {
    if (!s) return;
    for (const w of String(s).split(/[\s,]+/)) {
      if (w.length < min || w.length > 30 || /\d{3,}|^[a-z]{1,3}-[a-z0-9]{5,}$|^_|^(css|sc|jsx|svelte)-|[():!]/i.test(w))
        continue;
      if (/^(?=(?:.*\d){2})[a-z0-9]{8,}$/i.test(w)) continue;
      if (!words.includes(w)) words.push(w);
    }
  };
  add(el.getAttribute('aria-description'));
  add(el.getAttribute('data-testid') || el.getAttribute('data-test-id'));
  add(el.getAttribute('name'));
  add(el.id);
  add(typeof el.className === 'string' ? el.className : el.getAttribute('class'), 3);
  const use = el.querySelector('use');
  if (use) add((use.getAttribute('href') || use.getAttribute('xlink:href') || '').replace(/^.*#/, ''));
  const svg = el.localName === 'svg' ? el : el.querySelector('svg');
  if (svg) add(svg.getAttribute('class') || svg.getAttribute('data-icon'), 3);
  const img = el.localName === 'img' ? el : el.querySelector('img');
  if (img) {
    const src = img.getAttribute('src') || '';
    if (!src.startsWith('data:'))
      add(
        src
          .replace(/[?#].*$/, '')
          .replace(/^.*\//, '')
          .replace(/\.\w+$/, ''),
      );
  }
  return clip(words.slice(0, 4).join(' '), 40);
}

// Words for common icons (font classes, ligatures, glyphs) a model reads
// better as what they do. « and » stay glyphs: beside ‹ and › a pager's
// first and last, alone its previous and next.
// biome-ignore format: a table, packed as written
const ICON_WORDS = {'ellipsis v': 'more', 'ellipsis h': 'more', 'ellipsis vertical': 'more', 'ellipsis horizontal': 'more',
  'ellipsis': 'more', 'more vert': 'more', 'more horiz': 'more', 'dots': 'more', 'kebab': 'more', 'times': 'close',
  'xmark': 'close', 'x': 'close', 'envelope': 'email', 'remove': 'close', 'bars': 'menu', 'hamburger': 'menu', 'navicon': 'menu',
  'reorder': 'menu', 'magnifying glass': 'search', 'gear': 'settings', 'cog': 'settings', 'pencil': 'edit',
  'trash': 'delete', 'trash can': 'delete', 'plus': 'add', 'chevron right': 'next', 'chevron left': 'previous',
  'angle right': 'next', 'angle left': 'previous', 'arrow right': 'next', 'arrow left': 'previous',
  '×': 'close', '✕': 'close', '✖': 'close', '⋮': 'more', '⋯': 'more', '…': 'more', '☰': 'menu', '≡': 'menu',
  '›': 'next', '‹': 'previous', '+': 'add', '🔍': 'search',
  // jQuery UI's icons point by compass: triangle-1-n is "up".
  'triangle 1 n': 'up', 'triangle 1 s': 'down', 'triangle 1 e': 'next', 'triangle 1 w': 'previous',
  'circle triangle e': 'next', 'circle triangle w': 'previous', 'closethick': 'close', 'carat 1 n': 'up',
  'carat 1 s': 'down', 'carat 1 e': 'next', 'carat 1 w': 'previous'};
const ICON_CLASS =
  /^(?:fa[srlbdk]?|fa-solid|fa-regular|fa-brands|bi|mdi|ion|ionicon|icon|icons|ui-icon|glyphicon|octicon|ti|la[sbr]?|ri|uil|feather|ico|ic|zmdi|typcn|ql)[-_](.+)$/i;
const ICON_NOISE =
  /^(fw|lg|xs|sm|[1-9]x|solid|regular|light|thin|duotone|outline|outlined|filled|round|rounded|sharp|o|alt|inverse|spin|pulse|border|stack|flip.*|rotate.*|wrap|wrapper|container|btn|button|box|link)$/;

function iconWords(s) {
  const w = squash(s.toLowerCase().replace(/[-_]+/g, ' '));
  return ICON_WORDS[w] || w;
}

// iconName is what an unnamed control's icon says: an icon font's class
// (fa-ellipsis-v), a ligature font's text (material icons), an svg
// <use href="#close">, or a glyph drawn by CSS (::before content "×").
function iconName(el) {
  const parts = [el, ...el.querySelectorAll('i, span, svg, use, b, em')].slice(0, 8);
  for (const p of parts) {
    const cls = typeof p.className === 'string' ? p.className : p.getAttribute('class') || '';
    if (/material-(icons|symbols)/.test(cls) && p.textContent.trim()) return iconWords(p.textContent.trim());
    for (const c of cls.split(/\s+/)) {
      const m = ICON_CLASS.exec(c);
      if (m && !ICON_NOISE.test(m[1].toLowerCase()))
        return iconWords(m[1].replace(/-(o|alt|outline|solid|fill|line|square|circle|official)$/, ''));
    }
    if (p.localName === 'use') {
      const ref = (p.getAttribute('href') || p.getAttribute('xlink:href') || '').replace(/^.*#/, '');
      const w = ref.replace(/^(icon|ico|ic|svg|i)[-_]/i, '');
      if (w && !/\d{3,}/.test(w)) return iconWords(w);
    }
  }
  for (const p of parts) {
    if (p.localName === 'svg' || p.localName === 'use') continue;
    for (const pseudo of ['::before', '::after']) {
      const c = getComputedStyle(p, pseudo).content;
      if (!c || c[0] !== '"') continue;
      const g = c.slice(1, -1).trim();
      // Private-use code points are icon-font glyphs: they read as nothing.
      if (g && g.length <= 3 && !PRIVATE_USE.test(g)) return ICON_WORDS[g] || g;
    }
  }
  return '';
}

// tooltipName is the text a tooltip library shows on hover, kept in an
// attribute (Bootstrap moves title into data-bs-original-title).
function tooltipName(el) {
  for (const a of TOOLTIP_ATTRS) {
    const v = el.getAttribute(a);
    if (v && v.trim()) return clip(squash(v), NAME_MAX);
  }
  return '';
}
// biome-ignore format: a table, packed as written
const TOOLTIP_ATTRS = ['data-bs-original-title', 'data-original-title', 'data-tooltip', 'data-tip', 'data-title',
  'data-bs-title', 'data-tippy-content', 'data-balloon', 'data-hint', 'mattooltip', 'ngbtooltip', 'data-tooltip-content'];

// Form fields a page left nameless are named by the text a person reads
// beside them, which no markup ties to them: a toggle's caption on its line
// (right of it first), a field's label left of it or just above it (not
// a cell of a table the field is not in), else just under it in its own
// box. A caption is 2 to 80 characters. Only text outside other controls,
// other controls' labels and boxes holding another field counts, within
// 120 px; at most BESIDE_BUDGET fields per tree are looked at (a page of
// nameless row checkboxes must not cost a range per text node each).
// biome-ignore format: a table, packed as written
const FIELD_ROLES = new Set(['checkbox', 'radio', 'switch', 'textbox', 'searchbox', 'combobox', 'slider',
  'spinbutton', 'listbox']);
const BESIDE_BUDGET = 60;
let besideLeft = BESIDE_BUDGET;
const NOT_CAPTION =
  'a, button, select, textarea, input, [role=button], [role=link], [contenteditable=""], [contenteditable=true], [draggable=true]';

function besideText(el, role) {
  if (besideLeft <= 0) return '';
  besideLeft--;
  // A native input hidden under its drawing (a toggle's label) is where its wrapper is.
  let host = el;
  let box = el.getBoundingClientRect();
  for (let up = 0; up < 2 && (box.width < 2 || box.height < 2) && host.parentElement; up++) {
    host = host.parentElement;
    box = host.getBoundingClientRect();
  }
  if (box.width < 2 || box.height < 2) return '';
  const toggle = role === 'checkbox' || role === 'radio' || role === 'switch';
  const mid = box.top + box.height / 2;
  const doc = el.ownerDocument;
  const range = doc.createRange();
  let best = '';
  let bestGap = 120;
  let below = '';
  let belowGap = 20;
  // A box of its own: the field's parent holds no other field.
  const small =
    !!host.parentElement && host.parentElement !== doc.body && host.parentElement.querySelectorAll(OTHER_FIELDS).length === 1;
  let scope = host.parentElement;
  for (let up = 0; scope && up < 3 && !best; up++, scope = scope.parentElement) {
    const texts = doc.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let n = texts.nextNode(), seen = 0; n && seen < 40; n = texts.nextNode()) {
      if (host.contains(n)) continue;
      // A caption is words: not one drawn letter, not a paragraph.
      const len = n.nodeValue.trim().length;
      if (!len) continue;
      seen++;
      if (len < 2 || len > 80) continue;
      const p = n.parentElement;
      if (!p || p.closest(NOT_CAPTION)) continue;
      const label = p.closest('label');
      if (label && label.control && label.control !== el) continue;
      if (namesAnother(p, el) || besideAnother(p, el)) continue;
      range.selectNodeContents(n);
      const r = range.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      let gap;
      if (r.top <= mid && r.bottom >= mid) {
        if (r.left >= box.right - 1) gap = r.left - box.right + (toggle ? 0 : 40);
        else if (r.right <= box.left + 1) gap = box.left - r.right + (toggle ? 40 : 0);
        else continue;
      } else if (!toggle && r.bottom <= box.top + 1 && box.top - r.bottom < 20 && r.left < box.right && r.right > box.left - 10) {
        // The last row of a table above a field is data, not its caption.
        const cell = p.closest('td, th');
        if (cell && !cell.closest('table').contains(el)) continue;
        gap = box.top - r.bottom + 30;
      } else {
        // Text just under a field in its own small box is its caption
        // when nothing left of it or above it is.
        if (
          !toggle &&
          up === 0 &&
          small &&
          r.top >= box.bottom - 1 &&
          r.top - box.bottom < belowGap &&
          r.left < box.right &&
          r.right > box.left - 10
        ) {
          belowGap = r.top - box.bottom;
          below = n.nodeValue;
        }
        continue;
      }
      if (gap < bestGap) {
        bestGap = gap;
        best = n.nodeValue;
      }
    }
  }
  range.detach();
  best = best || below;
  return best ? clip(squash(best), NAME_MAX) : '';
}

// besideAnother reports whether text p is in a box that holds another
// field and not el: that field's caption.
function besideAnother(p, el) {
  for (let a = p; a && !a.contains(el); a = a.parentElement) {
    if (a.querySelector(OTHER_FIELDS)) return true;
  }
  return false;
}
const OTHER_FIELDS = 'input:not([type=hidden]), select, textarea';

// namesAnother reports whether text in p is another element's name by
// aria-labelledby (el has none, or it would not be nameless). The ids
// pointed at are collected once per tree.
let labelledIds = null;
function namesAnother(p, el) {
  const doc = el.ownerDocument;
  if (!labelledIds || labelledIds.doc !== doc) {
    labelledIds = {doc, ids: new Set()};
    for (const user of doc.querySelectorAll('[aria-labelledby]')) {
      for (const id of user.getAttribute('aria-labelledby').split(/\s+/)) if (id) labelledIds.ids.add(id);
    }
  }
  if (!labelledIds.ids.size) return false;
  for (let e = p; e && e !== doc.body; e = e.parentElement) if (e.id && labelledIds.ids.has(e.id)) return true;
  return false;
}

// placeHint says where an otherwise nameless control is on the page.
function placeHint(el, role) {
  const r = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView || window;
  const w = view.innerWidth || 1;
  const x = (r.left + r.right) / 2;
  const y = r.top + r.height / 2 + view.scrollY;
  const col = x < w / 3 ? 'left' : x > (2 * w) / 3 ? 'right' : 'centre';
  const row = y < view.innerHeight ? 'top' : 'lower';
  return (FIELD_ROLES.has(role) ? 'at ' : 'icon at ') + row + ' ' + col;
}

// ---------- states and properties ----------

const RANGE_ROLES = new Set(['slider', 'spinbutton', 'progressbar', 'scrollbar', 'meter']);

// Query parameters that only track the click.
const TRACKING =
  /^(utm_.*|nid|smid|smtyp|mod|ocid|cmpid|ncid|intcmp|cmp|partner|ribbon-ad-idx|rref|_r|fbclid|gclid|mc_cid|mc_eid)$/i;

// linkBase is what compactHref needs of a document, read once per walk:
// its base and address (each read of them parses a URL).
function linkBase(doc) {
  const here = doc.location;
  return {
    plain: !doc.querySelector('base[href]'),
    base: doc.baseURI,
    origin: here ? here.origin : '',
    path: here ? here.pathname : '',
    search: here ? here.search : '',
  };
}

// compactHref is a link's target in few characters: a path for the same
// origin, "//host/path" for another (the scheme and "www." say little to
// the model, which clicks by ref), without tracking parameters, clipped:
// the head of a URL tells where it goes; its tail mostly repeats the name.
function compactHref(el, links) {
  const raw = el.getAttribute('href');
  if (!raw) return '';
  // A fragment or an absolute path already is what the long way gives,
  // when no <base> moves it; parsing every link is a tenth of a long page's time.
  const c = raw.charCodeAt(0);
  if (links.plain && (c === 35 || (c === 47 && raw.charCodeAt(1) !== 47)) && !raw.includes('utm_')) return raw;
  if (/^\s*javascript:/i.test(raw)) return '';
  let u;
  try {
    u = new URL(raw, links.base);
  } catch {
    return raw;
  }
  if (u.search) for (const k of [...u.searchParams.keys()]) if (TRACKING.test(k)) u.searchParams.delete(k);
  if (u.origin === links.origin) {
    const samePage = u.pathname === links.path && u.search === links.search && raw.trim().startsWith('#');
    return samePage ? u.hash || '#' : u.pathname + u.search + u.hash;
  }
  if (u.protocol === 'https:' || u.protocol === 'http:') {
    return (
      '//' + u.host.replace(/^www\./, '') + (u.pathname === '/' && !u.search && !u.hash ? '' : u.pathname) + u.search + u.hash
    );
  }
  return u.href;
}

// hrefText is a link's target as its line shows it. A path segment that
// spells the link's name (a headline's slug) is left out: it repeats the
// name.
function hrefText(href, name) {
  let h = href;
  if (name && h.length > HREF_MAX) {
    let said = null;
    const segs = h.split('/');
    for (let i = h.startsWith('//') ? 3 : 2; i < segs.length; i++) {
      if (segs[i].length < 16) continue;
      said = said || new Set(name.toLowerCase().match(/[\p{L}\p{N}]+/gu));
      const words = (segs[i].toLowerCase().match(/\p{L}[\p{L}\p{N}]*/gu) || []).filter((w) => w.length > 1);
      const hits = words.filter((w) => said.has(w)).length;
      if (hits >= 2 && hits >= words.length * 0.6) {
        h = segs.slice(0, i).join('/') + '/…';
        break;
      }
    }
  }
  h = clip(h, HREF_MAX);
  return /[\s"]/.test(h) ? quote(h) : h;
}

const noAria = () => null;
const NO_NAMES = Object.freeze([]);

function hasAria(names) {
  for (const n of names) if (n.startsWith('aria-')) return true;
  return false;
}

function ariaBool(el, name) {
  const v = el.getAttribute(name);
  return v === null ? null : v.toLowerCase();
}

function attributes(node, el, tag, proxy, ctx, names) {
  const a = node.attrs;
  const role = node.role;
  const src = proxy || el;
  // Most elements carry no aria-* attribute: one look instead of a dozen reads.
  const ariaOn = hasAria(names);
  const aria = ariaOn ? (name) => ariaBool(el, name) : noAria;
  const ariaRaw = ariaOn ? (name) => el.getAttribute(name) : noAria;
  if (role === 'heading') {
    const lvl = ariaRaw('aria-level') || (/^h[1-6]$/.test(tag) ? tag[1] : '');
    if (lvl) a.push('level=' + lvl);
  }
  if (role === 'link') {
    node.href = compactHref(el, ctx.f.links);
  }
  if (src.localName === 'input') {
    const type = (src.type || '').toLowerCase();
    if (SHOWN_TYPES.has(type)) a.push('type=' + type);
    if (TEXT_INPUT_TYPES.has(type) && src.value) {
      a.push('value=' + (type === 'password' ? quote('••••') : quote(clip(squash(src.value), VALUE_MAX))));
    }
    if (type === 'range') {
      a.push('value=' + quote(src.value));
      if (src.min) a.push('min=' + src.min);
      if (src.max) a.push('max=' + src.max);
    }
    if (type === 'file' && src.files && src.files.length) a.push('value=' + quote(src.files[0].name));
    if (type === 'checkbox' || type === 'radio')
      a.push(src.indeterminate ? 'checked=mixed' : src.checked ? 'checked' : 'unchecked');
  } else if (src.localName === 'textarea' && src.value) {
    // A textarea shows its value's lines as typed.
    const v = keptText(src.value.replace(/\r\n?/g, '\n'));
    if (v) a.push('value=' + quote(preBlock(preLines(v, 6, VALUE_MAX * 2))));
  } else if (src.localName === 'select') {
    const chosen = Array.prototype.filter.call(src.selectedOptions || [], (o) => o.textContent.trim());
    if (chosen.length && role === 'combobox')
      a.push('value=' + quote(clip(squash(chosen[0].label || chosen[0].textContent), VALUE_MAX)));
    if (role === 'combobox' && ctx.f.expandSelect !== src) a.push('options=' + optionList(src));
    // Choosing one option of a multiple select drops the others unless the
    // choice names them all.
    if (src.multiple) a.push('multiselectable');
  } else if (role === 'textbox' && (el.isContentEditable || tag === 'body')) {
    // A frame's body (an editor) holds its scripts too: its rendered text.
    const t = squash(tag === 'body' ? el.innerText : el.textContent);
    if (t) a.push('value=' + quote(clip(t, VALUE_MAX)));
    node.children = [];
  }
  // Multi-line fields take Enter as a new line, not a submit.
  const ml = aria('aria-multiline');
  if (role === 'textbox' && (ml === 'true' || (ml !== 'false' && (src.localName === 'textarea' || el.isContentEditable)))) {
    a.push('multiline');
  }
  // A rich-text field (contenteditable) takes typing but no value setting.
  if (
    role === 'textbox' &&
    src === el &&
    el.localName !== 'textarea' &&
    el.localName !== 'input' &&
    (el.isContentEditable || tag === 'body')
  ) {
    a.push('contenteditable');
  }
  if (node.ref && names.length && dragSource(el, names)) a.push('draggable');
  if (tag === 'progress' || tag === 'meter') a.push('value=' + el.value + (el.max ? '/' + el.max : ''));
  else if (src.localName !== 'input' && RANGE_ROLES.has(role)) {
    // A custom slider or progress bar: its value, as text when the page gives one.
    const vt = ariaRaw('aria-valuetext');
    const vn = ariaRaw('aria-valuenow');
    if ((vt && vt.trim()) || vn) a.push('value=' + quote(clip(squash(vt && vt.trim() ? vt : vn), VALUE_MAX)));
    else if (role === 'slider' && /%$/.test(el.style.left || el.style.bottom)) {
      // A drawn slider's handle stands where its value is along the track.
      a.push('value=' + quote(el.style.left || el.style.bottom));
    }
    const min = ariaRaw('aria-valuemin');
    const max = ariaRaw('aria-valuemax');
    if (min) a.push('min=' + min);
    if (max) a.push('max=' + max);
  }
  if (role === 'listbox' && src.localName !== 'select' && aria('aria-multiselectable') === 'true') a.push('multiselectable');
  const checked = aria('aria-checked');
  if (checked !== null && src === el && el.localName !== 'input') {
    a.push(checked === 'true' ? 'checked' : checked === 'mixed' ? 'checked=mixed' : 'unchecked');
  }
  const pressed = aria('aria-pressed');
  if (pressed === 'true') a.push('pressed');
  else if (pressed === 'mixed') a.push('pressed=mixed');
  if (aria('aria-selected') === 'true') a.push('selected');
  let expanded = aria('aria-expanded');
  if (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details') {
    expanded = el.parentElement.open ? 'true' : 'false';
  }
  if (expanded === 'true') a.push('expanded');
  else if (expanded === 'false') a.push('collapsed');
  const popup = aria('aria-haspopup');
  if (popup && popup !== 'false') a.push(popup === 'true' ? 'haspopup' : 'haspopup=' + popup);
  const current = aria('aria-current');
  if (current && current !== 'false') a.push(current === 'true' ? 'current' : 'current=' + current);
  if (
    src.disabled ||
    aria('aria-disabled') === 'true' ||
    (src.matches && /^(input|select|textarea|button)$/.test(src.localName) && src.matches(':disabled'))
  ) {
    if (!a.includes('disabled')) a.push('disabled');
  }
  if (src.required || aria('aria-required') === 'true') a.push('required');
  if ((src.readOnly && /^(input|textarea)$/.test(src.localName)) || aria('aria-readonly') === 'true') a.push('readonly');
  if (aria('aria-invalid') === 'true') a.push('invalid');
  // An unfocused document's active element is its body.
  if (focusedEl(el, ctx) && (tag !== 'body' || ctx.f.doc.hasFocus())) a.push('focused');
  const ph = src.getAttribute && src.getAttribute('placeholder');
  if (
    ph &&
    ph.trim() &&
    node.name !== squash(ph) &&
    node.fallback !== squash(ph) &&
    (role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'spinbutton')
  ) {
    a.push('placeholder=' + quote(clip(squash(ph), VALUE_MAX)));
  }
  if ((tag === 'iframe' || tag === 'frame') && !safeDoc(el)) {
    const s = el.getAttribute('src');
    if (s) a.push('src=' + quote(clip(s, HREF_MAX)));
  }
  if (node.ref && src === el) classStates(node, el, tag);
}

// ---------- states shown only by class names ----------

// A class word that shows a state: the whole token ("active", "is-active",
// "isOpen"), a modifier ("tab--active", "btn_selected", "Mui-selected",
// "router-link-active") or, for the selected family, a prefix
// ("current-menu-item"). Families: sel (selected, pressed, current,
// checked), open, closed, off (disabled).
// biome-ignore format: a table, packed as written
const STATE_WORDS = {active: 'sel', selected: 'sel', current: 'sel', checked: 'sel', on: 'sel', pressed: 'sel',
  open: 'open', opened: 'open', expanded: 'open', collapsed: 'closed', disabled: 'off'};
const STATE_WHOLE = /^(?:is[-_]?|state[-_])?([a-z]+)$/;
const STATE_MODIFIER = /[a-z0-9](?:--|_)([a-z]+)$/;
const STATE_SUFFIX = /[a-z0-9]-(active|selected|current|checked|pressed|expanded|disabled)$/;
const STATE_PREFIX = /^(?:active|selected|current)[-_][a-z]/;

// classState is the state word el's class names show ("active",
// "disabled"…), or "".
function classState(el) {
  const c = el.getAttribute('class');
  if (!c) return '';
  for (const raw of c.split(/\s+/)) {
    if (raw.length < 2 || raw.length > 40) continue;
    const t = raw.toLowerCase();
    const m = STATE_WHOLE.exec(t) || STATE_MODIFIER.exec(t) || (!ICON_CLASS.test(t) && STATE_SUFFIX.exec(t));
    if (m && STATE_WORDS[m[1]]) return m[1];
    if (STATE_PREFIX.test(t)) return 'current';
  }
  return '';
}

// Roles a selected-family class can say something about, and what.
// biome-ignore format: a table, packed as written
const SEL_STATE = {tab: 'selected', option: 'selected', treeitem: 'selected', menuitem: 'selected', clickable: 'selected',
  row: 'selected', gridcell: 'selected', listitem: 'selected', link: 'current', button: 'pressed', checkbox: 'checked',
  radio: 'checked', switch: 'checked', menuitemcheckbox: 'checked', menuitemradio: 'checked'};
// Toggles: alone, their class is evidence enough.
const TOGGLE_ROLES = new Set(['button', 'checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
const OPEN_ROLES = new Set(['button', 'clickable', 'menuitem', 'treeitem']);

// classStates adds the state a control shows only by its class names (or
// its list item's) when the evidence is good, never over ARIA or native
// state (docs/accessibility-tree.md, "States from class names").
function classStates(node, el, tag) {
  const li = el.parentElement && el.parentElement.localName === 'li' ? el.parentElement : null;
  // The control's own class first, then its list item's.
  const state = classStateOf(node, el, tag, classState(el), li) || (li ? classStateOf(node, el, tag, classState(li), li) : '');
  if (state && !node.attrs.includes(state)) node.attrs.push(state);
}

function classStateOf(node, el, tag, word, li) {
  if (!word) return '';
  const role = node.role;
  const has = (name) => el.hasAttribute(name);
  let fam = STATE_WORDS[word];
  if (fam === 'off') return /^(input|select|textarea)$/.test(tag) || has('aria-disabled') ? '' : 'disabled';
  if (fam === 'open' && role === 'tab') fam = 'sel'; // an "open" tab is the one shown
  if (fam === 'open' || fam === 'closed') {
    if (!OPEN_ROLES.has(role) || has('aria-expanded') || tag === 'summary') return '';
    // "open" on a control named "Open …" is its verb, not its state.
    return fam === 'closed' ? 'collapsed' : /^open\b/i.test(node.name) ? '' : 'expanded';
  }
  let state = SEL_STATE[role];
  if (!state || has('aria-selected') || has('aria-pressed') || has('aria-checked') || has('aria-current')) return '';
  if (tag === 'input' || tag === 'option') return ''; // native checked/selected
  if (!TOGGLE_ROLES.has(role) || role === 'button') {
    // Among like siblings, only some may carry it (a tab bar's one active
    // tab); a lone item needs to be a toggle.
    const item = li || el;
    const same = (s) => !!s && STATE_WORDS[classState(s)] === STATE_WORDS[word];
    let like = 0;
    let marked = 0;
    for (let s = item.parentElement && item.parentElement.firstElementChild; s && like < 40; s = s.nextElementSibling) {
      if (s.localName !== item.localName) continue;
      like++;
      if (s === item || same(s) || (li && same(s.firstElementChild))) marked++;
    }
    if (like < 2 ? !TOGGLE_ROLES.has(role) : marked >= like) return '';
  }
  // A "selected" button or link, or a button in a tab bar, is a chosen
  // segment or tab.
  if ((state === 'pressed' || state === 'current') && word === 'selected') state = 'selected';
  else if (state === 'pressed' && /(?:^|[\s_-])tabs?(?:[\s_-]|$)/i.test(el.getAttribute('class') || '')) state = 'selected';
  return state;
}

function safeDoc(frame) {
  try {
    return frame.contentDocument;
  } catch {
    return null;
  }
}

// ---------- model → lines ----------

// Merges runs of inline text between block breaks into single text items.
// Screen-reader-only text and decoration (aria-hidden inside a control)
// keep their own items, for names.
function mergeText(items, out) {
  let buf = null;
  let hiddenBuf = null;
  let decorBuf = null;
  let pre = null; // the block whose white space buf keeps
  const flush = () => {
    if (buf !== null) {
      let t = squash(buf);
      if (pre && KEPT.test(t)) t = keptText(t);
      if (t) out.push(pre ? {text: t, pre} : {text: t});
    }
    if (hiddenBuf !== null) {
      const t = plainText(hiddenBuf);
      if (t) out.push({text: t, hidden: true});
    }
    if (decorBuf !== null) {
      const t = plainText(decorBuf);
      if (t) out.push({text: t, decor: true});
    }
    buf = null;
    hiddenBuf = null;
    decorBuf = null;
    pre = null;
  };
  const visit = (list) => {
    for (const it of list) {
      if (it.br) flush();
      else if (it.group) {
        flush();
        const inner = [];
        mergeText(it.items, inner);
        out.push({group: true, nameText: it.nameText, items: inner});
      } else if (it.text !== undefined) {
        if (it.hidden) hiddenBuf = (hiddenBuf || '') + it.text;
        else if (it.decor) decorBuf = (decorBuf || '') + it.text;
        else {
          buf = (buf || '') + it.text;
          if (it.pre) pre = pre || it.pre;
        }
      } else {
        flush();
        out.push(it);
      }
    }
  };
  visit(items);
  flush();
}

// plainText is text for names: kept white space collapses too.
function plainText(s) {
  return squash(KEPT.test(s) ? s.replace(/[\ue000-\ue002]/g, ' ') : s);
}

// Text a subtree contributes to its ancestor's name: decoration only when
// nothing else names it.
// decor: true counts decoration, null never does, false falls back to it.
function contentName(items, decor = false) {
  let s = '';
  // A piece that repeats the one before (a picture's alt text over the
  // same caption) is said once.
  let last = '';
  const add = (piece) => {
    const p = squash(piece);
    if (!p || p === last) return;
    last = p;
    s += ' ' + p + ' ';
  };
  for (const it of items) {
    if (it.group) add(it.nameText);
    else if (it.text !== undefined) add(it.decor && !decor ? '' : it.text);
    else add(it.name || contentName(it.children || [], decor === null ? null : decor));
    if (s.length > NAME_MAX * 4) break;
  }
  s = squash(s);
  return s || decor !== false ? s : contentName(items, true);
}

function visibleText(items) {
  let s = '';
  for (const it of items) {
    if (it.group) s += ' ' + visibleText(it.items);
    else if (it.text !== undefined) s += it.hidden || it.decor ? '' : ' ' + it.text;
    else s += ' ' + (it.name || visibleText(it.children || []));
  }
  return squash(s);
}

function keepRefs(items) {
  const out = [];
  for (const it of items) {
    if (it.group) out.push(...keepRefs(it.items));
    else if (it.role && (it.ref || hasRef(it))) out.push(it);
  }
  return out;
}

// fieldContext adds what the interactive filter's dropped text said about
// a field: the question a group of radio buttons or checkboxes answers
// (when no fieldset legend or group names it) and an invalid field's error
// message.
function fieldContext(node) {
  const el = node.el;
  if (node.role === 'radio' || node.role === 'checkbox') {
    const q = choiceQuestion(el, node.role);
    if (q) node.attrs.push('group=' + quote(q));
  }
  if (node.attrs.includes('invalid')) {
    const ids = (el.getAttribute('aria-errormessage') || el.getAttribute('aria-describedby') || '').split(/\s+/);
    const msg = ids
      .map((id) => (id ? el.ownerDocument.getElementById(id) : null))
      .filter(Boolean)
      .map((e) => e.textContent)
      .join(' ');
    if (squash(msg)) node.attrs.push('error=' + quote(clip(squash(msg), 100)));
  }
}

// choiceQuestion is the text just before a group of choices, outside their
// labels: what a person reads as its question. A group is native radio
// buttons or checkboxes of one name, or the radios or checkboxes of an
// ARIA radiogroup or group; one whose group element has a name (a legend,
// aria-label) says it already. Once per group and tree.
let choiceQuestions = new Map();
function choiceQuestion(el, role) {
  const native = el.localName === 'input';
  if (native && !el.name) return '';
  const group = el.closest('[role=radiogroup], [role=group], fieldset');
  if (
    group &&
    (group.hasAttribute('aria-label') ||
      group.hasAttribute('aria-labelledby') ||
      (group.localName === 'fieldset' && group.querySelector('legend')))
  )
    return '';
  let members;
  if (native) {
    const pool = el.form ? [...el.form.elements] : [...el.ownerDocument.querySelectorAll('input')];
    members = pool.filter((m) => m.type === el.type && m.name === el.name);
  } else {
    if (!group || group.localName === 'fieldset') return '';
    members = [...group.querySelectorAll(`[role=${role}]`)];
  }
  if (members.length < 2) return '';
  const first = members[0];
  if (choiceQuestions.has(first)) return choiceQuestions.get(first);
  let box = first.parentElement;
  while (box && !members.every((m) => box.contains(m))) box = box.parentElement;
  let q = '';
  for (let up = 0; box && up < 3 && !q; up++, box = box.parentElement) q = textBefore(box, first);
  q = q ? clip(squash(q), 80) : '';
  choiceQuestions.set(first, q);
  return q;
}

// textBefore is the last visible text in scope before el that is not in a
// label or a control (the controls besideText leaves out).
function textBefore(scope, el) {
  const texts = el.ownerDocument.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  let last = '';
  for (let n = texts.nextNode(), seen = 0; n && seen < 300; n = texts.nextNode(), seen++) {
    if (el.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING) break;
    const p = n.parentElement;
    if (!n.nodeValue.trim() || !p || p.closest(NOT_CAPTION) || p.closest('label, option, script, style')) continue;
    if (!p.getClientRects().length) continue;
    last = n.nodeValue;
  }
  return last;
}

const SUMMARY_ROLES = new Set(['article', 'comment', 'listitem']);
const MESSAGE_ROLES = new Set(['alert', 'alertdialog', 'dialog', 'status']);
const CONTEXT_MAX = 120; // refs per tree that get the text around them
const CONTEXT_CHARS = 60;

const BOX_CONTROLS = 8;
const NOT_CONTEXT =
  'button, select, textarea, option, script, style, [role=button], [role=menuitem], [role=option], [role=tab], [onclick], [tabindex]';

// ownBox is the largest element around el that holds none of others and
// no more than a card's few controls (not a whole menu).
function ownBox(el, others) {
  let box = el;
  for (let p = el.parentElement; p && p.localName !== 'body'; p = p.parentElement) {
    if (others.some((o) => o !== el && p.contains(o))) break;
    if (p.querySelectorAll(MENU_CONTROLS).length > BOX_CONTROLS) break;
    box = p;
  }
  return box;
}

// boxText is the start of the text box shows outside el and outside other
// controls but links (a product's title is often a link).
function boxText(box, el) {
  const texts = box.ownerDocument.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  let s = '';
  for (let n = texts.nextNode(), seen = 0; n && seen < 200 && s.length < CONTEXT_CHARS; n = texts.nextNode(), seen++) {
    const p = n.parentElement;
    if (!p || !n.nodeValue.trim() || el.contains(n)) continue;
    // A control around the box (a focusable card) does not hide its text.
    const c = p.closest(NOT_CONTEXT);
    if ((c && c !== box && box.contains(c)) || !p.getClientRects().length) continue;
    s += ' ' + n.nodeValue;
  }
  return s ? clip(squash(s), CONTEXT_CHARS) : '';
}
const SUMMARY_MAX = 80;

// summaryText is the start of what a node shows outside its refs.
function summaryText(node) {
  const pieces = [];
  let length = 0;
  const collect = (items) => {
    for (const it of items) {
      if (length > SUMMARY_MAX) return;
      let t = '';
      if (it.group) collect(it.items);
      else if (it.text !== undefined) t = it.hidden || it.decor ? '' : it.text;
      else if (!it.ref) {
        if (it.name && !hasRef(it)) t = it.name;
        else collect(it.children || []);
      }
      if (t) {
        pieces.push(t);
        length += t.length + 1;
      }
    }
  };
  collect(node.children);
  const text = squash(pieces.join(' '));
  // Quotes and separators alone say nothing.
  return /[\p{L}\p{N}]{2}/u.test(text) ? clip(text, SUMMARY_MAX) : '';
}

// rowText is what a table row's cells without controls say.
function rowText(row) {
  const cells = [];
  for (const c of row.children) {
    if (!c.role || hasRef(c)) continue;
    const t = c.name || visibleText(c.children || []);
    if (t) cells.push(t);
  }
  return clip(cells.join(' · '), NAME_MAX);
}

function hasRefWhere(node, want) {
  for (const c of node.children || []) {
    if (!c.role) continue;
    if ((c.ref && want(c)) || hasRefWhere(c, want)) return true;
  }
  return false;
}

function hasRef(node) {
  if (node.ref) return true;
  for (const c of node.children || []) if (c.role && hasRef(c)) return true;
  return false;
}

// Finishes a node bottom-up: merges text, names it from content, drops
// what its name already says, and hoists listitem wrappers.
function finish(node) {
  const merged = [];
  mergeText(node.children, merged);
  for (const it of merged) if (it.role) finish(it);
  for (const it of merged) if (it.group) finishGroup(it);
  node.children = merged;
  if (NAME_FROM_CONTENT.has(node.role) || node.role === 'listitem') {
    // A clickable card is named by what it shows, not by its buttons.
    const content = (node.role === 'clickable' && contentName(merged.filter((it) => !it.ref))) || contentName(merged);
    const allText = merged.every((it) => it.text !== undefined);
    if (
      node.role === 'listitem' ||
      node.role === 'cell' ||
      node.role === 'gridcell' ||
      node.role === 'columnheader' ||
      node.role === 'rowheader'
    ) {
      if (!node.name && allText && content.length <= NAME_MAX) {
        node.name = content;
        node.children = [];
      }
    } else if (!node.name) {
      if (content.length <= (node.role === 'heading' ? TEXT_MAX : NAME_MAX)) {
        node.name = content;
        node.children = keepRefs(merged);
      }
    } else if (content.length <= NAME_MAX) {
      const seen = visibleText(merged);
      const extra = seen && !node.name.toLowerCase().includes(seen.toLowerCase());
      node.children = extra ? merged : keepRefs(merged);
    }
  }
  // Icon-only controls: named from the icon (also over a ligature's text
  // such as "more_vert"), else hinted by class words, else by where they are.
  if (node.ref && node.name && !node.explicit && merged.some((it) => it.decor) && !contentName(merged, null)) {
    node.name = iconName(node.el) || node.name;
  }
  if (!node.name && node.fallback) node.name = node.fallback;
  // An icon with a count badge (a cart with "3") is named by both.
  if (node.ref && !node.explicit && /^\d[\d,.]*\+?$/.test(node.name)) {
    // An icon that reads as nothing: its class or id words say what is
    // counted ("cart 2"); a bare number without a picture (a page, a day)
    // stays as it is.
    const icon = iconName(node.el) || (node.el.querySelector('svg, img') ? hintFor(node.el) : '');
    if (icon && icon !== node.name) node.name = icon + ' ' + node.name;
  }
  // A control named by a glyph ("×", "›") reads as what the glyph does.
  if (node.ref && node.name && node.name.length <= 2 && ICON_WORDS[node.name]) node.name = ICON_WORDS[node.name];
  if (node.ref && !node.name) {
    // A scroll box is a container: an icon somewhere inside does not name it.
    const icon = node.role === 'scrollable' ? '' : iconName(node.el);
    node.name = tooltipName(node.el) || (FIELD_ROLES.has(node.role) && besideText(node.el, node.role)) || icon;
    // A row is told by its cells, which follow it (the interactive filter
    // names it by them).
    if (!node.name && node.role !== 'row') node.attrs.push('hint=' + quote(hintFor(node.el) || placeHint(node.el, node.role)));
  }
  let kids = node.children.filter((it) => !it.hidden && !it.decor);
  // A pointer-cursor child that is all of its clickable parent is the same
  // target, not a second one.
  if (node.ref && kids.length === 1 && kids[0].weak && (kids[0].name === node.name || !kids[0].name)) kids = [];
  node.children = kids;
  if (kids.length === 1 && kids[0].role && kids[0].name && kids[0].name === node.name && !node.ref) node.name = '';
  // A row's empty cells at its end say nothing (those before a filled one
  // keep its column).
  if (node.role === 'row') {
    while (kids.length && emptyCell(kids[kids.length - 1])) kids.pop();
  }
}

function emptyCell(it) {
  return (it.role === 'cell' || it.role === 'gridcell') && !it.name && !it.ref && !it.children.length && !it.attrs.length;
}

function finishGroup(group) {
  for (const it of group.items) if (it.role) finish(it);
  for (const it of group.items) if (it.group) finishGroup(it);
  group.items = group.items.filter((it) => !it.hidden);
}

function lineOf(node) {
  let s = node.role;
  if (node.name) s += ' ' + quote(node.name);
  if (node.ref) s += ' [' + node.ref + ']';
  if (node.overlay) s += ' overlay';
  // A bare "#" goes nowhere a model could use: the page's script acts on it.
  if (node.href && node.href !== '#') s += ' href=' + (node.sameHref ? 'same' : hrefText(node.href, node.name));
  if (node.attrs.length) s += ' ' + node.attrs.join(' ');
  return s;
}

class Renderer {
  constructor(filter, maxDepth, gen) {
    this.filter = filter;
    this.maxDepth = maxDepth;
    this.gen = gen;
    this.lines = [];
    this.refs = 0;
    this.order = 0;
    this.lastHref = '';
    this.lastLink = '';
    this.run = {out: null, at: -1, text: '', pre: null, more: 0};
    this.preUsed = new Map(); // characters shown of each kept-white-space block
    this.preTotal = 0; // and of all of them
  }

  // Text is a quoted line; a run of text lines with nothing between them
  // becomes one, its pieces joined by " · ".
  items(list, depth, out) {
    for (const it of list) {
      if (it.group) this.items(it.items, depth, out);
      else if (it.role) this.node(it, depth, out);
      else if (it.text !== undefined && !it.hidden && this.filter !== 'interactive' && depth <= this.maxDepth) {
        const run = this.run;
        const next = run.out === out && run.at === out.length - 1;
        const used = it.pre ? this.preUsed.get(it.pre) || 0 : 0;
        if (it.pre && ((next && run.pre === it.pre) || (used < PRE_CHARS && this.preTotal < PRE_TOTAL))) {
          // A block with kept white space is a line of its own; its lines
          // drawn as separate boxes (a code viewer's) join it. The pieces of
          // one block (text between its links) share its budget; once it is
          // spent they read as other text does.
          if (next && run.pre === it.pre) {
            if (run.clipped.left > 0) run.more += it.text.split('\n').length;
            else {
              run.text += '\n' + it.text;
              run.clipped = preLines(run.text, PRE_LINES, PRE_CHARS - run.base);
            }
          } else {
            out.push('');
            const clipped = preLines(it.text, PRE_LINES, PRE_CHARS - used);
            this.run = {out, at: out.length - 1, text: it.text, pre: it.pre, more: 0, clipped, base: used};
          }
          const r = this.run;
          this.preTotal += r.base + r.clipped.head.length - (this.preUsed.get(r.pre) || 0);
          this.preUsed.set(r.pre, r.base + r.clipped.head.length);
          out[r.at] = ' '.repeat(depth) + quote(preBlock(r.clipped, r.more));
          continue;
        }
        const t = clip(it.pre ? squash(it.text) : it.text, TEXT_MAX);
        if (next && !run.pre && run.text.length + t.length < TEXT_RUN_MAX) {
          run.text += ' · ' + t;
          out[run.at] = ' '.repeat(depth) + quote(run.text);
        } else {
          out.push(' '.repeat(depth) + quote(t));
          this.run = {out, at: out.length - 1, text: t, pre: null, more: 0};
        }
      }
    }
  }

  // repeats reports whether node is one of several posts or comments, or a
  // list item with a control other than a link (a link names itself).
  repeats(node) {
    if (node.role === 'listitem') return hasRefWhere(node, (it) => it.role !== 'link');
    if (!hasRef(node)) return false;
    const doc = node.el.ownerDocument;
    if (this.posts === undefined || this.postsDoc !== doc) {
      this.postsDoc = doc;
      this.posts = doc.querySelectorAll('article, [role=article], [role=comment]').length;
    }
    return this.posts > 1;
  }

  // contexts gives each ref that shares its role and name with other refs
  // (links with a target aside), and that no row, post or list item around
  // it tells apart, the text of the largest box around it that holds none
  // of the others and only a few controls (a product card's title and price
  // around its "Add to cart"): the interactive filter drops that text, and
  // with it which is which.
  contexts(items) {
    const groups = new Map();
    // told: whether something around says which, or the name of the
    // control around (a control of that same name is not told apart by it).
    const collect = (list, told) => {
      for (const it of list) {
        if (it.group) {
          collect(it.items, told);
          continue;
        }
        if (!it.role) continue;
        // Two links of one name to one place do the same: no need to tell them apart.
        const isTold = told === true || (told !== false && told !== it.name);
        if (it.ref && !isTold && !it.href && it.role !== 'iframe' && !this.asked(it)) {
          const key = it.role + '\n' + it.name;
          const g = groups.get(key);
          if (g) g.push(it);
          else groups.set(key, [it]);
        }
        // A row, a post, a named container (a fieldset's legend) or a named
        // control around it (a clickable card) says which.
        const tells =
          it.role === 'row' ||
          (!it.ref && it.name && CONTEXT_ROLES.has(it.role)) ||
          (SUMMARY_ROLES.has(it.role) && !it.ref && this.repeats(it));
        collect(it.children || [], isTold || tells || (it.ref && it.name ? it.name : false));
      }
    };
    collect(items, false);
    let budget = CONTEXT_MAX;
    for (const g of groups.values()) {
      if (g.length < 2 || g.length > budget) continue;
      const els = g.map((n) => n.el);
      const said = new Map(); // context → how many say it
      for (const n of g) {
        const box = ownBox(n.el, els);
        n.context = box === n.el ? '' : boxText(box, n.el);
        said.set(n.context, (said.get(n.context) || 0) + 1);
      }
      // A context two of them share tells neither apart.
      for (const n of g) if (said.get(n.context) > 1) n.context = '';
      budget -= g.length;
    }
  }

  // asked reports whether node is a choice that says the question it answers.
  asked(node) {
    return (node.role === 'radio' || node.role === 'checkbox') && !!choiceQuestion(node.el, node.role);
  }

  node(node, depth, out) {
    if (depth > this.maxDepth) return;
    // The interactive filter drops text, so the "Reply" of one post or
    // comment could not be told from the next one's: a post, comment or
    // list item holding refs says the start of its own text.
    // Nor could an alert ("Wrong password"), a status ("3 results") or a
    // dialog's question be read: they say the start of their text.
    if (
      this.filter === 'interactive' &&
      !node.name &&
      !node.ref &&
      (MESSAGE_ROLES.has(node.role) || node.overlay || (SUMMARY_ROLES.has(node.role) && this.repeats(node)))
    ) {
      node.name = summaryText(node);
      node.summary = !!node.name;
    } else if (
      this.filter === 'interactive' &&
      node.name &&
      !node.ref &&
      (node.role === 'dialog' || node.role === 'alertdialog')
    ) {
      // A dialog named by its title still asks its question in its text.
      let t = summaryText(node);
      if (t.startsWith(node.name)) t = t.slice(node.name.length).trim();
      if (/[\p{L}\p{N}]{2}/u.test(t)) node.attrs.push('text=' + quote(t));
    }
    // A listitem holding a single thing adds nothing but a line.
    if (node.role === 'listitem' && !node.name && !node.ref && node.children.length === 1 && node.children[0].role) {
      return this.node(node.children[0], depth, out);
    }
    // An unnamed list or list item adds a line and a level to everything in
    // it, and says nothing its contents do not.
    if ((node.role === 'list' || node.role === 'listitem') && !node.name && !node.ref && !node.attrs.length) {
      this.items(node.children, depth, out);
      return;
    }
    const sub = [];
    const keep = this.filter !== 'interactive' || node.ref || node.role === 'heading' || node.overlay || node.summary;
    if (this.filter === 'interactive' && !keep && !CONTEXT_ROLES.has(node.role)) {
      this.items(node.children, depth, out);
      return;
    }
    this.items(node.children, depth + 1, sub);
    if (!keep && !sub.length) return;
    if (node.role === 'listitem' && !node.name && !sub.length) return;
    if (!node.ref && !node.name && !sub.length && TRANSPARENT.has(node.role)) return;
    if (node.role === 'link') {
      // The second of two links to one place (a picture and its headline)
      // says so instead of repeating the target.
      node.sameHref = !!node.href && node.href === this.lastHref;
      this.lastHref = node.href || '';
      const named = node.name;
      if (node.sameHref && named === this.lastLink) node.name = ''; // and the same name: said once
      this.lastLink = named;
    }
    // Without its cells' text, the interactive filter's row of a "View"
    // link cannot be told from the next row's.
    if (this.filter === 'interactive' && node.role === 'row' && !node.name) node.name = rowText(node);
    // Nor can one question's "Yes" from the next one's, or a field's
    // error be read, when the filter drops the text that says them.
    if (this.filter === 'interactive' && node.ref) fieldContext(node);
    if (node.context) node.attrs.push('in=' + quote(node.context));
    out.push(' '.repeat(depth) + lineOf(node));
    if (node.role === 'link') node.name = this.lastLink;
    if (node.ref) {
      this.refs++;
      registry.info.set(node.ref, {role: node.role, name: node.name, order: this.order++, gen: this.gen});
    }
    for (const l of sub) out.push(l);
  }
}

// ---------- entry ----------

function parseContinuation(c) {
  if (!c) return null;
  if (typeof c === 'string') {
    const s = c.trim();
    if (s.startsWith('{')) {
      try {
        return parseContinuation(JSON.parse(s));
      } catch {
        return null;
      }
    }
    const m = /^(\d+)(?::(\w+))?$/.exec(s);
    return m ? {startAfter: +m[1], anchor: m[2] || ''} : null;
  }
  const n = Number(c.startAfter);
  return Number.isFinite(n) && n >= 0 ? {startAfter: Math.floor(n), anchor: c.anchor || ''} : null;
}

// Where the next page starts: after the anchored line, found near its old
// index when the page changed since the previous call.
function resumeIndex(lines, cont) {
  if (!cont) return 0;
  const i = Math.min(cont.startAfter, lines.length);
  if (!cont.anchor || (i > 0 && hashLine(lines[i - 1]) === cont.anchor)) return i;
  for (let d = 1; d < lines.length; d++) {
    if (i - 1 - d >= 0 && hashLine(lines[i - 1 - d]) === cont.anchor) return i - d;
    if (i - 1 + d < lines.length && hashLine(lines[i - 1 + d]) === cont.anchor) return i + d;
    if (i - 1 - d < 0 && i - 1 + d >= lines.length) break;
  }
  return i;
}

function generate(options) {
  const opts = options || {};
  const filter = opts.filter === 'all' || opts.filter === 'visible' ? opts.filter : 'interactive';
  const maxChars =
    opts.maxChars === undefined || opts.maxChars === null
      ? DEFAULT_MAX_CHARS
      : Number(opts.maxChars) > 0
        ? Number(opts.maxChars)
        : Infinity;
  const maxDepth = Number(opts.maxDepth) > 0 ? Number(opts.maxDepth) : Infinity;
  pruneRegistry();
  registry.gen++;
  besideLeft = BESIDE_BUDGET;
  labelledIds = null;
  choiceQuestions = new Map();

  const walker = new Walker(filter);
  const ctx = walker.frameContext(document, null);
  const top = [];
  let rootEl = document.body || document.documentElement;
  if (opts.refId) {
    rootEl = lookup(opts.refId);
    if (!rootEl) {
      return {
        tree: '',
        truncated: false,
        continuation: null,
        continuationToken: null,
        continuationArgs: null,
        startLine: 0,
        endLine: 0,
        totalLines: 0,
        totalChars: 0,
        nodeCount: 0,
        refCount: 0,
        overlays: 0,
        filter,
        error: normRef(opts.refId) + ' is not on the page any more (removed or replaced); read the tree again.',
      };
    }
    ctx.f.expandSelect = rootEl.localName === 'select' ? rootEl : null;
    ctx.inOverlay = true;
    walker.element(rootEl, ctx, top);
  } else {
    const modal = Array.prototype.find.call(document.querySelectorAll('dialog[open]'), (d) => d.matches(':modal'));
    // A modal <dialog> makes the rest of the page inert: only it is shown.
    if (modal) walker.element(modal, ctx, top);
    else walker.children(rootEl, ctx, top);
  }

  const root = {role: 'root', name: '', attrs: [], children: [...walker.overlays, ...top]};
  finish(root);
  // The interactive filter leaves text out to keep a long page short; a
  // short page's text costs little and is often what a task needs (an
  // instruction, a table to read, the email to answer), so a page whose
  // whole tree fits in wholeBelow characters gets the whole tree.
  const wholeBelow = opts.wholeBelow === undefined || opts.wholeBelow === null ? WHOLE_BELOW : Number(opts.wholeBelow) || 0;
  let r = null;
  if (filter === 'interactive' && wholeBelow > 0 && textWithin(root.children, wholeBelow)) {
    r = new Renderer('all', maxDepth, registry.gen);
    r.items(root.children, 0, r.lines);
    if (charsOf(r.lines) > wholeBelow) r = null;
  }
  if (!r) {
    r = new Renderer(filter, maxDepth, registry.gen);
    if (filter === 'interactive') r.contexts(root.children);
    r.items(root.children, 0, r.lines);
  }
  const lines = r.lines;

  const totalChars = charsOf(lines);
  const start = resumeIndex(lines, parseContinuation(opts.continuation));
  let end = start;
  let size = 0;
  const page = [];
  while (end < lines.length) {
    const l = lines[end];
    if (size + l.length + 1 > maxChars) {
      if (page.length) break;
      page.push(l.slice(0, Math.max(1, maxChars - 2)) + '…'); // a single line longer than a page
      end++;
      break;
    }
    page.push(l);
    size += l.length + 1;
    end++;
  }
  const more = end < lines.length;
  const continuation = more ? {startAfter: end, anchor: hashLine(lines[end - 1])} : null;
  const args = more ? {filter, continuation} : null;
  if (args && opts.refId) args.refId = normRef(opts.refId);
  if (args && Number.isFinite(maxDepth)) args.maxDepth = maxDepth;
  if (args && opts.maxChars !== undefined && opts.maxChars !== null) args.maxChars = opts.maxChars;
  if (args && opts.wholeBelow !== undefined && opts.wholeBelow !== null) args.wholeBelow = opts.wholeBelow;
  return {
    tree: page.join('\n'),
    truncated: more,
    continuation,
    continuationToken: more ? continuation.startAfter + ':' + continuation.anchor : null,
    continuationArgs: args,
    startLine: start,
    endLine: end,
    totalLines: lines.length,
    totalChars,
    nodeCount: lines.length,
    refCount: r.refs,
    overlays: walker.overlays.length,
    filter,
    whole: r.filter !== filter,
  };
}

function charsOf(lines) {
  let n = 0;
  for (const l of lines) n += l.length + 1;
  return n;
}

// textWithin reports whether the text and names under items may fit in
// limit characters: a cheap bound that spares a long page the whole
// tree's rendering.
function textWithin(items, limit) {
  let left = limit;
  const visit = (list) => {
    for (const it of list) {
      if (it.group) {
        left -= it.nameText.length;
        visit(it.items);
      } else if (it.role) {
        left -= it.name.length + 8;
        visit(it.children);
      } else if (it.text !== undefined && !it.hidden) left -= it.text.length;
      if (left < 0) return;
    }
  };
  visit(items);
  return left >= 0;
}

function refOf(el, register = true) {
  if (!el || el.nodeType !== 1) return '';
  return register ? refFor(el) : registry.ids.get(el) || '';
}

// ---------- one element ----------

// shownAs is the role and name of el's line in the tree, worked out for el
// alone: el's subtree is walked as a tree read of it would (refId) when its
// name comes from its content or its role from what it shows; otherwise,
// and when el is hidden, the same rules apply without the walk.
function shownAs(el) {
  const walker = new Walker('all', false);
  const tag = el.localName;
  if (el.ownerSVGElement && tag !== 'svg' && SVG_DRAWN.has(tag)) {
    const part = svgPartShown(el, walker);
    if (part) return part;
  }
  let role = roleOf(el, tag, walker);
  const interactive = isInteractive(el, tag, role);
  const walk =
    tag === 'label' ||
    NAME_FROM_CONTENT.has(role) ||
    role === 'listitem' ||
    (TRANSPARENT.has(role) && (interactive || walker.style(el).cursor === 'pointer'));
  if (walk) {
    const out = [];
    walker.element(el, contextOf(el, walker), out);
    for (const it of out) {
      if (it.group) return {role: 'generic', name: it.nameText};
      if (it.el === el && it.role) {
        finish(it);
        return {role: it.role, name: it.name};
      }
    }
    if (out.some((it) => (it.text !== undefined && !it.hidden) || it.role)) {
      return {role, name: ''}; // shown, but hoisted: no line of its own
    }
  }
  if (interactive && TRANSPARENT.has(role)) role = sliderHandle(el, el.getAttributeNames()) ? 'slider' : 'clickable';
  let name = explicitName(el, tag, walker, null);
  if (TRANSPARENT.has(role)) return {role, name};
  if (!name && (NAME_FROM_CONTENT.has(role) || role === 'listitem')) {
    const content = domText(el, walker);
    if (content.length <= NAME_MAX) name = content;
  }
  return {role, name: name || fallbackName(el, role)};
}

// svgPartShown is the role and name of a drawn part of an svg that is a
// click target, as its line says them, or null.
function svgPartShown(el, walker) {
  const svg = el.ownerSVGElement;
  const tag = el.localName;
  // In a control (or one itself), an svg is an icon: the control is the line.
  if (isInteractive(svg, 'svg', roleOf(svg, 'svg', walker)) || contextOf(svg, walker).inInteractive) return null;
  const st = walker.style(el);
  const s = {ctx: walker.frameContext(el.ownerDocument, null), svgPointer: walker.style(svg).cursor === 'pointer'};
  const parentCursor = el.parentElement ? walker.style(el.parentElement).cursor : 'auto';
  if (!walker.svgClickable(el, tag, st, parentCursor, s)) return null;
  const node = walker.svgTarget({el, tag, st, rect: el.getBoundingClientRect()}, svg.getBoundingClientRect());
  return {role: node.role, name: node.name};
}

// contextOf is the walk context el would have in a read of the whole page,
// as far as it decides el's role: whether an ancestor is interactive, and
// the cursor it inherits.
function contextOf(el, walker) {
  const ctx = walker.frameContext(el.ownerDocument, null);
  ctx.inOverlay = true; // el's own line, not the overlay list
  const parent = el.parentElement;
  if (parent) ctx.cursor = walker.style(parent).cursor;
  for (let p = parent; p; p = p.parentElement) {
    if (isInteractive(p, p.localName, roleOf(p, p.localName, walker))) {
      ctx.inInteractive = true;
      break;
    }
  }
  return ctx;
}

const isElement = (el) => !!el && el.nodeType === 1;

// Injected twice into the same world: the first run's exports (and its
// refs) stay.
if (!ownFunction('__wb_ax_lookup')) {
  defineExport('__generateAccessibilityTree', generate);
  defineExport('__wb_ax_lookup', lookup);
  defineExport('__wb_ax_nearby', nearby);
  defineExport('__wb_ax_ref', refOf);
  defineExport('__wb_ax_role', (el) => (isElement(el) ? shownAs(el).role : ''));
  defineExport('__wb_ax_name', (el) => (isElement(el) ? shownAs(el).name : ''));
}
