// Content script part: receipts, so that an action the
// background sends again after its worker restarted is not carried out
// twice (docs/decisions/exactly-once.md). The content script lives as long
// as its document, so it is the one place that knows what already ran.
//
// A message may carry receipt {id, doc}. Per id the page keeps the
// action's state: running (with the promise of its reply), prepared
// (trusted input in flight, with the evidence trusted.mjs needs to tell how
// much of it arrived) or done (with its reply). The last RECEIPTS_KEPT are
// kept. Nothing here runs before the first message with a receipt.
import { replyOf } from './core.mjs';
import { READ_ONLY_INTERNAL, dropPending, finishWithReceipt, prepareWithReceipt, syntheticRest } from './trusted.mjs';

const RECEIPTS_KEPT = 100;
export const receipts = new Map(); // id -> {state: 'running'|'prepared'|'done', promise?, reply?, ...evidence}
let docIdValue = '';

// docId names this document: one content-script instance, made on first
// use. A reload or navigation brings a new instance and a new id.
export function docId() {
  if (!docIdValue) {
    try {
      docIdValue = crypto.randomUUID(); // secure contexts only
    } catch {
      docIdValue = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
    }
  }
  return docIdValue;
}

// wb_doc (read-only): which document the tab shows, for the background to
// store with a call before it is sent.
export const docInfo = () => ({ doc: docId(), url: location.href });

const CHANGED =
  'The page changed (a new document loaded) after this action was sent, so whether it took effect is unknown. ' +
  'Read the page before acting again; do not repeat it blindly.';
export const changedReply = () => ({ ok: false, changed: true, error: CHANGED });

// receiptOf normalises a message's receipt; one without an id is none.
export function receiptOf(r) {
  if (!r || typeof r !== 'object' || r.id === undefined || r.id === null || r.id === '') return null;
  return { id: String(r.id), doc: r.doc === undefined || r.doc === null ? '' : String(r.doc) };
}

export const otherDoc = (rc) => rc.doc !== '' && rc.doc !== docId();

// keep stores a receipt's entry, then drops the oldest finished ones (and,
// if that is not enough, the oldest prepared ones) beyond RECEIPTS_KEPT.
// Running entries stay: someone awaits them.
export function keep(id, entry) {
  receipts.set(id, entry);
  for (const state of ['done', 'prepared']) {
    for (const [k, e] of receipts) {
      if (receipts.size <= RECEIPTS_KEPT) return entry;
      if (e.state === state && k !== id) receipts.delete(k);
    }
  }
  return entry;
}

// recorded runs an action under receipt id: running meanwhile, done with
// its reply after. run resolves to a reply and does not throw.
export function recorded(id, run) {
  const entry = keep(id, { state: 'running' });
  entry.promise = run().then((reply) => {
    keep(id, { state: 'done', reply });
    return reply;
  });
  return entry.promise;
}

// withReceipt answers a message that carries a receipt; act carries the
// tool out with args (internal: an INTERNAL entry, answering an object).
// Trusted input has its own rules (trusted.mjs).
export async function withReceipt(name, args, rc, act, internal) {
  if (name === 'trusted_prepare') return prepareWithReceipt(args, rc);
  if (name === 'trusted_finish') return finishWithReceipt(rc);
  const r = receipts.get(rc.id);
  if (r && r.state === 'running') {
    await r.promise;
    return withReceipt(name, args, rc, act, internal); // decided again: done, or prepared
  }
  if (r && r.state === 'done') return r.reply;
  if (!r && otherDoc(rc)) return changedReply();
  // A prepared receipt getting the synthetic tool: trusted input was
  // unavailable, so only what did not arrive yet is done (trusted.mjs).
  if (r) return recorded(rc.id, () => replyOf(name, () => syntheticRest(r, rc.id, act), internal));
  if (!READ_ONLY_INTERNAL.has(name)) dropPending();
  return recorded(rc.id, () => replyOf(name, act, internal));
}

// ------------------------------------------------- evidence of trusted input

// seen counts the trusted clicks and mouse presses (a drag starts with
// one) and keeps the keys of trusted key presses
// the page received, from capture listeners installed on the first
// trusted_prepare with a receipt (and on the frames it acts in).
// Key positions are absolute: keyBase is how many were dropped.
export let seen = null;
const KEYS_KEPT = 10000;

export function listenOn(w) {
  if (!seen) seen = { clicks: 0, presses: 0, keys: [], keyBase: 0, wins: new WeakSet() };
  try {
    if (!w || seen.wins.has(w)) return;
    w.addEventListener(
      'click',
      (e) => {
        if (e.isTrusted) seen.clicks++;
      },
      true,
    );
    w.addEventListener(
      'mousedown',
      (e) => {
        if (e.isTrusted) seen.presses++;
      },
      true,
    );
    w.addEventListener(
      'keydown',
      (e) => {
        if (!e.isTrusted) return;
        seen.keys.push(e.key);
        if (seen.keys.length > KEYS_KEPT) {
          seen.keys.splice(0, KEYS_KEPT / 2);
          seen.keyBase += KEYS_KEPT / 2;
        }
      },
      true,
    );
    seen.wins.add(w);
  } catch {
    /* a frame we cannot reach */
  }
}

export const evidenceNow = () => ({
  clicksAt: seen.clicks,
  pressesAt: seen.presses,
  keysAt: seen.keyBase + seen.keys.length,
});

// keysSince returns the keys seen since position at, or null when they
// were dropped.
export const keysSince = (at) => (at < seen.keyBase ? null : seen.keys.slice(at - seen.keyBase));

// inOrder counts how many of the planned keys appear, in order, in the
// seen ones (other keys, such as held modifiers, are skipped).
export function inOrder(planned, keys) {
  let n = 0;
  for (const k of keys) if (n < planned.length && k === planned[n]) n++;
  return n;
}
