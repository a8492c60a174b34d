// Token usage and cost in the panel (docs/decisions/cost.md): the line
// under a run, the cost allowance card and the /usage report.
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION, ALLOWANCE_DECISION } from "../common/protocol.js";
import { usd } from "../common/usd.js";

const tokens = (n) => (Number(n) || 0).toLocaleString("en-US");

// costText is a tally's cost: unknown when no call had a price, and a
// note when some calls are left out of the sum.
export function costText(t) {
  const unpriced = Number(t?.unpricedCalls) || 0;
  const calls = Number(t?.calls) || 0;
  if (calls > 0 && unpriced === calls) return "cost unknown";
  const sum = usd(t?.costUsd);
  return unpriced > 0 ? `${sum} + unknown (${unpriced} unpriced call${unpriced === 1 ? "" : "s"})` : sum;
}

// usageLine is the compact line of a tally: "4,000 in (2,000 cached) ·
// 160 out · $0.0123".
export function usageLine(t) {
  const cached = Number(t?.cachedInputTokens) || 0;
  const input = `${tokens(t?.inputTokens)} in${cached ? ` (${tokens(cached)} cached)` : ""}`;
  return `${input} · ${tokens(t?.outputTokens)} out · ${costText(t)}`;
}

// runUsage is the line under a run's last item: its totals t.
export function runUsage(t) {
  const calls = Number(t?.calls) || 0;
  return el(
    "p",
    { className: "run-usage", title: `${calls} model call${calls === 1 ? "" : "s"} in this run` },
    `Tokens: ${usageLine(t)}`,
  );
}

// renderAllowance draws the cost allowance card: {role: "allowance",
// requestId, id, text, allowance, answered?, decision?, expired?}.
export function renderAllowance(item, answer) {
  const a = item.allowance ?? {};
  const resolved = item.decision !== undefined;
  const closed = resolved || item.answered !== undefined || Boolean(item.expired);
  const card = el(
    "section",
    {
      className: ["approval-card", "allowance-card", resolved ? `resolved ${item.decision}` : "pending"].join(" "),
      role: "group",
      "aria-label": "Cost allowance",
      "data-allowance-id": item.id,
      tabindex: "-1",
    },
    el(
      "header",
      { className: "approval-head" },
      el("img", { src: "/icons/icon-32.png", alt: "", width: 16, height: 16 }),
      el("span", { className: "approval-from", text: "Paused at the cost allowance" }),
    ),
    el("p", { className: "approval-text", text: item.text ?? "" }),
  );
  if (resolved || item.expired) {
    const outcome =
      item.decision === ALLOWANCE_DECISION.RAISE
        ? `Raised by ${usd(a.raiseUsd)}: the run goes on.`
        : item.decision === ALLOWANCE_DECISION.STOP
          ? "Stopped at the allowance."
          : "The run ended before an answer.";
    card.append(el("p", { className: "approval-outcome", role: "status", text: outcome }));
    return card;
  }
  const raise = el("button", {
    type: "button",
    className: "approval-approve allowance-raise",
    "data-decision": ALLOWANCE_DECISION.RAISE,
    text: `Raise ${a.scope === "run" ? "this run's" : "today's"} allowance by ${usd(a.raiseUsd)} and continue`,
    disabled: closed,
  });
  const stop = el("button", {
    type: "button",
    className: "allowance-stop",
    "data-decision": ALLOWANCE_DECISION.STOP,
    text: "Stop the run",
    disabled: closed,
  });
  raise.addEventListener("click", () => answer(ALLOWANCE_DECISION.RAISE));
  stop.addEventListener("click", () => answer(ALLOWANCE_DECISION.STOP));
  card.append(el("div", { className: "approval-buttons" }, raise, stop));
  if (item.answered !== undefined) {
    card.append(el("p", { className: "approval-outcome", role: "status", text: "Sending your answer…" }));
  }
  return card;
}

// usageCommand shows today and the last 7 days (/usage).
export async function usageCommand(ctx) {
  const reply = await send({ action: ACTION.USAGE_GET, days: 7 });
  if (!reply.ok) {
    ctx.session.transcript.add({ role: "error", text: `Usage: ${reply.error}`, ephemeral: true });
    return;
  }
  ctx.session.transcript.add({
    role: "usage-report",
    days: reply.days,
    allowance: reply.allowance,
    pricesTaken: reply.pricesTaken,
    ephemeral: true,
  });
}

// renderUsageReport draws /usage's table: one row a day, today first.
export function renderUsageReport(item) {
  const days = Array.isArray(item.days) ? item.days : [];
  const row = (d, i) =>
    el(
      "tr",
      {},
      el("th", { scope: "row", text: i === 0 ? `Today (${d.date})` : d.date }),
      el("td", { text: String(d.calls ?? 0) }),
      el("td", { text: tokens(d.inputTokens) }),
      el("td", { text: tokens(d.outputTokens) }),
      el("td", { text: d.calls ? costText(d) : "—" }),
    );
  const a = item.allowance ?? {};
  const limits = [
    a.dailyUsd > 0 ? `today's allowance ${usd(a.dailyUsd + (days[0]?.raisedUsd ?? 0))}` : "",
    a.runUsd > 0 ? `per run ${usd(a.runUsd)}` : "",
  ].filter(Boolean);
  return el(
    "div",
    { className: "msg usage-report" },
    el("p", { className: "usage-title", text: "Model usage: today and the last 7 days" }),
    el(
      "table",
      {},
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ["Day", "Calls", "Input", "Output", "Cost"].map((h) => el("th", { scope: "col", text: h })),
        ),
      ),
      el("tbody", {}, days.map(row)),
    ),
    el("p", {
      className: "usage-note",
      text:
        `${limits.length ? `Cost allowance: ${limits.join(", ")}. ` : "No cost allowance set (Settings → Usage and cost). "}` +
        `List prices as of ${item.pricesTaken || "unknown"}; local models cost nothing; models without a price show their tokens only.`,
    }),
  );
}
