//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// runTimeout bounds one agent run; the fake model answers at once.
const runTimeout = 45 * time.Second

// provider is the part of the saved provider a test chooses.
type provider struct {
	Kind   string // "openai-chat" or "anthropic"
	APIKey string
}

var openAIChat = provider{Kind: "openai-chat"}

// session is one fixture tab with a side panel bound to it.
type session struct {
	t          *testing.T
	srv        *llmtest.Server
	page       context.Context // the fixture tab
	panel      context.Context // sidepanel.html?tabId=<fixture tab>
	tabID      int
	pageURL    string
	panelLog   *consoleLog
	workerMark int
}

// openSession loads fixture (a file in testdata/) in a new tab, opens the
// panel for that tab and saves settings whose only provider is srv.
func openSession(t *testing.T, fixture string, srv *llmtest.Server, p provider) *session {
	t.Helper()
	s := &session{t: t, srv: srv, panelLog: &consoleLog{}, workerMark: env.workerLg.mark()}
	t.Cleanup(srv.Close)

	page, cancelPage := chromedp.NewContext(env.browser)
	t.Cleanup(cancelPage)
	s.page = page
	s.pageURL = env.fixtures.URL + "/" + fixture + "?test=" + url.QueryEscape(t.Name())
	if err := chromedp.Do(page, chromedp.Navigate(s.pageURL)); err != nil {
		t.Fatalf("open fixture %s: %v", fixture, err)
	}
	s.tabID = tabIDOf(t, s.pageURL)

	panel, cancelPanel := chromedp.NewContext(env.browser, chromedp.WithListener(s.panelLog.listen))
	t.Cleanup(cancelPanel)
	s.panel = panel
	panelURL := fmt.Sprintf("chrome-extension://%s/sidepanel/sidepanel.html?tabId=%d", env.extID, s.tabID)
	if err := chromedp.Do(panel, chromedp.Navigate(panelURL)); err != nil {
		t.Fatalf("open the side panel: %v", err)
	}
	// Registered after the cancels so it runs first, while the tabs live.
	t.Cleanup(s.dumpOnFailure)
	s.waitFor(s.panel, "the panel's #prompt, #send and #transcript[data-run-status]", 10*time.Second,
		`!!(document.querySelector('#prompt') && document.querySelector('#send') && document.querySelector('#transcript')?.dataset.runStatus)`)
	s.saveSettings(p)
	return s
}

// tabIDOf asks the extension (in its service worker) for the id of the one
// tab showing pageURL.
func tabIDOf(t *testing.T, pageURL string) int {
	t.Helper()
	expr := fmt.Sprintf(`chrome.tabs.query({}).then(ts => ts.filter(t => t.url === %q).map(t => t.id))`, pageURL)
	deadline := time.Now().Add(10 * time.Second)
	for {
		ids, err := chromedp.Run(env.worker, chromedp.Evaluate[[]int](expr, chromedp.EvalAwaitPromise))
		if err == nil && len(ids) == 1 {
			return ids[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("tab id of %s: ids %v, err %v", pageURL, ids, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// reply is the background's answer to a runtime message.
type reply struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	Field string `json:"field"`
}

func (s *session) saveSettings(p provider) {
	s.t.Helper()
	baseURL := s.srv.URL + "/v1"
	if p.Kind == "anthropic" {
		baseURL = s.srv.URL
	}
	settings := map[string]any{
		"providers": []map[string]any{{
			"id": "fake", "name": "Fake", "kind": p.Kind, "baseUrl": baseURL, "apiKey": p.APIKey,
			"model": llmtest.Model, "tier": "mid", "contextWindow": 0,
		}},
		"activeProvider": "fake",
		"maxSteps":       30,
	}
	msg, _ := json.Marshal(map[string]any{"action": "settings_save", "settings": settings})
	r := evalIn[reply](s.t, s.panel, fmt.Sprintf(`chrome.runtime.sendMessage(%s)`, msg), chromedp.EvalAwaitPromise)
	if !r.OK {
		s.t.Fatalf("settings_save: %s (field %q)", r.Error, r.Field)
	}
}

// send types prompt into the panel in mode ("ask" or "act") and clicks Send.
func (s *session) send(mode, prompt string) {
	s.t.Helper()
	evalIn[chromedp.Void](s.t, s.panel, fmt.Sprintf(`(() => {
		const m = document.querySelector('#mode');
		m.value = %q;
		m.dispatchEvent(new Event('change', {bubbles: true}));
	})()`, mode))
	if err := chromedp.Do(s.panel,
		chromedp.SendKeys(chromedp.ID("prompt"), prompt),
		chromedp.Click(chromedp.ID("send")),
	); err != nil {
		s.t.Fatalf("send the prompt: %v", err)
	}
}

// waitRunEnd waits until the run is done, failed or stopped and returns
// which.
func (s *session) waitRunEnd() string {
	s.t.Helper()
	s.waitFor(s.panel, "the run to end (data-run-status done|error|stopped)", runTimeout,
		`['done', 'error', 'stopped'].includes(document.querySelector('#transcript').dataset.runStatus)`)
	return s.runStatus()
}

func (s *session) runStatus() string {
	return evalIn[string](s.t, s.panel, `document.querySelector('#transcript').dataset.runStatus`)
}

// text returns the innerText of the first element matching css in the panel
// ("" when there is none).
func (s *session) text(css string) string {
	return evalIn[string](s.t, s.panel, fmt.Sprintf(`document.querySelector(%q)?.innerText ?? ''`, css))
}

// count returns how many elements match css in the panel.
func (s *session) count(css string) int {
	return evalIn[int](s.t, s.panel, fmt.Sprintf(`document.querySelectorAll(%q).length`, css))
}

// toolRow is one details.tool-row of the transcript.
type toolRow struct {
	Tool    string `json:"tool"`
	Open    bool   `json:"open"`
	IsError bool   `json:"isError"`
	Summary string `json:"summary"`
}

func (s *session) toolRows() []toolRow {
	return evalIn[[]toolRow](s.t, s.panel, `[...document.querySelectorAll('#transcript details.tool-row')].map(d => ({
		tool: d.dataset.tool, open: d.open, isError: d.classList.contains('tool-error'),
		summary: d.querySelector('summary')?.innerText ?? ''}))`)
}

// pageRecord returns what the fixture page recorded in window.__record.
func (s *session) pageRecord() []string {
	return evalIn[[]string](s.t, s.page, `window.__record ?? []`)
}

// waitFor polls expr in ctx until it is true. Evaluating from Go works on
// every target, where chromedp.Poll needs an animation frame.
func (s *session) waitFor(ctx context.Context, what string, timeout time.Duration, expr string) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out after %v waiting for %s (last error: %v)", timeout, what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// evalErr runs expr for its effect, for callers that cannot fail the test
// (the fake model's script runs on the server's goroutine).
func evalErr(ctx context.Context, expr string) error {
	_, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](expr))
	return err
}

func evalIn[T any](t *testing.T, ctx context.Context, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		t.Fatalf("evaluate %s: %v", firstLine(expr), err)
	}
	return v
}

// dumpOnFailure logs what a person needs to see why a scenario failed.
func (s *session) dumpOnFailure() {
	if !s.t.Failed() {
		return
	}
	var b strings.Builder
	status, _ := chromedp.Run(s.panel, chromedp.Evaluate[string](`document.querySelector('#transcript')?.dataset.runStatus ?? '(none)'`))
	transcript, _ := chromedp.Run(s.panel, chromedp.Evaluate[string](`document.querySelector('#transcript')?.innerText ?? '(no #transcript)'`))
	fmt.Fprintf(&b, "--- panel: data-run-status=%s, transcript:\n%s\n", status, transcript)
	fmt.Fprintf(&b, "--- model requests:\n%s", summarizeRequests(s.srv.Requests()))
	fmt.Fprintf(&b, "--- service worker console:\n%s\n", strings.Join(env.workerLg.since(s.workerMark), "\n"))
	fmt.Fprintf(&b, "--- panel console:\n%s\n", strings.Join(s.panelLog.since(0), "\n"))
	s.t.Log("\n" + b.String())
}

func summarizeRequests(reqs []llmtest.Request) string {
	var b strings.Builder
	for i, r := range reqs {
		fmt.Fprintf(&b, "#%d %s: %d messages, %d tools", i, r.Path, len(r.Messages), len(r.Tools))
		if n := len(r.Messages); n > 0 {
			last := r.Messages[n-1]
			fmt.Fprintf(&b, "; last %s%s: %s", last.Role, toolName(last), clip(last.Content, 400))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func toolName(m llm.Message) string {
	if m.Name != "" {
		return "(" + m.Name + ")"
	}
	return ""
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return clip(line, 80)
}
