//go:build firefox

package firefox

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

var notAllowed = regexp.MustCompile(`(?i)not (allowed|available|permitted)|read-only|cannot|can't`)

// In Ask mode a model that requests click_ax anyway gets a refusal as the
// tool result; the page records no click and the run still answers.
func TestAskRefusesAnAction(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return callTool("get_accessibility_tree", map[string]any{})
		case 1:
			ref, err := findRef(lastToolResult(req), "button", "Delete account")
			if err != nil {
				return scriptFailed(err)
			}
			return callTool("click_ax", map[string]any{"ref": ref})
		}
		return answer("I can't delete the account from Ask mode; switch to Act if you want that.")
	})
	s := openSession(t, "buttons.html", srv)
	s.send("ask", "Delete my account.")

	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if got := s.pageRecord(); len(got) != 0 {
		t.Errorf("the page recorded clicks %q in Ask mode", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	if slices.Contains(reqs[0].Tools, "click_ax") {
		t.Errorf("Ask mode offered click_ax: %v", reqs[0].Tools)
	}
	refusal := lastToolResult(reqs[2])
	if !strings.Contains(strings.ToLower(refusal), "ask") || !notAllowed.MatchString(refusal) {
		t.Errorf("the model got %q for click_ax in Ask: want it not allowed in Ask mode", refusal)
	}
	if got := s.text("#transcript .msg.assistant"); !strings.Contains(got, "switch to Act") {
		t.Errorf("final answer %q missing", got)
	}
}
