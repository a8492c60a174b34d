//go:build firefox

package firefox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// runTimeout bounds one agent run; the fake model answers at once.
const runTimeout = 45 * time.Second

// session is one fixture tab with the panel bound to it: sidepanel.html
// opened as a second tab with ?tabId, or the add-on's sidebar following the
// active tab.
type session struct {
	t       *testing.T
	env     *browserEnv
	srv     *llmtest.Server
	page    string // browsing context of the fixture tab
	panel   string // where panel expressions run: sidepanel.html?tabId=<fixture tab>, or the bridge
	sidebar bool   // the panel is the real sidebar, reached from the bridge
	tabID   int
	pageURL string
	logMark int // the browser log's length when the session began
}

// openSession loads fixture (a file in testdata/) in a new tab of the
// shared browser, opens the panel for it and saves settings whose only
// provider is srv.
func openSession(t *testing.T, fixture string, srv *llmtest.Server) *session {
	t.Helper()
	e := sharedEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	page, pageURL, err := e.ff.openFixture(ctx, e.fixtures.URL, fixture, t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.ff.closeContext(page) })
	return attachSession(t, e, srv, page, pageURL)
}

// attachSession opens the panel for the tab page (showing pageURL) and
// saves settings whose only provider is srv.
func attachSession(t *testing.T, e *browserEnv, srv *llmtest.Server, page, pageURL string) *session {
	t.Helper()
	s := &session{t: t, env: e, srv: srv, page: page, pageURL: pageURL, logMark: e.ff.log.mark()}
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s.tabID = s.tabIDOf(pageURL)
	var err error
	if s.panel, err = e.ff.openExtPage(ctx, e.chrome, fmt.Sprintf("/sidepanel/sidepanel.html?tabId=%d", s.tabID)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.ff.closeContext(s.panel) })
	// Registered last so it runs first, while the tabs live.
	t.Cleanup(s.dumpOnFailure)
	s.waitPanelReady()
	s.saveSettings()
	return s
}

// waitPanelReady waits for the panel's prompt, send button and transcript.
func (s *session) waitPanelReady() {
	s.t.Helper()
	s.waitFor(s.panel, "the panel's #prompt, #send and #transcript[data-run-status]", 10*time.Second,
		s.panelExpr(`!!(document.querySelector('#prompt') && document.querySelector('#send') && document.querySelector('#transcript')?.dataset.runStatus)`))
}

// panelExpr adapts expr, written against the panel page's globals, to run
// in s.panel: as it is in a panel tab; in the sidebar, with document bound
// to the sidebar's (the bridge page reaches it through extension.getViews).
func (s *session) panelExpr(expr string) string {
	if !s.sidebar {
		return expr
	}
	return `(() => {
		const document = browser.extension.getViews({type: "sidebar"})[0]?.document;
		if (!document) throw new Error("no sidebar is open");
		return (` + expr + `);
	})()`
}

// tabIDOf asks the extension for the WebExtension id of the tab showing pageURL.
func (s *session) tabIDOf(pageURL string) int {
	s.t.Helper()
	expr := fmt.Sprintf(`browser.tabs.query({}).then(ts => ts.filter(t => t.url === %q).map(t => t.id))`, pageURL)
	ids := evalIn[[]int](s.t, s.env.ff, s.env.bridge, expr)
	if len(ids) != 1 {
		s.t.Fatalf("tab ids of %s: %v, want one", pageURL, ids)
	}
	return ids[0]
}

// reply is the background's answer to a runtime message.
type reply struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	Field string `json:"field"`
}

func (s *session) saveSettings() {
	s.t.Helper()
	settings := map[string]any{
		"providers": []map[string]any{{
			"id": "fake", "name": "Fake", "kind": "openai-chat", "baseUrl": s.srv.URL + "/v1", "apiKey": "",
			"model": llmtest.Model, "tier": "mid", "contextWindow": 0,
		}},
		"activeProvider": "fake",
		"maxSteps":       30,
	}
	msg, _ := json.Marshal(map[string]any{"action": "settings_save", "settings": settings})
	r := evalIn[reply](s.t, s.env.ff, s.panel, s.panelExpr(fmt.Sprintf(`browser.runtime.sendMessage(%s)`, msg)))
	if !r.OK {
		s.t.Fatalf("settings_save: %s (field %q)", r.Error, r.Field)
	}
}

// send picks mode ("ask" or "act"), writes prompt into the panel and
// clicks Send, as a person would.
func (s *session) send(mode, prompt string) {
	s.t.Helper()
	evalIn[bool](s.t, s.env.ff, s.panel, s.panelExpr(fmt.Sprintf(`(() => {
		const m = document.querySelector('#mode');
		m.value = %q;
		m.dispatchEvent(new Event('change', {bubbles: true}));
		const p = document.querySelector('#prompt');
		p.value = %q;
		p.dispatchEvent(new Event('input', {bubbles: true}));
		document.querySelector('#send').click();
		return true;
	})()`, mode, prompt)))
}

// waitRunEnd waits until the run is done, failed or stopped and returns which.
func (s *session) waitRunEnd() string {
	s.t.Helper()
	s.waitFor(s.panel, "the run to end (data-run-status done|error|stopped)", runTimeout,
		s.panelExpr(`['done', 'error', 'stopped'].includes(document.querySelector('#transcript').dataset.runStatus)`))
	return evalIn[string](s.t, s.env.ff, s.panel, s.panelExpr(`document.querySelector('#transcript').dataset.runStatus`))
}

// text returns the innerText of the first element matching css in the panel.
func (s *session) text(css string) string {
	return evalIn[string](s.t, s.env.ff, s.panel, s.panelExpr(fmt.Sprintf(`document.querySelector(%q)?.innerText ?? ''`, css)))
}

type toolRow struct {
	Tool    string `json:"tool"`
	IsError bool   `json:"isError"`
	Summary string `json:"summary"`
}

func (s *session) toolRows() []toolRow {
	return evalIn[[]toolRow](s.t, s.env.ff, s.panel, s.panelExpr(`[...document.querySelectorAll('#transcript details.tool-row')].map(d => ({
		tool: d.dataset.tool, isError: d.classList.contains('tool-error'),
		summary: d.querySelector('summary')?.innerText ?? ''}))`))
}

// journal is the background's run_state snapshot of the session's tab.
type journal struct {
	Status string `json:"status"`
	Final  string `json:"final"`
	Events []struct {
		Kind string `json:"kind"`
		Name string `json:"name"`
	} `json:"events"`
}

func (s *session) runState() journal {
	s.t.Helper()
	r := evalIn[struct {
		OK      bool     `json:"ok"`
		Error   string   `json:"error"`
		Journal *journal `json:"journal"`
	}](s.t, s.env.ff, s.env.bridge, fmt.Sprintf(`browser.runtime.sendMessage({action: "run_state", tabId: %d})`, s.tabID))
	if !r.OK || r.Journal == nil {
		s.t.Fatalf("run_state: ok=%v error=%q journal=%v", r.OK, r.Error, r.Journal)
	}
	return *r.Journal
}

// waitFor polls the boolean expression expr in bc until it is true.
func (s *session) waitFor(bc, what string, timeout time.Duration, expr string) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		var ok bool
		err := evalCtx(s.env.ff, bc, expr, &ok)
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out after %v waiting for %s (last error: %v)", timeout, what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// dumpOnFailure logs the panel and the model requests of a failed scenario.
func (s *session) dumpOnFailure() {
	if !s.t.Failed() {
		return
	}
	var transcript string
	evalCtx(s.env.ff, s.panel, s.panelExpr(`document.querySelector('#transcript')?.innerText ?? '(no #transcript)'`), &transcript)
	var b strings.Builder
	fmt.Fprintf(&b, "--- panel transcript:\n%s\n--- model requests:\n", transcript)
	for i, r := range s.srv.Requests() {
		fmt.Fprintf(&b, "#%d %s: %d messages, tools %v", i, r.Path, len(r.Messages), r.Tools)
		if n := len(r.Messages); n > 0 {
			fmt.Fprintf(&b, "; last %s: %s", r.Messages[n-1].Role, clip(r.Messages[n-1].Content, 400))
		}
		b.WriteByte('\n')
	}
	lines := s.env.ff.log.since(s.logMark)
	if len(lines) > 80 {
		lines = lines[len(lines)-80:]
	}
	fmt.Fprintf(&b, "--- browser output (last %d lines):\n%s\n", len(lines), strings.Join(lines, "\n"))
	s.t.Log("\n" + b.String())
}

// evalIn evaluates expr in bc of ff and fails the test on error.
func evalIn[T any](t *testing.T, ff *firefox, bc, expr string) T {
	t.Helper()
	var v T
	if err := evalCtx(ff, bc, expr, &v); err != nil {
		t.Fatalf("evaluate %s: %v", clip(strings.TrimSpace(expr), 80), err)
	}
	return v
}

func evalCtx(ff *firefox, bc, expr string, out any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return ff.eval(ctx, bc, expr, out)
}
