//go:build browser

package ui

import (
	"strings"
	"testing"
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
