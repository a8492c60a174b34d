//go:build firefox

package firefox

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// A tab opened before the add-on was installed works too: the content
// scripts are injected on the first tool call (jsglue/host.js), whenever the
// page was opened. Its own browser: the shared one has the add-on from the
// start.
func TestTabOpenedBeforeInstall(t *testing.T) {
	dir := distDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ff, err := startFirefox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer ff.close()
	fixtures := newFixtureServer(dir)
	defer fixtures.Close()
	page, pageURL, err := ff.openFixture(ctx, fixtures.URL, "article.html", t.Name())
	if err != nil {
		t.Fatal(err)
	}
	e, err := installEnv(ctx, ff, dir, fixtures)
	if err != nil {
		t.Fatal(err)
	}

	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return scenario.CallTool("get_accessibility_tree", map[string]any{})
		}
		if tree := scenario.LastToolResult(req); !strings.Contains(tree, "3,417 paper lanterns") {
			return scenario.ScriptFailed(errors.New("the tree lacks the lantern count:\n" + scenario.Clip(tree, 2000)))
		}
		return scenario.Answer("3,417 lanterns.")
	})
	s := attachSession(t, e, srv, page, pageURL)
	s.Send("ask", "How many lanterns?")
	if got := scenario.WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if rows := scenario.ToolRows(t, s); len(rows) != 1 || rows[0].IsError {
		t.Errorf("tool rows %+v, want one successful get_accessibility_tree", rows)
	}
	if got := scenario.Text(t, s, "#transcript .msg.assistant"); !strings.Contains(got, "3,417 lanterns") {
		t.Errorf("answer %q, want the lantern count", got)
	}
}
