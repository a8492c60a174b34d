//go:build browser

package ui

import "testing"

// The panel is usable while the background still starts: the header
// record names the provider and gives the theme before settings_get
// answers, and the panel never reads the stored settings (they hold the
// API keys) itself. When settings_get answers, its settings take over.
func TestPanelShowsTheProviderBeforeTheBackgroundAnswers(t *testing.T) {
	tb := openPage(t, panelPath, `
sessionStorage.setItem("__fake_storage_local", JSON.stringify({
  settings: {activeProvider: "p1", providers: [{id: "p1", name: "Secret", model: "m", apiKey: "sk-must-not-be-read"}]},
  wb_panel_header_v1: {theme: "dark", activeProvider: "p1", providers: [{id: "p1", name: "Studio", model: "llama-3"}]},
}));
__fake.localReads = [];
const get = chrome.storage.local.get;
chrome.storage.local.get = (keys) => {
  __fake.localReads.push(keys ?? null);
  return get(keys);
};
let answer;
__fake.replies.settings_get = () => new Promise((resolve) => { answer = resolve; });
__fake.answerSettings = () => answer({ok: true, settings: {theme: "light", activeProvider: "p1",
  providers: [{id: "p1", name: "Studio", model: "llama-3.1", apiKey: "", apiKeySet: true}]}});
`)
	tb.waitFor("the provider from the header record", `document.querySelector('#provider').textContent === 'Studio · llama-3'`)
	tb.waitFor("the panel ready", `document.body.dataset.ready === 'true'`)
	if theme := eval[string](tb, `document.documentElement.dataset.theme ?? ''`); theme != "dark" {
		t.Fatalf("theme before the background answered: %q", theme)
	}
	if n := len(tb.sent("settings_get")); n != 1 {
		t.Fatalf("settings_get sent %d times at start", n)
	}
	tb.do(`__fake.answerSettings()`)
	tb.waitFor("the settings' label", `document.querySelector('#provider').textContent === 'Studio · llama-3.1'`)
	tb.waitFor("the settings' theme", `document.documentElement.dataset.theme === 'light'`)
	reads := eval[[]any](tb, `__fake.localReads`)
	for _, keys := range reads {
		s, ok := keys.(string)
		if !ok || s == "settings" {
			t.Fatalf("the panel read storage.local %v: only named keys other than the settings may be read", reads)
		}
	}
}
