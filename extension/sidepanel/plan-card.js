// The plan review card (the `plan_review` event, docs/PROTOCOL.md): the
// plan an Act run will follow, shown before any page action. Approve runs
// it, Edit lets the user rewrite it first, Reject ends the run; unanswered,
// the background approves it when the countdown ends.
import { el } from "../common/dom.js";
import { PLAN_DECISION, RESOLVED } from "../common/protocol.js";
import { countdown } from "./cards.js";
import { t, tmsg } from "../common/i18n.js";

// planOutcome is the card's last line once plan_resolved arrived.
export function planOutcome(item) {
  switch (true) {
    case item.reason === RESOLVED.TIMEOUT:
      return t("plan_timeout");
    case item.reason === RESOLVED.STOPPED:
      return t("plan_stopped");
    case item.decision === PLAN_DECISION.SUPERSEDED:
      return t("plan_superseded");
    case item.decision === PLAN_DECISION.EDIT:
      return t("plan_edited");
    case item.decision === PLAN_DECISION.APPROVE:
      return t("approval_approved");
  }
  return t("plan_rejected");
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
    "aria-label": t("plan_label"),
    "data-plan-id": item.id,
  });
  card.append(
    el(
      "header",
      { className: "approval-head" },
      el("img", { src: "/icons/icon-32.png", alt: "", width: 16, height: 16 }),
      el("span", { className: "approval-from", text: t("plan_from") }),
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
      el("p", { className: "plan-risks-label", text: t("plan_risks") }),
      el(
        "ul",
        { className: "approval-reasons plan-risks" },
        risks.map((r) => el("li", { text: String(r) })),
      ),
    );
  }
  if (resolved) {
    if (item.decision === PLAN_DECISION.EDIT && item.followed) {
      card.append(el("p", { className: "plan-risks-label plan-yours", text: t("plan_yours") }));
      card.append(el("pre", { className: "plan-edited", text: item.followed }));
    }
    card.append(el("p", { className: "approval-outcome", role: "status", text: planOutcome(item) }));
    return card;
  }
  if (item.editing && !closed) {
    const box = el("textarea", { className: "plan-edit-box", rows: 8, "aria-label": t("plan_edit_label") });
    // The plan's Markdown with its Risks heading in the interface language,
    // without the isolates put around the model's words.
    box.value = tmsg(item.msg, item.text).replace(/[\u2068\u2069]/g, "");
    const run = el("button", { type: "button", className: "approval-approve", text: t("plan_run_this") });
    run.addEventListener("click", () => {
      if (box.value.trim()) answer(PLAN_DECISION.EDIT, box.value.trim());
    });
    const cancel = el("button", { type: "button", text: t("plan_cancel_edit") });
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
  add(PLAN_DECISION.APPROVE, t("approval_approve"), () => answer(PLAN_DECISION.APPROVE, ""));
  add(PLAN_DECISION.EDIT, t("common_edit"), () => {
    item.editing = true;
    redraw();
  });
  add(PLAN_DECISION.REJECT, t("plan_reject"), () => answer(PLAN_DECISION.REJECT, ""));
  buttons.firstChild.classList.add("approval-approve");
  card.append(buttons);
  if (item.answered !== undefined) {
    card.append(el("p", { className: "approval-outcome", role: "status", text: t("plan_answer_sent") }));
  } else if (item.expired) {
    card.append(el("p", { className: "approval-outcome", text: t("card_run_ended") }));
  } else if (Number.isFinite(item.plan?.expiresAt)) {
    card.append(countdown(item.plan.expiresAt, "approved"));
  }
  return card;
}
