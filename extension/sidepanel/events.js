import { COMPACTED, DECISION, EVENT, FINAL_REASON, MODE, PLAN_DECISION, RESOLVED, ROUTE, STATUS } from "../common/protocol.js";
import { t } from "../common/i18n.js";

// endRun puts the run's token usage (its last usage event's totals, kept
// on the request) under the item that ends it and shows that item again.
function endRun(transcript, requestId, item) {
  const usage = transcript.request(requestId)?.usage;
  if (usage) item.usage = usage;
  transcript.update(item);
}

// applyEvent turns one agent_update event (docs/PROTOCOL.md) of a run into
// transcript items and returns the run status it implies (null: unchanged,
// for a note that may come after the run's end). live is false
// for events replayed from the journal: their timing is not the tool's.
export function applyEvent(transcript, requestId, ev, describeError, live = false) {
  switch (ev.kind) {
    case EVENT.RUN_STARTED:
      // The panel that sent the message already shows it.
      if (!transcript.items.some((i) => i.role === "user" && i.requestId === requestId)) {
        transcript.add({ role: "user", requestId, text: ev.text ?? "", mode: ev.mode });
      }
      return STATUS.RUNNING;
    case EVENT.TEXT_DELTA: {
      const msg = transcript.streaming(requestId) ?? transcript.add({ role: "assistant", requestId, text: "" });
      msg.text += ev.text ?? "";
      transcript.updateText(msg);
      return STATUS.RUNNING;
    }
    case EVENT.STEER:
      transcript.add({ role: "user", requestId, text: ev.text ?? "", correction: true });
      return STATUS.RUNNING;
    case EVENT.RESUMED: {
      // The interrupted model request is sent again: its partial text is void.
      const msg = transcript.streaming(requestId);
      if (msg) transcript.remove(msg);
      transcript.add({ role: "notice", text: ev.text || t("event_resumed") });
      return STATUS.RUNNING;
    }
    case EVENT.TEXT_RESET: {
      // The provider retried a broken stream: what was shown is void.
      const msg = transcript.streaming(requestId);
      if (msg) {
        msg.text = "";
        transcript.updateText(msg);
      }
      return STATUS.RUNNING;
    }
    case EVENT.TOOL_CALL:
      transcript.add({
        role: "tool",
        requestId,
        id: ev.id,
        name: ev.name,
        args: ev.args ?? "",
        ...(live && { startedAt: Date.now() }),
      });
      return STATUS.RUNNING;
    case EVENT.TOOL_RESULT: {
      const row = transcript.findTool(requestId, ev.id);
      const result = { result: ev.result ?? "", isError: Boolean(ev.isError) };
      if (row) {
        // Only a call and result both seen live have a duration to show.
        if (live && row.startedAt) result.ms = Date.now() - row.startedAt;
        Object.assign(row, result);
        transcript.update(row);
      } else {
        transcript.add({ role: "tool", requestId, id: ev.id, name: ev.name, args: "", ...result });
      }
      return STATUS.RUNNING;
    }
    case EVENT.CLARIFY:
      transcript.add({
        role: "clarify",
        requestId,
        id: ev.id,
        text: ev.text ?? "",
        options: ev.options ?? [],
        ...(ev.msg && { msg: ev.msg }),
        ...(ev.optionMsgs && { optionMsgs: ev.optionMsgs }),
      });
      return STATUS.RUNNING;
    case EVENT.APPROVAL: {
      // A resumed run may announce a card again: keep the one shown.
      if (transcript.findApproval(requestId, ev.id)) return STATUS.RUNNING;
      transcript.add({
        role: "approval",
        requestId,
        id: ev.id,
        text: ev.text ?? "",
        approval: ev.approval ?? {},
        ...(ev.msg && { msg: ev.msg }),
      });
      return STATUS.RUNNING;
    }
    case EVENT.APPROVAL_RESOLVED: {
      const card = transcript.findApproval(requestId, ev.id);
      if (card) {
        Object.assign(card, { decision: ev.decision ?? DECISION.DECLINE, reason: ev.reason ?? RESOLVED.USER });
        delete card.answered;
        transcript.update(card);
      }
      return STATUS.RUNNING;
    }
    case EVENT.PLAN_REVIEW: {
      if (transcript.findPlan(requestId, ev.id)) return STATUS.RUNNING; // shown again after a restart
      transcript.add({
        role: "plan",
        requestId,
        id: ev.id,
        text: ev.text ?? "",
        plan: ev.plan ?? {},
        ...(ev.msg && { msg: ev.msg }),
      });
      return STATUS.RUNNING;
    }
    case EVENT.PLAN_RESOLVED: {
      const card = transcript.findPlan(requestId, ev.id);
      if (card) {
        Object.assign(card, {
          decision: ev.decision ?? PLAN_DECISION.REJECT,
          reason: ev.reason ?? RESOLVED.USER,
          followed: ev.text ?? "",
        });
        delete card.answered;
        delete card.editing;
        transcript.update(card);
      }
      return STATUS.RUNNING;
    }
    case EVENT.PLAN:
      transcript.add({ role: "plan-note", requestId, text: ev.text ?? "", ...(ev.msg && { msg: ev.msg }) });
      return STATUS.RUNNING;
    case EVENT.MODE_CHANGED:
      transcript.add({
        role: "notice",
        text: ev.text || (ev.mode === MODE.ASK ? t("event_read_only") : t("event_mode_changed")),
        ...(ev.text && ev.msg && { msg: ev.msg }),
      });
      return STATUS.RUNNING;
    case EVENT.RUN_MODE: {
      // Retry and Continue keep the mode the run was routed to.
      const request = transcript.request(requestId);
      if (request) request.routed = ev.mode;
      transcript.add({ role: "notice", requestId, text: routeNotice(ev) });
      return STATUS.RUNNING;
    }
    case EVENT.CONTEXT_COMPACTED:
      // History was summarized (or trimmed to fit), not lost: say so inline.
      transcript.add({
        role: "notice",
        separator: true,
        text: ev.reason === COMPACTED.OVERFLOW ? t("event_context_trimmed") : t("event_context_compacted"),
      });
      return STATUS.RUNNING;
    case EVENT.LOOP_WARNING:
      transcript.add({ role: "notice", text: ev.text || t("event_loop") });
      return STATUS.RUNNING;
    case EVENT.FINAL: {
      const text = ev.text ?? "";
      const outcome = ev.outcome || undefined; // failed or partial get a label
      const stepLimit = ev.reason === FINAL_REASON.STEP_LIMIT || undefined; // offers Continue
      const msg = transcript.streaming(requestId);
      if (msg && text) {
        Object.assign(msg, { text, outcome, stepLimit });
        endRun(transcript, requestId, msg);
      } else if (text) {
        // A plan-only answer's msg puts its Risks heading in the interface language.
        const item = { role: "assistant", requestId, text, outcome, stepLimit, ...(ev.msg && { msg: ev.msg }) };
        endRun(transcript, requestId, transcript.add(item));
      }
      return STATUS.DONE;
    }
    case EVENT.ERROR:
      endRun(transcript, requestId, transcript.add({ ...describeError(ev.text), requestId, ...(ev.msg && { msg: ev.msg }) }));
      return STATUS.ERROR;
    case EVENT.STOPPED:
      endRun(transcript, requestId, transcript.add({ role: "notice", requestId, text: t("event_stopped") }));
      return STATUS.STOPPED;
    case EVENT.USAGE: {
      // The totals ride on the request until the run ends; a call that
      // reached the cost allowance says so at once.
      const request = transcript.request(requestId);
      if (request && ev.total) request.usage = ev.total;
      if (ev.text) transcript.add({ role: "notice", requestId, text: ev.text, ...(ev.msg && { msg: ev.msg }) });
      return STATUS.RUNNING;
    }
    case EVENT.ALLOWANCE:
      if (transcript.findCard("allowance", requestId, ev.id)) return STATUS.RUNNING; // shown again after a restart
      transcript.add({
        role: "allowance",
        requestId,
        id: ev.id,
        text: ev.text ?? "",
        allowance: ev.allowance ?? {},
        ...(ev.msg && { msg: ev.msg }),
      });
      return STATUS.RUNNING;
    case EVENT.ALLOWANCE_RESOLVED: {
      const card = transcript.findCard("allowance", requestId, ev.id);
      if (card) {
        card.decision = ev.decision;
        delete card.answered;
        transcript.update(card);
      }
      return STATUS.RUNNING;
    }
    case EVENT.CAPTURE:
      transcript.add({ role: "notice", requestId, text: ev.text ?? "", ...(ev.msg && { msg: ev.msg }) });
      return null;
    default: // step and kinds this panel doesn't show
      return STATUS.RUNNING;
  }
}

// routeNotice says how WebBrain routed an automatic message.
function routeNotice(ev) {
  if (ev.reason === ROUTE.HAND_OFF && ev.mode === MODE.DEV) return t("route_handoff_dev");
  if (ev.reason === ROUTE.HAND_OFF) return t("route_handoff_act");
  if (ev.mode === MODE.ACT) return t("route_act");
  if (ev.mode === MODE.DEV) return t("route_dev");
  return t("route_ask");
}
