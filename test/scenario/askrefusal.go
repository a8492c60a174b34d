package scenario

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

var notAllowed = regexp.MustCompile(`(?i)not (allowed|available|permitted)|read-only|cannot|can't`)

// AskRefusesAnAction: in Ask mode a model that asks for click_ax anyway
// gets a refusal as the tool result; the page is not touched and the run
// still answers.
func AskRefusesAnAction(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 1:
			ref, err := FindRef(LastToolResult(req), "button", "Delete account")
			if err != nil {
				return ScriptFailed(err)
			}
			return CallTool("click_ax", map[string]any{"ref": ref})
		}
		return Answer("I can't delete the account from Ask mode; switch to Act if you want that.")
	})
	s := d.Open(t, "buttons.html", srv, OpenAIChat)
	s.Send("ask", "Delete my account.")

	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if got := PageRecord(t, s); len(got) != 0 {
		t.Errorf("the page recorded clicks %q in Ask mode", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	if slices.Contains(reqs[0].Tools, "click_ax") {
		t.Errorf("Ask mode offered click_ax: %v", reqs[0].Tools)
	}
	refusal := LastToolResult(reqs[2])
	if !strings.Contains(strings.ToLower(refusal), "ask") || !notAllowed.MatchString(refusal) {
		t.Errorf("the model got %q for click_ax in Ask: want it not allowed in Ask mode", refusal)
	}
	if got := Text(t, s, "#transcript .msg.assistant"); !strings.Contains(got, "switch to Act") {
		t.Errorf("final answer %q missing", got)
	}
}
