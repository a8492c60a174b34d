// WebBrain page tools: the content-script half of every tool that acts on
// or reads the page (docs/content-tools.md). The background sends
// {wb: "tool", name, args}; the reply is {ok: true, result} or
// {ok: false, error}, both plain text for the model. Elements are reached
// only through refs from accessibility-tree.js (loaded before this file) or
// viewport coordinates.
//
// This file runs in every page: start-up only defines functions and
// registers one message listener; nothing touches the DOM until a tool runs.
(() => {
  'use strict';
  if (typeof window.__wbRunTool === 'function') return; // injected twice

  const RESULT_CAP = 8000; // the agent's cap for tool results other than the tree
  const win = window;
  const doc = document;

  class ToolError extends Error {}
  const fail = (msg) => { throw new ToolError(msg); };

  // ---------------------------------------------------------------- text

  const squash = (s) => String(s ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
  const clip = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
  const quote = (s, n = 80) => JSON.stringify(clip(squash(s), n));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const sentences = (...parts) => parts.filter(Boolean).map((p) => (/[.!?]$/.test(p) ? p : p + '.')).join(' ');
  const NO_CHANGE = 'No visible change detected (the page may respond later; read it again to check).';

  function intArg(v, def, min, max) {
    const n = v === undefined || v === null || v === '' ? def : Math.round(Number(v));
    if (!Number.isFinite(n)) return def;
    return Math.min(max, Math.max(min, n));
  }

  // ------------------------------------------------------- accessibility bridge

  function normRef(ref) {
    const s = String(ref ?? '').trim().replace(/^\[|\]$/g, '');
    if (!s) fail('Missing "ref": pass a ref shown by get_accessibility_tree, for example {"ref": "ref_12"}.');
    return /^\d+$/.test(s) ? 'ref_' + s : s;
  }

  function axLookup(id) {
    if (typeof win.__wb_ax_lookup !== 'function') {
      fail('The accessibility tree is not available on this page (its script did not load); reload the page, then call get_accessibility_tree.');
    }
    return win.__wb_ax_lookup(id);
  }

  // resolve returns the live element behind a ref or fails naming what the
  // ref was and the refs that still work near where it was.
  function resolve(ref) {
    const id = normRef(ref);
    const el = axLookup(id);
    if (el && el.isConnected) return el;
    fail(staleMessage(id));
  }

  function staleMessage(id) {
    const info = typeof win.__wb_ax_nearby === 'function' ? win.__wb_ax_nearby(id, 6) : null;
    const was = info && info.known ? ` (${info.known.role} ${quote(info.known.name || '', 40)})` : '';
    const near = info && info.nearby && info.nearby.length
      ? 'Nearby live refs: ' + info.nearby.map((r) => `${r.role} ${quote(r.name || '', 40)} [${r.ref}]`).join(', ') + '; '
      : '';
    return `${id}${was} is stale (the element was removed or replaced). ${near}call get_accessibility_tree again.`;
  }

  // refOf gives an element's ref, registering it in the tree's registry
  // (window.__wbElementMap, documented in accessibility-tree.js) when the
  // tree has not shown it yet, so results can name what they found.
  function refOf(el) {
    const reg = win.__wbElementMap;
    if (!reg || !reg.ids || !reg.refs || !isEl(el)) return '';
    let id = reg.ids.get(el);
    if (!id) {
      id = 'ref_' + reg.next++;
      reg.ids.set(el, id);
      reg.refs.set(id, new WeakRef(el));
    }
    return id;
  }

  // ------------------------------------------------------------- elements

  const INPUT_ROLES = {
    checkbox: 'checkbox', radio: 'radio', range: 'slider', button: 'button', submit: 'button',
    reset: 'button', image: 'button', search: 'searchbox', number: 'spinbutton', file: 'file input',
    date: 'date input', time: 'time input', 'datetime-local': 'date-time input', month: 'month input',
    week: 'week input', color: 'color input',
  };
  const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);
  const VALUE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);
  const FORMATS = {
    date: 'YYYY-MM-DD', time: 'HH:MM or HH:MM:SS', 'datetime-local': 'YYYY-MM-DDTHH:MM',
    month: 'YYYY-MM', week: 'YYYY-Www (e.g. 2026-W05)', color: '#rrggbb', range: 'a number',
  };

  const isEl = (n) => n && n.nodeType === 1;
  const isTextField = (el) => isEl(el) && (el.localName === 'textarea' || (el.localName === 'input' && TEXT_TYPES.has(el.type)));
  const isEditable = (el) => isTextField(el) || (isEl(el) && el.isContentEditable);

  function roleOf(el) {
    const r = el.getAttribute('role');
    if (r) return r.split(/\s+/)[0];
    const t = el.localName;
    if (t === 'a') return el.hasAttribute('href') ? 'link' : 'a';
    if (t === 'button' || t === 'summary') return 'button';
    if (t === 'select') return el.multiple ? 'listbox' : 'combobox';
    if (t === 'textarea') return 'textbox';
    if (t === 'input') return INPUT_ROLES[el.type] || 'textbox';
    if (/^h[1-6]$/.test(t)) return 'heading';
    if (t === 'dialog') return 'dialog';
    if (t === 'img') return 'img';
    if (el.isContentEditable) return 'textbox';
    const id = el.id ? '#' + el.id : '';
    const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/)[0] : '';
    return t + (id || cls);
  }

  function nameOf(el) {
    const aria = el.getAttribute('aria-label');
    if (aria && aria.trim()) return aria;
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const t = by.split(/\s+/).map((i) => el.ownerDocument.getElementById(i)?.textContent || '').join(' ');
      if (t.trim()) return t;
    }
    if (el.labels && el.labels.length) {
      const t = [...el.labels].map((l) => l.innerText || l.textContent).join(' ');
      if (t.trim()) return t;
    }
    if (el.localName === 'input' && ['button', 'submit', 'reset'].includes(el.type)) return el.value;
    if (el.localName === 'img') return el.alt;
    if (el.localName !== 'select' && !isTextField(el)) {
      const t = el.innerText ?? el.textContent;
      if (t && t.trim()) return t;
    }
    return el.getAttribute('title') || el.getAttribute('placeholder') || el.getAttribute('alt') || el.getAttribute('name') || '';
  }

  function describe(el) {
    if (!isEl(el)) return 'nothing';
    const name = clip(squash(nameOf(el)), 60);
    const ref = refOf(el);
    return roleOf(el) + (name ? ' ' + JSON.stringify(name) : '') + (ref ? ` [${ref}]` : '');
  }

  function isVisible(el) {
    if (!isEl(el) || !el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  function deepActive() {
    let a = doc.activeElement;
    for (;;) {
      if (a && a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
      if (a && (a.localName === 'iframe' || a.localName === 'frame')) {
        let inner = null;
        try { inner = a.contentDocument && a.contentDocument.activeElement; } catch { /* cross-origin */ }
        if (inner) { a = inner; continue; }
      }
      return a || doc.body;
    }
  }

  const isDisabled = (el) => el.disabled === true || el.getAttribute('aria-disabled') === 'true' || !!el.closest('[inert]');

  function openDialogs() {
    return [...doc.querySelectorAll('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]')].filter(isVisible);
  }

  // -------------------------------------------------------------- geometry

  function viewportSize(w = win) {
    return { w: w.innerWidth, h: w.innerHeight };
  }

  // clickPoint is the centre of the element's first box that shows in the
  // viewport (a wrapped link has several boxes; a huge one is partly shown).
  function clickPoint(el) {
    const { w, h } = viewportSize(el.ownerDocument.defaultView);
    const boxes = [...el.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (!boxes.length) boxes.push(el.getBoundingClientRect());
    for (const r of boxes) {
      const left = Math.max(r.left, 0), right = Math.min(r.right, w);
      const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, h);
      if (right > left && bottom > top) return { x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) };
    }
    return null;
  }

  function scrollIntoViewIfNeeded(el) {
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
  function clickableFor(el) {
    if (isVisible(el) || !el.labels) return el;
    return [...el.labels].find(isVisible) || el;
  }

  // --------------------------------------------------------------- events

  // Events are built with this script's own constructors: in a Firefox
  // content script the page's constructors are reached through Xray
  // wrappers, and an event from either realm dispatches the same.
  function fireMouse(target, type, x, y, extra = {}) {
    const w = target.ownerDocument.defaultView;
    const noBubble = type === 'mouseenter' || type === 'pointerenter';
    const init = {
      bubbles: !noBubble, cancelable: !noBubble, composed: true, view: w,
      clientX: x, clientY: y, screenX: w.screenX + x, screenY: w.screenY + y,
      button: 0, buttons: 0, detail: type.startsWith('pointer') ? 0 : 1, ...extra,
    };
    const Ctor = type.startsWith('pointer') && typeof PointerEvent === 'function' ? PointerEvent : MouseEvent;
    if (type.startsWith('pointer')) Object.assign(init, { pointerId: 1, pointerType: 'mouse', isPrimary: true, width: 1, height: 1, pressure: init.buttons ? 0.5 : 0 });
    return target.dispatchEvent(new Ctor(type, init));
  }

  const FOCUSABLE = 'a[href], area[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable]:not([contenteditable=false])';

  // A mousedown's default action moves focus; synthetic ones do not, so do it.
  function focusFromPointer(target) {
    const f = target.closest(FOCUSABLE);
    if (f && !isDisabled(f)) { f.focus({ preventScroll: true }); return; }
    const a = deepActive();
    if (a && a !== doc.body && !a.contains(target) && typeof a.blur === 'function') a.blur();
  }

  // clickAt dispatches the full pointer and mouse sequence a real click makes.
  // A cancelled pointerdown suppresses the compatibility mouse events, as in
  // browsers; the click is still sent.
  function clickAt(target, x, y) {
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

  function fire(el, type, init = {}) {
    return el.dispatchEvent(new Event(type, { bubbles: true, cancelable: false, composed: true, ...init }));
  }

  function fireInput(el, type, inputType, data = null) {
    return el.dispatchEvent(new InputEvent(type, { bubbles: true, cancelable: type === 'beforeinput', composed: true, inputType, data }));
  }

  // setNativeValue goes through the prototype's setter, so frameworks that
  // shadow `value` on the node (React's value tracker) see a real change.
  function setNativeValue(el, value) {
    const proto = el.localName === 'textarea' ? HTMLTextAreaElement.prototype
      : el.localName === 'select' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
  }

  // ---------------------------------------------------------------- keys

  const NAMED = {
    enter: ['Enter', 'Enter', 13], return: ['Enter', 'Enter', 13], tab: ['Tab', 'Tab', 9],
    escape: ['Escape', 'Escape', 27], esc: ['Escape', 'Escape', 27], backspace: ['Backspace', 'Backspace', 8],
    delete: ['Delete', 'Delete', 46], del: ['Delete', 'Delete', 46], space: [' ', 'Space', 32],
    arrowup: ['ArrowUp', 'ArrowUp', 38], up: ['ArrowUp', 'ArrowUp', 38],
    arrowdown: ['ArrowDown', 'ArrowDown', 40], down: ['ArrowDown', 'ArrowDown', 40],
    arrowleft: ['ArrowLeft', 'ArrowLeft', 37], left: ['ArrowLeft', 'ArrowLeft', 37],
    arrowright: ['ArrowRight', 'ArrowRight', 39], right: ['ArrowRight', 'ArrowRight', 39],
    home: ['Home', 'Home', 36], end: ['End', 'End', 35], pageup: ['PageUp', 'PageUp', 33],
    pagedown: ['PageDown', 'PageDown', 34], insert: ['Insert', 'Insert', 45],
    capslock: ['CapsLock', 'CapsLock', 20], contextmenu: ['ContextMenu', 'ContextMenu', 93],
    control: ['Control', 'ControlLeft', 17, 1], ctrl: ['Control', 'ControlLeft', 17, 1],
    shift: ['Shift', 'ShiftLeft', 16, 1], alt: ['Alt', 'AltLeft', 18, 1], meta: ['Meta', 'MetaLeft', 91, 1],
  };
  for (let i = 1; i <= 12; i++) NAMED['f' + i] = ['F' + i, 'F' + i, 111 + i];

  const MODIFIERS = {
    control: 'ctrlKey', ctrl: 'ctrlKey', shift: 'shiftKey', alt: 'altKey', option: 'altKey',
    meta: 'metaKey', cmd: 'metaKey', command: 'metaKey', super: 'metaKey',
  };
  const MOD_KEYS = { ctrlKey: 'control', shiftKey: 'shift', altKey: 'alt', metaKey: 'meta' };
  const SHIFTED = {
    '!': '1', '@': '2', '#': '3', $: '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0',
    _: '-', '+': '=', '{': '[', '}': ']', '|': '\\', ':': ';', '"': "'", '<': ',', '>': '.', '?': '/', '~': '`',
  };
  const UNSHIFTED = Object.fromEntries(Object.entries(SHIFTED).map(([a, b]) => [b, a]));
  const PUNCT = {
    '-': ['Minus', 189], '=': ['Equal', 187], '[': ['BracketLeft', 219], ']': ['BracketRight', 221],
    '\\': ['Backslash', 220], ';': ['Semicolon', 186], "'": ['Quote', 222], ',': ['Comma', 188],
    '.': ['Period', 190], '/': ['Slash', 191], '`': ['Backquote', 192], ' ': ['Space', 32],
  };

  const named = (def) => ({ key: def[0], code: def[1], keyCode: def[2], modifier: !!def[3], text: def[0] === ' ' ? ' ' : '' });

  // charKey describes the US-layout key that types ch.
  function charKey(ch) {
    if (ch === '\n' || ch === '\r') return named(NAMED.enter);
    if (ch === '\t') return named(NAMED.tab);
    if (/^[a-z]$/i.test(ch)) return { key: ch, code: 'Key' + ch.toUpperCase(), keyCode: ch.toUpperCase().charCodeAt(0), shift: ch !== ch.toLowerCase(), text: ch };
    if (/^[0-9]$/.test(ch)) return { key: ch, code: 'Digit' + ch, keyCode: 48 + Number(ch), shift: false, text: ch };
    if (SHIFTED[ch]) return { ...charKey(SHIFTED[ch]), key: ch, shift: true, text: ch };
    if (PUNCT[ch]) return { key: ch, code: PUNCT[ch][0], keyCode: PUNCT[ch][1], shift: false, text: ch };
    return { key: ch, code: '', keyCode: 0, shift: false, text: ch };
  }

  function fireKey(target, type, k, mods) {
    const w = target.ownerDocument.defaultView;
    const charCode = type === 'keypress' ? (k.key === 'Enter' ? 13 : k.text.codePointAt(0)) : 0;
    const keyCode = type === 'keypress' ? charCode : k.keyCode;
    return target.dispatchEvent(new KeyboardEvent(type, {
      key: k.key, code: k.code, keyCode, charCode, which: keyCode, bubbles: true, cancelable: true,
      composed: true, view: w, ...mods,
    }));
  }

  function parseChord(tok) {
    const parts = tok === '+' ? ['+'] : tok.endsWith('++') ? [...tok.slice(0, -2).split('+'), '+'] : tok.split('+');
    const last = parts.pop();
    const mods = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
    for (const p of parts) {
      const m = MODIFIERS[p.toLowerCase()];
      if (!m) fail(`Unknown modifier "${p}" in "${tok}"; use Control, Shift, Alt or Meta.`);
      mods[m] = true;
    }
    let k;
    if (last.length === 1) {
      let ch = last;
      if (mods.shiftKey) ch = /[a-z]/.test(ch) ? ch.toUpperCase() : (UNSHIFTED[ch] || ch);
      k = charKey(ch);
    } else {
      const def = NAMED[last.toLowerCase()];
      if (!def) fail(`Unknown key "${last}" in "${tok}". Use names like Enter, Tab, Escape, Backspace, Delete, ArrowDown, Home, PageDown, F5, Space, or a single character.`);
      k = named(def);
    }
    if (k.modifier) mods[MODIFIERS[k.key.toLowerCase()]] = true;
    return { k, mods, label: tok };
  }

  // ------------------------------------------------------------- typing

  function selectionOf(el) {
    try {
      if (typeof el.selectionStart === 'number') return [el.selectionStart, el.selectionEnd];
    } catch { /* types without selection (email, number) */ }
    return null;
  }

  // insertIntoField inserts like the browser's own text insertion: at the
  // caret, respecting maxlength, with beforeinput/input around it.
  function insertIntoField(el, text, state) {
    const sel = selectionOf(el);
    const value = sel ? el.value : state.buffer;
    const [s, e] = sel || [value.length, value.length];
    if (el.maxLength >= 0 && value.length - (e - s) + text.length > el.maxLength) { state.rejected = true; return; }
    const inputType = text === '\n' ? 'insertLineBreak' : 'insertText';
    if (!fireInput(el, 'beforeinput', inputType, text)) return;
    const next = value.slice(0, s) + text + value.slice(e);
    setNativeValue(el, next);
    state.buffer = next;
    if (sel) try { el.setSelectionRange(s + text.length, s + text.length); } catch { /* not selectable */ }
    fireInput(el, 'input', inputType, text);
  }

  // editingHost is the contenteditable root that takes focus for el.
  function editingHost(el) {
    let h = el;
    while (h.isContentEditable && h.parentElement && h.parentElement.isContentEditable) h = h.parentElement;
    return h;
  }

  function caretIn(el) {
    const sel = el.ownerDocument.getSelection();
    if (sel.rangeCount && el.contains(sel.anchorNode)) return sel;
    const r = el.ownerDocument.createRange();
    r.selectNodeContents(el);
    r.collapse(false);
    sel.removeAllRanges();
    sel.addRange(r);
    return sel;
  }

  // insertIntoEditable sends beforeinput first: editors that handle it
  // (Slate, Lexical) cancel it and insert themselves. Otherwise execCommand
  // edits the DOM the way typing does and fires input, which the rest
  // (ProseMirror, Draft, plain contenteditable) pick up.
  function insertIntoEditable(el, text) {
    const sel = caretIn(el);
    const paragraph = text === '\n';
    const inputType = paragraph ? 'insertParagraph' : 'insertText';
    if (!fireInput(el, 'beforeinput', inputType, paragraph ? null : text)) return;
    const edoc = el.ownerDocument;
    if (edoc.execCommand(paragraph ? 'insertParagraph' : 'insertText', false, paragraph ? null : text)) return;
    const r = sel.getRangeAt(0);
    r.deleteContents();
    const node = edoc.createTextNode(text);
    r.insertNode(node);
    r.setStartAfter(node);
    r.collapse(true);
    sel.removeAllRanges();
    sel.addRange(r);
    fireInput(el, 'input', inputType, paragraph ? null : text);
  }

  function insertText(el, text, state) {
    if (el.isContentEditable) insertIntoEditable(el, text);
    else insertIntoField(el, text, state);
  }

  function clearField(el, state) {
    if (el.isContentEditable) {
      if (!squash(el.textContent)) return;
      const sel = el.ownerDocument.getSelection();
      const r = el.ownerDocument.createRange();
      r.selectNodeContents(el);
      sel.removeAllRanges();
      sel.addRange(r);
      if (!fireInput(el, 'beforeinput', 'deleteContentBackward')) return;
      if (!el.ownerDocument.execCommand('delete', false)) {
        r.deleteContents();
        fireInput(el, 'input', 'deleteContentBackward');
      }
      return;
    }
    state.buffer = '';
    if (el.value === '') return;
    if (!fireInput(el, 'beforeinput', 'deleteContentBackward')) return;
    setNativeValue(el, '');
    fireInput(el, 'input', 'deleteContentBackward');
  }

  // typeInto types text one key at a time so keydown/keypress/keyup listeners
  // see every character; a key whose keydown or keypress the page cancels
  // inserts nothing, as in a browser.
  async function typeInto(el, text, { clear }) {
    const host = editingHost(el);
    if (deepActive() !== host) host.focus({ preventScroll: true });
    const state = { buffer: isTextField(el) ? el.value : '', rejected: false };
    const start = isTextField(el) ? el.value : '';
    if (clear) clearField(el, state);
    const single = el.localName === 'input';
    for (const ch of text.replace(/\r\n?/g, '\n')) {
      if (ch === '\n' && single) { await pressChord(parseChord('Enter')); continue; }
      const k = charKey(ch);
      const mods = { shiftKey: !!k.shift };
      const keyK = ch === '\n' ? { ...k, text: '\n' } : k;
      if (fireKey(el, 'keydown', keyK, mods) && fireKey(el, 'keypress', keyK, mods)) insertText(el, ch, state);
      fireKey(el, 'keyup', keyK, mods);
    }
    if (isTextField(el) && el.value !== start) fire(el, 'change');
    return state;
  }

  function fieldValueText(el) {
    if (el.isContentEditable) return squash(el.innerText);
    if (el.type === 'password') return `(${el.value.length} characters, hidden)`;
    return el.value;
  }

  // editableOf finds the text entry a ref stands for: the element, the
  // control of a label, or the one text entry inside a wrapper.
  function editableOf(el) {
    if (isEditable(el)) return el;
    if (el.localName === 'label' && el.control) return isEditable(el.control) ? el.control : null;
    const inner = [...el.querySelectorAll('input, textarea, [contenteditable]:not([contenteditable=false])')].filter((e) => isEditable(e) && isVisible(e));
    return inner.length === 1 ? inner[0] : null;
  }

  // ------------------------------------------------------- key default actions

  function tabOrder(d) {
    const scope = (() => { try { return d.querySelector('dialog:modal'); } catch { return null; } })() || d;
    const all = [...scope.querySelectorAll(FOCUSABLE)].filter((el) =>
      el.tabIndex >= 0 && !isDisabled(el) && !(el.localName === 'input' && el.type === 'hidden') && isVisible(el));
    const order = all.filter((el) => el.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex)
      .concat(all.filter((el) => el.tabIndex === 0));
    // Only one radio per group takes a tab stop: the checked one, else the first.
    const seen = new Set();
    return order.filter((el) => {
      if (el.localName !== 'input' || el.type !== 'radio' || !el.name) return true;
      const key = (el.form ? 'f' : 'd') + el.name;
      if (seen.has(key)) return false;
      const group = order.filter((o) => o.localName === 'input' && o.type === 'radio' && o.name === el.name && o.form === el.form);
      const stop = group.find((o) => o.checked) || group[0];
      if (stop !== el) return false;
      seen.add(key);
      return true;
    });
  }

  function moveFocus(from, back) {
    const d = from.ownerDocument;
    const order = tabOrder(d);
    if (!order.length) return 'nothing on the page can take focus';
    let i = order.indexOf(from);
    if (i < 0) {
      // From a non-tabbable spot, continue from its position in the document.
      const after = order.findIndex((el) => from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
      i = back ? (after < 0 ? order.length : after) : (after < 0 ? order.length : after) - 1;
    }
    let j = back ? i - 1 : i + 1;
    let wrapped = '';
    if (j < 0 || j >= order.length) { j = (j + order.length) % order.length; wrapped = ' (wrapped around)'; }
    const next = order[j];
    next.focus();
    if (next.localName === 'input' && TEXT_TYPES.has(next.type) && next.type !== 'number' && next.type !== 'email') next.select();
    return 'focus moved to ' + describe(next) + wrapped;
  }

  const SUBMITTERS = (e) => (e.localName === 'button' && e.type === 'submit') || (e.localName === 'input' && (e.type === 'submit' || e.type === 'image'));

  // implicitSubmit is what Enter does in a form field: click the form's
  // default button, or submit the form when it has none.
  function implicitSubmit(field) {
    const form = field.form;
    if (!form) return 'no form to submit';
    const btn = [...form.elements].find(SUBMITTERS);
    if (btn && btn.disabled) return `the form's submit button ${describe(btn)} is disabled`;
    if (!form.checkValidity()) {
      const bad = [...form.elements].find((e) => e.willValidate && !e.validity.valid);
      form.requestSubmit(btn || undefined); // shows the browser's validation message
      return `the form was not submitted: ${describe(bad)} is invalid (${bad.validationMessage})`;
    }
    if (btn) { btn.click(); return `clicked its submit ${describe(btn)}`; }
    form.requestSubmit();
    return 'submitted the form';
  }

  function deleteInField(el, forward, state) {
    const sel = selectionOf(el);
    const value = sel ? el.value : state.buffer;
    let [s, e] = sel || [value.length, value.length];
    if (s === e) { if (forward) e = Math.min(value.length, e + 1); else s = Math.max(0, s - 1); }
    if (s === e) return;
    const inputType = forward ? 'deleteContentForward' : 'deleteContentBackward';
    if (!fireInput(el, 'beforeinput', inputType)) return;
    const next = value.slice(0, s) + value.slice(e);
    setNativeValue(el, next);
    state.buffer = next;
    if (sel) el.setSelectionRange(s, s);
    fireInput(el, 'input', inputType);
  }

  function stepSelect(sel, delta) {
    const opts = [...sel.options].filter((o) => !o.disabled);
    const i = opts.indexOf(sel.options[sel.selectedIndex]);
    const next = opts[Math.min(opts.length - 1, Math.max(0, i + delta))];
    if (!next || next.selected) return '';
    sel.selectedIndex = next.index;
    fire(sel, 'input');
    fire(sel, 'change');
    return `${describe(sel)} now ${quote(next.text)}`;
  }

  function stepRadio(radio, delta) {
    const group = [...radio.ownerDocument.querySelectorAll('input[type=radio]')]
      .filter((r) => r.name === radio.name && r.form === radio.form && !r.disabled);
    const next = group[(group.indexOf(radio) + delta + group.length) % group.length];
    if (!next || next === radio) return '';
    next.focus();
    next.click();
    return `${describe(next)} now checked`;
  }

  function scrollPageBy(dy) {
    const s = pageScroller('y');
    s.scrollBy({ top: dy, behavior: 'instant' });
    return `page scrolled to y=${Math.round(s.scrollTop)}`;
  }

  const isButtonLike = (el) => ['button', 'summary'].includes(el.localName) ||
    (el.localName === 'input' && ['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'color', 'file'].includes(el.type));

  // defaultAction performs what the browser would after an uncancelled key,
  // since synthetic key events have no default actions.
  function defaultAction(t, k, mods, state) {
    const field = isTextField(t) ? t : null;
    const editable = !field && t.isContentEditable ? t : null;
    const command = mods.ctrlKey || mods.metaKey;
    if (command) {
      if (k.key.toLowerCase() === 'a') {
        if (field) { t.select(); return 'selected all text in the field'; }
        const sel = t.ownerDocument.getSelection();
        sel.selectAllChildren(editable || t.ownerDocument.body);
        return editable ? 'selected all text in the editor' : 'selected all text on the page';
      }
      return '';
    }
    switch (k.key) {
      case 'Tab': return moveFocus(t, mods.shiftKey);
      case 'Enter':
        if (t.localName === 'textarea' || editable) { insertText(t, '\n', state); return 'inserted a line break'; }
        if (field || (t.localName === 'input' && !isButtonLike(t))) return implicitSubmit(t);
        if ((t.localName === 'a' && t.hasAttribute('href')) || ['button', 'summary'].includes(t.localName) ||
          (t.localName === 'input' && ['button', 'submit', 'reset', 'image'].includes(t.type))) {
          t.click();
          return 'activated ' + describe(t);
        }
        return '';
      case ' ':
        if (field || editable) { insertText(t, ' ', state); return ''; }
        if (isButtonLike(t)) { t.click(); return 'activated ' + describe(t); }
        if (t === t.ownerDocument.body) return scrollPageBy((mods.shiftKey ? -1 : 1) * Math.round(win.innerHeight * 0.875));
        return '';
      case 'Backspace': case 'Delete': {
        const forward = k.key === 'Delete';
        if (field) { deleteInField(t, forward, state); return ''; }
        if (editable && fireInput(t, 'beforeinput', forward ? 'deleteContentForward' : 'deleteContentBackward')) {
          t.ownerDocument.execCommand(forward ? 'forwardDelete' : 'delete', false);
        }
        return '';
      }
      case 'ArrowUp': case 'ArrowDown': case 'ArrowLeft': case 'ArrowRight': {
        const delta = k.key === 'ArrowUp' || k.key === 'ArrowLeft' ? -1 : 1;
        if (t.localName === 'select' && !t.multiple) return stepSelect(t, delta);
        if (t.localName === 'input' && t.type === 'radio') return stepRadio(t, delta);
        if (field) {
          const sel = selectionOf(t);
          if (sel && (k.key === 'ArrowLeft' || k.key === 'ArrowRight')) {
            const p = Math.max(0, Math.min(t.value.length, (delta < 0 ? sel[0] : sel[1]) + (sel[0] === sel[1] ? delta : 0)));
            t.setSelectionRange(p, p);
          }
          return '';
        }
        if (!editable && t === t.ownerDocument.body && (k.key === 'ArrowUp' || k.key === 'ArrowDown')) return scrollPageBy(delta * 40);
        return '';
      }
      case 'Home': case 'End': {
        if (field) { const sel = selectionOf(t); if (sel) { const p = k.key === 'Home' ? 0 : t.value.length; t.setSelectionRange(p, p); } return ''; }
        if (t === t.ownerDocument.body) { const s = pageScroller('y'); s.scrollTo({ top: k.key === 'Home' ? 0 : s.scrollHeight, behavior: 'instant' }); return `page scrolled to y=${Math.round(s.scrollTop)}`; }
        return '';
      }
      case 'PageUp': case 'PageDown':
        if (!field && !editable) return scrollPageBy((k.key === 'PageUp' ? -1 : 1) * Math.round(win.innerHeight * 0.875));
        return '';
      case 'Escape': {
        const modal = (() => { try { return t.ownerDocument.querySelector('dialog:modal'); } catch { return null; } })();
        if (modal && fire(modal, 'cancel', { bubbles: false, cancelable: true })) { modal.close(); return 'closed ' + describe(modal); }
        return '';
      }
      default:
        if (k.text && !mods.altKey && (field || editable)) insertText(t, k.text, state);
        return '';
    }
  }

  // pressChord sends one key or chord to the focused element: modifier
  // keydowns, keydown, keypress (printable keys and Enter), the emulated
  // default action, keyup, modifier keyups.
  async function pressChord({ k, mods, label }) {
    const t = deepActive();
    const state = { buffer: isTextField(t) ? t.value : '' };
    const held = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
    const modOrder = Object.keys(MOD_KEYS).filter((m) => mods[m] && !(k.modifier && MODIFIERS[k.key.toLowerCase()] === m));
    for (const m of modOrder) { held[m] = true; fireKey(t, 'keydown', named(NAMED[MOD_KEYS[m]]), held); }
    const down = fireKey(t, 'keydown', k, mods);
    const printable = !!k.text && !mods.ctrlKey && !mods.metaKey && !mods.altKey;
    const press = down && (printable || k.key === 'Enter') ? fireKey(t, 'keypress', k, mods) : down;
    const note = down && press ? defaultAction(t, k, mods, state) : 'the page handled the key (cancelled its default)';
    fireKey(deepActive(), 'keyup', k, mods);
    for (const m of modOrder.reverse()) { held[m] = false; fireKey(deepActive(), 'keyup', named(NAMED[MOD_KEYS[m]]), held); }
    return `${label} on ${describe(t)}${note ? ': ' + note : ''}`;
  }

  // ------------------------------------------------------------ observation

  function liveTexts() {
    const m = new Map();
    for (const el of doc.querySelectorAll('[role=alert], [role=status], [aria-live]:not([aria-live=off]), output')) {
      if (isVisible(el)) m.set(el, squash(el.innerText));
    }
    return m;
  }

  function stateOf(el) {
    if (!isEl(el)) return {};
    const box = el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio');
    return {
      checked: box ? String(el.checked) : el.getAttribute('aria-checked'),
      expanded: el.getAttribute('aria-expanded'),
      pressed: el.getAttribute('aria-pressed'),
      selected: el.getAttribute('aria-selected'),
      open: el.localName === 'summary' && el.parentElement?.localName === 'details' ? String(el.parentElement.open) : null,
      value: (el.localName === 'select' || isTextField(el)) && el.type !== 'password' ? el.value : null,
    };
  }

  function snapshot(subject) {
    const ctl = subject && subject.localName === 'label' && subject.control ? subject.control : subject;
    return { url: location.href, focus: deepActive(), dialogs: openDialogs(), live: liveTexts(), ctl, state: stateOf(ctl) };
  }

  const STATE_WORDS = {
    checked: { true: 'checked', false: 'unchecked', mixed: 'partly checked' },
    expanded: { true: 'expanded', false: 'collapsed' },
    pressed: { true: 'pressed', false: 'not pressed' },
    selected: { true: 'selected', false: 'not selected' },
    open: { true: 'open', false: 'closed' },
  };

  function addedText(nodes) {
    const parts = [];
    for (const n of nodes) {
      if (!n.isConnected) continue;
      if (n.nodeType === 3) { if (n.parentElement && isVisible(n.parentElement)) parts.push(n.data); continue; }
      if (!isEl(n) || ['script', 'style', 'link', 'meta', 'template'].includes(n.localName) || !isVisible(n)) continue;
      parts.push(n.innerText || n.getAttribute('aria-label') || '');
    }
    return squash(parts.join(' '));
  }

  // watch starts recording what the page does: navigation, form
  // submission, the subject's own state, dialogs, focus, live messages and
  // new content. stop() waits for the page to settle and reports; abort()
  // drops the recording. The trusted-input path (Chrome) acts between the
  // two from outside the page.
  function watch(subject, { reportSubject = true } = {}) {
    const before = snapshot(subject);
    const t0 = performance.now();
    const log = { count: 0, last: t0, added: [], removed: 0, submits: [], nav: '', unloading: false };
    const mo = new MutationObserver((recs) => {
      log.count += recs.length;
      log.last = performance.now();
      for (const r of recs) {
        if (r.type !== 'childList') continue;
        log.removed += r.removedNodes.length;
        for (const n of r.addedNodes) if (log.added.length < 50) log.added.push(n);
      }
    });
    const onSubmit = (e) => log.submits.push(e);
    const onNavigate = (e) => { if (e.destination && !e.destination.sameDocument) log.nav = e.destination.url; };
    const onUnload = () => { log.unloading = true; };
    mo.observe(doc.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
    doc.addEventListener('submit', onSubmit, true);
    win.addEventListener('beforeunload', onUnload);
    win.addEventListener('pagehide', onUnload);
    if (win.navigation) win.navigation.addEventListener('navigate', onNavigate);
    const abort = () => {
      mo.disconnect();
      doc.removeEventListener('submit', onSubmit, true);
      win.removeEventListener('beforeunload', onUnload);
      win.removeEventListener('pagehide', onUnload);
      if (win.navigation) win.navigation.removeEventListener('navigate', onNavigate);
    };
    const stop = async () => {
      try {
        await settle(log, performance.now());
      } finally {
        abort();
      }
      return summarize(before, snapshot(subject), log, subject, reportSubject);
    };
    return { stop, abort };
  }

  // observe runs an action and reports what it changed.
  async function observe(action, subject, opts) {
    const w = watch(subject, opts);
    let value;
    try {
      value = await action();
    } catch (e) {
      w.abort();
      throw e;
    }
    return { value, changes: await w.stop() };
  }

  // settle waits for the page to stop changing after an action, briefly:
  // it returns at once when a navigation starts (the page is going away).
  function settle(log, t0, quietMs = 150, maxMs = 1500) {
    return new Promise((resolve) => {
      const check = () => {
        const now = performance.now();
        if (log.nav || log.unloading || now - t0 >= maxMs || now - log.last >= quietMs) resolve();
        else setTimeout(check, 25);
      };
      check(); // a navigation the action started answers before the page unloads
    });
  }

  // summarize returns '' when nothing was observed; callers decide whether
  // that is worth saying.
  function summarize(before, after, log, subject, reportSubject) {
    const out = [];
    if (log.nav) out.push(`navigation started to ${log.nav} (read the page again once it has loaded)`);
    else if (log.unloading) out.push('the page started unloading (a navigation began)');
    else if (after.url !== before.url) out.push(`URL changed to ${after.url}`);
    for (const e of log.submits) out.push(`${describe(e.target)} was submitted` + (e.defaultPrevented ? ' (the page handled it with script)' : ''));
    if (reportSubject && after.ctl && after.ctl.isConnected) {
      for (const [key, words] of Object.entries(STATE_WORDS)) {
        const a = before.state[key], b = after.state[key];
        if (a !== b && b !== null && b !== undefined) out.push(`${describe(after.ctl)} is now ${words[b] || b}`);
      }
      if (before.state.value !== after.state.value && after.state.value !== null) out.push(`${describe(after.ctl)} value is now ${quote(after.state.value)}`);
    } else if (subject && !subject.isConnected) {
      out.push('the clicked element was removed from the page');
    }
    for (const d of after.dialogs) if (!before.dialogs.includes(d)) out.push(`a dialog opened: ${describe(d)}`);
    for (const d of before.dialogs) if (!after.dialogs.includes(d)) out.push('a dialog closed' + (d.isConnected ? ': ' + describe(d) : ''));
    if (after.focus !== before.focus && after.focus && after.focus !== doc.body && after.focus !== after.ctl) out.push(`focus moved to ${describe(after.focus)}`);
    let messages = 0;
    for (const [el, text] of after.live) {
      if (text && before.live.get(el) !== text && messages++ < 3) out.push(`${roleOf(el)} says ${quote(text, 200)}`);
    }
    const added = addedText(log.added);
    if (added) out.push(`new content: ${quote(added, 240)}`);
    else if (log.count && out.length === 0) out.push(`the page changed (${log.count} DOM updates${log.removed ? `, ${log.removed} nodes removed` : ''})`);
    return out.length ? 'Changes: ' + out.join('; ') + '.' : '';
  }

  // ---------------------------------------------------------------- tools

  function getTree(args) {
    if (typeof win.__generateAccessibilityTree !== 'function') {
      fail('The accessibility tree is not available on this page (its script did not load); reload the page and try again.');
    }
    const opts = {};
    for (const k of ['filter', 'refId', 'maxDepth', 'maxChars', 'continuation']) {
      if (args[k] !== undefined && args[k] !== null && args[k] !== '') opts[k] = args[k];
    }
    // The tree reads 0 as "no limit"; the model always gets a bounded page.
    if (opts.maxChars !== undefined) opts.maxChars = Number(opts.maxChars) > 0 ? intArg(opts.maxChars, 6000, 500, 16000) : 6000;
    const r = win.__generateAccessibilityTree(opts);
    if (r && r.error && opts.refId) fail(staleMessage(normRef(opts.refId)));
    if (!r || r.error) fail(r && r.error ? String(r.error) : 'The accessibility tree could not be generated.');
    let text = String(r.tree ?? '');
    if (r.truncated) {
      const next = { ...(r.continuationArgs || opts), continuation: r.continuationToken || r.continuation };
      text += `\n[The tree continues: call get_accessibility_tree with ${JSON.stringify(next)} for the next part.]`;
    }
    return text;
  }

  // aimAt scrolls el into view and finds where a pointer must go to click
  // it, refusing a hidden, disabled or covered target.
  function aimAt(el) {
    const target0 = clickableFor(el);
    scrollIntoViewIfNeeded(target0);
    const point = clickPoint(target0);
    if (!point || !isVisible(target0)) {
      fail(`${describe(el)} is not visible on the page (hidden or zero size), so it cannot be clicked. ` +
        'It may appear after opening a menu or section; read the tree again.');
    }
    if (isDisabled(el)) fail(`${describe(el)} is disabled; a click would do nothing. Complete the fields it depends on first.`);
    const hit = hitTest(target0, point.x, point.y);
    if (hit.outside) fail(`${describe(el)} is outside the viewport even after scrolling.`);
    if (hit.blocker) {
      fail(`${describe(el)} is covered by ${describe(hit.blocker)} at (${point.x}, ${point.y}), so a click would hit that instead. ` +
        'Close or dismiss the covering element first (a dialog, banner or overlay), or scroll so the target is clear.');
    }
    return { target0, point, hitTarget: hit.target };
  }

  const clickedText = (el, target0, point, changes) =>
    `Clicked ${describe(el)}${target0 !== el ? ` through its label ${describe(target0)}` : ''} at (${point.x}, ${point.y}). ${changes || NO_CHANGE}`;

  async function clickElement(el) {
    if (el.localName === 'option' && el.parentElement) {
      const sel = el.closest('select');
      if (sel) return setSelect(sel, { values: [el.value] });
    }
    const { target0, point, hitTarget } = aimAt(el);
    const { changes } = await observe(() => clickAt(hitTarget, point.x, point.y), el);
    return clickedText(el, target0, point, changes);
  }

  async function clickAx(args) {
    return clickElement(resolve(args.ref));
  }

  // pointTarget checks click coordinates and finds what is under them.
  function pointTarget(args) {
    const x = Number(args.x), y = Number(args.y);
    if (!Number.isFinite(x) || !Number.isFinite(y)) fail('Pass "ref", or both "x" and "y" (viewport CSS pixels).');
    const { w, h } = viewportSize();
    if (x < 0 || y < 0 || x >= w || y >= h) fail(`(${x}, ${y}) is outside the ${w}×${h} viewport; scroll first or use coordinates inside it.`);
    const target = doc.elementFromPoint(x, y);
    if (!target) fail(`Nothing is at (${x}, ${y}).`);
    return { target, x, y };
  }

  const hasRef = (args) => args.ref !== undefined && args.ref !== null && args.ref !== '';

  async function click(args) {
    if (hasRef(args)) return clickAx(args);
    const { target, x, y } = pointTarget(args);
    const { changes } = await observe(() => clickAt(target, x, y), target);
    return `Clicked ${describe(target)} at (${x}, ${y}). ${changes || NO_CHANGE}`;
  }

  // typeStart checks the field and notes what it holds before typing.
  function typeStart(el, text, { clear, submit }, what) {
    if (isDisabled(el) || el.readOnly) fail(`${what} is ${el.readOnly ? 'read-only' : 'disabled'}; it does not accept text.`);
    const original = fieldRaw(el);
    return { el, text, submit, what, original, expected: (clear ? '' : original) + text };
  }

  const fieldRaw = (el) => (el.isContentEditable ? squash(el.innerText) : el.value);

  // typeResult says what the field holds after typing, or fails when the
  // text did not land.
  function typeResult({ el, text, submit, what, original, expected }, state, changes) {
    const now = fieldRaw(el);
    // A field that reformats what it gets (a phone mask) still took the text;
    // one left empty or as it was (a framework restoring its state) did not.
    const landed = el.isContentEditable ? now.includes(squash(text))
      : !text || state.rejected || now === expected || (now !== original && now !== '');
    if (!landed && el.isConnected && !submit) {
      fail(`Typed into ${what}, but the text did not land: it now holds ${quote(fieldValueText(el), 200)}. ` +
        'The page may use a custom editor; click it with click_ax first, then use type_text.');
    }
    let res = `Typed ${el.type === 'password' ? `${text.length} characters` : quote(text, 200)} into ${what}`;
    if (el.isConnected) res += `; it now holds ${el.type === 'password' ? fieldValueText(el) : quote(now, 300)}`;
    if (state.rejected) res += ` (some characters were refused: maxlength ${el.maxLength})`;
    else if (el.isConnected && !el.isContentEditable && !submit && now !== expected) res += ' (the page reformatted or changed the text)';
    if (state.submitNote) res += `. Pressed ${state.submitNote}`;
    return sentences(res, changes);
  }

  async function typeAndReport(el, text, { clear, submit }, what) {
    const start = typeStart(el, text, { clear, submit }, what);
    const { value: state, changes } = await observe(async () => {
      const st = await typeInto(el, text, { clear });
      if (submit) st.submitNote = await pressChord(parseChord('Enter'));
      return st;
    }, el, { reportSubject: false });
    return typeResult(start, state, changes);
  }

  // typeAxField finds and scrolls to the field type_ax types into.
  function typeAxField(args) {
    const el0 = resolve(args.ref);
    const el = editableOf(el0);
    if (!el) {
      const hint = el0.localName === 'select' || (el0.localName === 'input' && !TEXT_TYPES.has(el0.type)) ? ' Use set_field for this control.' : '';
      fail(`${describe(el0)} is not a text field or editable area.${hint}`);
    }
    if (args.text === undefined || args.text === null) fail('Missing "text" to type.');
    scrollIntoViewIfNeeded(el);
    return el;
  }

  async function typeAx(args) {
    const el = typeAxField(args);
    return typeAndReport(el, String(args.text), { clear: args.clear !== false, submit: !!args.submit }, describe(el));
  }

  // focusedField is the element type_text types into.
  function focusedField(args) {
    if (args.text === undefined || args.text === null) fail('Missing "text" to type.');
    const a = deepActive();
    if (!isEditable(a)) {
      fail(`The focused element is ${a === doc.body ? 'the page itself' : describe(a)}, which does not take text. ` +
        'Click a text field first (click_ax) or use type_ax with its ref.');
    }
    return a;
  }

  async function typeText(args) {
    const a = focusedField(args);
    return typeAndReport(a, String(args.text), { clear: false, submit: false }, describe(a));
  }

  function parseKeys(args) {
    const spec = String(args.keys ?? '').trim();
    if (!spec) fail('Missing "keys", for example "Enter", "Tab Tab Enter" or "Control+a".');
    return spec.split(/\s+/).map(parseChord);
  }

  async function pressKeys(args) {
    const chords = parseKeys(args);
    const { value: notes, changes } = await observe(async () => {
      const list = [];
      for (const c of chords) list.push(await pressChord(c));
      return list;
    }, deepActive());
    return sentences(`Pressed ${notes.join('; ')}`, changes);
  }

  // ---------------------------------------------------------------- fields

  function findOption(options, wanted) {
    const w = squash(wanted).toLowerCase();
    const text = (o) => squash(o.text).toLowerCase();
    return options.find((o) => o.value === wanted) ||
      options.find((o) => text(o) === w) ||
      options.find((o) => squash(o.label).toLowerCase() === w || o.value.toLowerCase() === w) ||
      (() => { const c = options.filter((o) => text(o).includes(w)); return c.length === 1 ? c[0] : null; })();
  }

  const optionList = (opts) => opts.slice(0, 25).map((o) => `${quote(o.text, 40)}${o.value !== o.text ? ` (value ${quote(o.value, 30)})` : ''}`).join(', ') + (opts.length > 25 ? `, … (${opts.length} in all)` : '');

  function wantedValues(args) {
    if (Array.isArray(args.values)) return args.values.map(String);
    if (Array.isArray(args.value)) return args.value.map(String);
    if (args.value !== undefined && args.value !== null) return [String(args.value)];
    return null;
  }

  function selectState(sel) {
    const chosen = [...sel.selectedOptions];
    if (!chosen.length) return 'nothing selected';
    return chosen.map((o) => `${quote(o.text)}${o.value !== o.text ? ` (value ${quote(o.value, 40)})` : ''}`).join(', ');
  }

  async function setSelect(sel, args) {
    const wanted = wantedValues(args);
    if (!wanted) fail(`Pass "value" (option text or value)${sel.multiple ? ' or "values" (a list)' : ''} for ${describe(sel)}.`);
    if (!sel.multiple && wanted.length !== 1) fail(`${describe(sel)} takes one value; it is not a multiple select.`);
    if (isDisabled(sel)) fail(`${describe(sel)} is disabled.`);
    const opts = [...sel.options];
    const picked = wanted.map((w) => {
      const o = findOption(opts, w);
      if (!o) fail(`${describe(sel)} has no option ${quote(w)}. Options: ${optionList(opts)}.`);
      if (o.disabled) fail(`Option ${quote(o.text)} of ${describe(sel)} is disabled.`);
      return o;
    });
    const { changes } = await observe(() => {
      sel.focus({ preventScroll: true });
      if (sel.multiple) for (const o of opts) o.selected = picked.includes(o);
      else Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'selectedIndex').set.call(sel, picked[0].index);
      fire(sel, 'input');
      fire(sel, 'change');
    }, sel, { reportSubject: false });
    return sentences(`${describe(sel)} now: ${selectState(sel)}`, changes);
  }

  function wantedChecked(args) {
    if (typeof args.checked === 'boolean') return args.checked;
    const v = squash(args.checked ?? args.value).toLowerCase();
    if (['true', 'yes', 'on', 'checked', '1'].includes(v)) return true;
    if (['false', 'no', 'off', 'unchecked', '0'].includes(v)) return false;
    return null;
  }

  // Checkboxes and radios are clicked, never assigned, so the page's own
  // handlers run as they would for a person.
  async function setChecked(el, args, isAria) {
    let want = wantedChecked(args);
    const role = isAria ? el.getAttribute('role') : el.type;
    if (want === null) {
      if (role === 'radio' && args.checked === undefined && args.value === undefined) want = true;
      else fail(`Pass "checked": true or false for ${describe(el)}.`);
    }
    const now = () => (isAria ? el.getAttribute('aria-checked') === 'true' : el.checked);
    if (role === 'radio' && !want) fail(`${describe(el)} is a radio button; it cannot be unchecked directly. Choose another option of its group.`);
    if (isDisabled(el)) fail(`${describe(el)} is disabled.`);
    if (now() === want) return `${describe(el)} is already ${want ? 'checked' : 'unchecked'}; nothing to do.`;
    const target = clickableFor(el);
    scrollIntoViewIfNeeded(target);
    const p = clickPoint(target) || { x: 0, y: 0 };
    const { changes } = await observe(() => clickAt(target, p.x, p.y), el, { reportSubject: false });
    if (now() !== want) fail(sentences(`Clicked ${describe(el)}, but it is still ${want ? 'unchecked' : 'checked'}: the page reverted it or handles it elsewhere`, changes));
    return sentences(`${describe(el)} is now ${want ? 'checked' : 'unchecked'}`, changes);
  }

  async function setValueInput(el, args) {
    if (Array.isArray(args.values) || args.value === undefined || args.value === null) fail(`Pass "value" in the format ${FORMATS[el.type]} for ${describe(el)}.`);
    if (isDisabled(el) || el.readOnly) fail(`${describe(el)} is ${el.readOnly ? 'read-only' : 'disabled'}.`);
    const v = String(args.value).trim();
    const { changes } = await observe(() => {
      el.focus({ preventScroll: true });
      setNativeValue(el, el.type === 'color' ? v.toLowerCase() : v);
      fire(el, 'input');
      fire(el, 'change');
    }, el, { reportSubject: false });
    if (v !== '' && el.value === '') fail(`${quote(v)} is not a valid ${el.type} value; use the format ${FORMATS[el.type]}.`);
    let res = `${describe(el)} is now ${quote(el.value)}`;
    if (el.type === 'range' && el.value !== v) res += ` (adjusted to the slider's min ${el.min || 0}, max ${el.max || 100}, step ${el.step || 1})`;
    if (!el.validity.valid) res += ` but the page marks it invalid: ${el.validationMessage}`;
    return sentences(res, changes);
  }

  async function setTextValue(el, args) {
    const wanted = wantedValues(args);
    if (!wanted || wanted.length !== 1) fail(`Pass "value" (the text) for ${describe(el)}.`);
    if (isDisabled(el) || el.readOnly) fail(`${describe(el)} is ${el.readOnly ? 'read-only' : 'disabled'}.`);
    const v = wanted[0];
    const { changes } = await observe(() => {
      el.focus({ preventScroll: true });
      const state = { buffer: '' };
      clearField(el, state);
      if (v) insertText(el, v, state);
      if (!el.isContentEditable) fire(el, 'change');
    }, el, { reportSubject: false });
    return sentences(`${describe(el)} now holds ${el.type === 'password' ? fieldValueText(el) : quote(fieldValueText(el), 300)}`, changes);
  }

  function popupOptions(owner) {
    const ids = `${owner.getAttribute('aria-controls') || ''} ${owner.getAttribute('aria-owns') || ''}`.trim().split(/\s+/).filter(Boolean);
    const lists = ids.map((i) => doc.getElementById(i)).filter(Boolean);
    if (owner.getAttribute('role') === 'listbox') lists.push(owner);
    if (!lists.length) lists.push(...[...doc.querySelectorAll('[role=listbox]')].filter(isVisible));
    return lists.flatMap((l) => [...l.querySelectorAll('[role=option]')]).filter(isVisible);
  }

  async function waitForOptions(owner, ms) {
    const end = performance.now() + ms;
    for (;;) {
      const opts = popupOptions(owner);
      if (opts.length || performance.now() > end) return opts;
      await sleep(50);
    }
  }

  function matchOption(opts, wanted) {
    const w = squash(wanted).toLowerCase();
    const t = (o) => squash(o.innerText || o.textContent).toLowerCase();
    return opts.find((o) => t(o) === w) || opts.find((o) => (o.getAttribute('data-value') || '').toLowerCase() === w) ||
      (() => { const c = opts.filter((o) => t(o).includes(w)); return c.length === 1 ? c[0] : null; })();
  }

  async function pickOption(owner, opt) {
    scrollIntoViewIfNeeded(opt);
    const p = clickPoint(opt) || { x: 0, y: 0 };
    return (await observe(() => clickAt(opt, p.x, p.y), owner, { reportSubject: false })).changes;
  }

  // ARIA comboboxes and listboxes: open or type, then click the option whose
  // text matches, as a person would.
  async function setAriaChoice(el, args) {
    const wanted = wantedValues(args);
    if (!wanted) fail(`Pass "value" (the option's text) for ${describe(el)}.`);
    if (isDisabled(el)) fail(`${describe(el)} is disabled.`);
    const isList = el.getAttribute('role') === 'listbox';
    const notes = [];
    for (const w of wanted) {
      if (!isList) {
        if (isEditable(el)) await typeInto(el, w, { clear: true });
        else if (el.getAttribute('aria-expanded') !== 'true') {
          const p = clickPoint(el) || { x: 0, y: 0 };
          clickAt(el, p.x, p.y);
        }
      }
      const opts = await waitForOptions(el, 1500);
      const opt = matchOption(opts, w);
      if (!opt) {
        fail(`No option ${quote(w)} appeared for ${describe(el)}. ` +
          (opts.length ? `Visible options: ${opts.slice(0, 20).map((o) => quote(o.innerText || o.textContent, 40)).join(', ')}.` : 'No options are visible; open it with click_ax and read the tree.'));
      }
      notes.push(await pickOption(el, opt));
    }
    const shown = isEditable(el) ? fieldValueText(el) : squash(el.innerText || el.getAttribute('aria-label') || '');
    const chosen = isList ? [...el.querySelectorAll('[role=option][aria-selected=true]')].map((o) => quote(o.textContent, 40)).join(', ') : quote(shown, 120);
    return sentences(`${describe(el)} now: ${chosen || 'nothing selected'}`, notes[notes.length - 1]);
  }

  async function setField(args) {
    const el0 = resolve(args.ref);
    let el = el0.localName === 'label' && el0.control ? el0.control : el0;
    if (!['input', 'select', 'textarea'].includes(el.localName) && !el.getAttribute('role') && !el.isContentEditable) {
      const inner = [...el.querySelectorAll('input:not([type=hidden]), select, textarea')];
      if (inner.length === 1) el = inner[0];
    }
    const role = el.getAttribute('role');
    if (el.localName === 'select') return setSelect(el, args);
    if (el.localName === 'input') {
      if (el.type === 'checkbox' || el.type === 'radio') return setChecked(el, args, false);
      if (VALUE_TYPES.has(el.type)) return setValueInput(el, args);
      if (el.type === 'file') fail(`${describe(el)} is a file input; a page script cannot choose files for it.`);
      if (['button', 'submit', 'reset', 'image', 'hidden'].includes(el.type)) fail(`${describe(el)} is a button, not a field; use click_ax.`);
      if (role !== 'combobox') return setTextValue(el, args);
    }
    if (['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio'].includes(role)) return setChecked(el, args, true);
    if (role === 'combobox' || role === 'listbox') return setAriaChoice(el, args);
    if (el.localName === 'textarea' || el.isContentEditable) return setTextValue(el, args);
    fail(`${describe(el0)} is not a form field set_field can change; use click_ax or type_ax.`);
  }

  // ---------------------------------------------------------------- scroll

  const canScroll = (el, axis) => {
    const over = axis === 'y' ? el.scrollHeight - el.clientHeight : el.scrollWidth - el.clientWidth;
    if (over <= 1) return false;
    if (el === doc.scrollingElement) return true;
    const s = getComputedStyle(el)[axis === 'y' ? 'overflowY' : 'overflowX'];
    return s === 'auto' || s === 'scroll' || s === 'overlay';
  };

  // pageScroller is the document, or when the document does not scroll (an
  // app with its own scrolling pane) the largest visible scrollable element.
  function pageScroller(axis) {
    const root = doc.scrollingElement || doc.documentElement;
    if (canScroll(root, axis)) return root;
    let best = null, area = 0;
    for (const el of doc.body ? doc.body.querySelectorAll('*') : []) {
      if ((axis === 'y' ? el.scrollHeight <= el.clientHeight + 1 : el.scrollWidth <= el.clientWidth + 1) || !canScroll(el, axis)) continue;
      const r = el.getBoundingClientRect();
      if (r.width * r.height > area && isVisible(el)) { best = el; area = r.width * r.height; }
    }
    return best || root;
  }

  function scrollableAncestor(el, axis) {
    for (let e = el; e; e = e.parentElement || (e.getRootNode() && e.getRootNode().host) || null) {
      if (canScroll(e, axis)) return e;
    }
    return pageScroller(axis);
  }

  function scrollPosition(box) {
    const isPage = box === doc.scrollingElement || box === doc.documentElement;
    const name = isPage ? 'page' : describe(box);
    const y = Math.round(box.scrollTop), x = Math.round(box.scrollLeft);
    const maxY = box.scrollHeight - box.clientHeight, maxX = box.scrollWidth - box.clientWidth;
    return { name, x, y, maxX: Math.max(0, Math.round(maxX)), maxY: Math.max(0, Math.round(maxY)), h: box.clientHeight, w: box.clientWidth, H: box.scrollHeight, W: box.scrollWidth };
  }

  function whereText(p) {
    const v = p.maxY <= 0 ? 'no vertical scrolling' : p.y <= 0 ? 'at the top' : p.y >= p.maxY - 1 ? 'at the bottom' : `${p.maxY - p.y}px more below`;
    const hz = p.maxX > 0 ? `, x=${p.x} of ${p.W} wide` + (p.x >= p.maxX - 1 ? ' (at the right end)' : '') : '';
    return `${p.name} now at y=${p.y} of ${p.H} high (viewport ${p.h}px), ${v}${hz}`;
  }

  async function scroll(args) {
    const dir = args.direction ? String(args.direction).toLowerCase() : '';
    if (dir && !['up', 'down', 'left', 'right', 'top', 'bottom'].includes(dir)) fail(`Unknown direction "${args.direction}"; use up, down, left, right, top or bottom.`);
    const el = args.ref !== undefined && args.ref !== null && args.ref !== '' ? resolve(args.ref) : null;
    if (el && !dir) {
      el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
      await sleep(50);
      const r = el.getBoundingClientRect();
      return `Scrolled ${describe(el)} into view: its top-left is at (${Math.round(r.left)}, ${Math.round(r.top)}) in the ${win.innerWidth}×${win.innerHeight} viewport${isVisible(el) ? '' : ' (it is not visible: hidden or zero size)'}. ${whereText(scrollPosition(pageScroller('y')))}.`;
    }
    const d = dir || 'down';
    const axis = d === 'left' || d === 'right' ? 'x' : 'y';
    const box = el ? scrollableAncestor(el, axis) : pageScroller(axis);
    const view = axis === 'y' ? (box === doc.scrollingElement ? win.innerHeight : box.clientHeight) : (box === doc.scrollingElement ? win.innerWidth : box.clientWidth);
    let amount;
    if (args.amount === undefined || args.amount === null || args.amount === '' || String(args.amount).toLowerCase() === 'page') amount = Math.round(view * 0.85);
    else {
      amount = Number(args.amount);
      if (!Number.isFinite(amount) || amount <= 0) fail(`"amount" must be a number of pixels or "page", not ${JSON.stringify(args.amount)}.`);
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

  // ------------------------------------------------------------- read_page

  const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'canvas', 'iframe', 'object', 'select', 'datalist', 'textarea', 'input', 'button', 'video', 'audio', 'map']);

  // TextOut collects lines: inline text joins into the current line and
  // block boundaries end it.
  class TextOut {
    constructor() { this.lines = []; this.buf = ''; this.prefix = ''; }
    inline(s) { this.buf += s; }
    flush() {
      const t = squash(this.buf);
      this.buf = '';
      if (!t) return;
      const line = this.prefix + t;
      this.prefix = '';
      if (this.lines[this.lines.length - 1] !== line) this.lines.push(line);
    }
    line(s) { this.flush(); const t = s.trimEnd(); if (t.trim()) this.lines.push(t); }
  }

  const cellText = (c) => squash(c.innerText).replace(/\|/g, '/');

  function readTable(table, out) {
    out.flush();
    const caption = table.caption && squash(table.caption.innerText);
    if (caption) out.line(`Table: ${caption}`);
    const rows = table.rows ? [...table.rows] : [...table.querySelectorAll('[role=row]')];
    for (const row of rows) {
      if (!isVisible(row)) continue;
      const cells = row.cells ? [...row.cells] : [...row.querySelectorAll('[role=cell], [role=gridcell], [role=columnheader], [role=rowheader]')];
      const texts = cells.filter((c) => isVisible(c)).map(cellText);
      if (texts.some(Boolean)) out.line('| ' + texts.join(' | ') + ' |');
    }
  }

  function walk(node, out, skip, listDepth) {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) { out.inline(c.data); continue; }
      if (c.nodeType !== 1 || c === skip || SKIP_TAGS.has(c.localName)) continue;
      if (c.hidden || c.getAttribute('aria-hidden') === 'true') continue;
      const st = getComputedStyle(c);
      if (st.display === 'none' || st.visibility === 'hidden' || st.visibility === 'collapse' || st.contentVisibility === 'hidden') continue;
      const tag = c.localName;
      const level = /^h([1-6])$/.exec(tag)?.[1] || (c.getAttribute('role') === 'heading' && (c.getAttribute('aria-level') || '2'));
      if (level) { out.line('#'.repeat(Number(level)) + ' ' + squash(c.innerText)); continue; }
      if (tag === 'br') { out.flush(); continue; }
      if (tag === 'img') { const alt = squash(c.alt); if (alt) out.inline(` [image: ${alt}] `); continue; }
      if (tag === 'pre') { out.flush(); for (const l of c.innerText.split('\n')) out.line(l); continue; }
      if (tag === 'table' || c.getAttribute('role') === 'table' || c.getAttribute('role') === 'grid') { readTable(c, out); continue; }
      if (tag === 'li' || c.getAttribute('role') === 'listitem') {
        out.flush();
        out.prefix = '  '.repeat(Math.max(0, listDepth - 1)) + (node.localName === 'ol' ? `${[...node.children].indexOf(c) + 1}. ` : '- ');
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
    const main = mainElement();
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

  function readPage(args) {
    const maxChars = intArg(args.maxChars, 6000, 500, 12000);
    const offset = args.continuation === undefined || args.continuation === null || args.continuation === '' ? 0 : Number(args.continuation);
    if (!Number.isInteger(offset) || offset < 0) fail(`"continuation" must be the value a previous read_page returned, not ${JSON.stringify(args.continuation)}.`);
    const text = pageText();
    if (!text) return `Page: ${quote(doc.title, 120)} ${location.href}\nThe page shows no readable text.`;
    if (offset >= text.length) fail(`continuation ${offset} is past the end of the page text (${text.length} characters); the page may have changed. Call read_page without continuation.`);
    const { part, end } = pageSlice(text, offset, maxChars);
    const head = `Page: ${quote(doc.title, 120)} ${location.href}\n(characters ${offset}–${end} of ${text.length})\n`;
    const more = end < text.length ? `\n[More text follows: call read_page with ${JSON.stringify({ maxChars, continuation: String(end) })}]` : '\n[End of page text]';
    return head + part.replace(/\n$/, '') + more;
  }

  // -------------------------------------------------------- small readers

  function getSelectionTool() {
    const a = deepActive();
    let text = '', where = null;
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
      where = host || (where && where.closest && where.closest('p, li, td, th, h1, h2, h3, h4, h5, h6, blockquote, pre, section, article')) || where;
    }
    if (!text.trim()) return 'Nothing is selected on the page.';
    return `Selected text (${text.length} characters${where ? ', in ' + describe(where) : ''}):\n${clip(text, RESULT_CAP - 200)}`;
  }

  function getWindowInfo() {
    const p = scrollPosition(doc.scrollingElement || doc.documentElement);
    const focus = deepActive();
    const dialogs = openDialogs();
    return [
      `URL: ${location.href}`,
      `Title: ${doc.title || '(none)'}`,
      `Viewport: ${win.innerWidth}×${win.innerHeight} CSS pixels (device pixel ratio ${win.devicePixelRatio})`,
      `Scroll: x=${p.x}, y=${p.y}; page size ${p.W}×${p.H}` + (p.maxY > 0 ? (p.y >= p.maxY - 1 ? ' (at the bottom)' : p.y <= 0 ? ' (at the top)' : '') : ' (fits in the viewport)'),
      `Focused: ${focus && focus !== doc.body ? describe(focus) : 'nothing (the page itself)'}`,
      `Dialog open: ${dialogs.length ? dialogs.map(describe).join(', ') : 'none'}`,
      `Loading state: ${doc.readyState}`,
    ].join('\n');
  }

  // ------------------------------------------------------------ extract_data

  // jsonText keeps rows of plain values on one line each, so tables stay
  // readable as text while the whole stays valid JSON.
  function jsonText(v, indent = '') {
    const flat = (x) => x === null || typeof x !== 'object' || (Array.isArray(x) ? x.every((y) => y === null || typeof y !== 'object') : Object.values(x).every((y) => y === null || typeof y !== 'object' || (Array.isArray(y) && y.every((z) => typeof z !== 'object'))));
    if (flat(v)) return JSON.stringify(v);
    const next = indent + ' ';
    if (Array.isArray(v)) return '[\n' + v.map((x) => next + jsonText(x, next)).join(',\n') + '\n' + indent + ']';
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return '{\n' + entries.map(([k, x]) => next + JSON.stringify(k) + ': ' + jsonText(x, next)).join(',\n') + '\n' + indent + '}';
  }

  const within = (scope, sel) => [...(scope.matches && scope.matches(sel) ? [scope] : []), ...scope.querySelectorAll(sel)].filter(isVisible);

  function extractTables(scope, maxRows) {
    return within(scope, 'table, [role=table], [role=grid], [role=treegrid]')
      .filter((t) => !(t.rows && t.rows.length === 1 && t.rows[0].cells.length === 1)).slice(0, 10).map((t) => {
        const rows = (t.rows ? [...t.rows] : [...t.querySelectorAll('[role=row]')]).filter(isVisible);
        const cellsOf = (r) => (r.cells ? [...r.cells] : [...r.querySelectorAll('[role=cell], [role=gridcell], [role=columnheader], [role=rowheader]')]);
        const isHead = (r) => r.parentElement?.localName === 'thead' || cellsOf(r).every((c) => c.localName === 'th' || c.getAttribute('role') === 'columnheader');
        const head = rows.length > 1 && isHead(rows[0]) ? rows.shift() : null;
        return {
          name: squash((t.caption && t.caption.innerText) || t.getAttribute('aria-label') || '') || undefined,
          ref: refOf(t) || undefined,
          columns: head ? cellsOf(head).map(cellText) : undefined,
          rows: rows.slice(0, maxRows).map((r) => cellsOf(r).map(cellText)),
          totalRows: rows.length,
        };
      });
  }

  function extractLists(scope, maxRows) {
    return within(scope, 'ul, ol, dl, [role=list]').slice(0, 20).map((l) => {
      const items = l.localName === 'dl'
        ? [...l.querySelectorAll(':scope > dt, :scope > div > dt')].map((dt) => `${squash(dt.innerText)}: ${squash(dt.nextElementSibling?.innerText || '')}`)
        : [...l.children].filter((c) => (c.localName === 'li' || c.getAttribute('role') === 'listitem') && isVisible(c)).map((c) => clip(squash(c.innerText), 200));
      return { name: squash(l.getAttribute('aria-label') || '') || undefined, ref: refOf(l) || undefined, items: items.slice(0, maxRows), totalItems: items.length };
    }).filter((l) => l.totalItems > 0);
  }

  function extractLinks(scope, maxRows) {
    const seen = new Set();
    const links = [];
    for (const a of within(scope, 'a[href]')) {
      const text = clip(squash(nameOf(a)), 120);
      const key = text + '\n' + a.href;
      if (seen.has(key)) continue;
      seen.add(key);
      links.push({ text, href: a.href });
    }
    return { links: links.slice(0, maxRows), totalLinks: links.length };
  }

  function extractHeadings(scope, maxRows) {
    const hs = within(scope, 'h1, h2, h3, h4, h5, h6, [role=heading]').map((h) => ({
      level: Number(/^h([1-6])$/.exec(h.localName)?.[1] || h.getAttribute('aria-level') || 2),
      text: clip(squash(h.innerText), 200),
    }));
    return { headings: hs.slice(0, maxRows), totalHeadings: hs.length };
  }

  function fieldInfo(f) {
    const type = f.localName === 'input' ? f.type : f.localName === 'select' ? (f.multiple ? 'select-multiple' : 'select') : f.localName === 'textarea' ? 'textarea' : (f.getAttribute('role') || 'contenteditable');
    const info = { label: clip(squash(nameOf(f)), 80), type, ref: refOf(f) || undefined };
    if (f.localName === 'select') {
      info.value = [...f.selectedOptions].map((o) => o.text);
      info.options = [...f.options].slice(0, 20).map((o) => squash(o.text));
    } else if (type === 'checkbox' || type === 'radio') info.checked = f.checked;
    else if (type === 'password') info.value = f.value ? `(${f.value.length} characters, hidden)` : '';
    else if (isTextField(f) || f.localName === 'input') info.value = f.value;
    else if (f.isContentEditable) info.value = clip(squash(f.innerText), 200);
    else info.value = f.getAttribute('aria-checked') ?? f.getAttribute('aria-valuenow') ?? clip(squash(f.innerText), 80);
    if (f.required || f.getAttribute('aria-required') === 'true') info.required = true;
    if (isDisabled(f)) info.disabled = true;
    if (f.validity && !f.validity.valid && f.validationMessage) info.invalid = f.validationMessage;
    return info;
  }

  function extractForm(scope, maxRows) {
    const fields = within(scope, 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]), select, textarea, [contenteditable]:not([contenteditable=false]), [role=combobox], [role=checkbox], [role=switch], [role=radio], [role=textbox], [role=listbox], [role=slider], [role=spinbutton]')
      .filter((f) => !(f.isContentEditable && f.parentElement && f.parentElement.isContentEditable));
    const groups = new Map();
    for (const f of fields.slice(0, maxRows)) {
      const form = f.form || f.closest('form');
      if (!groups.has(form)) groups.set(form, []);
      groups.get(form).push(fieldInfo(f));
    }
    const forms = [...groups].map(([form, list]) => ({
      form: form ? clip(squash(form.getAttribute('aria-label') || form.getAttribute('name') || form.id || ''), 60) || '(unnamed form)' : '(fields outside any form)',
      submit: form ? [...form.elements].filter(SUBMITTERS).map(describe) : undefined,
      fields: list,
    }));
    return { forms, totalFields: fields.length };
  }

  const EXTRACTORS = {
    table: (s, n) => ({ tables: extractTables(s, n) }),
    list: (s, n) => ({ lists: extractLists(s, n) }),
    links: extractLinks, headings: extractHeadings, form: extractForm,
  };

  function extractData(args) {
    const kind = String(args.kind || '').toLowerCase().replace(/s$/, '').replace(/^link$/, 'links').replace(/^heading$/, 'headings');
    const fn = EXTRACTORS[kind];
    if (!fn) fail(`Unknown kind ${JSON.stringify(args.kind)}; use table, list, links, headings or form.`);
    const scope = args.ref !== undefined && args.ref !== null && args.ref !== '' ? resolve(args.ref) : doc.body;
    let maxRows = intArg(args.maxRows, kind === 'links' ? 100 : 50, 1, 1000);
    for (;;) {
      const text = jsonText(fn(scope, maxRows));
      if (text.length <= RESULT_CAP || maxRows === 1) return clip(text, RESULT_CAP);
      maxRows = Math.max(1, Math.floor(maxRows / 2)); // fit the result cap with fewer rows
    }
  }

  // ------------------------------------------------------------- waiting

  // elementsWithText returns the deepest elements whose text contains the
  // needle, descending only into children that contain it.
  function elementsWithText(root, needle) {
    const norm = (s) => squash(s).toLowerCase();
    const found = [];
    const visit = (el) => {
      let deeper = false;
      for (const c of el.children) {
        if (SKIP_TAGS.has(c.localName) && !['button', 'select', 'textarea'].includes(c.localName)) continue;
        if (norm(c.textContent).includes(needle)) { deeper = true; visit(c); }
      }
      if (!deeper) found.push(el);
    };
    if (root && norm(root.textContent).includes(needle)) visit(root);
    for (const f of root ? root.querySelectorAll('[aria-label], input[type=button], input[type=submit], [placeholder]') : []) {
      const label = f.getAttribute('aria-label') || f.getAttribute('placeholder') || f.value || '';
      if (norm(label).includes(needle)) found.push(f);
    }
    return found;
  }

  function candidates(selector, text) {
    const needle = squash(text).toLowerCase();
    if (selector) {
      const all = [...doc.querySelectorAll(selector)];
      return needle ? all.filter((e) => squash(e.textContent + ' ' + (e.getAttribute('aria-label') || '') + ' ' + (e.value || '')).toLowerCase().includes(needle)) : all;
    }
    return elementsWithText(doc.body, needle);
  }

  function waitUntil(check, timeoutMs) {
    return new Promise((resolve) => {
      let queued = false;
      const run = () => { queued = false; const v = check(); if (v) finish(v); };
      const mo = new MutationObserver(() => { if (!queued) { queued = true; setTimeout(run, 30); } });
      const poll = setInterval(run, 250); // CSS transitions change visibility without mutations
      const timer = setTimeout(() => finish(null), timeoutMs);
      function finish(v) { clearTimeout(timer); clearInterval(poll); mo.disconnect(); resolve(v); }
      mo.observe(doc.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  }

  async function waitForElement(args) {
    const selector = args.selector ? String(args.selector) : '';
    const text = args.text ? String(args.text) : '';
    if (!selector && !squash(text)) fail('Pass "selector" (CSS) or "text" to wait for.');
    const state = String(args.state || 'visible').toLowerCase();
    if (!['visible', 'attached', 'hidden'].includes(state)) fail(`Unknown state "${args.state}"; use visible, attached or hidden.`);
    if (selector) try { doc.querySelector(selector); } catch { fail(`${JSON.stringify(selector)} is not a valid CSS selector.`); }
    const timeout = intArg(args.timeoutMs, 5000, 0, 20000);
    const what = [selector && `selector ${JSON.stringify(selector)}`, text && `text ${quote(text)}`].filter(Boolean).join(' with ');
    const check = () => {
      const els = candidates(selector, text);
      if (state === 'attached') return els[0] || null;
      const vis = els.find(isVisible);
      return state === 'visible' ? vis || null : vis ? null : { gone: true };
    };
    const t0 = performance.now();
    const hit = check() || (timeout > 0 ? await waitUntil(check, timeout) : null);
    const ms = Math.round(performance.now() - t0);
    if (!hit) {
      const els = candidates(selector, text);
      const seen = els.length ? `${els.length} matching element(s) exist, ${els.filter(isVisible).length} visible` : 'nothing matches';
      fail(`Timed out after ${timeout} ms waiting for ${what} to be ${state}: ${seen}. ` +
        'Check the page with get_accessibility_tree; the action that should make it appear may not have worked.');
    }
    if (hit.gone) return `No element with ${what} is visible (after ${ms} ms).`;
    return `Found ${describe(hit)} (${isVisible(hit) ? 'visible' : 'attached, not visible'}) after ${ms} ms.`;
  }

  async function waitForStable(args) {
    const timeout = intArg(args.timeoutMs, 5000, 100, 20000);
    const quiet = intArg(args.quietMs, 500, 50, 5000);
    const t0 = performance.now();
    let last = t0, count = 0;
    const mo = new MutationObserver((recs) => { count += recs.length; last = performance.now(); });
    mo.observe(doc.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
    try {
      for (;;) {
        const now = performance.now();
        if (now - last >= quiet && doc.readyState !== 'loading') {
          return `The page is stable: no DOM changes for ${quiet} ms (waited ${Math.round(now - t0)} ms, ${count} changes seen).`;
        }
        if (now - t0 >= timeout) {
          return `The page was still changing after ${timeout} ms (${count} DOM changes, the last ${Math.round(now - last)} ms ago); ` +
            'it may have an animation or live feed. Read it now if what you need is there.';
        }
        await sleep(Math.min(50, quiet / 2));
      }
    } finally {
      mo.disconnect();
    }
  }

  // --------------------------------------------------------- trusted input

  // In Chrome the background sends clicks and keys as trusted CDP input
  // (isTrusted true). trusted_prepare does the page's part first (resolve,
  // scroll, the visibility and obstruction checks, focus) and starts
  // watching the page; it returns the steps to send: {mouse: {x, y}} in
  // top-frame viewport pixels, {key: {key, code, keyCode, text, mods, hold}}
  // or {insert: text}, or {done: result} when the page's own path already
  // acted (an <option>). trusted_finish then reports what changed.
  let pending = null;
  const PENDING_MS = 30000; // a prepare whose finish never comes stops watching

  function dropPending() {
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.watch.abort();
    pending = null;
  }

  function arm(w, finish, steps) {
    dropPending();
    pending = { watch: w, finish, timer: setTimeout(dropPending, PENDING_MS) };
    return { steps };
  }

  // toTop converts a point in el's frame to the top frame's viewport.
  function toTop(el, point) {
    let { x, y } = point;
    for (let w = el.ownerDocument.defaultView; w !== win && w.frameElement; w = w.frameElement.ownerDocument.defaultView) {
      const f = w.frameElement, r = f.getBoundingClientRect();
      x += r.left + f.clientLeft;
      y += r.top + f.clientTop;
    }
    return { x: Math.round(x), y: Math.round(y) };
  }

  const keyStep = (k, mods, hold = []) => ({
    key: {
      key: k.key, code: k.code, keyCode: k.keyCode, text: k.text, hold,
      mods: { ctrlKey: !!mods.ctrlKey, shiftKey: !!mods.shiftKey, altKey: !!mods.altKey, metaKey: !!mods.metaKey },
    },
  });

  // textSteps types text with US-layout keys; a newline is Enter, and other
  // characters (and tabs, which would move focus) are inserted as text.
  function textSteps(text) {
    const steps = [];
    for (const ch of text.replace(/\r\n?/g, '\n')) {
      if (ch === '\n') { steps.push(keyStep(named(NAMED.enter), {})); continue; }
      const k = charKey(ch);
      if (k.keyCode && ch !== '\t') { steps.push(keyStep(k, { shiftKey: k.shift })); continue; }
      const last = steps[steps.length - 1];
      if (last && last.insert !== undefined) last.insert += ch;
      else steps.push({ insert: ch });
    }
    return steps;
  }

  async function prepareClick(el) {
    if (el.localName === 'option' && el.closest('select')) return { done: await clickElement(el) };
    const { target0, point } = aimAt(el);
    return arm(watch(el), (changes) => clickedText(el, target0, point, changes), [{ mouse: toTop(target0, point) }]);
  }

  function preparePointClick(args) {
    const { target, x, y } = pointTarget(args);
    return arm(watch(target), (changes) => `Clicked ${describe(target)} at (${x}, ${y}). ${changes || NO_CHANGE}`, [{ mouse: { x, y } }]);
  }

  // prepareTyping focuses the field; clearing selects its text for a
  // trusted Backspace to delete.
  function prepareTyping(el, text, opts) {
    const start = typeStart(el, text, opts, describe(el));
    const w = watch(el, { reportSubject: false });
    const host = editingHost(el);
    if (deepActive() !== host) host.focus({ preventScroll: true });
    const steps = [];
    if (opts.clear && fieldRaw(el) !== '') {
      if (el.isContentEditable) el.ownerDocument.getSelection().selectAllChildren(host);
      else el.select();
      steps.push(keyStep(named(NAMED.backspace), {}));
    }
    steps.push(...textSteps(text));
    if (opts.submit) steps.push(keyStep(named(NAMED.enter), {}));
    const rejected = isTextField(el) && el.maxLength >= 0 && start.expected.length > el.maxLength;
    return arm(w, (changes) => typeResult(start, { rejected, submitNote: opts.submit ? 'Enter' : '' }, changes), steps);
  }

  function preparePress(args) {
    const chords = parseKeys(args);
    const t = deepActive();
    const steps = chords.map(({ k, mods }) => {
      const own = k.modifier ? MODIFIERS[k.key.toLowerCase()] : '';
      const hold = Object.keys(MOD_KEYS).filter((m) => mods[m] && m !== own).map((m) => keyStep(named(NAMED[MOD_KEYS[m]]), {}).key);
      return keyStep(k, mods, hold);
    });
    return arm(watch(t), (changes) => sentences(`Pressed ${chords.map((c) => c.label).join(' ')} on ${describe(t)}`, changes), steps);
  }

  const PREPARE = {
    click_ax: (a) => prepareClick(resolve(a.ref)),
    click: (a) => (hasRef(a) ? prepareClick(resolve(a.ref)) : preparePointClick(a)),
    type_ax: (a) => prepareTyping(typeAxField(a), String(a.text), { clear: a.clear !== false, submit: !!a.submit }),
    type_text: (a) => prepareTyping(focusedField(a), String(a.text), { clear: false, submit: false }),
    press_keys: preparePress,
  };

  function prepareTrusted(args) {
    const fn = Object.prototype.hasOwnProperty.call(PREPARE, args.tool) ? PREPARE[args.tool] : null;
    if (!fn) fail(`${JSON.stringify(args.tool)} has no trusted-input path.`);
    return fn(args.args && typeof args.args === 'object' ? args.args : {});
  }

  async function finishTrusted() {
    if (!pending) fail('No trusted input is waiting for its report (the page may have reloaded).');
    const { watch: w, finish, timer } = pending;
    pending = null;
    clearTimeout(timer);
    return finish(await w.stop());
  }

  // INTERNAL entries are the background's, not the model's: prepare answers
  // an object, not text.
  const INTERNAL = { trusted_prepare: prepareTrusted, trusted_finish: finishTrusted };

  // -------------------------------------------------------------- dispatch

  const TOOLS = {
    get_accessibility_tree: getTree,
    click_ax: clickAx,
    type_ax: typeAx,
    set_field: setField,
    click,
    type_text: typeText,
    press_keys: pressKeys,
    scroll,
    read_page: readPage,
    get_selection: getSelectionTool,
    get_window_info: getWindowInfo,
    extract_data: extractData,
    wait_for_element: waitForElement,
    wait_for_stable: waitForStable,
  };

  async function runTool(name, args) {
    const lookup = (o) => (Object.prototype.hasOwnProperty.call(o, name) ? o[name] : null);
    const fn = lookup(TOOLS) || lookup(INTERNAL);
    if (!fn) return { ok: false, error: `Unknown page tool ${JSON.stringify(name)}. Page tools: ${Object.keys(TOOLS).join(', ')}.` };
    let a = args;
    if (typeof a === 'string') {
      try { a = a.trim() ? JSON.parse(a) : {}; } catch { return { ok: false, error: `The arguments of ${name} are not valid JSON.` }; }
    }
    if (!a || typeof a !== 'object') a = {};
    if (name !== 'trusted_finish') dropPending(); // a fallback or a new action ends a waiting one
    try {
      if (name === 'trusted_prepare') return { ok: true, result: await fn(a) };
      const text = String(await fn(a));
      return { ok: true, result: name === 'get_accessibility_tree' ? text : clip(text, RESULT_CAP) };
    } catch (e) {
      if (e instanceof ToolError) return { ok: false, error: e.message };
      return { ok: false, error: `${name} failed on this page: ${e && e.message ? e.message : String(e)}` };
    }
  }

  Object.defineProperty(win, '__wbRunTool', { value: runTool, configurable: true });

  const ext = (typeof browser !== 'undefined' && browser && browser.runtime && browser.runtime.onMessage) ? browser
    : (typeof chrome !== 'undefined' && chrome && chrome.runtime && chrome.runtime.onMessage) ? chrome : null;
  if (ext) {
    ext.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
      if (!msg || msg.wb !== 'tool') return false;
      runTool(msg.name, msg.args).then(sendResponse);
      return true; // the reply is sent asynchronously
    });
  }
})();
