package scenario

import (
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// FalseSuccessIsNotReported: a model that claims success after the page
// refused the payment (an incomplete card number) is sent back once with
// the page's errors, and when it claims success again the run ends as not
// completed, with the page's words in the answer.
func FalseSuccessIsNotReported(t *testing.T, d Driver) {
	var card, pay string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch ToolResults(req) {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 1:
			tree := LastToolResult(req)
			var err error
			if card, err = FindRef(tree, "textbox", "Card number"); err != nil {
				return ScriptFailed(err)
			}
			if pay, err = FindRef(tree, "button", "Pay 48.00 EUR"); err != nil {
				return ScriptFailed(err)
			}
			return CallTool("type_ax", map[string]any{"ref": card, "text": "4242 4242"})
		case 2:
			return CallTool("click_ax", map[string]any{"ref": pay})
		}
		return CallTool("done", map[string]any{"summary": "Paid invoice 2041.", "status": "success"})
	})
	s := d.Open(t, "payment.html", srv, OpenAIChat)
	s.Send("act", "Pay invoice 2041 with my card 4242 4242.")
	if got, _ := AnswerCardsUntilEnd(t, s, func(string) string { return "approve" }); got != "done" {
		t.Fatalf("the run ended %q", got)
	}
	if got := PageRecord(t, s); len(got) != 0 {
		t.Fatalf("the page recorded a payment: %q", got)
	}
	answer := Text(t, s, "#transcript .msg.assistant")
	if !strings.Contains(answer, "Not completed") || !strings.Contains(answer, "could not confirm") || !strings.Contains(answer, "card number is incomplete") {
		t.Fatalf("the answer reads as success: %q", answer)
	}
	sentBack := false
	for _, r := range srv.Requests() {
		for _, m := range r.Messages {
			if m.Role == llm.RoleTool && strings.Contains(m.Content, "Not finished") {
				sentBack = true
			}
		}
	}
	if !sentBack {
		t.Fatal("the first success claim was not sent back to the model")
	}
}
