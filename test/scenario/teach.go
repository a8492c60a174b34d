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

// TeachFollowsSinglePageNavigation: teacher mode on a single-page app,
// whose views change with history.pushState and no document load. The
// app routes to its settings by itself (a navigate step), the user fills
// the display name and saves, and the app pushes its "saved" view (the
// Save click's result, not a step). The recording follows the app's
// addresses; the taught workflow replays from the home view: it opens the
// settings address, fills a new name and saves, once.
func TeachFollowsSinglePageNavigation(t *testing.T, d Driver) {
	srv := llmtest.New(func(int, llmtest.Request) llmtest.Turn { return Answer("SCRIPT FAILED: teacher mode asked the model") })
	s := d.Open(t, "spa/", srv, OpenAIChat)
	user, ok := s.(UserInput)
	if !ok {
		t.Skip("this suite cannot act in the page as the user")
	}
	s.Send("act", "/teach --start")
	WaitFor(t, s, "the recording banner", 10*time.Second, `!document.getElementById('teach-banner').hidden`)
	steps := func(n int) string {
		return fmt.Sprintf(`%s.runtime.sendMessage({action: 'teach_state', tabId: %d}).then((r) => r.steps === %d)`, extAPI, s.TabID(), n)
	}
	// The app routes by itself, as after a redirect: a navigation of its own.
	if err := s.Eval(Page, `(window.__go('/spa/settings'), true)`, nil); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, s, "the app's own navigation as a step", 10*time.Second, steps(1))
	user.UserClick(t, `input[name="display"]`)
	user.UserType(t, `input[name="display"]`, "Ada")
	user.UserClick(t, `#profile button[type="submit"]`)
	waitInPage(t, s, "the saved view", `location.pathname === '/spa/saved'`)
	WaitFor(t, s, "the field and the Save click", 10*time.Second, steps(3))
	key := fmt.Sprintf("teachSession:%d", s.TabID())
	var session struct {
		Family string `json:"family"`
		Steps  []struct {
			Kind string `json:"kind"`
		} `json:"steps"`
	}
	// The tab's address change after Save is handled, and is not a step.
	deadline := time.Now().Add(10 * time.Second)
	for {
		raw := Eval[string](t, s, Extension, fmt.Sprintf(`%s.storage.session.get(%q).then((o) => JSON.stringify(o[%q]))`, extAPI, key, key))
		if err := json.Unmarshal([]byte(raw), &session); err != nil {
			t.Fatalf("session %s: %v", raw, err)
		}
		if strings.HasSuffix(session.Family, "/spa/saved") {
			if strings.Contains(raw, "Ada") {
				t.Fatalf("the recording holds the typed value: %s", raw)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the recording did not follow the app to /spa/saved: %s", raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(session.Steps) != 3 || session.Steps[0].Kind != "navigate" || session.Steps[1].Kind != "field" || session.Steps[2].Kind != "click" {
		t.Fatalf("recorded steps %+v, want navigate, field, click", session.Steps)
	}

	s.Send("act", "/teach --end Taught profile")
	WaitFor(t, s, "the save notice", 10*time.Second,
		`document.getElementById('teach-banner').hidden && [...document.querySelectorAll('#transcript .msg')].some((n) => n.innerText.includes('Saved workflow'))`)
	id := savedWorkflowID(t, s, "Taught profile")

	// Replay from the app's home view, loaded afresh.
	origin := Eval[string](t, s, Page, `location.origin`)
	if err := s.Eval(Extension, fmt.Sprintf(`%s.tabs.update(%d, {url: %q}).then(() => true)`, extAPI, s.TabID(), origin+"/spa/"), nil); err != nil {
		t.Fatal(err)
	}
	waitInPage(t, s, "the home view", `document.readyState === 'complete' && location.pathname === '/spa/' && window.__record.length === 0`)
	s.Send("act", "/workflow --run "+id)
	WaitFor(t, s, "the run form", 10*time.Second, `document.querySelectorAll('.workflow-run-form input').length === 1`)
	if err := s.Eval(Panel, `(() => { document.querySelector('.workflow-run-form input').value = 'Grace'; return true; })()`, nil); err != nil {
		t.Fatal(err)
	}
	s.Click(`.workflow-run-form button[type="submit"]`)
	// A taught workflow has no goal: its Save may wait for approval.
	approve := `.approval-card.pending button[data-decision="approve"]`
	end := `[...document.querySelectorAll('#transcript .msg.assistant, #transcript .msg.error')].some((n) => /Workflow “Taught profile”/.test(n.innerText))`
	WaitFor(t, s, "the replay's end or its approval card", RunTimeout, fmt.Sprintf(`!!document.querySelector(%q) || %s`, approve, end))
	var card bool
	if err := s.Eval(Panel, fmt.Sprintf(`!!document.querySelector(%q)`, approve), &card); err == nil && card {
		s.Click(approve)
	}
	WaitFor(t, s, "the replay's end", RunTimeout, end)
	if got := Text(t, s, "#transcript"); !strings.Contains(got, "ran all 3 steps") {
		t.Fatalf("the replay did not run all steps: %s", Clip(got, 3000))
	}
	if got := PageRecord(t, s); len(got) != 1 || got[0] != `{"display":"Grace"}` {
		t.Fatalf("the app received %q, want one save of Grace", got)
	}
}

// waitInPage polls the boolean expression expr in the page for 10 s.
func waitInPage(t *testing.T, s Session, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var ok bool
		err := s.Eval(Page, expr, &ok)
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s in the page (last error: %v)", what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
