//go:build firefox

package firefox

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

var lanterns = regexp.MustCompile(`(\d[\d,]*) paper lanterns`)

// Over the Anthropic wire format the model reads the page and answers in
// Markdown; the key travels in x-api-key and the panel renders the Markdown.
func TestAskOverAnthropic(t *testing.T) {
	const key = "sk-ant-ff"
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return callTool("read_page", map[string]any{})
		}
		m := lanterns.FindStringSubmatch(lastToolResult(req))
		if m == nil {
			return answer("SCRIPT FAILED: read_page did not return the lantern count")
		}
		return answer("**Lanterns:** " + m[1] + "\n\n- held at Pier 9\n- first weekend of June")
	})
	s := openSession(t, "article.html", srv)
	s.saveProvider("anthropic", key)
	s.send("ask", "How many lanterns will float this year?")

	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		if r.Path != "/v1/messages" {
			t.Errorf("request %d went to %s, want /v1/messages", i, r.Path)
		}
		if got := r.Header.Get("x-api-key"); got != key {
			t.Errorf("request %d: x-api-key %q, want the saved key", i, got)
		}
	}
	if !slices.Contains(reqs[0].Tools, "read_page") || slices.Contains(reqs[0].Tools, "click_ax") {
		t.Errorf("Ask offered %v: want read_page and no click_ax", reqs[0].Tools)
	}
	rows := s.toolRows()
	if len(rows) != 1 || rows[0].Tool != "read_page" || rows[0].IsError {
		t.Errorf("tool rows %+v, want one read_page row without error", rows)
	}
	if got := s.text("#transcript .msg.assistant strong"); got != "Lanterns:" {
		t.Errorf("bold text %q, want the Markdown **Lanterns:** rendered as <strong>", got)
	}
	if got := s.count("#transcript .msg.assistant li"); got != 2 {
		t.Errorf("%d list items in the answer, want 2", got)
	}
	if got := s.text("#transcript .msg.assistant"); !strings.Contains(got, "3,417") {
		t.Errorf("answer %q lacks the page's fact 3,417", got)
	}
}

// A model's answer can carry HTML; the panel shows it as text and runs none.
func TestAnswerHTMLIsShownAsText(t *testing.T) {
	const raw = `Look: <img src=x onerror="window.__pwned=1"> and <script>window.__pwned=2</script> end.`
	srv := llmtest.NewTurns(answer(raw))
	s := openSession(t, "article.html", srv)
	s.send("ask", "Say something dangerous")

	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if n := s.count("#transcript img, #transcript script, #transcript [onerror]"); n != 0 {
		t.Errorf("%d img/script/onerror elements from the model's text reached the DOM", n)
	}
	if pwned := evalIn[bool](t, s.env.ff, s.panel, `'__pwned' in window`); pwned {
		t.Error("the model's HTML ran in the panel")
	}
	got := s.text("#transcript .msg.assistant")
	for _, want := range []string{`<img src=x onerror=`, `<script>window.__pwned=2</script>`} {
		if !strings.Contains(got, want) {
			t.Errorf("answer %q does not show %q as text", got, want)
		}
	}
}
