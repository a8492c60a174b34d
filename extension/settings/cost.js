// The "Usage and cost" section: the daily and per-run cost allowances, the
// user's own prices per model and today's usage (docs/decisions/cost.md).
// settings.js saves the fields with the rest of the settings.
import { send } from "../common/api.js";
import { locale, t, tp } from "../common/i18n.js";
import { ACTION } from "../common/protocol.js";
import { usd } from "../common/usd.js";

const $ = (id) => document.getElementById(id);

// fillCost shows the stored values and today's usage.
export async function fillCost(settings) {
  $("daily-allowance").value = settings.dailyAllowanceUsd > 0 ? String(settings.dailyAllowanceUsd) : "";
  $("run-allowance").value = settings.runAllowanceUsd > 0 ? String(settings.runAllowanceUsd) : "";
  $("prices").value = Object.entries(settings.prices ?? {})
    .map(([model, p]) => `${model} = ${(p.cached ? [p.in, p.cached, p.out] : [p.in, p.out]).join(", ")}`)
    .join("\n");
  const reply = await send({ action: ACTION.USAGE_GET, days: 1 });
  const today = reply.ok ? reply.days?.[0] : null;
  $("usage-today").textContent = today
    ? `${tp("settings_usage_today", today.calls, {
        input: today.inputTokens.toLocaleString(locale()),
        output: today.outputTokens.toLocaleString(locale()),
        cost: usd(today.costUsd) + (today.unpricedCalls ? ` ${tp("settings_usage_unpriced", today.unpricedCalls)}` : ""),
      })} ${t("settings_usage_prices_as_of", { date: reply.pricesTaken })}`
    : "";
}

// readCost returns the section's fields as settings, or {error, field}.
export function readCost() {
  const amount = (id) => ($(id).value.trim() === "" ? 0 : Number($(id).value));
  const prices = {};
  const lines = $("prices")
    .value.split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  for (const line of lines) {
    const m = /^(\S+)\s*=\s*([\d.]+)\s*,\s*([\d.]+)(?:\s*,\s*([\d.]+))?$/.exec(line);
    if (!m) {
      return {
        error: t("settings_prices_format", { line }),
      };
    }
    const [, model, a, b, c] = m;
    prices[model] = c === undefined ? { in: Number(a), out: Number(b) } : { in: Number(a), cached: Number(b), out: Number(c) };
  }
  return { dailyAllowanceUsd: amount("daily-allowance"), runAllowanceUsd: amount("run-allowance"), prices };
}
