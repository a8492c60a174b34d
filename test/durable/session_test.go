//go:build e2e

package durable

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

const runTimeout = 45 * time.Second

// session is a fixture tab with a side panel bound to it.
type session struct {
	t           *testing.T
	srv         *llmtest.Server
	page, panel context.Context
	closePanel  context.CancelFunc
	tabID       int
}

func openSession(t *testing.T, srv *llmtest.Server) *session {
	t.Helper()
	return openSessionAt(t, srv, "/counter.html?test="+url.QueryEscape(t.Name()))
}

// openSessionAt opens the fixture page at path (with its query).
func openSessionAt(t *testing.T, srv *llmtest.Server, path string) *session {
	t.Helper()
	s := &session{t: t, srv: srv}
	t.Cleanup(srv.Close)
	page, cancel := chromedp.NewContext(env.browser)
	t.Cleanup(cancel)
	s.page = page
	pageURL := env.fixtures.URL + path
	if err := chromedp.Do(page, chromedp.Navigate(pageURL)); err != nil {
		t.Fatalf("open the fixture: %v", err)
	}
	ids := evalIn[[]int](t, env.control, fmt.Sprintf(`chrome.tabs.query({}).then(ts => ts.filter(t => t.url === %q).map(t => t.id))`, pageURL), chromedp.EvalAwaitPromise)
	if len(ids) != 1 {
		t.Fatalf("tab ids of the fixture: %v", ids)
	}
	s.tabID = ids[0]
	s.openPanel()
	t.Cleanup(func() { s.closePanel() })
	t.Cleanup(s.dumpOnFailure)
	s.saveSettings()
	return s
}

// openPanel opens (again) the side panel page for the tab.
func (s *session) openPanel() {
	s.t.Helper()
	panel, cancel := chromedp.NewContext(env.browser)
	s.panel, s.closePanel = panel, cancel
	panelURL := fmt.Sprintf("chrome-extension://%s/sidepanel/sidepanel.html?tabId=%d", env.extID, s.tabID)
	if err := chromedp.Do(panel, chromedp.Navigate(panelURL)); err != nil {
		s.t.Fatalf("open the panel: %v", err)
	}
	waitFor(s.t, panel, "the panel's script (body[data-ready])", 10*time.Second, `document.body?.dataset.ready === 'true'`)
}

func (s *session) saveSettings() {
	s.t.Helper()
	settings := map[string]any{
		"providers": []map[string]any{{"id": "fake", "name": "Fake", "kind": "openai-chat", "baseUrl": s.srv.URL + "/v1",
			"apiKey": "", "model": llmtest.Model, "tier": "mid", "contextWindow": 0}},
		"activeProvider": "fake", "maxSteps": 30,
	}
	msg, _ := json.Marshal(map[string]any{"action": "settings_save", "settings": settings})
	r := evalIn[map[string]any](s.t, s.panel, fmt.Sprintf(`chrome.runtime.sendMessage(%s)`, msg), chromedp.EvalAwaitPromise)
	if r["ok"] != true {
		s.t.Fatalf("settings_save: %v", r)
	}
}

// type enters text in the composer and presses Enter (Alt+Enter to steer).
func (s *session) typeEnter(mode, text string, alt bool) {
	s.t.Helper()
	evalIn[chromedp.Void](s.t, s.panel, fmt.Sprintf(`(() => {
		const m = document.querySelector('#mode');
		m.value = %q;
		m.dispatchEvent(new Event('change', {bubbles: true}));
		const p = document.querySelector('#prompt');
		p.value = %q;
		p.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', altKey: %v, bubbles: true, cancelable: true}));
	})()`, mode, text, alt))
}

func (s *session) status() string {
	return evalIn[string](s.t, s.panel, `document.querySelector('#transcript').dataset.runStatus`)
}

func (s *session) waitStatus(want string) {
	s.t.Helper()
	waitFor(s.t, s.panel, "run status "+want, runTimeout, fmt.Sprintf(`document.querySelector('#transcript').dataset.runStatus === %q`, want))
}

func (s *session) waitRunEnd() string {
	s.t.Helper()
	waitFor(s.t, s.panel, "the run to end", runTimeout,
		`['done', 'error', 'stopped'].includes(document.querySelector('#transcript').dataset.runStatus)`)
	return s.status()
}

// texts returns the innerText of every element matching css in the panel.
// texts is the visible text of each element css matches, less an
// answer's token and cost line (the answer is what the model said).
func (s *session) texts(css string) []string {
	return evalIn[[]string](s.t, s.panel, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => {
		const usage = e.querySelector(':scope > .run-usage')?.innerText ?? '';
		return (usage ? e.innerText.replace(usage, '') : e.innerText).trim();
	})`, css))
}

func (s *session) clicks() int {
	return evalIn[int](s.t, s.page, `(window.__record ?? []).length`)
}

// waitRequests waits until the model received n requests.
func (s *session) waitRequests(n int) {
	s.t.Helper()
	deadline := time.Now().Add(runTimeout)
	for len(s.srv.Requests()) < n {
		if time.Now().After(deadline) {
			s.t.Fatalf("the model got %d requests, want %d", len(s.srv.Requests()), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *session) dumpOnFailure() {
	if !s.t.Failed() {
		return
	}
	transcript, _ := chromedp.Run(s.panel, chromedp.Evaluate[string](`document.querySelector('#transcript')?.innerText ?? ''`))
	var b strings.Builder
	for i, r := range s.srv.Requests() {
		last := r.Messages[len(r.Messages)-1]
		fmt.Fprintf(&b, "#%d %d messages; last %s %s: %.200s\n", i, len(r.Messages), last.Role, last.Name, last.Content)
	}
	s.t.Logf("panel transcript:\n%s\nmodel requests:\n%s", transcript, b.String())
}

// lastTool is the name of the newest tool message ("" when none).
func lastTool(req llmtest.Request) (name, content string) {
	names := map[string]string{}
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			names[c.ID] = c.Name
		}
	}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role == llm.RoleTool {
			return names[m.ToolCallID], m.Content
		}
	}
	return "", ""
}

// corrections lists the corrections in a request, in order.
func corrections(req llmtest.Request) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser && strings.HasPrefix(m.Content, "Correction from the user") {
			out = append(out, m.Content[strings.LastIndex(m.Content, ": ")+2:])
		}
	}
	return out
}
