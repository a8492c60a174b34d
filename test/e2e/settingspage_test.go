//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// modelServer answers GET /v1/models as an OpenAI-compatible server does,
// or with 401 and OpenAI's error body once rejecting is set.
type modelServer struct {
	srv       *httptest.Server
	mu        sync.Mutex
	rejecting bool
	auth      []string // the Authorization header of each request
}

func newModelServer() *modelServer {
	m := &modelServer{}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.auth = append(m.auth, r.Header.Get("Authorization"))
		rejecting := m.rejecting
		m.mu.Unlock()
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/v1/models" {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error":{"message":"not found"}}`)
			return
		}
		if rejecting {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return
		}
		fmt.Fprint(w, `{"object":"list","data":[{"id":"tiny-model","object":"model","created":1700000000,"owned_by":"test"}]}`)
	}))
	return m
}

func (m *modelServer) reject() {
	m.mu.Lock()
	m.rejecting = true
	m.mu.Unlock()
}

func (m *modelServer) requests() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.auth...)
}

// openSettingsPage opens the extension's settings page in a tab of its own.
func openSettingsPage(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(env.browser)
	t.Cleanup(cancel)
	url := fmt.Sprintf("chrome-extension://%s/settings/settings.html", env.extID)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1180, 1000), chromedp.Navigate(url), chromedp.WaitVisible(chromedp.ID("add-provider"))); err != nil {
		t.Fatalf("open the settings: %v", err)
	}
	t.Cleanup(func() {
		evalIn[bool](t, env.worker, `chrome.storage.local.remove(["settings", "wb_provider_tests", "wb_user_memory_v1"]).then(() => true)`, chromedp.EvalAwaitPromise)
	})
	return ctx
}

func waitIn(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('main')?.innerText ?? ''`))
		t.Fatalf("waiting for %s: %v\n%s", what, err, body)
	}
}

func settingsShot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("WB_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
	}
}

// A provider card's Test sends a real request through the background to
// the provider's server: "tested ok" with the model, then, once the
// server answers 401, "failing" with the reason; the result is kept and
// shown again when the page is reopened. The vision control is saved.
func TestSettingsProviderCardTest(t *testing.T) {
	ms := newModelServer()
	defer ms.srv.Close()
	page := openSettingsPage(t)
	save := fmt.Sprintf(`chrome.runtime.sendMessage({action: "settings_save", settings: {
		providers: [{id: "fake", name: "Fake server", kind: "openai-chat", baseUrl: %q, apiKey: "sk-test-0123456789", model: "tiny-model", tier: "mid", contextWindow: 0}],
		activeProvider: "fake", maxSteps: 40}}).then(r => r.ok)`, ms.srv.URL+"/v1")
	if !evalIn[bool](t, page, save, chromedp.EvalAwaitPromise) {
		t.Fatal("settings_save refused the provider")
	}
	if err := chromedp.Do(page, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitIn(t, page, "the card", `!!document.querySelector('li[data-id="fake"] .provider-test')`)
	if err := chromedp.Do(page, chromedp.Click(chromedp.CSS(`li[data-id="fake"] .provider-test`))); err != nil {
		t.Fatal(err)
	}
	waitIn(t, page, "tested ok", `document.querySelector('li[data-id="fake"] .provider-status.ok')?.textContent.includes('tested ok · tiny-model')`)
	if got := ms.requests(); len(got) != 1 || got[0] != "Bearer sk-test-0123456789" {
		t.Errorf("the server saw %q, want one request with the stored key", got)
	}

	ms.reject()
	if err := chromedp.Do(page, chromedp.Click(chromedp.CSS(`li[data-id="fake"] .provider-test`))); err != nil {
		t.Fatal(err)
	}
	waitIn(t, page, "the failure", `document.querySelector('li[data-id="fake"] .provider-status.failing')?.textContent.includes('failing: key rejected')`)
	detail := evalIn[string](t, page, `document.querySelector('li[data-id="fake"] .provider-status').textContent`)
	if !strings.Contains(detail, "HTTP 401") || strings.Contains(detail, "sk-test-0123456789") {
		t.Errorf("the failure says %q: want the 401 and never the key", detail)
	}
	settingsShot(t, page, "settings-e2e-card-failing")
	if err := chromedp.Do(page, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitIn(t, page, "the kept failure", `document.querySelector('li[data-id="fake"] .provider-status.failing')?.textContent.includes('failing: key rejected')`)

	// Vision: Always, saved through the background and shown again.
	if err := chromedp.Do(page, chromedp.Click(chromedp.CSS(`li[data-id="fake"] .provider-edit`))); err != nil {
		t.Fatal(err)
	}
	waitIn(t, page, "the form", `document.querySelector('#p-name').value === 'Fake server' && document.querySelector('#p-visionMode').value === 'auto'`)
	evalIn[bool](t, page, `(() => { const s = document.querySelector('#p-visionMode'); s.value = 'always'; s.dispatchEvent(new Event('change')); return true; })()`)
	if err := chromedp.Do(page, chromedp.Click(chromedp.ID("p-save"))); err != nil {
		t.Fatal(err)
	}
	waitIn(t, page, "saved", `document.querySelector('#saved').textContent === 'Saved.'`)
	if err := chromedp.Do(page, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitIn(t, page, "the card", `document.querySelector('li[data-id="fake"]')?.innerText.includes('vision: always')`)
	// The key and the connection are unchanged, so the Test result stays.
	waitIn(t, page, "the result kept", `!!document.querySelector('li[data-id="fake"] .provider-status.failing')`)
}

// Importing the original product's configuration file in Settings maps
// its providers and settings and lists what was imported and what was
// skipped, with the reasons.
func TestSettingsImportOriginalConfig(t *testing.T) {
	page := openSettingsPage(t)
	file := filepath.Join(env.root, "wasm", "settings", "testdata", "original-config.json")
	if err := chromedp.Do(page, chromedp.SetUploadFiles(chromedp.ID("config-file"), []string{file})); err != nil {
		t.Fatalf("import the file: %v", err)
	}
	waitIn(t, page, "the report", `!document.querySelector('#import-report').hidden && document.querySelector('#import-report').textContent.includes('original WebBrain 25.8.5')`)
	report := evalIn[string](t, page, `document.querySelector('#import-report').innerText`)
	for _, want := range []string{
		"providers.azure_openai → providers.azure-openai",
		"API key included",
		"maxAgentSteps → maxSteps",
		"providers.aws_bedrock",
		"AWS Bedrock providers are not supported",
		"twoCaptchaApiKey",
		"wb_user_memory_v1 → memory 1 of 2 records added",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
	for _, secret := range []string{"sk-ant-test-secret-1234", "CAP-0123456789abcdef", "two-captcha-secret-value"} {
		if strings.Contains(report, secret) {
			t.Errorf("the report shows the secret %q", secret)
		}
	}
	waitIn(t, page, "the imported cards", `document.querySelectorAll('#provider-list li[data-id]').length === 4 && document.querySelector('li[data-id="anthropic"]').classList.contains('active')`)
	if v := evalIn[string](t, page, `document.querySelector('#max-steps').value + '|' + document.documentElement.dataset.theme`); v != "130|dark" {
		t.Errorf("step limit and theme after the import: %q, want 130|dark", v)
	}
	// The key arrived in the background (the page only learns that one is saved).
	stored := evalIn[string](t, env.worker, `chrome.storage.local.get("settings").then(r => r.settings.providers.find(p => p.id === "anthropic").apiKey)`, chromedp.EvalAwaitPromise)
	if stored != "sk-ant-test-secret-1234" {
		t.Errorf("stored anthropic key %q", stored)
	}
	settingsShot(t, page, "settings-e2e-import-report")
}
