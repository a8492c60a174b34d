//go:build browser

package ui

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The Usage and cost section shows the stored allowances, prices and
// today's usage, saves them with the rest of the settings, and keeps the
// input when a price line cannot be read.
func TestSettingsUsageAndCostSection(t *testing.T) {
	tb := openPage(t, "/settings/settings.html", settingsSetup+`
__fake.settings.dailyAllowanceUsd = 5;
__fake.settings.prices = {"my-model": {in: 0.5, out: 1.5}};
__fake.replies.usage_get = () => ({ok: true, pricesTaken: "2025-11-30",
  days: [{date: "2026-12-02", calls: 4, inputTokens: 12000, outputTokens: 800, costUsd: 0.0123, unpricedCalls: 1}]});
`)
	tb.waitFor("today's usage", `document.querySelector('#usage-today').textContent !== ''`)
	if got := eval[string](tb, `document.querySelector('#usage-today').textContent`); !strings.Contains(got, "4 model calls") ||
		!strings.Contains(got, "$0.012 (not counting 1 call of models without a price)") || !strings.Contains(got, "2025-11-30") {
		t.Errorf("today = %q", got)
	}
	if got := eval[[]string](tb, `['#daily-allowance', '#run-allowance', '#prices'].map(s => document.querySelector(s).value)`); got[0] != "5" ||
		got[1] != "" || got[2] != "my-model = 0.5, 1.5" {
		t.Errorf("fields = %q", got)
	}

	setValue(tb, "#prices", "my-model = 0.5, 1.5\ngpt-gateway = two dollars")
	tb.do(`document.querySelector('#save-cost').click()`)
	tb.waitFor("the price error", `!document.querySelector('#prices-error').hidden`)
	if n := eval[int](tb, `__fake.sentOf('settings_save').length`); n != 0 {
		t.Fatalf("%d saves of an unreadable price", n)
	}

	setValue(tb, "#run-allowance", "0.75")
	setValue(tb, "#prices", "my-model = 0.5, 0.05, 1.5")
	tb.do(`document.querySelector('#save-cost').click()`)
	tb.waitFor("the save", `__fake.sentOf('settings_save').length === 1`)
	got := eval[map[string]any](tb, `(() => { const s = __fake.sentOf('settings_save')[0].settings;
		return {day: s.dailyAllowanceUsd, run: s.runAllowanceUsd, price: s.prices["my-model"], providers: s.providers.length}; })()`)
	price, _ := got["price"].(map[string]any)
	if got["day"] != 5.0 || got["run"] != 0.75 || got["providers"] != 2.0 || price["in"] != 0.5 || price["cached"] != 0.05 || price["out"] != 1.5 {
		t.Errorf("saved %v", got)
	}
	tb.do(`document.querySelector('#cost-heading').scrollIntoView()`)
	tb.screenshot("settings-cost")
}

// The allowance card of a paused run is shown again when the panel
// reopens, sends allowance_answer, shows the outcome, and the run's token
// line sits under its answer; the progress line counts as the run goes.
func TestAllowanceCardAndUsageLine(t *testing.T) {
	total := `{calls: 1, inputTokens: 1200, cachedInputTokens: 1000, outputTokens: 40, costUsd: 0.0123}`
	tb := openPanel(t, `
if (!sessionStorage.getItem("journal")) {
  sessionStorage.setItem("journal", JSON.stringify({requestId: "r-1", mode: "ask", status: "running", seq: 3, events: [
    {seq: 1, kind: "run_started", text: "Read it", mode: "ask"},
    {seq: 2, kind: "usage", usage: {model: "m", inputTokens: 1200, cachedInputTokens: 1000, outputTokens: 40, costUsd: 0.0123, priced: true},
     total: `+total+`, text: "This answer reached the cost allowance."},
    {seq: 3, kind: "allowance", id: "allowance-day-2026-12-02-1", text: "Paused before the next model call.",
     allowance: {scope: "day", limitUsd: 0.01, spentUsd: 0.0123, estimateUsd: 0.03, raiseUsd: 0.04}}]}));
}`)
	tb.waitFor("the card", `document.querySelector('.allowance-card .allowance-raise') !== null`)
	if got := eval[string](tb, `document.querySelector('.allowance-raise').textContent`); got != "Raise today's allowance by $0.04 and continue" {
		t.Errorf("raise button %q", got)
	}
	tb.do(`await new Promise(r => setTimeout(r, 300))`) // let the throttled save run
	tb.run(chromedp.Reload())
	tb.waitFor("the reopened card", `document.querySelectorAll('.allowance-card button:not(:disabled)').length === 2`)
	if n := eval[int](tb, `document.querySelectorAll('.allowance-card').length`); n != 1 {
		t.Fatalf("%d cards after reopening", n)
	}
	tb.screenshot("allowance-card")
	tb.run(chromedp.Click(chromedp.CSS(".allowance-raise")))
	tb.waitFor("allowance_answer", `__fake.sentOf('allowance_answer').length === 1`)
	if got := tb.sent("allowance_answer")[0]; got["requestId"] != "r-1" || got["id"] != "allowance-day-2026-12-02-1" || got["decision"] != "raise" {
		t.Errorf("allowance_answer = %v", got)
	}
	deliver(tb, "r-1", 4, `{kind: "allowance_resolved", id: "allowance-day-2026-12-02-1", decision: "raise",
		allowance: {scope: "day", raiseUsd: 0.04}}`)
	tb.waitFor("the outcome", `document.querySelector('.allowance-card .approval-outcome')?.textContent === 'Raised by $0.04: the run goes on.'`)
	deliver(tb, "r-1", 5, `{kind: "step", step: 2}`)
	deliver(tb, "r-1", 6, `{kind: "usage", total: {calls: 2, inputTokens: 2400, cachedInputTokens: 1000, outputTokens: 60, costUsd: 0.0251}}`)
	if got := eval[string](tb, `document.querySelector('#progress').textContent`); !strings.HasSuffix(got, "2,400 in (1,000 cached) · 60 out · $0.025") {
		t.Errorf("progress %q", got)
	}
	deliver(tb, "r-1", 7, `{kind: "final", text: "Done."}`)
	tb.waitFor("done", `document.querySelector('#transcript').dataset.runStatus === 'done'`)
	if got := eval[string](tb, `document.querySelector('.msg.assistant .run-usage')?.textContent ?? ''`); got != "Tokens: 2,400 in (1,000 cached) · 60 out · $0.025" {
		t.Errorf("usage line %q", got)
	}
}
