//go:build firefox

package firefox

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// The settings page works in Firefox too: its sections render, and Test on
// a provider card reaches the provider's server through the background
// page and shows "tested ok" with the model.
func TestSettingsPageProviderCardTest(t *testing.T) {
	e := sharedEnv(t)
	srv := llmtest.NewTurns()
	defer srv.Close()
	save := fmt.Sprintf(`browser.runtime.sendMessage({action: "settings_save", settings: {
		providers: [{id: "fake", name: "Fake server", kind: "openai-chat", baseUrl: %q, model: "", tier: "mid", contextWindow: 0}],
		activeProvider: "fake", maxSteps: 40}}).then(r => r.ok)`, srv.URL+"/v1")
	if !evalIn[bool](t, e.ff, e.bridge, save) {
		t.Fatal("settings_save refused the provider")
	}
	t.Cleanup(func() {
		evalIn[bool](t, e.ff, e.bridge, `browser.storage.local.remove(["settings", "wb_provider_tests"]).then(() => true)`)
	})
	page, err := e.ff.openExtPage(t.Context(), e.chrome, "/settings/settings.html")
	if err != nil {
		t.Fatal(err)
	}
	defer e.ff.closeContext(page)
	poll := func(what, js string) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for !evalIn[bool](t, e.ff, page, js) {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s: %s", what, evalIn[string](t, e.ff, page, `document.querySelector('main')?.innerText ?? ''`))
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	poll("the card", `!!document.querySelector('li[data-id="fake"] .provider-test')`)
	if n := evalIn[int](t, e.ff, page, `document.querySelectorAll('section.card-section > h2').length`); n != 11 {
		t.Errorf("%d sections with a heading, want 11", n)
	}
	evalIn[bool](t, e.ff, page, `(document.querySelector('li[data-id="fake"] .provider-test').click(), true)`)
	poll("tested ok", `!!document.querySelector('li[data-id="fake"] .provider-status.ok')`)
	if got := evalIn[string](t, e.ff, page, `document.querySelector('li[data-id="fake"] .provider-status').textContent`); !strings.Contains(got, "tested ok · "+llmtest.Model) {
		t.Errorf("status %q", got)
	}
}
