package scenario

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// WorkflowSavedAndReplayed: the model fills the form's email and submits;
// /workflow --save keeps the run without its value; on a freshly loaded
// page /workflow --run asks for the email and replays the steps with a
// new one, without the model, and the page receives it exactly once.
func WorkflowSavedAndReplayed(t *testing.T, d Driver) {
	srv := signUpModel()
	s := d.Open(t, "form.html", srv, OpenAIChat)
	s.Send("act", "Fill in ada@example.com as my email and submit the sign-up form.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("recorded run status %q, want done", got)
	}

	s.Send("act", "/workflow --save Newsletter")
	WaitFor(t, s, "the save notice", 10*time.Second,
		`[...document.querySelectorAll('#transcript .msg')].some((n) => n.innerText.includes('Saved workflow'))`)
	raw := Eval[string](t, s, Extension, extAPI+`.storage.local.get('wb_saved_workflows_v1').then((o) => JSON.stringify(o.wb_saved_workflows_v1 ?? []))`)
	var saved []struct {
		ID     string `json:"id"`
		Params []struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(raw), &saved); err != nil || len(saved) != 1 {
		t.Fatalf("stored workflows %s (%v)", raw, err)
	}
	if strings.Contains(raw, "ada@") || strings.Contains(raw, "ref_") {
		t.Fatalf("the stored workflow keeps the typed value or a ref: %s", raw)
	}
	if len(saved[0].Params) != 1 || saved[0].Params[0].Name != "email" {
		t.Fatalf("parameters %s, want one named email", raw)
	}
	requests := len(srv.Requests())

	replayOnFreshPage(t, s, saved[0].ID, "bob@example.com")
	WaitFor(t, s, "the replay's end", RunTimeout,
		`[...document.querySelectorAll('#transcript .msg.assistant, #transcript .msg.error')].some((n) => /Workflow “Newsletter”/.test(n.innerText))`)
	const want = `{"email":"bob@example.com","country":"","subscribe":false,"message":""}`
	if got := PageRecord(t, s); len(got) != 1 || got[0] != want {
		t.Fatalf("the page received %q, want exactly one submit of %s (panel: %s)", got, want, Text(t, s, "#transcript"))
	}
	if got := Text(t, s, "#transcript"); strings.Contains(got, "bob@example.com") || !strings.Contains(got, "ran all 2 steps") {
		t.Errorf("the transcript shows the value or not the replay's end: %s", Clip(got, 2000))
	}
	if n := len(srv.Requests()); n != requests {
		t.Errorf("the replay asked the model %d times; a clean replay needs none", n-requests)
	}
}

// replayOnFreshPage reloads the fixture (its record empty again) and runs
// the saved workflow id with email as its one parameter.
func replayOnFreshPage(t *testing.T, s Session, id, email string) {
	t.Helper()
	if err := s.Eval(Extension, fmt.Sprintf(`%s.tabs.reload(%d).then(() => true)`, extAPI, s.TabID()), nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var fresh bool
		err := s.Eval(Page, `document.readyState === 'complete' && Array.isArray(window.__record) && window.__record.length === 0`, &fresh)
		if err == nil && fresh {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page did not load again (%v)", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.Send("act", "/workflow --run "+id)
	WaitFor(t, s, "the run form", 10*time.Second, `!!document.querySelector('.workflow-run-form input[name="email"]')`)
	set := fmt.Sprintf(`(() => { document.querySelector('.workflow-run-form input[name="email"]').value = %q; return true; })()`, email)
	if err := s.Eval(Panel, set, nil); err != nil {
		t.Fatal(err)
	}
	s.Click(`.workflow-run-form button[type="submit"]`)
}
