// applyEvent turns one agent_update event (docs/PROTOCOL.md) of a run into
// transcript items and returns the run status it implies.
export function applyEvent(transcript, requestId, ev, describeError) {
  switch (ev.kind) {
    case "run_started":
      // The panel that sent the message already shows it.
      if (!transcript.items.some((i) => i.role === "user" && i.requestId === requestId)) {
        transcript.add({ role: "user", requestId, text: ev.text ?? "" });
      }
      return "running";
    case "text_delta": {
      const msg = transcript.streaming(requestId) ?? transcript.add({ role: "assistant", requestId, text: "" });
      msg.text += ev.text ?? "";
      transcript.updateText(msg);
      return "running";
    }
    case "steer":
      transcript.add({ role: "user", requestId, text: ev.text ?? "", correction: true });
      return "running";
    case "resumed": {
      // The interrupted model request is sent again: its partial text is void.
      const msg = transcript.streaming(requestId);
      if (msg) transcript.remove(msg);
      transcript.add({ role: "notice", text: ev.text || "The run was interrupted and resumed." });
      return "running";
    }
    case "text_reset": {
      // The provider retried a broken stream: what was shown is void.
      const msg = transcript.streaming(requestId);
      if (msg) {
        msg.text = "";
        transcript.updateText(msg);
      }
      return "running";
    }
    case "tool_call":
      transcript.add({ role: "tool", requestId, id: ev.id, name: ev.name, args: ev.args ?? "" });
      return "running";
    case "tool_result": {
      const row = transcript.findTool(requestId, ev.id);
      const result = { result: ev.result ?? "", isError: Boolean(ev.isError) };
      if (row) {
        Object.assign(row, result);
        transcript.update(row);
      } else {
        transcript.add({ role: "tool", requestId, id: ev.id, name: ev.name, args: "", ...result });
      }
      return "running";
    }
    case "clarify":
      transcript.add({ role: "clarify", requestId, id: ev.id, text: ev.text ?? "", options: ev.options ?? [] });
      return "running";
    case "approval": {
      // A resumed run may announce a card again: keep the one shown.
      if (transcript.findApproval(requestId, ev.id)) return "running";
      transcript.add({ role: "approval", requestId, id: ev.id, text: ev.text ?? "", approval: ev.approval ?? {} });
      return "running";
    }
    case "approval_resolved": {
      const card = transcript.findApproval(requestId, ev.id);
      if (card) {
        Object.assign(card, { decision: ev.decision ?? "decline", reason: ev.reason ?? "user" });
        delete card.answered;
        transcript.update(card);
      }
      return "running";
    }
    case "context_compacted":
      // History was summarized (or trimmed to fit), not lost: say so inline.
      transcript.add({
        role: "notice",
        separator: true,
        text: ev.reason === "overflow"
          ? "Context trimmed to fit the model: only the task and the latest messages were kept"
          : "Context automatically compacted",
      });
      return "running";
    case "loop_warning":
      transcript.add({ role: "notice", text: ev.text || "The agent seems to be repeating itself." });
      return "running";
    case "final": {
      const text = ev.text ?? "";
      const msg = transcript.streaming(requestId);
      if (msg && text) {
        msg.text = text;
        transcript.update(msg);
      } else if (text) {
        transcript.add({ role: "assistant", requestId, text });
      }
      return "done";
    }
    case "error":
      transcript.add(describeError(ev.text));
      return "error";
    case "stopped":
      transcript.add({ role: "notice", text: "Stopped." });
      return "stopped";
    default: // step and kinds this panel doesn't show
      return "running";
  }
}
