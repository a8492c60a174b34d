//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// runTimeout bounds one agent run; the fake model answers at once.
const runTimeout = scenario.RunTimeout

// provider is the part of the saved provider a test chooses.
type provider = scenario.Provider

var openAIChat = scenario.OpenAIChat

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
	return openSessionAt(t, env.fixtures.URL+"/"+fixture+"?test="+url.QueryEscape(t.Name()), srv, p)
}

// openSessionAt is openSession for any page URL (the injection suite's
// sites live on other hosts than the fixture server).
func openSessionAt(t *testing.T, pageURL string, srv *llmtest.Server, p provider) *session {
	t.Helper()
	s := &session{t: t, srv: srv, panelLog: &consoleLog{}, workerMark: env.workerLg.mark()}
	t.Cleanup(srv.Close)

	page, cancelPage := chromedp.NewContext(env.browser)
	t.Cleanup(cancelPage)
	s.page = page
	s.pageURL = pageURL
	if err := chromedp.Do(page, chromedp.Navigate(s.pageURL)); err != nil {
		t.Fatalf("open %s: %v", pageURL, err)
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
	scenario.WaitPanelReady(t, s)
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

func (s *session) saveSettings(p provider) {
	s.t.Helper()
	scenario.SaveSettings(s.t, s, s.srv, p)
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
	return scenario.WaitRunEnd(s.t, s)
}

func (s *session) runStatus() string {
	s.t.Helper()
	return scenario.RunStatus(s.t, s)
}

// text returns the innerText of the first element matching css in the panel
// ("" when there is none).
func (s *session) text(css string) string {
	s.t.Helper()
	return scenario.Text(s.t, s, css)
}

// count returns how many elements match css in the panel.
func (s *session) count(css string) int {
	s.t.Helper()
	return scenario.Count(s.t, s, css)
}

// toolRow is one details.tool-row of the transcript.
type toolRow = scenario.ToolRow

func (s *session) toolRows() []toolRow {
	s.t.Helper()
	return scenario.ToolRows(s.t, s)
}

// pageRecord returns what the fixture page recorded in window.__record.
func (s *session) pageRecord() []string {
	s.t.Helper()
	return scenario.PageRecord(s.t, s)
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
	fmt.Fprintf(&b, "--- model requests:\n%s", scenario.SummarizeRequests(s.srv.Requests()))
	fmt.Fprintf(&b, "--- service worker console:\n%s\n", strings.Join(env.workerLg.since(s.workerMark), "\n"))
	fmt.Fprintf(&b, "--- panel console:\n%s\n", strings.Join(s.panelLog.since(0), "\n"))
	s.t.Log("\n" + b.String())
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return clip(line, 80)
}
