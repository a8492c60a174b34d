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

// WorkflowRepairedWhenThePageChanged: a saved sign-up is replayed after
// the page was redesigned (its "Sign up" button renamed "Join the list"
// and moved). The replay asks which element the button is now, offering
// the page's candidates; the user picks "Join the list", the submit goes
// through once, and the workflow keeps the new target with a repair
// record, so the next replay needs no question.
func WorkflowRepairedWhenThePageChanged(t *testing.T, d Driver) {
	srv := signUpModel()
	s := d.Open(t, "form.html", srv, OpenAIChat)
	s.Send("act", "Fill in ada@example.com as my email and submit the sign-up form.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("recorded run status %q, want done", got)
	}
	s.Send("act", "/workflow --save Repaired sign-up")
	WaitFor(t, s, "the save notice", 10*time.Second,
		`[...document.querySelectorAll('#transcript .msg')].some((n) => n.innerText.includes('Saved workflow'))`)
	id := savedWorkflowID(t, s, "Repaired sign-up")

	if err := s.Eval(Page, `(sessionStorage.setItem('wbLayout', 'redesigned'), true)`, nil); err != nil {
		t.Fatal(err)
	}
	replayOnFreshPage(t, s, id, "bob@example.com")
	choice := `.clarify-card .clarify-option`
	WaitFor(t, s, "the repair question", RunTimeout, fmt.Sprintf(`[...document.querySelectorAll(%q)].some((b) => b.textContent === 'button "Join the list"')`, choice))
	if got := Text(t, s, ".clarify-card .clarify-question"); !strings.Contains(got, `button "Sign up"`) {
		t.Fatalf("the question says %q", got)
	}
	if err := s.Eval(Panel, fmt.Sprintf(`([...document.querySelectorAll(%q)].find((b) => b.textContent === 'button "Join the list"').click(), true)`, choice), nil); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, s, "the replay's end", RunTimeout,
		`[...document.querySelectorAll('#transcript .msg.assistant, #transcript .msg.error')].some((n) => /Workflow “Repaired sign-up”/.test(n.innerText))`)
	const want = `{"email":"bob@example.com","country":"","subscribe":false,"message":""}`
	if got := PageRecord(t, s); len(got) != 1 || got[0] != want {
		t.Fatalf("the page received %q, want exactly one submit of %s (panel: %s)", got, want, Clip(Text(t, s, "#transcript"), 3000))
	}
	if got := Text(t, s, "#transcript"); !strings.Contains(got, "Step 2 was repaired") {
		t.Fatalf("the replay does not say it repaired step 2: %s", Clip(got, 3000))
	}
	raw := Eval[string](t, s, Extension, extAPI+`.storage.local.get('wb_saved_workflows_v1').then((o) => JSON.stringify(o.wb_saved_workflows_v1 ?? []))`)
	var list []struct {
		ID    string `json:"id"`
		Steps []struct {
			Target *struct{ Role, Name string } `json:"target"`
		} `json:"steps"`
		Repairs []struct {
			Step     int
			From, To struct{ Role, Name string }
		} `json:"repairs"`
	}
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		t.Fatal(err)
	}
	for _, w := range list {
		if w.ID != id {
			continue
		}
		if len(w.Steps) != 2 || w.Steps[1].Target == nil || w.Steps[1].Target.Name != "Join the list" ||
			len(w.Repairs) != 1 || w.Repairs[0].Step != 2 || w.Repairs[0].From.Name != "Sign up" || w.Repairs[0].To.Name != "Join the list" {
			t.Fatalf("the stored workflow after the repair: %s", raw)
		}
		return
	}
	t.Fatalf("workflow %s is gone: %s", id, raw)
}

// savedWorkflowID is the id of the stored workflow called name.
func savedWorkflowID(t *testing.T, s Session, name string) string {
	t.Helper()
	raw := Eval[string](t, s, Extension, extAPI+`.storage.local.get('wb_saved_workflows_v1').then((o) => JSON.stringify(o.wb_saved_workflows_v1 ?? []))`)
	var list []struct{ ID, Name string }
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		t.Fatal(err)
	}
	for _, w := range list {
		if w.Name == name {
			return w.ID
		}
	}
	t.Fatalf("no saved workflow %q in %s", name, raw)
	return ""
}
