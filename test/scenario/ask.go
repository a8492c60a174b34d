package scenario

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

var lanterns = regexp.MustCompile(`(\d[\d,]*) paper lanterns`)

// AskAnswersFromThePage: the model reads the page, then answers in Markdown
// with a fact that only the page holds; once over each wire format, with
// the key sent where that format wants it.
func AskAnswersFromThePage(t *testing.T, d Driver) {
	for _, tc := range []struct {
		kind      string
		path      string // where the fake expects the requests
		apiKey    string
		keyHeader string // where the key must travel
	}{
		{"openai-chat", "/v1/chat/completions", "", ""},
		{"anthropic", "/v1/messages", "sk-ant-scenario", "x-api-key"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
				if n == 0 {
					return CallTool("read_page", map[string]any{})
				}
				m := lanterns.FindStringSubmatch(LastToolResult(req))
				if m == nil {
					return Answer("SCRIPT FAILED: read_page did not return the lantern count")
				}
				return Answer("**Lanterns:** " + m[1] + "\n\n- held at Pier 9\n- first weekend of June")
			})
			s := d.Open(t, "article.html", srv, Provider{Kind: tc.kind, APIKey: tc.apiKey})
			s.Send("ask", "How many lanterns will float this year?")

			if got := WaitRunEnd(t, s); got != "done" {
				t.Fatalf("run status %q, want done", got)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model requests, want 2", len(reqs))
			}
			for i, r := range reqs {
				if r.Path != tc.path {
					t.Errorf("request %d went to %s, want %s", i, r.Path, tc.path)
				}
				if tc.keyHeader != "" && r.Header.Get(tc.keyHeader) != tc.apiKey {
					t.Errorf("request %d: %s header %q, want the saved key", i, tc.keyHeader, r.Header.Get(tc.keyHeader))
				}
			}
			if !slices.Contains(reqs[0].Tools, "read_page") || slices.Contains(reqs[0].Tools, "click_ax") {
				t.Errorf("Ask offered %v: want read_page and no click_ax", reqs[0].Tools)
			}
			rows := ToolRows(t, s)
			if len(rows) != 1 || rows[0].Tool != "read_page" || rows[0].Open || rows[0].IsError {
				t.Errorf("tool rows %+v, want one collapsed read_page row without error", rows)
			}
			if got := Text(t, s, "#transcript .msg.assistant strong"); got != "Lanterns:" {
				t.Errorf("bold text %q, want the Markdown **Lanterns:** rendered as <strong>", got)
			}
			if got := Count(t, s, "#transcript .msg.assistant li"); got != 2 {
				t.Errorf("%d list items in the answer, want 2", got)
			}
			if got := Text(t, s, "#transcript .msg.assistant"); !strings.Contains(got, "3,417") {
				t.Errorf("answer %q lacks the page's fact 3,417", got)
			}
			if got := Text(t, s, "#transcript .msg.user"); got != "How many lanterns will float this year?" {
				t.Errorf("user message %q", got)
			}
		})
	}
}

// AnswerHTMLIsShownAsText: a model's answer can carry HTML; the panel shows
// it as text and runs none of it.
func AnswerHTMLIsShownAsText(t *testing.T, d Driver) {
	const raw = `Look: <img src=x onerror="window.__pwned=1"> and <script>window.__pwned=2</script> end.`
	srv := llmtest.NewTurns(Answer(raw))
	s := d.Open(t, "article.html", srv, OpenAIChat)
	s.Send("ask", "Say something dangerous")

	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if n := Count(t, s, "#transcript img, #transcript script, #transcript [onerror]"); n != 0 {
		t.Errorf("%d img/script/onerror elements from the model's text reached the DOM", n)
	}
	if pwned := Eval[bool](t, s, Panel, `'__pwned' in window`); pwned {
		t.Error("the model's HTML ran in the panel")
	}
	got := Text(t, s, "#transcript .msg.assistant")
	for _, want := range []string{`<img src=x onerror=`, `<script>window.__pwned=2</script>`} {
		if !strings.Contains(got, want) {
			t.Errorf("answer %q does not show %q as text", got, want)
		}
	}
}
