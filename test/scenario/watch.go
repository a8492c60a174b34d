package scenario

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// WatchChecksInABackgroundTab: /watch starts a watch of the tab's page;
// its first check runs at once in a background tab of its own, reads the
// page and, the event having happened, completes the watch and closes its
// tab, while the user's tab stays as it was.
func WatchChecksInABackgroundTab(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if LastToolResult(req) == "" {
			return CallTool("read_page", map[string]any{})
		}
		if strings.Contains(LastToolResult(req), "lanterns") {
			return CallTool("done", map[string]any{"summary": "The article mentions the lanterns.", "status": "success"})
		}
		return CallTool("done", map[string]any{"summary": "Not yet.", "status": "partial"})
	})
	s := d.Open(t, "article.html", srv, OpenAIChat)
	here := Eval[string](t, s, Page, `location.href`)
	s.Send("ask", "/watch the article mentions lanterns")
	WaitFor(t, s, "the watch notice", 10*time.Second,
		`[...document.querySelectorAll('#transcript .msg.notice')].some(n => n.textContent.startsWith('Watching this page'))`)
	// Other scenarios in the same browser may have left watches of their own.
	state := func() string {
		return Eval[string](t, s, Panel, fmt.Sprintf(`%s.runtime.sendMessage({action: 'jobs_list'}).then(r => r.jobs.filter(j => j.source === 'watch' && j.prompt.includes('the article mentions lanterns')).map(j => j.state).join(','))`, extAPI))
	}
	deadline := time.Now().Add(RunTimeout)
	for state() != "completed" {
		if time.Now().After(deadline) {
			t.Fatalf("watch state %q", state())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if user := srv.Requests()[0].Messages[1].Content; !strings.Contains(user, "Watch this page for: the article mentions lanterns") {
		t.Fatalf("the check was asked %q", Clip(user, 200))
	}
	tabs := Eval[int](t, s, Panel, fmt.Sprintf(`%s.tabs.query({}).then(ts => ts.filter(t => t.url === %q).length)`, extAPI, here))
	if tabs != 1 {
		t.Fatalf("%d tabs show the page: the watch's tab was not closed", tabs)
	}
	if got := Eval[string](t, s, Page, `location.href`); got != here {
		t.Fatalf("the user's tab moved to %s", got)
	}
}
