//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/settings"
)

// TestPanelHeaderRecordNamesTheProvider: saving the settings in the built
// extension also stores the panel's header record, with the provider's
// name and model and never its key or address, and a panel opened
// afterwards names that provider (from the record, then from settings_get).
func TestPanelHeaderRecordNamesTheProvider(t *testing.T) {
	srv := llmtest.NewTurns()
	s := openSession(t, "page1.html", srv, provider{Kind: openAIChat.Kind, APIKey: "sk-e2e-header-secret-1234"})
	record := evalIn[string](t, s.panel, `chrome.storage.local.get('wb_panel_header_v1').then((r) => JSON.stringify(r.wb_panel_header_v1 ?? null))`,
		chromedp.EvalAwaitPromise)
	if strings.Contains(record, "sk-e2e") || strings.Contains(record, "127.0.0.1") || strings.Contains(record, "apiKey") {
		t.Fatalf("the header record holds the key or the address: %s", record)
	}
	var h settings.Header
	if err := json.Unmarshal([]byte(record), &h); err != nil {
		t.Fatalf("header record %s: %v", record, err)
	}
	if h.ActiveProvider != "fake" || len(h.Providers) != 1 || h.Providers[0] != (settings.HeaderProvider{ID: "fake", Name: "Fake", Model: llmtest.Model}) {
		t.Fatalf("header record %s", record)
	}

	panel, cancel := chromedp.NewContext(env.browser)
	defer cancel()
	url := fmt.Sprintf("chrome-extension://%s/sidepanel/sidepanel.html?tabId=%d", env.extID, s.tabID)
	if err := chromedp.Do(panel, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	label := "Fake · " + llmtest.Model
	ready := fmt.Sprintf(`document.body?.dataset.ready === 'true' && document.querySelector('#provider').textContent === %q`, label)
	for deadline := time.Now().Add(10 * time.Second); !evalIn[bool](t, panel, ready); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the new panel does not name the provider: %q", evalIn[string](t, panel, `document.querySelector('#provider')?.textContent ?? ''`))
		}
	}
	scenario.WaitFor(t, s, "the first panel still names it", 5*time.Second,
		fmt.Sprintf(`document.querySelector('#provider').textContent === %q`, label))
}
