package scenario

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// ResearchURLReadsARenderedPage: Ask's research_url reads a page whose text
// only its script writes, in a background tab that is closed after, and
// the run's own tab stays where it was.
func ResearchURLReadsARenderedPage(t *testing.T, d Driver) {
	var target string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return CallTool("research_url", map[string]any{"url": target})
		}
		if r := LastToolResult(req); strings.Contains(r, "4,200 lanterns") {
			return Answer("About 4,200 lanterns.")
		}
		return Answer("SCRIPT FAILED: research_url returned " + Clip(LastToolResult(req), 300))
	})
	s := d.Open(t, "article.html", srv, OpenAIChat)
	here := Eval[string](t, s, Page, `location.href`)
	target = Eval[string](t, s, Page, `location.origin`) + "/scripted.html"
	s.Send("ask", "How many lanterns are expected? The figures page has it.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q", got)
	}
	if got := Text(t, s, "#transcript .msg.assistant"); !strings.Contains(got, "4,200") {
		t.Fatalf("answer %q", got)
	}
	if got := Eval[string](t, s, Page, `location.href`); got != here {
		t.Fatalf("the run's tab moved to %s", got)
	}
	open := Eval[int](t, s, Panel, fmt.Sprintf(`%s.tabs.query({}).then(ts => ts.filter(t => (t.url || '').endsWith('/scripted.html')).length)`, extAPI))
	if open != 0 {
		t.Fatalf("%d research tabs left open", open)
	}
}
