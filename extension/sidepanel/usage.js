// Token usage and cost in the panel (docs/decisions/cost.md): the line
// under a run, the cost allowance card and the /usage report.
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION, ALLOWANCE_DECISION } from "../common/protocol.js";
import { usd } from "../common/usd.js";
import { locale, t, tmsg, tp } from "../common/i18n.js";

const tokens = (n) => (Number(n) || 0).toLocaleString(locale());

// costText is a tally's cost: unknown when no call had a price, and a
// note when some calls are left out of the sum.
export function costText(tally) {
  const unpriced = Number(tally?.unpricedCalls) || 0;
  const calls = Number(tally?.calls) || 0;
  if (calls > 0 && unpriced === calls) return t("usage_cost_unknown");
  const sum = usd(tally?.costUsd);
  return unpriced > 0 ? tp("usage_cost_partly", unpriced, { sum }) : sum;
}

// usageLine is the compact line of a tally: "4,000 in (2,000 cached) ·
// 160 out · $0.0123".
export function usageLine(tally) {
  const cached = Number(tally?.cachedInputTokens) || 0;
  const input = cached
    ? t("usage_in_cached", { tokens: tokens(tally?.inputTokens), cached: tokens(cached) })
    : t("usage_in", { tokens: tokens(tally?.inputTokens) });
  return `${input} · ${t("usage_out", { tokens: tokens(tally?.outputTokens) })} · ${costText(tally)}`;
}

// runUsage is the line under a run's last item: its totals t.
export function runUsage(tally) {
  const calls = Number(tally?.calls) || 0;
  return el("p", { className: "run-usage", title: tp("usage_run_calls", calls) }, t("usage_tokens", { line: usageLine(tally) }));
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
      "aria-label": t("allowance_label"),
      "data-allowance-id": item.id,
      tabindex: "-1",
    },
    el(
      "header",
      { className: "approval-head" },
      el("img", { src: "/icons/icon-32.png", alt: "", width: 16, height: 16 }),
      el("span", { className: "approval-from", text: t("allowance_from") }),
    ),
    el("p", { className: "approval-text", text: tmsg(item.msg, item.text) }),
  );
  if (resolved || item.expired) {
    const outcome =
      item.decision === ALLOWANCE_DECISION.RAISE
        ? t("allowance_raised", { amount: usd(a.raiseUsd) })
        : item.decision === ALLOWANCE_DECISION.STOP
          ? t("allowance_stopped")
          : t("card_run_ended");
    card.append(el("p", { className: "approval-outcome", role: "status", text: outcome }));
    return card;
  }
  const raise = el("button", {
    type: "button",
    className: "approval-approve allowance-raise",
    "data-decision": ALLOWANCE_DECISION.RAISE,
    text:
      a.scope === "run"
        ? t("allowance_raise_run", { amount: usd(a.raiseUsd) })
        : t("allowance_raise_day", { amount: usd(a.raiseUsd) }),
    disabled: closed,
  });
  const stop = el("button", {
    type: "button",
    className: "allowance-stop",
    "data-decision": ALLOWANCE_DECISION.STOP,
    text: t("allowance_stop"),
    disabled: closed,
  });
  raise.addEventListener("click", () => answer(ALLOWANCE_DECISION.RAISE));
  stop.addEventListener("click", () => answer(ALLOWANCE_DECISION.STOP));
  card.append(el("div", { className: "approval-buttons" }, raise, stop));
  if (item.answered !== undefined) {
    card.append(el("p", { className: "approval-outcome", role: "status", text: t("allowance_sending") }));
  }
  return card;
}

// usageCommand shows today and the last 7 days (/usage).
export async function usageCommand(ctx) {
  const reply = await send({ action: ACTION.USAGE_GET, days: 7 });
  if (!reply.ok) {
    ctx.session.transcript.add({ role: "error", text: t("usage_error", { error: reply.error }), ephemeral: true });
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
      el("th", { scope: "row", text: i === 0 ? t("usage_today", { date: d.date }) : d.date }),
      el("td", { text: tokens(d.calls) }),
      el("td", { text: tokens(d.inputTokens) }),
      el("td", { text: tokens(d.outputTokens) }),
      el("td", { text: d.calls ? costText(d) : "—" }),
    );
  const a = item.allowance ?? {};
  const limits = [
    a.dailyUsd > 0 ? t("usage_limit_day", { amount: usd(a.dailyUsd + (days[0]?.raisedUsd ?? 0)) }) : "",
    a.runUsd > 0 ? t("usage_limit_run", { amount: usd(a.runUsd) }) : "",
  ].filter(Boolean);
  return el(
    "div",
    { className: "msg usage-report" },
    el("p", { className: "usage-title", text: t("usage_title") }),
    el(
      "table",
      {},
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          [t("usage_day"), t("usage_calls"), t("usage_input"), t("usage_output"), t("usage_cost")].map((h) =>
            el("th", { scope: "col", text: h }),
          ),
        ),
      ),
      el("tbody", {}, days.map(row)),
    ),
    el("p", {
      className: "usage-note",
      text:
        `${limits.length ? t("usage_allowance", { limits: limits.join(", ") }) : t("usage_no_allowance")} ` +
        t("usage_prices", { date: item.pricesTaken || t("usage_unknown_date") }),
    }),
  );
}
