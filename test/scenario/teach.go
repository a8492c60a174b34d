package scenario

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// UserInput is a session whose suite can act in the page as the user
// does: input events the page sees as trusted.
type UserInput interface {
	UserClick(t testing.TB, css string)
	UserType(t testing.TB, css, text string)
}

// TeachRecordedAndReplayed: in teacher mode the user fills the form's email,
// ticks the checkbox and submits it themselves; /teach --end saves that as
// a workflow without the typed value; on a freshly loaded page /workflow
// --run replays it with a new email, without the model, asks before the
// submit, and the page receives it exactly once.
func TeachRecordedAndReplayed(t *testing.T, d Driver) {
	srv := llmtest.New(func(int, llmtest.Request) llmtest.Turn { return Answer("SCRIPT FAILED: teacher mode asked the model") })
	s := d.Open(t, "form.html", srv, OpenAIChat)
	user, ok := s.(UserInput)
	if !ok {
		t.Skip("this suite cannot act in the page as the user")
	}
	s.Send("act", "/teach --start")
	WaitFor(t, s, "the recording banner", 10*time.Second, `!document.getElementById('teach-banner').hidden`)

	user.UserClick(t, `input[name="email"]`)
	user.UserType(t, `input[name="email"]`, "ada@example.com")
	user.UserClick(t, `input[name="subscribe"]`)
	user.UserClick(t, `button[type="submit"]`)
	if got := PageRecord(t, s); len(got) != 1 {
		t.Fatalf("the user's own submit reached the page %d times", len(got))
	}
	key := fmt.Sprintf("teachSession:%d", s.TabID())
	WaitFor(t, s, "the three recorded actions", 10*time.Second, fmt.Sprintf(
		`%s.runtime.sendMessage({action: 'teach_state', tabId: %d}).then((r) => r.steps === 3)`, extAPI, s.TabID()))
	session := Eval[string](t, s, Extension, fmt.Sprintf(`%s.storage.session.get(%q).then((o) => JSON.stringify(o[%q]))`, extAPI, key, key))
	if strings.Contains(session, "ada@") {
		t.Fatalf("the recording holds the typed value: %s", session)
	}

	s.Send("act", "/teach --end Taught sign-up")
	WaitFor(t, s, "the save notice", 10*time.Second,
		`document.getElementById('teach-banner').hidden && [...document.querySelectorAll('#transcript .msg')].some((n) => n.innerText.includes('Saved workflow'))`)
	raw := Eval[string](t, s, Extension, extAPI+`.storage.local.get('wb_saved_workflows_v1').then((o) => JSON.stringify(o.wb_saved_workflows_v1 ?? []))`)
	var list []struct {
		ID     string `json:"id"`
		Name   string `json:"name"`
		Params []struct {
			Name string `json:"name"`
		} `json:"params"`
		Steps []struct {
			Action string `json:"action"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		t.Fatalf("stored workflows %s (%v)", raw, err)
	}
	saved := list[:0] // other scenarios of the suite may have saved theirs
	for _, w := range list {
		if w.Name == "Taught sign-up" {
			saved = append(saved, w)
		}
	}
	if strings.Contains(raw, "ada@") || len(saved) != 1 || len(saved[0].Params) != 1 || saved[0].Params[0].Name != "email" || len(saved[0].Steps) != 3 {
		t.Fatalf("stored workflow %s, want 3 steps and one parameter named email, no value", raw)
	}

	replayOnFreshPage(t, s, saved[0].ID, "bob@example.com")
	// The user showed the submit but asked for nothing in words: the
	// replay's submit waits for their approval, once.
	approve := `.approval-card.pending button[data-decision="approve"]`
	WaitFor(t, s, "the approval card of the submit", RunTimeout, fmt.Sprintf(`!!document.querySelector(%q)`, approve))
	s.Click(approve)
	WaitFor(t, s, "the replay's end", RunTimeout,
		`[...document.querySelectorAll('#transcript .msg.assistant, #transcript .msg.error')].some((n) => /Workflow “Taught sign-up”/.test(n.innerText))`)
	const want = `{"email":"bob@example.com","country":"","subscribe":true,"message":""}`
	if got := PageRecord(t, s); len(got) != 1 || got[0] != want {
		t.Fatalf("the page received %q, want exactly one submit of %s (panel: %s)", got, want, Text(t, s, "#transcript"))
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("teaching and replaying asked the model %d times", n)
	}
}
