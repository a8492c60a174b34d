//go:build firefox

package firefox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// sidebarID is the id Firefox gives the add-on's sidebar_action: the gecko
// id with every character outside [a-z0-9_-] turned into "_".
func sidebarID() string {
	widget := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, strings.ToLower(geckoID))
	return widget + "-sidebar-action"
}

// openSidebarSession loads fixture in a new, active tab and opens the
// add-on's sidebar (sidebar_action), which binds itself to the active tab.
func openSidebarSession(t *testing.T, fixture string, srv *llmtest.Server) *session {
	t.Helper()
	e := sharedEnv(t)
	page, pageURL := openFixtureTab(t, e, fixture)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.ff.bidi.call(ctx, "browsingContext.activate", map[string]any{"context": page}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.ff.eval(ctx, e.chrome, fmt.Sprintf(`SidebarController.show(%q).then(() => true)`, sidebarID()), nil); err != nil {
		t.Fatalf("open the sidebar: %v", err)
	}
	t.Cleanup(func() { evalCtx(e.ff, e.chrome, `(SidebarController.hide(), true)`, nil) })

	s := newSession(t, e, srv, page, pageURL)
	s.panel, s.sidebar = e.bridge, true
	s.ready()
	return s
}

// The real sidebar: opened on a page, it binds to the active tab, and an
// Ask run from it reads that tab.
func TestSidebarRunsOnTheActiveTab(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return scenario.CallTool("get_accessibility_tree", map[string]any{})
		}
		if tree := scenario.LastToolResult(req); !strings.Contains(tree, "3,417 paper lanterns") {
			return scenario.ScriptFailed(errors.New("the tree lacks the lantern count:\n" + scenario.Clip(tree, 2000)))
		}
		return scenario.Answer("3,417 lanterns, says the sidebar.")
	})
	s := openSidebarSession(t, "article.html", srv)
	s.Send("ask", "How many lanterns?")

	if got := scenario.WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if got := scenario.Text(t, s, "#transcript .msg.assistant"); !strings.Contains(got, "3,417 lanterns, says the sidebar.") {
		t.Errorf("sidebar answer %q, want the lantern count", got)
	}
	if j := scenario.RunState(t, s); j.Status != "done" {
		t.Errorf("run_state of the active tab: status %q, want done", j.Status)
	}
}
