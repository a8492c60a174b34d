package scenario

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// signUpPlan is the planner's reply for the sign-up task: two steps.
const signUpPlan = `{"action":"execute","summary":"Sign up with the given email.","steps":["Type ada@example.com into Email","Click Sign up"],"risks":[],"question":null,"recipients":[],"localized":null}`

// signUpModel reads the tree, types the email, clicks Sign up and answers.
func signUpModel() *llmtest.Server {
	var email, submit string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 1:
			tree := LastToolResult(req)
			var err error
			if email, err = FindRef(tree, "textbox", "Email"); err != nil {
				return ScriptFailed(err)
			}
			if submit, err = FindRef(tree, "button", "Sign up"); err != nil {
				return ScriptFailed(err)
			}
			return CallTool("type_ax", map[string]any{"ref": email, "text": "ada@example.com"})
		case 2:
			return CallTool("click_ax", map[string]any{"ref": submit})
		}
		return Answer("Signed up.")
	})
	srv.Planner = func(llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: signUpPlan} }
	return srv
}

// usePlanner saves the session's settings again with the planner level.
func usePlanner(t *testing.T, s Session, level string) {
	t.Helper()
	editSettings(t, s, func(settings map[string]any) { settings["planner"] = level })
}

// editSettings reads the settings through settings_get, lets edit change
// them and saves them through settings_save, as the settings page does.
func editSettings(t *testing.T, s Session, edit func(map[string]any)) {
	t.Helper()
	r := Eval[struct {
		OK       bool            `json:"ok"`
		Error    string          `json:"error"`
		Settings json.RawMessage `json:"settings"`
	}](t, s, Panel, fmt.Sprintf(`%s.runtime.sendMessage({action: "settings_get"})`, extAPI))
	if !r.OK {
		t.Fatalf("settings_get: %s", r.Error)
	}
	var settings map[string]any
	if err := json.Unmarshal(r.Settings, &settings); err != nil {
		t.Fatal(err)
	}
	edit(settings)
	msg, _ := json.Marshal(map[string]any{"action": "settings_save", "settings": settings})
	if saved := Eval[reply](t, s, Panel, fmt.Sprintf(`%s.runtime.sendMessage(%s)`, extAPI, msg)); !saved.OK {
		t.Fatalf("settings_save: %s", saved.Error)
	}
}

// StrictPlanIsReviewedBeforeActing: with the planner on Strict the plan is
// shown on WebBrain's card before any page action. Rejected, the run ends
// with the page untouched and no model turn with tools; approved, the run
// follows the plan and the card precedes every tool call in the journal.
func StrictPlanIsReviewedBeforeActing(t *testing.T, d Driver) {
	const task = "Sign me up as ada@example.com."
	card := `.plan-card[data-plan-id="plan-1"]`

	t.Run("reject", func(t *testing.T) { rejectPlan(t, d, task, card) })
	t.Run("approve", func(t *testing.T) { approvePlan(t, d, task, card) })
}

func rejectPlan(t *testing.T, d Driver, task, card string) {
	srv := signUpModel()
	s := d.Open(t, "form.html", srv, OpenAIChat)
	usePlanner(t, s, "strict")
	s.Send("act", task)
	WaitFor(t, s, "the plan review card", RunTimeout, fmt.Sprintf(`!!document.querySelector('%s [data-decision="reject"]')`, card))
	if got := Text(t, s, card+" .plan-steps"); !strings.Contains(got, "Click Sign up") {
		t.Fatalf("the card shows %q", got)
	}
	s.Click(card + ` [data-decision="reject"]`)
	if got := WaitRunEnd(t, s); got != "stopped" {
		t.Fatalf("after a rejection the run ended %q, want stopped", got)
	}
	if got := PageRecord(t, s); len(got) != 0 || len(srv.Requests()) != 0 {
		t.Fatalf("after a rejection the page recorded %q and the model got %d requests", got, len(srv.Requests()))
	}
}

func approvePlan(t *testing.T, d Driver, task, card string) {
	srv2 := signUpModel()
	s2 := d.Open(t, "form.html", srv2, OpenAIChat)
	usePlanner(t, s2, "strict")
	s2.Send("act", task)
	WaitFor(t, s2, "the plan review card", RunTimeout, fmt.Sprintf(`!!document.querySelector('%s [data-decision="approve"]')`, card))
	s2.Click(card + ` [data-decision="approve"]`)
	// The action gate still asks before the submit ("sign me up" does not
	// say submit): the user approves that too.
	if got, _ := AnswerCardsUntilEnd(t, s2, func(string) string { return "approve" }); got != "done" {
		t.Fatalf("after approval the run ended %q, want done", got)
	}
	if got := PageRecord(t, s2); len(got) != 1 || !strings.Contains(got[0], "ada@example.com") {
		t.Fatalf("after approval the page recorded %q", got)
	}
	review, firstTool := -1, -1
	for i, ev := range RunState(t, s2).Events {
		switch {
		case ev.Kind == "plan_review" && review < 0:
			review = i
		case ev.Kind == "tool_call" && firstTool < 0:
			firstTool = i
		}
	}
	if review < 0 || firstTool < review {
		t.Fatalf("plan_review at %d, first tool_call at %d: the review must come first", review, firstTool)
	}
	if sys := srv2.Requests()[0].Messages[0].Content; !strings.Contains(sys, "[Approved plan]") {
		t.Fatalf("the approved plan is not in the system prompt")
	}
}
