// TabSession is the panel's view of one tab's chat: the transcript, the
// runs it has rendered (requestId → last applied seq) and the reconnect
// logic of docs/PROTOCOL.md (journal first, then newer broadcasts).
import { send } from "../common/api.js";
import { ACTION, EVENT, MODE, STATUS } from "../common/protocol.js";
import { Transcript } from "./transcript.js";
import { applyEvent } from "./events.js";
import { runCapture } from "./capture.js";
import { loadChat, saveChat, removeChat } from "./store.js";
import { loadMarkdown } from "../common/markdown.js";

const SAVE_DELAY_MS = 200;
// A running run silent this long makes the panel ask run_state: that wakes
// a background the browser stopped, which then resumes the run.
const WATCHDOG_MS = 2000;
const TERMINAL = new Set([STATUS.DONE, STATUS.ERROR, STATUS.STOPPED]);
// Continue's message: the conversation holds the task and what was done.
// The model reads it, so it stays English in every interface language.
const CONTINUE_TEXT = "Continue the task from where you stopped.";

export class TabSession {
  constructor(tabId, root, { onStatus, onQueue, onProgress, onAnswered, describeError, reader }) {
    this.tabId = tabId;
    this.onAnswered = onAnswered; // the user answered a card or pressed Retry or Continue
    this.onProgress = onProgress;
    this.queue = []; // {id, text, mode, paused}: follow-ups sent while a run is active
    this.onQueue = onQueue;
    this.lastHeard = Date.now();
    this.watchdog = setInterval(() => this.checkAlive(), WATCHDOG_MS / 2);
    this.runs = {};
    this.current = null;
    this.mode = null;
    this.status = "idle";
    this.syncing = true; // broadcasts wait in buffer until the journal is in
    this.buffer = [];
    this.closed = false;
    this.loaded = false; // nothing is saved before the stored chat is read
    this.saveTimer = 0;
    this.onStatus = onStatus;
    this.describeError = describeError;
    this.transcript = new Transcript(root, {
      onClarifyAnswer: (item, answer) => this.answerClarify(item, answer),
      onApprovalAnswer: (item, decision) => this.answerApproval(item, decision),
      onPlanAnswer: (item, decision, text) => this.answerPlan(item, decision, text),
      onAllowanceAnswer: (item, decision) => this.answerAllowance(item, decision),
      onOffer: (item) => this.followUp(item),
      onChange: () => this.scheduleSave(),
      reader,
    });
    this.transcript.reset();
    onStatus("idle");
  }

  async open() {
    // Model text is Markdown: its renderer loads beside the stored chat.
    const [chat] = await Promise.all([loadChat(this.tabId), loadMarkdown()]);
    if (this.closed) return;
    if (chat) {
      this.runs = chat.runs ?? {};
      this.current = chat.current ?? null;
      this.mode = chat.mode ?? null;
      this.queue = Array.isArray(chat.queue) ? chat.queue : [];
      // An answer the closing panel may not have delivered: offer the
      // buttons again (the background refuses a second answer to a card).
      for (const item of chat.items) {
        if (["approval", "plan", "allowance"].includes(item.role) && item.decision === undefined) delete item.answered;
      }
      this.transcript.reset(chat.items);
    }
    await this.reconnect();
    this.loaded = true;
    this.queueChanged();
  }

  close() {
    this.closed = true;
    clearInterval(this.watchdog);
    this.saveNow();
  }

  checkAlive() {
    if (this.closed || this.syncing || this.status !== STATUS.RUNNING) return;
    if (Date.now() - this.lastHeard < WATCHDOG_MS) return;
    this.lastHeard = Date.now();
    this.reconnect();
  }

  async reconnect() {
    this.syncing = true;
    this.lastHeard = Date.now();
    // Acknowledge what this panel already rendered: only later events return.
    const reply = await send({
      action: ACTION.RUN_STATE,
      tabId: this.tabId,
      requestId: this.current ?? "",
      afterSeq: this.current ? (this.runs[this.current] ?? 0) : 0,
    });
    if (this.closed) return;
    if (reply.ok && reply.journal) this.applyJournal(reply.journal);
    this.syncing = false;
    const pending = this.buffer;
    this.buffer = [];
    for (const msg of pending) this.receive(msg, true);
  }

  applyJournal(journal) {
    const id = journal.requestId;
    if (!id) return;
    if (!(id in this.runs)) {
      this.runs[id] = 0;
      this.current = id;
    }
    let ended = false;
    for (const { seq, event } of journalEvents(journal)) {
      if (seq > this.runs[id]) {
        this.apply(id, seq, event);
        ended ||= event?.kind === EVENT.FINAL;
      }
    }
    // The journal of an older run (a newer one was just started here) must
    // not overwrite the status of the newer one.
    if (id === this.current && journal.status) this.setStatus(journal.status);
    // A run this open panel watched ended while it resynced: go on with
    // the queue as if the final event had been broadcast.
    if (ended && this.loaded && id === this.current) this.sendNext();
  }

  // receive handles one agent_update broadcast for this tab. After a
  // reconnect (draining) a remaining gap is accepted: the journal had
  // nothing more to offer.
  receive(msg, draining = false) {
    this.lastHeard = Date.now();
    if (this.syncing) {
      this.buffer.push(msg);
      return;
    }
    const id = msg.requestId;
    const seq = Number(msg.seq);
    if (!(id in this.runs)) {
      if (seq !== 1 && msg.event?.kind !== EVENT.RUN_STARTED && !draining) return this.resync(msg);
      this.runs[id] = seq - 1;
      this.current = id;
    }
    if (seq <= this.runs[id]) return; // already rendered
    if (seq > this.runs[id] + 1 && !draining) return this.resync(msg);
    this.apply(id, seq, msg.event, true);
    // A run that ended by itself hands the turn to the next queued message.
    if (msg.event?.kind === EVENT.FINAL && id === this.current) this.sendNext();
  }

  resync(msg) {
    this.buffer.push(msg);
    this.reconnect();
  }

  apply(id, seq, event, live = false) {
    this.runs[id] = seq;
    if (event?.kind === EVENT.STEER_RETURNED) this.requeue(event.corrections ?? []);
    const status = applyEvent(this.transcript, id, event ?? {}, this.describeError, live);
    if (id !== this.current) return;
    this.onProgress?.(event ?? {});
    if (status) this.setStatus(status);
  }

  setStatus(status) {
    const was = this.status;
    this.status = status;
    if (TERMINAL.has(status)) {
      this.expireQuestions();
      this.offer(status);
      // After Stop or a failure nothing queued is sent by itself.
      if (status !== STATUS.DONE) for (const item of this.queue) item.paused = true;
      this.saveNow();
    }
    this.onStatus(status);
    if (was !== status) this.queueChanged();
  }

  // Queue and steering (docs/PROTOCOL.md).

  queueChanged() {
    this.onQueue?.(this.queue, this.status === STATUS.RUNNING);
    this.scheduleSave();
  }

  enqueue(text, mode, { front = false, paused = false } = {}) {
    const item = { id: crypto.randomUUID(), text, mode, paused };
    if (front) this.queue.unshift(item);
    else this.queue.push(item);
    this.queueChanged();
  }

  // requeue puts corrections the run did not apply back at the front, in order.
  requeue(texts) {
    const items = texts.map((text) => ({ id: crypto.randomUUID(), text, mode: this.mode ?? MODE.AUTO, paused: false }));
    this.queue.unshift(...items);
    this.queueChanged();
  }

  remove(item) {
    this.queue = this.queue.filter((i) => i.id !== item.id);
    this.queueChanged();
  }

  sendNext() {
    const next = this.queue[0];
    if (!next || next.paused) return;
    this.remove(next);
    this.start(next.text, next.mode);
  }

  // sendQueued runs a queued (maybe paused) message now, or when the run ends.
  sendQueued(item) {
    if (this.status === STATUS.RUNNING) {
      item.paused = false;
      this.queueChanged();
      return;
    }
    this.remove(item);
    this.start(item.text, item.mode);
  }

  // steer sends a correction to the running request. It resolves to true
  // when the background journaled it; a run that already ended gets it at
  // the front of the queue; a transport error leaves it to the caller.
  async steer(text, queued = null) {
    const requestId = this.current;
    const reply = await send({ action: ACTION.STEER, tabId: this.tabId, requestId, text });
    if (reply.ok) {
      if (queued) this.remove(queued);
      return true;
    }
    if (reply.ended) {
      if (!queued)
        this.enqueue(text, this.mode ?? MODE.AUTO, {
          front: true,
          paused: this.status !== STATUS.DONE && this.status !== STATUS.RUNNING,
        });
      return true;
    }
    this.transcript.add(this.describeError(reply.error));
    return false;
  }

  // Questions, approval and plan cards of a finished run can no longer be answered.
  expireQuestions() {
    for (const item of this.transcript.items) {
      if (item.requestId !== this.current || item.expired) continue;
      const open =
        item.role === "clarify"
          ? item.answer === undefined
          : ["approval", "plan", "allowance"].includes(item.role) && item.decision === undefined;
      if (open) {
        item.expired = true;
        this.transcript.update(item);
      }
    }
  }

  // offer puts Retry on the error that ended the current run, or Continue
  // on the answer of a run that stopped at the step limit.
  offer(status) {
    const last = this.transcript.items.at(-1);
    if (!last || last.offer || last.requestId !== this.current || !this.transcript.request(this.current)) return;
    if (status === STATUS.ERROR && last.role === "error") last.offer = "retry";
    else if (status === STATUS.DONE && last.role === "assistant" && last.stepLimit) last.offer = "continue";
    else return;
    this.transcript.update(last);
  }

  // followUp answers a Retry or Continue button: the same request again, or
  // a request to go on, in the mode the run had. An automatic run routed to
  // Act or Dev keeps that mode; one routed to Ask is routed again.
  followUp(item) {
    const request = this.transcript.request(item.requestId);
    if (!request || this.status === STATUS.RUNNING) return;
    let mode = request.mode ?? MODE.AUTO;
    if (mode === MODE.AUTO && (request.routed === MODE.ACT || request.routed === MODE.DEV)) mode = request.routed;
    this.start(item.offer === "retry" ? request.text : CONTINUE_TEXT, mode);
    this.onAnswered?.();
  }

  // selection: the id of a selection the run quotes (selection.js).
  async start(draft, mode, selection) {
    const { text, capture, saveAs, error } = runCapture(draft);
    if (error) {
      this.transcript.add({ role: "error", text: error, ephemeral: true });
      return;
    }
    const requestId = crypto.randomUUID();
    // A new run takes the buttons off the last one.
    for (const item of this.transcript.items) {
      if (!item.offer) continue;
      delete item.offer;
      this.transcript.update(item);
    }
    this.runs[requestId] = 0;
    this.current = requestId;
    this.transcript.add({ role: "user", requestId, text, mode });
    this.setStatus(STATUS.RUNNING);
    const msg = { action: ACTION.CHAT_START, text, mode, tabId: this.tabId, requestId, capture, saveAs };
    if (selection) msg.selection = selection;
    const reply = await send(msg);
    if (!reply.ok && this.current === requestId && !this.closed) {
      this.transcript.add({ ...this.describeError(reply.error), requestId });
      this.setStatus(STATUS.ERROR);
    }
  }

  async abort() {
    const reply = await send({ action: ACTION.ABORT, tabId: this.tabId });
    if (!reply.ok) this.transcript.add(this.describeError(reply.error));
  }

  async clear() {
    const reply = await send({ action: ACTION.CLEAR_CONVERSATION, tabId: this.tabId });
    if (!reply.ok) {
      this.transcript.add(this.describeError(reply.error));
      return;
    }
    this.runs = {};
    this.current = null;
    this.mode = null; // a new chat starts in Auto
    this.queue = [];
    this.queueChanged();
    this.transcript.reset();
    this.setStatus("idle");
    clearTimeout(this.saveTimer);
    this.saveTimer = 0;
    await removeChat(this.tabId);
  }

  async answerClarify(item, answer) {
    await this.answerCard(item, "answer", answer, { action: ACTION.CLARIFY_ANSWER, answer });
  }

  // answerApproval sends the user's decision on an approval card; the card
  // shows the outcome when approval_resolved arrives.
  async answerApproval(item, decision) {
    if (item.answered !== undefined || item.decision !== undefined) return;
    await this.answerCard(item, "answered", decision, { action: ACTION.APPROVAL_ANSWER, decision });
  }

  // answerPlan sends the user's decision on a plan review card; the card
  // shows the outcome when plan_resolved arrives.
  async answerPlan(item, decision, text) {
    if (item.answered !== undefined || item.decision !== undefined) return;
    delete item.editing;
    await this.answerCard(item, "answered", decision, { action: ACTION.PLAN_ANSWER, decision, text });
  }

  // answerAllowance raises the cost allowance or stops the run; the card
  // shows the outcome when allowance_resolved arrives.
  async answerAllowance(item, decision) {
    if (item.answered !== undefined || item.decision !== undefined) return;
    await this.answerCard(item, "answered", decision, { action: ACTION.ALLOWANCE_ANSWER, decision });
  }

  // answerCard shows the user's answer on the card at once (item[field])
  // and takes it back if the background refuses message.
  async answerCard(item, field, value, message) {
    item[field] = value;
    this.transcript.update(item);
    this.onAnswered?.();
    const reply = await send({ ...message, tabId: this.tabId, requestId: item.requestId, id: item.id });
    if (!reply.ok) {
      delete item[field];
      this.transcript.update(item);
      this.transcript.add(this.describeError(reply.error));
    }
  }

  setMode(mode) {
    this.mode = mode;
    this.scheduleSave();
  }

  scheduleSave() {
    // A timer already set covers this change too: a stream of events is
    // written at most every SAVE_DELAY_MS.
    if (this.closed || !this.loaded || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.saveNow(), SAVE_DELAY_MS);
  }

  saveNow() {
    clearTimeout(this.saveTimer);
    this.saveTimer = 0;
    if (!this.loaded) return Promise.resolve();
    return saveChat(this.tabId, {
      items: this.transcript.items,
      runs: this.runs,
      current: this.current,
      mode: this.mode,
      queue: this.queue,
    });
  }
}

// journalEvents lists a run_state journal's events with their seq. Entries
// may be {seq, event} records or bare events (then the last has journal.seq).
export function journalEvents(journal) {
  const events = Array.isArray(journal.events) ? journal.events : [];
  const last = Number(journal.seq) || events.length;
  return events.map((entry, i) => {
    if (entry && entry.event && typeof entry.seq === "number") return { seq: entry.seq, event: entry.event };
    const seq = typeof entry?.seq === "number" ? entry.seq : last - events.length + 1 + i;
    return { seq, event: entry };
  });
}
