// The plan review card (the `plan_review` event, docs/PROTOCOL.md): the
// plan an Act run will follow, shown before any page action. Approve runs
// it, Edit lets the user rewrite it first, Reject ends the run; unanswered,
// the background approves it when the countdown ends.
import { el } from "../common/dom.js";
import { PLAN_DECISION, RESOLVED } from "../common/protocol.js";
import { countdown } from "./cards.js";

// planOutcome is the card's last line once plan_resolved arrived.
export function planOutcome(item) {
  switch (true) {
    case item.reason === RESOLVED.TIMEOUT:
      return "Approved automatically: nobody answered in time";
    case item.reason === RESOLVED.STOPPED:
      return "Cancelled: the run was stopped";
    case item.decision === PLAN_DECISION.SUPERSEDED:
      return "Replaced: your correction is being planned";
    case item.decision === PLAN_DECISION.EDIT:
      return "Approved with your changes";
    case item.decision === PLAN_DECISION.APPROVE:
      return "Approved";
  }
  return "Rejected: nothing was done on the page";
}

// renderPlanReview draws the card. item holds the event plus what happened
// since: answered (sent), decision, reason and followed (plan_resolved),
// expired (the run ended without a resolution), editing (the edit box is
// open). answer(decision, text) sends plan_answer.
export function renderPlanReview(item, answer, redraw) {
  const plan = item.plan?.plan ?? {};
  const local = plan.localized ?? null;
  const steps = local?.steps ?? plan.steps ?? [];
  const risks = local?.risks ?? plan.risks ?? [];
  const resolved = item.decision !== undefined;
  const closed = resolved || item.answered !== undefined || Boolean(item.expired);
  const card = el("section", {
    className: ["approval-card", "plan-card", resolved ? `resolved ${item.decision}` : "pending"].join(" "),
    role: "group",
    "aria-label": "WebBrain's plan for your request",
    "data-plan-id": item.id,
  });
  card.append(
    el(
      "header",
      { className: "approval-head" },
      el("img", { src: "/icons/icon-32.png", alt: "", width: 16, height: 16 }),
      el("span", { className: "approval-from", text: "WebBrain's plan: review it before it acts" }),
    ),
    el("p", { className: "approval-text", text: local?.summary ?? plan.summary ?? "" }),
  );
  if (steps.length)
    card.append(
      el(
        "ol",
        { className: "plan-steps" },
        steps.map((s) => el("li", { text: String(s) })),
      ),
    );
  if (risks.length) {
    card.append(
      el("p", { className: "plan-risks-label", text: "Cannot be undone or costs money:" }),
      el(
        "ul",
        { className: "approval-reasons plan-risks" },
        risks.map((r) => el("li", { text: String(r) })),
      ),
    );
  }
  if (resolved) {
    if (item.decision === PLAN_DECISION.EDIT && item.followed) {
      card.append(el("p", { className: "plan-risks-label plan-yours", text: "Your plan:" }));
      card.append(el("pre", { className: "plan-edited", text: item.followed }));
    }
    card.append(el("p", { className: "approval-outcome", role: "status", text: planOutcome(item) }));
    return card;
  }
  if (item.editing && !closed) {
    const box = el("textarea", { className: "plan-edit-box", rows: 8, "aria-label": "The plan to follow" });
    box.value = item.text ?? "";
    const run = el("button", { type: "button", className: "approval-approve", text: "Run this plan" });
    run.addEventListener("click", () => {
      if (box.value.trim()) answer(PLAN_DECISION.EDIT, box.value.trim());
    });
    const cancel = el("button", { type: "button", text: "Cancel edit" });
    cancel.addEventListener("click", () => {
      item.editing = false;
      redraw();
    });
    card.append(box, el("div", { className: "approval-buttons" }, run, cancel));
    queueMicrotask(() => box.focus());
    return card;
  }
  const buttons = el("div", { className: "approval-buttons" });
  const add = (decision, label, onClick) => {
    const b = el("button", {
      type: "button",
      className: `plan-${decision}`,
      "data-decision": decision,
      text: label,
      disabled: closed,
    });
    b.addEventListener("click", onClick);
    buttons.append(b);
  };
  add(PLAN_DECISION.APPROVE, "Approve", () => answer(PLAN_DECISION.APPROVE, ""));
  add(PLAN_DECISION.EDIT, "Edit", () => {
    item.editing = true;
    redraw();
  });
  add(PLAN_DECISION.REJECT, "Reject", () => answer(PLAN_DECISION.REJECT, ""));
  buttons.firstChild.classList.add("approval-approve");
  card.append(buttons);
  if (item.answered !== undefined) {
    card.append(el("p", { className: "approval-outcome", role: "status", text: "Answer sent." }));
  } else if (item.expired) {
    card.append(el("p", { className: "approval-outcome", text: "The run ended before an answer." }));
  } else if (Number.isFinite(item.plan?.expiresAt)) {
    card.append(countdown(item.plan.expiresAt, "Approved automatically"));
  }
  return card;
}
