//go:build firefox

package firefox

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

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
	page, pageURL := openFixtureTab(t, e, fixture)
	return attachSession(t, e, srv, page, pageURL)
}

// openSessionAt is openSession for any page URL.
func openSessionAt(t *testing.T, pageURL string, srv *llmtest.Server) *session {
	t.Helper()
	e := sharedEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	page, err := e.ff.openURL(ctx, pageURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.ff.closeContext(page) })
	return attachSession(t, e, srv, page, pageURL)
}

// openFixtureTab loads fixture in a new tab, closed when the test ends.
func openFixtureTab(t *testing.T, e *browserEnv, fixture string) (page, pageURL string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	page, pageURL, err := e.ff.openFixture(ctx, e.fixtures.URL, fixture, t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.ff.closeContext(page) })
	return page, pageURL
}

// attachSession opens the panel for the tab page (showing pageURL) and
// saves settings whose only provider is srv.
func attachSession(t *testing.T, e *browserEnv, srv *llmtest.Server, page, pageURL string) *session {
	t.Helper()
	s := newSession(t, e, srv, page, pageURL)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var err error
	if s.panel, err = e.ff.openExtPage(ctx, e.chrome, fmt.Sprintf("/sidepanel/sidepanel.html?tabId=%d", s.tabID)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.ff.closeContext(s.panel) })
	s.ready()
	return s
}

// newSession is a session on the tab page; the caller opens its panel and
// then calls ready.
func newSession(t *testing.T, e *browserEnv, srv *llmtest.Server, page, pageURL string) *session {
	t.Helper()
	s := &session{t: t, env: e, srv: srv, page: page, pageURL: pageURL, logMark: e.ff.log.mark()}
	t.Cleanup(srv.Close)
	s.tabID = s.tabIDOf(pageURL)
	return s
}

// ready waits for the open panel and saves settings whose only provider is
// s.srv, OpenAI chat without a key.
func (s *session) ready() {
	s.t.Helper()
	// Registered after the panel's close so it runs first, while the tabs live.
	s.t.Cleanup(s.dumpOnFailure)
	scenario.WaitPanelReady(s.t, s)
	scenario.SaveSettings(s.t, s, s.srv, scenario.OpenAIChat)
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

// Send picks mode ("ask" or "act"), writes prompt into the panel and
// clicks Send, as a person would. The panel takes the prompt at once (a
// sidebar that has not bound its tab yet holds it until it has).
func (s *session) Send(mode, prompt string) {
	s.t.Helper()
	expr := s.panelExpr(fmt.Sprintf(`(() => {
		const m = document.querySelector('#mode');
		m.value = %q;
		m.dispatchEvent(new Event('change', {bubbles: true}));
		const p = document.querySelector('#prompt');
		p.value = %q;
		p.dispatchEvent(new Event('input', {bubbles: true}));
		document.querySelector('#send').click();
		return p.value === '';
	})()`, mode, prompt))
	if !evalIn[bool](s.t, s.env.ff, s.panel, expr) {
		s.t.Fatal("the panel did not take the prompt: #prompt still holds it after Send")
	}
}

func (s *session) TabID() int { return s.tabID }

// DownloadDir implements scenario.DownloadDirer.
func (s *session) DownloadDir() string { return env.ff.downloads }

// Eval runs expr in the fixture tab, the panel (adapted by panelExpr) or
// the bridge page.
func (s *session) Eval(target scenario.Target, expr string, out any) error {
	switch target {
	case scenario.Page:
		return evalCtx(s.env.ff, s.page, expr, out)
	case scenario.Extension:
		return evalCtx(s.env.ff, s.env.bridge, expr, out)
	}
	return evalCtx(s.env.ff, s.panel, s.panelExpr(expr), out)
}

// Click clicks through script in the panel, as Send does: this suite
// drives the panel by script, not by input events.
func (s *session) Click(css string) {
	s.t.Helper()
	evalIn[bool](s.t, s.env.ff, s.panel, s.panelExpr(fmt.Sprintf(`(document.querySelector(%q).click(), true)`, css)))
}

// dumpOnFailure logs the panel and the model requests of a failed scenario.
func (s *session) dumpOnFailure() {
	if !s.t.Failed() {
		return
	}
	var transcript string
	evalCtx(s.env.ff, s.panel, s.panelExpr(`document.querySelector('#transcript')?.innerText ?? '(no #transcript)'`), &transcript)
	var b strings.Builder
	fmt.Fprintf(&b, "--- panel transcript:\n%s\n--- model requests:\n%s", transcript, scenario.SummarizeRequests(s.srv.Requests()))
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
		t.Fatalf("evaluate %s: %v", scenario.Clip(strings.TrimSpace(expr), 80), err)
	}
	return v
}

func evalCtx(ff *firefox, bc, expr string, out any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return ff.eval(ctx, bc, expr, out)
}
