// Content script part: the page's half of trusted input
// in Chrome (trusted_prepare, trusted_finish; docs/content-tools.md), and
// its resume after the background restarted with input in flight
// (docs/decisions/exactly-once.md).
import { squash } from './text.mjs';
import { deepActive } from './dom.mjs';
import { NO_CHANGE, describe, fail, hasRef, isTextField, quote, replyOf, resolve, sentences, win } from './core.mjs';
import { aimAt, clickElement, clickedText, pointTarget } from './pointer.mjs';
import {
  editingHost,
  fieldRaw,
  fieldValueText,
  focusField,
  focusedField,
  placeCaret,
  typeAxField,
  typeInto,
  typeResult,
  typeStart,
} from './typing.mjs';
import { MODIFIERS, MOD_KEYS, NAMED, charKey, named, parseChord, parseKeys, pressChord } from './keys.mjs';
import { observe, watch } from './observe.mjs';
import { hoverReport, hoverTarget, revealWatch } from './hover.mjs';
import { dragPlan, dragReport, html5OrPointer } from './drag.mjs';
import {
  changedReply,
  evidenceNow,
  inOrder,
  keep,
  keysSince,
  listenOn,
  otherDoc,
  receipts,
  recorded,
  seen,
} from './receipts.mjs';

// In Chrome the background sends clicks and keys as trusted CDP input
// (isTrusted true). trusted_prepare does the page's part first (resolve,
// scroll, the visibility and obstruction checks, focus) and starts
// watching the page; it returns the steps to send: {mouse: {x, y}} in
// top-frame viewport pixels, {key: {key, code, keyCode, text, mods, hold}}
// or {insert: text}, or {done: result} when the page's own path already
// acted (an <option>). trusted_finish then reports what changed.
let pending = null; // {watch, finish, id (the receipt's, or ''), timer}
const PENDING_MS = 30000; // a prepare whose finish never comes stops watching

export function dropPending() {
  if (!pending) return;
  clearTimeout(pending.timer);
  pending.watch.abort();
  pending = null;
}

function arm(w, finish, id = '') {
  dropPending();
  pending = { watch: w, finish, id, timer: setTimeout(dropPending, PENDING_MS) };
}

// toTop converts a point in el's frame to the top frame's viewport.
function toTop(el, point) {
  let { x, y } = point;
  for (let w = el.ownerDocument.defaultView; w !== win && w.frameElement; w = w.frameElement.ownerDocument.defaultView) {
    const f = w.frameElement,
      r = f.getBoundingClientRect();
    x += r.left + f.clientLeft;
    y += r.top + f.clientTop;
  }
  return { x: Math.round(x), y: Math.round(y) };
}

const keyStep = (k, mods, hold = []) => ({
  key: {
    key: k.key,
    code: k.code,
    keyCode: k.keyCode,
    text: k.text,
    hold,
    mods: { ctrlKey: !!mods.ctrlKey, shiftKey: !!mods.shiftKey, altKey: !!mods.altKey, metaKey: !!mods.metaKey },
  },
});

// textSteps types text with US-layout keys; a newline is Enter, and other
// characters (and tabs, which would move focus) are inserted as text.
function textSteps(text) {
  const steps = [];
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    if (ch === '\n') {
      steps.push(keyStep(named(NAMED.enter), {}));
      continue;
    }
    const k = charKey(ch);
    if (k.keyCode && ch !== '\t') {
      steps.push(keyStep(k, { shiftKey: k.shift }));
      continue;
    }
    const last = steps[steps.length - 1];
    if (last && last.insert !== undefined) last.insert += ch;
    else steps.push({ insert: ch });
  }
  return steps;
}

// A prepare answers a plan: {done} or {kind, el, what, steps, finish,
// watch} and what a resume needs. watch() starts watching when the plan
// is armed; finish(changes) is the report.

async function prepareClick(el) {
  if (el.localName === 'option' && el.closest('select')) return { done: await clickElement(el) };
  const { target0, point } = aimAt(el);
  return {
    kind: 'click',
    el,
    what: describe(el),
    steps: [{ mouse: toTop(target0, point) }],
    redo: () => prepareClick(el),
    watch: () => watch(el),
    finish: (changes) => clickedText(el, target0, point, changes),
  };
}

function preparePointClick(args) {
  const { target, x, y } = pointTarget(args);
  return {
    kind: 'click',
    el: target,
    what: describe(target),
    steps: [{ mouse: { x, y } }],
    redo: () => preparePointClick(args),
    watch: () => watch(target),
    finish: (changes) => `Clicked ${describe(target)} at (${x}, ${y}). ${changes || NO_CHANGE}`,
  };
}

// typingSteps focuses the field and plans typing text; clearing selects
// its text for a trusted Backspace to delete.
function typingSteps(el, text, { clear, submit }) {
  focusField(el, clear);
  const steps = [];
  if (clear && fieldRaw(el) !== '') {
    if (el.isContentEditable) el.ownerDocument.getSelection().selectAllChildren(editingHost(el));
    else el.select();
    steps.push(keyStep(named(NAMED.backspace), {}));
  }
  steps.push(...textSteps(text));
  if (submit) steps.push(keyStep(named(NAMED.enter), {}));
  return steps;
}

function prepareTyping(el, text, opts) {
  const start = typeStart(el, text, opts, describe(el));
  const rejected = isTextField(el) && el.maxLength >= 0 && start.expected.length > el.maxLength;
  return {
    kind: 'type',
    el,
    what: start.what,
    start,
    opts,
    text: text.replace(/\r\n?/g, '\n'),
    steps: typingSteps(el, text, opts),
    watch: () => watch(el, { reportSubject: false }),
    finish: (changes) => typeResult(start, { rejected, submitNote: opts.submit ? 'Enter' : '' }, changes),
  };
}

function preparePress(args) {
  const chords = parseKeys(args);
  const t = deepActive();
  const steps = chords.map(({ k, mods }) => {
    const own = k.modifier ? MODIFIERS[k.key.toLowerCase()] : '';
    const hold = Object.keys(MOD_KEYS)
      .filter((m) => mods[m] && m !== own)
      .map((m) => keyStep(named(NAMED[MOD_KEYS[m]]), {}).key);
    return keyStep(k, mods, hold);
  });
  const labels = chords.map((c) => c.label).join(' ');
  return {
    kind: 'press',
    el: t,
    what: describe(t),
    steps,
    chords,
    watch: () => watch(t),
    finish: (changes) => sentences(`Pressed ${labels} on ${describe(t)}`, changes),
  };
}

// A hover is one pointer move; what it revealed is read at the finish.
function prepareHover(args) {
  const h = hoverTarget(args);
  const shownNow = revealWatch(h.el);
  return {
    kind: 'hover',
    el: h.el,
    what: describe(h.el),
    steps: [{ hover: toTop(h.el, h.point) }],
    redo: () => prepareHover(args),
    watch: () => watch(h.el, { reportSubject: false }),
    finish: (changes) => hoverReport(h, changes, shownNow(), false),
  };
}

// A pointer drag is sent as trusted input; HTML5 drag and drop is run
// here with synthetic DragEvents (trusted mouse input cannot carry a
// DataTransfer without intercepting the browser's drag).
async function prepareDrag(args) {
  const plan = dragPlan(args);
  if (plan.method === 'html5') return { done: await html5OrPointer(plan) };
  return {
    kind: 'drag',
    el: plan.src,
    what: describe(plan.src),
    steps: [{ drag: { from: toTop(plan.src, plan.from), to: toTop(plan.tgt, plan.to) } }],
    redo: () => prepareDrag(args),
    watch: () => watch(plan.src, { reportSubject: false }),
    finish: (changes) => dragReport(plan, changes, null),
  };
}

const PREPARE = {
  click_ax: (a) => prepareClick(resolve(a.ref)),
  click: (a) => (hasRef(a) ? prepareClick(resolve(a.ref)) : preparePointClick(a)),
  type_ax: (a) => prepareTyping(typeAxField(a), String(a.text), { clear: a.clear !== false, submit: !!a.submit }),
  type_text: (a) => prepareTyping(focusedField(a), String(a.text), { clear: false, submit: false }),
  press_keys: preparePress,
  hover: prepareHover,
  drag_drop: prepareDrag,
};

function planFor(args) {
  const fn = Object.hasOwn(PREPARE, args.tool) ? PREPARE[args.tool] : null;
  if (!fn) fail(`${JSON.stringify(args.tool)} has no trusted-input path.`);
  return fn(args.args && typeof args.args === 'object' ? args.args : {});
}

export async function prepareTrusted(args) {
  const p = await planFor(args);
  if (p.done !== undefined) return { done: p.done };
  arm(p.watch(), p.finish);
  return { steps: p.steps };
}

export async function finishTrusted() {
  if (!pending) fail('No trusted input is waiting for its report (the page may have reloaded).');
  const { watch: w, finish, timer } = pending;
  pending = null;
  clearTimeout(timer);
  return finish(await w.stop());
}

// ------------------------------------------------------------ receipts

const UNWATCHED =
  'What it changed was not watched (its report came more than 30 s later or after another action); read the page to check.';

// changesOf stops the watch armed for receipt id and reports it.
async function changesOf(id) {
  if (!pending || pending.id !== id) return UNWATCHED;
  const w = pending.watch;
  clearTimeout(pending.timer);
  pending = null;
  return w.stop();
}

// prepareWithReceipt is trusted_prepare with a receipt: recorded prepared
// (with the evidence) before the plan goes out; a done receipt answers
// {done} so no input is sent; a prepared one is a resume.
export async function prepareWithReceipt(args, rc) {
  const r = receipts.get(rc.id);
  if (r && r.state === 'running') {
    await r.promise;
    return prepareWithReceipt(args, rc);
  }
  if (r && r.state === 'done') return r.reply.ok ? { ok: true, result: { done: r.reply.result } } : r.reply;
  if (!r && otherDoc(rc)) return changedReply();
  if (!pending || pending.id !== rc.id) dropPending();
  listenOn(win);
  const entry = keep(rc.id, { state: 'running' });
  let settled;
  entry.promise = new Promise((done) => {
    settled = done;
  });
  const reply = await replyOf('trusted_prepare', () => (r ? resumePlan(r, rc.id) : planFor(args)), true);
  let out = reply;
  if (!reply.ok) {
    if (pending && pending.id === rc.id) dropPending();
    keep(rc.id, { state: 'done', reply });
  } else if (reply.result.done !== undefined) {
    const done = { ok: true, result: String(reply.result.done) };
    keep(rc.id, { state: 'done', reply: done });
    out = { ok: true, result: { done: done.result } };
  } else {
    const p = reply.result;
    const frame = p.el.ownerDocument.defaultView;
    listenOn(frame);
    if (p.el.localName === 'iframe' || p.el.localName === 'frame') listenOn(p.el.contentWindow);
    keep(rc.id, { ...p, state: 'prepared', ...evidenceNow() });
    if (pending && pending.id === rc.id) {
      // a resume keeps the watch that saw everything since the first prepare
      clearTimeout(pending.timer);
      pending.finish = p.finish;
      pending.timer = setTimeout(dropPending, PENDING_MS);
    } else {
      arm(p.watch(), p.finish, rc.id);
    }
    out = { ok: true, result: { steps: p.steps } };
  }
  settled(out);
  return out;
}

// resumePlan plans what of a prepared receipt's input has not arrived, or
// reports it done.
async function resumePlan(r, id) {
  const m = missing(r);
  if (m.done) return { done: r.finish(await changesOf(id)) };
  if (r.kind === 'click' || r.kind === 'hover' || r.kind === 'drag') return r.redo();
  if (r.kind === 'press') return { ...r, steps: r.steps.slice(m.from), chords: r.chords.slice(m.from) };
  if (m.all) return { ...r, steps: typingSteps(r.el, r.text, r.opts) };
  const steps = typingSteps(r.el, m.text, { clear: false, submit: m.enter });
  if (m.caret !== undefined) placeCaret(r.el, m.caret);
  return { ...r, steps };
}

// syntheticRest is the synthetic tool for a prepared receipt (trusted
// input became unavailable): it does only what did not arrive.
export async function syntheticRest(r, id, act) {
  const m = missing(r);
  if (m.done) return r.finish(await changesOf(id));
  dropPending();
  if (m.all) return act();
  if (r.kind === 'press') {
    const { value: notes, changes } = await observe(async () => {
      const list = [];
      for (const c of r.chords.slice(m.from)) list.push(await pressChord(c));
      return list;
    }, deepActive());
    return sentences(`Pressed ${notes.join('; ')}${m.from ? ` (the ${m.from} before had arrived already)` : ''}`, changes);
  }
  focusField(r.el, false);
  if (m.caret !== undefined) placeCaret(r.el, m.caret);
  const { value: state, changes } = await observe(
    async () => {
      const st = await typeInto(r.el, m.text, { clear: false });
      if (m.enter) st.submitNote = await pressChord(parseChord('Enter'));
      return st;
    },
    r.el,
    { reportSubject: false },
  );
  return typeResult(r.start, state, changes);
}

function interrupted(r, detail) {
  fail(
    `The ${{ click: 'click on', type: 'typing into', drag: 'drag of' }[r.kind] || 'key presses on'} ${r.what} was interrupted ` +
      `(the extension restarted while sending its input) and ${detail}, so whether it took effect is unknown. ` +
      'Read the page before acting again; do not repeat it blindly.',
  );
}

function connected(r, detail) {
  if (!r.el.isConnected) interrupted(r, `the element was removed from the page since; ${detail}`);
}

// missing compares a prepared receipt's evidence with the page: {done};
// {all}: nothing arrived (a click), or typing that replaces the text,
// planned again in full; {from}: press_keys from that key on; {text,
// enter}: the part of the text the field does not hold yet, and Enter.
function missing(r) {
  if (r.kind === 'hover') return { all: true }; // moving the pointer there again changes nothing more
  if (r.kind === 'drag') {
    // Once the press arrived, how far the drag got cannot be told.
    if (seen.presses > r.pressesAt) interrupted(r, 'whether the drop happened cannot be told from the page');
    connected(r, 'no press had reached the page');
    return { all: true };
  }
  if (r.kind === 'click') {
    if (seen.clicks > r.clicksAt) return { done: true };
    connected(r, 'no click had reached the page');
    return { all: true };
  }
  const since = keysSince(r.keysAt);
  const planned = r.steps.filter((s) => s.key).map((s) => s.key.key);
  const n = since ? inOrder(planned, since) : 0;
  if (r.kind === 'press') {
    if (!since) interrupted(r, 'the page saw too many keys since to tell which arrived');
    if (n === planned.length) return { done: true };
    if (n === 0) connected(r, 'no key had reached the page');
    return { from: n };
  }
  const last = r.steps[r.steps.length - 1];
  if (since && last && last.key && n === planned.length) return { done: true }; // every key arrived, the last one too
  connected(r, 'the text it holds cannot be compared');
  const { el, start, opts, text } = r;
  const now = fieldRaw(el);
  const want = el.isContentEditable ? squash(start.expected) : start.expected.replace(/\r\n?/g, '\n');
  if (now === want) {
    if (!opts.submit) return { done: true };
    if (!since) interrupted(r, 'whether Enter arrived is not known');
    return { text: '', enter: true };
  }
  if (opts.clear) return { all: true };
  if (el.isContentEditable) {
    // Text compared squashed: the longest part of the text that explains it.
    for (let i = text.length; i >= 0; i--)
      if (squash(start.original + text.slice(0, i)) === now) return { text: text.slice(i), enter: opts.submit };
  } else {
    // The text goes between head and tail (the selection it replaces).
    const [s, e] = start.at || [start.original.length, start.original.length];
    const head = start.original.slice(0, s),
      tail = start.original.slice(e);
    const got =
      now.length >= head.length + tail.length && now.startsWith(head) && now.endsWith(tail)
        ? now.slice(head.length, now.length - tail.length)
        : null;
    if (got !== null && text.startsWith(got))
      return { text: text.slice(got.length), enter: opts.submit, caret: head.length + got.length };
  }
  const holds = el.type === 'password' ? fieldValueText(el) : quote(fieldValueText(el), 200);
  interrupted(r, `the field now holds ${holds}, which is neither what it held before nor part of the way to the intended text`);
}

// finishWithReceipt is trusted_finish with a receipt: the report, recorded
// done; the report of a done receipt again.
export async function finishWithReceipt(rc) {
  const r = receipts.get(rc.id);
  if (r && r.state === 'running') {
    await r.promise;
    return finishWithReceipt(rc);
  }
  if (r && r.state === 'done') return r.reply;
  if (!r) return otherDoc(rc) ? changedReply() : replyOf('trusted_finish', finishTrusted, true);
  return recorded(rc.id, () => replyOf('trusted_finish', async () => r.finish(await changesOf(rc.id)), true));
}

// The background's own calls that only read the page: they leave a waiting
// trusted input armed, where any other call ends it.
export const READ_ONLY_INTERNAL = new Set([
  'trusted_finish',
  'wb_probe',
  'wb_links',
  'wb_doc',
  'wb_status',
  'wb_resource',
  'wb_text',
  'wb_field',
  'wb_frames',
  'wb_frame_box',
  'wb_viewport',
  'wb_captcha',
]);
