package scenario

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// RunTimeout bounds one agent run; the fake model answers at once.
const RunTimeout = 45 * time.Second

// extAPI is the extension API namespace in either browser: Firefox's
// promise-based browser.*, else Chrome's chrome.*.
const extAPI = `(globalThis.browser ?? globalThis.chrome)`

// Eval evaluates expr in target and fails the test on error.
func Eval[T any](t testing.TB, s Session, target Target, expr string) T {
	t.Helper()
	var v T
	if err := s.Eval(target, expr, &v); err != nil {
		t.Fatalf("evaluate %s: %v", Clip(strings.TrimSpace(expr), 80), err)
	}
	return v
}

// WaitFor polls the boolean expression expr in the panel until it is true.
func WaitFor(t testing.TB, s Session, what string, timeout time.Duration, expr string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		var ok bool
		err := s.Eval(Panel, expr, &ok)
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s (last error: %v)", timeout, what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// WaitPanelReady waits until the panel's script runs: its listeners are attached.
func WaitPanelReady(t testing.TB, s Session) {
	t.Helper()
	// body[data-ready] is set by the panel's script once its listeners are
	// attached; the static HTML already shows the prompt and a run status.
	WaitFor(t, s, "the panel's script (body[data-ready])", 10*time.Second,
		`document.body?.dataset.ready === 'true' && !!document.querySelector('#prompt')`)
}

// WaitRunEnd waits until the run is done, failed or stopped and returns which.
func WaitRunEnd(t testing.TB, s Session) string {
	t.Helper()
	WaitFor(t, s, "the run to end (data-run-status done|error|stopped)", RunTimeout,
		`['done', 'error', 'stopped'].includes(document.querySelector('#transcript').dataset.runStatus)`)
	return RunStatus(t, s)
}

// RunStatus is the panel's data-run-status.
func RunStatus(t testing.TB, s Session) string {
	t.Helper()
	return Eval[string](t, s, Panel, `document.querySelector('#transcript').dataset.runStatus`)
}

// Text returns the innerText of the first panel element matching css (""
// when there is none).
func Text(t testing.TB, s Session, css string) string {
	t.Helper()
	return Eval[string](t, s, Panel, fmt.Sprintf(`document.querySelector(%q)?.innerText ?? ''`, css))
}

// Count returns how many panel elements match css.
func Count(t testing.TB, s Session, css string) int {
	t.Helper()
	return Eval[int](t, s, Panel, fmt.Sprintf(`document.querySelectorAll(%q).length`, css))
}

// ToolRow is one details.tool-row of the transcript.
type ToolRow struct {
	Tool    string `json:"tool"`
	Open    bool   `json:"open"`
	IsError bool   `json:"isError"`
	Summary string `json:"summary"`
}

// ToolRows lists the transcript's tool rows in order.
func ToolRows(t testing.TB, s Session) []ToolRow {
	t.Helper()
	return Eval[[]ToolRow](t, s, Panel, `[...document.querySelectorAll('#transcript details.tool-row')].map(d => ({
		tool: d.dataset.tool, open: d.open, isError: d.classList.contains('tool-error'),
		summary: d.querySelector('summary')?.innerText ?? ''}))`)
}

// PageRecord returns what the fixture page recorded in window.__record.
func PageRecord(t testing.TB, s Session) []string {
	t.Helper()
	return Eval[[]string](t, s, Page, `window.__record ?? []`)
}

// reply is the background's answer to a runtime message.
type reply struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	Field string `json:"field"`
}

// SaveSettings saves, through the settings_save message, settings whose
// only provider is srv with p's wire format and key.
func SaveSettings(t testing.TB, s Session, srv *llmtest.Server, p Provider) {
	t.Helper()
	baseURL := srv.URL + "/v1"
	if p.Kind == "anthropic" {
		// The Anthropic adapter appends /v1/messages itself.
		baseURL = srv.URL
	}
	tier := p.Tier
	if tier == "" {
		tier = "mid"
	}
	settings := map[string]any{
		"providers": []map[string]any{{
			"id": "fake", "name": "Fake", "kind": p.Kind, "baseUrl": baseURL, "apiKey": p.APIKey,
			"model": llmtest.Model, "tier": tier, "contextWindow": 0,
		}},
		"activeProvider":     "fake",
		"maxSteps":           30,
		"experimentalWebMCP": p.WebMCP,
	}
	msg, err := json.Marshal(map[string]any{"action": "settings_save", "settings": settings})
	if err != nil {
		t.Fatal(err)
	}
	r := Eval[reply](t, s, Panel, fmt.Sprintf(`%s.runtime.sendMessage(%s)`, extAPI, msg))
	if !r.OK {
		t.Fatalf("settings_save %s: %s (field %q)", p.Kind, r.Error, r.Field)
	}
}

// Journal is the background's run_state snapshot of a tab.
type Journal struct {
	Status string `json:"status"`
	Final  string `json:"final"`
	Events []struct {
		Kind string `json:"kind"`
		Name string `json:"name"`
	} `json:"events"`
}

// RunState asks the background for the session tab's run journal.
func RunState(t testing.TB, s Session) Journal {
	t.Helper()
	r := Eval[struct {
		OK      bool     `json:"ok"`
		Error   string   `json:"error"`
		Journal *Journal `json:"journal"`
	}](t, s, Panel, fmt.Sprintf(`%s.runtime.sendMessage({action: "run_state", tabId: %d})`, extAPI, s.TabID()))
	if !r.OK || r.Journal == nil {
		t.Fatalf("run_state: ok=%v error=%q journal=%v", r.OK, r.Error, r.Journal)
	}
	return *r.Journal
}

// StoredJournal is the raw JSON the background keeps in session storage
// for the tab's run (runUi:<tabId>).
func StoredJournal(t testing.TB, s Session) string {
	t.Helper()
	return Eval[string](t, s, Extension, fmt.Sprintf(
		`%s.storage.session.get('runUi:%d').then(v => JSON.stringify(v))`, extAPI, s.TabID()))
}
