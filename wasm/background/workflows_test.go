package background

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/workflow"
)

// formPage answers the tree with a sign-up form and records every page
// action with its arguments.
type formPage struct {
	mu      sync.Mutex
	tree    string
	actions []string
	probe   string // the gate's probe of every element; "" a plain button
}

func (p *formPage) Send(_ context.Context, _ int, msg json.RawMessage) (json.RawMessage, error) {
	var m struct {
		Name string
		Args map[string]any
	}
	_ = json.Unmarshal(msg, &m)
	p.mu.Lock()
	defer p.mu.Unlock()
	if m.Name == protocol.PageRead { // a page read with the wall readings
		if m.Args["tool"] == "get_accessibility_tree" {
			raw, _ := json.Marshal(map[string]any{"ok": true, "result": map[string]any{"text": p.tree}})
			return raw, nil
		}
		return json.RawMessage(`{"ok":true,"result":{"text":"done"}}`), nil
	}
	if strings.HasPrefix(m.Name, "wb_") {
		if p.probe != "" {
			return json.RawMessage(`{"ok":true,"result":` + p.probe + `}`), nil
		}
		return json.RawMessage(`{"ok":true,"result":{"tag":"button","role":"button","type":"button","name":"Go"}}`), nil
	}
	result := "done"
	if m.Name == "get_accessibility_tree" {
		result = p.tree
	} else {
		args, _ := json.Marshal(m.Args)
		p.actions = append(p.actions, m.Name+" "+string(args))
	}
	raw, _ := json.Marshal(map[string]any{"ok": true, "result": result})
	return raw, nil
}

func (p *formPage) taken() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.actions...)
}

const signupTree = "heading \"Sign up\" [ref_1] level=1\n textbox \"Email\" [ref_2] type=email\n button \"Join\" [ref_3]"

// signsUp is a model that fills the email and clicks Join.
func signsUp() *llmtest.Server {
	return llmtest.New(func(n int, _ llmtest.Request) llmtest.Turn {
		calls := []llm.ToolCall{
			{ID: "c0", Name: "get_accessibility_tree", Arguments: `{}`},
			{ID: "c1", Name: "type_ax", Arguments: `{"ref":"ref_2","text":"ada@example.com"}`},
			{ID: "c2", Name: "click_ax", Arguments: `{"ref":"ref_3"}`},
		}
		if n < len(calls) {
			return llmtest.Turn{ToolCalls: calls[n : n+1]}
		}
		return llmtest.Turn{Text: "You have joined."}
	})
}

// formEnv is an env on a form page whose clock runs on its own: actions
// that may navigate wait on it for a navigation to start.
func formEnv(t *testing.T) (*env, *formPage) {
	e := newEnv(t, signsUp())
	page := &formPage{tree: signupTree}
	e.r.p.Content = page
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				e.clock.Advance(time.Second)
			}
		}
	}()
	return e, page
}

func TestWorkflowIsSavedWithoutValuesAndReplayedWithNewOnes(t *testing.T) {
	e, page := formEnv(t)
	e.mustOK(map[string]any{"action": "chat_start", "tabId": 50, "text": "Join with ada@example.com", "mode": "act", "requestId": "req-1"})
	if j := e.waitEnd(50); j.Status != protocol.StatusDone {
		t.Fatalf("the recorded run ended %s: %s", j.Status, j.Error)
	}
	reply := e.mustOK(map[string]any{"action": "workflow_save", "tabId": 50, "title": "Join"})
	stored, _ := e.local.Get(context.Background(), workflow.StorageKey)
	raw := string(stored[workflow.StorageKey])
	if strings.Contains(raw, "ada@") || strings.Contains(raw, "ref_") {
		t.Fatalf("the stored workflow keeps a value or a ref: %s", raw)
	}
	w := reply["workflow"].(map[string]any)
	id := w["id"].(string)
	if params := w["params"].([]any); len(params) != 1 || params[0].(map[string]any)["name"] != "email" {
		t.Fatalf("params %v", w["params"])
	}

	before := len(page.taken())
	e.mustOK(map[string]any{"action": "workflow_run", "tabId": 50, "id": id, "params": map[string]any{"email": "bob@example.com"}})
	j := e.waitEnd(50)
	if j.Status != protocol.StatusDone || !strings.HasPrefix(j.RequestID, "wf:") {
		t.Fatalf("replay ended %s (%s): %s", j.Status, j.RequestID, j.Error)
	}
	got := page.taken()[before:]
	want := []string{`type_ax {"ref":"ref_2","text":"bob@example.com"}`, `click_ax {"ref":"ref_3"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replay actions %q, want %q", got, want)
	}
	journal, _ := json.Marshal(j)
	if strings.Contains(string(journal), "bob@example.com") {
		t.Errorf("the replay's journal holds the parameter value: %s", journal)
	}
	if n := len(e.srv.Requests()); n != 4 {
		t.Errorf("the model got %d requests, want only the 4 of the recorded run", n)
	}
	if len(e.conversation(50)) == 0 {
		t.Error("the replay dropped the tab's conversation")
	}

	// Rename and delete manage only the stored list.
	e.mustOK(map[string]any{"action": "workflow_rename", "id": id, "title": "Join the list"})
	list := e.mustOK(map[string]any{"action": "workflows_list"})["workflows"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["name"] != "Join the list" {
		t.Fatalf("after rename %v", list)
	}
	e.mustOK(map[string]any{"action": "workflow_delete", "id": id})
	if list := e.mustOK(map[string]any{"action": "workflows_list"})["workflows"].([]any); len(list) != 0 {
		t.Fatalf("after delete %v", list)
	}
}

// A run whose answer is on screen may still be saving what it left; a
// save the user asks for at once waits for it instead of refusing.
func TestWorkflowSaveWaitsForARunThatHasAnswered(t *testing.T) {
	e, _ := formEnv(t)
	e.mustOK(map[string]any{"action": "chat_start", "tabId": 50, "text": "Join with ada@example.com", "mode": "act", "requestId": "req-1"})
	e.waitEnd(50)

	ending := e.r.newRun(50, "req-2", protocol.ModeAct, "Anything else")
	ending.j = newJournal(e.r.p, 50, "req-2", protocol.ModeAct)
	ending.j.add(Entry{Event: agent.Event{Kind: protocol.EventFinal, Text: "Done."}})
	e.r.mu.Lock()
	e.r.runs[50] = ending
	e.r.mu.Unlock()
	go func() {
		time.Sleep(200 * time.Millisecond)
		e.r.finish(ending)
	}()
	e.mustOK(map[string]any{"action": "workflow_save", "tabId": 50, "title": "Join"})

	running := e.r.newRun(50, "req-3", protocol.ModeAct, "Still going")
	running.j = newJournal(e.r.p, 50, "req-3", protocol.ModeAct)
	e.r.mu.Lock()
	e.r.runs[50] = running
	e.r.mu.Unlock()
	defer e.r.finish(running)
	if got := e.send(map[string]any{"action": "workflow_save", "tabId": 50, "title": "Join"}); got["ok"] != false {
		t.Fatalf("a save during a run that has not answered: %v", got)
	}
}

func TestReplayStopsWhenTheTargetIsAmbiguous(t *testing.T) {
	e, page := formEnv(t)
	e.mustOK(map[string]any{"action": "chat_start", "tabId": 50, "text": "Join with ada@example.com", "mode": "act", "requestId": "req-1"})
	e.waitEnd(50)
	id := e.mustOK(map[string]any{"action": "workflow_save", "tabId": 50})["workflow"].(map[string]any)["id"]
	page.mu.Lock()
	page.tree += "\n button \"Join\" [ref_9]"
	page.mu.Unlock()
	before := len(page.taken())
	e.mustOK(map[string]any{"action": "workflow_run", "tabId": 50, "id": id, "params": map[string]any{"email": "bob@example.com"}})
	j := e.waitEnd(50)
	if j.Status != protocol.StatusError || !strings.Contains(j.Error, "step 2 of 2") || !strings.Contains(j.Error, "2 elements match") {
		t.Fatalf("replay ended %s: %q", j.Status, j.Error)
	}
	if got := page.taken()[before:]; len(got) != 1 || !strings.HasPrefix(got[0], "type_ax") {
		t.Errorf("actions %q: the ambiguous click must not run", got)
	}
	if r := e.send(map[string]any{"action": "workflow_run", "tabId": 50, "id": id}); r["ok"] != false {
		t.Errorf("a run without its parameter started: %v", r)
	}
}

func TestWorkflowImportValidates(t *testing.T) {
	e := newEnv(t, signsUp())
	bad := map[string]any{"schema": workflow.Schema, "name": "x", "steps": []any{map[string]any{"action": "click", "family": "https://a.example/"}}}
	if r := e.send(map[string]any{"action": "workflow_import", "workflow": bad}); r["ok"] != false {
		t.Errorf("a step without a target was imported: %v", r)
	}
	good := map[string]any{"schema": workflow.Schema, "id": "wf_theirs", "name": "Join", "params": []any{},
		"steps": []any{map[string]any{"action": "click", "target": map[string]any{"role": "button", "name": "Join"}, "family": "https://example.com/"}}}
	w := e.mustOK(map[string]any{"action": "workflow_import", "workflow": good})["workflow"].(map[string]any)
	if w["id"] == "wf_theirs" {
		t.Error("an imported workflow kept the file's id")
	}
}

func TestImportedWorkflowGoalAuthorizesNothing(t *testing.T) {
	for _, imported := range []bool{false, true} {
		e, page := formEnv(t)
		page.probe = `{"tag":"button","role":"button","type":"submit","name":"Join","inForm":true,"pageUrl":"https://example.com/","formFields":[{"label":"Email","type":"email"}]}`
		w := workflow.Workflow{Schema: workflow.Schema, ID: "wf_1", Name: "Join", Goal: "Join the list and submit the form", Imported: imported,
			Params: []workflow.Param{}, Steps: []workflow.Step{{Action: workflow.ActClick, Target: &workflow.Target{Role: "button", Name: "Join"},
				Family: "https://example.com/", Expect: "done"}}}
		raw, _ := json.Marshal([]workflow.Workflow{w})
		_ = e.local.Set(context.Background(), map[string]json.RawMessage{workflow.StorageKey: raw})
		e.mustOK(map[string]any{"action": "workflow_run", "tabId": 50, "id": "wf_1", "params": map[string]any{}})
		if imported {
			j := e.waitEnd(50) // the fast clock lets the card time out: declined
			if !contains(kinds(j.Events), protocol.EventApproval) || !strings.Contains(j.Error, "declined or refused") {
				t.Errorf("no approval card for an imported goal: %s %q", kinds(j.Events), j.Error)
			}
			if len(page.taken()) != 0 {
				t.Errorf("an imported goal authorized the submit: %q", page.taken())
			}
			continue
		}
		if j := e.waitEnd(50); j.Status != protocol.StatusDone || len(page.taken()) != 1 {
			t.Fatalf("the user's own goal did not authorize the submit: %s %q, actions %q", j.Status, j.Error, page.taken())
		}
	}
}

// replayUntilRepairQuestion saves the recorded sign-up, renames its Join
// button on the page and runs the workflow until it asks which element
// the button is now; it returns the workflow's id and the question.
func replayUntilRepairQuestion(t *testing.T, e *env, page *formPage) (string, Entry) {
	t.Helper()
	e.mustOK(map[string]any{"action": "chat_start", "tabId": 50, "text": "Join with ada@example.com", "mode": "act", "requestId": "req-1"})
	e.waitEnd(50)
	id := e.mustOK(map[string]any{"action": "workflow_save", "tabId": 50})["workflow"].(map[string]any)["id"].(string)
	page.mu.Lock()
	page.tree = "heading \"Sign up\" [ref_1] level=1\n button \"Join now\" [ref_7]\n textbox \"Email\" [ref_2] type=email\n button \"More\" [ref_8]\n button \"More\" [ref_9]"
	page.mu.Unlock()
	e.mustOK(map[string]any{"action": "workflow_run", "tabId": 50, "id": id, "params": map[string]any{"email": "bob@example.com"}})
	var q Entry
	eventually(t, "the repair question", func() bool {
		ru := e.r.active(50)
		if ru == nil {
			return false
		}
		for _, ev := range ru.j.snapshot().Events {
			if ev.Kind == protocol.EventClarify && ev.ID == "wf_repair_2" {
				q = ev
				return true
			}
		}
		return false
	})
	return id, q
}

func storedWorkflow(t *testing.T, e *env, id string) workflow.Workflow {
	t.Helper()
	stored, _ := e.local.Get(context.Background(), workflow.StorageKey)
	var list []workflow.Workflow
	if err := json.Unmarshal(stored[workflow.StorageKey], &list); err != nil {
		t.Fatal(err)
	}
	for _, w := range list {
		if w.ID == id {
			return w
		}
	}
	t.Fatalf("no workflow %s", id)
	return workflow.Workflow{}
}

// A renamed button: the replay offers the page's unique candidates, the
// user's choice is clicked, and since the click succeeded the choice is
// saved as the step's target, with a repair record.
func TestReplayRepairsARenamedTargetWithTheUsersChoice(t *testing.T) {
	e, page := formEnv(t)
	id, q := replayUntilRepairQuestion(t, e, page)
	if len(q.Options) != 2 || q.Options[0] != `button "Join now"` || !strings.Contains(q.Options[1], "stop") || !strings.Contains(q.Text, `button "Join"`) {
		t.Fatalf("question %q options %q (a duplicate More must not be offered)", q.Text, q.Options)
	}
	e.mustOK(map[string]any{"action": "clarify_answer", "tabId": 50, "requestId": e.r.active(50).requestID, "id": "wf_repair_2", "answer": `button "Join now"`})
	j := e.waitEnd(50)
	if j.Status != protocol.StatusDone || !strings.Contains(j.Final, "Step 2 was repaired") {
		t.Fatalf("replay ended %s: %q %q", j.Status, j.Final, j.Error)
	}
	if got := page.taken(); got[len(got)-1] != `click_ax {"ref":"ref_7"}` {
		t.Fatalf("actions %q", got)
	}
	w := storedWorkflow(t, e, id)
	if w.Steps[1].Target.Name != "Join now" || len(w.Repairs) != 1 || w.Repairs[0].From.Name != "Join" || w.Repairs[0].Step != 2 {
		t.Fatalf("stored workflow %+v", w)
	}
}

// No choice stops the step, and an edit made while the question waited
// wins over the repair.
func TestReplayRepairNeedsAChoiceAndYieldsToEdits(t *testing.T) {
	e, page := formEnv(t)
	id, q := replayUntilRepairQuestion(t, e, page)
	e.mustOK(map[string]any{"action": "clarify_answer", "tabId": 50, "requestId": e.r.active(50).requestID, "id": "wf_repair_2", "answer": q.Options[1]})
	j := e.waitEnd(50)
	if j.Status != protocol.StatusError || !strings.Contains(j.Error, "no replacement was chosen") {
		t.Fatalf("replay ended %s: %q", j.Status, j.Error)
	}
	if got := page.taken(); strings.HasPrefix(got[len(got)-1], "click_ax") {
		t.Fatalf("a click ran without a choice: %q", got)
	}

	e.mustOK(map[string]any{"action": "workflow_run", "tabId": 50, "id": id, "params": map[string]any{"email": "bob@example.com"}})
	eventually(t, "the second question", func() bool {
		ru := e.r.active(50)
		return ru != nil && ru.j.hasEvent(protocol.EventClarify, "wf_repair_2")
	})
	e.mustOK(map[string]any{"action": "workflow_rename", "id": id, "title": "Renamed meanwhile"})
	e.mustOK(map[string]any{"action": "clarify_answer", "tabId": 50, "requestId": e.r.active(50).requestID, "id": "wf_repair_2", "answer": `button "Join now"`})
	j = e.waitEnd(50)
	if j.Status != protocol.StatusDone || !strings.Contains(j.Final, "was changed meanwhile") {
		t.Fatalf("replay ended %s: %q %q", j.Status, j.Final, j.Error)
	}
	if w := storedWorkflow(t, e, id); w.Name != "Renamed meanwhile" || w.Steps[1].Target.Name != "Join" || len(w.Repairs) != 0 {
		t.Fatalf("the repair overwrote the edit: %+v", w)
	}
}
