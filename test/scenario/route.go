package scenario

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// routingModel answers Ask turns from the page and does the sign-up in Act
// turns; its decision model reads a question as Ask and anything else as Act.
func routingModel() *llmtest.Server {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if !slices.Contains(req.Tools, "click_ax") {
			return Answer("This page is a newsletter sign-up form.")
		}
		switch ToolResults(req) {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 1:
			tree := LastToolResult(req)
			email, err := FindRef(tree, "textbox", "Email")
			if err != nil {
				return ScriptFailed(err)
			}
			return CallTool("type_ax", map[string]any{"ref": email, "text": "ada@example.com"})
		case 2:
			tree := ""
			for _, m := range req.Messages {
				if m.Role == llm.RoleTool && strings.Contains(m.Content, `button "Sign up"`) {
					tree = m.Content
				}
			}
			submit, err := FindRef(tree, "button", "Sign up")
			if err != nil {
				return ScriptFailed(err)
			}
			return CallTool("click_ax", map[string]any{"ref": submit})
		}
		return Answer("Signed up.")
	})
	srv.Decider = func(req llmtest.Request) llmtest.Turn {
		// Only the request counts, not what it says about earlier ones.
		_, request, _ := strings.Cut(req.Messages[1].Content, "<request>")
		request, _, _ = strings.Cut(request, "</request>")
		if strings.Contains(request, "What is") {
			return llmtest.Turn{Text: `{"choice":"ask","confidence":0.95,"quote":"What is"}`}
		}
		return llmtest.Turn{Text: `{"choice":"act","confidence":0.95,"quote":"Sign me up"}`}
	}
	return srv
}

// useDecisionModel names the session's provider as the decision model.
func useDecisionModel(t *testing.T, s Session) {
	t.Helper()
	editSettings(t, s, func(settings map[string]any) { settings["decisionProvider"] = "fake" })
}

// AutoRoutesQuestionsToAskAndTasksToAct: in the panel's default Auto mode,
// with a decision model, a question runs read-only and a task runs in
// Act, each reported by a run_mode event; the question never reaches a
// tool that changes the page.
func AutoRoutesQuestionsToAskAndTasksToAct(t *testing.T, d Driver) {
	srv := routingModel()
	s := d.Open(t, "form.html", srv, OpenAIChat)
	useDecisionModel(t, s)

	s.Send("auto", "What is this form for?")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("the question ended %q", got)
	}
	if mode := routedMode(t, s); mode != "ask" {
		t.Fatalf("the question was routed to %q", mode)
	}
	if got := PageRecord(t, s); len(got) != 0 {
		t.Fatalf("a question changed the page: %q", got)
	}

	s.Send("auto", "Sign me up as ada@example.com.")
	if got, _ := AnswerCardsUntilEnd(t, s, func(string) string { return "approve" }); got != "done" {
		t.Fatalf("the task ended %q", got)
	}
	if mode := routedMode(t, s); mode != "act" {
		t.Fatalf("the task was routed to %q", mode)
	}
	if got := PageRecord(t, s); len(got) != 1 || !strings.Contains(got[0], "ada@example.com") {
		t.Fatalf("the task left the page with %q", got)
	}
	for _, q := range srv.DecisionRequests() {
		if strings.Contains(q.Messages[1].Content, "Newsletter") {
			t.Fatal("a routing question carried page text")
		}
	}
}

// routedMode is the mode of the last run's run_mode event.
func routedMode(t *testing.T, s Session) string {
	t.Helper()
	var j struct {
		Events []struct {
			Kind string `json:"kind"`
			Mode string `json:"mode"`
		} `json:"events"`
	}
	raw := StoredJournal(t, s)
	var wrapped map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &wrapped); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(wrapped[fmt.Sprintf("runUi:%d", s.TabID())], &j); err != nil {
		t.Fatal(err)
	}
	mode := ""
	for _, ev := range j.Events {
		if ev.Kind == "run_mode" {
			mode = ev.Mode
		}
	}
	return mode
}
