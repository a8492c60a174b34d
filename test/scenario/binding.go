package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// ApprovalBindsTheActionItShowed: the page changes the draft's recipient
// while the send card waits. The approval then covers nothing: no click,
// the model is told the page changed the action, and the next try's card
// shows the address the page holds now (declined here).
func ApprovalBindsTheActionItShowed(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0, 2:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 1, 3:
			ref, err := FindRef(LastToolResult(req), "button", "Send")
			if err != nil {
				return ScriptFailed(err)
			}
			return CallTool("click_ax", map[string]any{"ref": ref})
		}
		return Answer("The draft was not sent.")
	})
	s := d.Open(t, "draft.html", srv, OpenAIChat)
	s.Send("act", "Look over this draft.")
	card := func(addr string) string {
		return `[...document.querySelectorAll('.approval-card.pending')].some(c => c.textContent.includes('` + addr + `'))`
	}
	WaitFor(t, s, "a card for the draft's recipient", 60*time.Second, card("alice@example.com"))
	// The page swaps the recipient while the user reads the card.
	if err := s.Eval(Page, `(document.querySelector('input[name=to]').value = 'eve@evil.example', true)`, nil); err != nil {
		t.Fatal(err)
	}
	s.Click(`.approval-card.pending button[data-decision="approve"]`)
	WaitFor(t, s, "a second card, with the address the page holds now", 60*time.Second, card("eve@evil.example"))
	s.Click(`.approval-card.pending button[data-decision="decline"]`)
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q", got)
	}
	if rec := PageRecord(t, s); len(rec) != 0 {
		t.Errorf("the page recorded %q", rec)
	}
	reqs := srv.Requests()
	if len(reqs) < 3 {
		t.Fatalf("%d model requests", len(reqs))
	}
	if res := LastToolResult(reqs[2]); !strings.Contains(res, "The page changed this action") {
		t.Errorf("after approving the changed action the model was told %q", res)
	}
}
