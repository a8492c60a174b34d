package background

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/workflow"
)

func TestTeachRecordsTheUsersActionsAndReplaysThem(t *testing.T) {
	e, page := formEnv(t)
	recorder := Sender{ID: "ext", URL: "https://example.com/?q=1", TabID: 50}
	step := func(s Sender, kind, role, name string) map[string]any {
		return e.sendAs(s, map[string]any{"action": "teach_step", "step": map[string]any{
			"kind": kind, "role": role, "name": name, "family": "https://example.com/", "value": "ada@example.com"}})
	}
	if r := step(recorder, "field", "textbox", "Email"); r["ok"] != false {
		t.Fatalf("a step was taken while the tab was not recording: %v", r)
	}
	e.mustOK(map[string]any{"action": "teach_start", "tabId": 50})
	if r := e.send(map[string]any{"action": "teach_start", "tabId": 50}); r["ok"] != false {
		t.Errorf("a second recording started: %v", r)
	}
	if r := e.send(map[string]any{"action": "teach_step", "step": map[string]any{"kind": "click", "role": "button", "name": "Join"}}); r["ok"] != false {
		t.Errorf("the panel added a step: %v", r)
	}
	for _, s := range []Sender{{ID: "ext", URL: "https://example.com/", TabID: 50, FrameID: 3}, {ID: "other", URL: "https://example.com/", TabID: 50},
		{ID: "ext", URL: "https://evil.example/", TabID: 50}} {
		if r := step(s, "click", "button", "Join"); r["ok"] != false {
			t.Errorf("a step from %+v was taken: %v", s, r)
		}
	}
	if r := e.sendAs(recorder, map[string]any{"action": "teach_step", "step": map[string]any{"kind": "navigate", "url": "https://evil.example/",
		"family": "https://example.com/"}}); r["ok"] != false {
		t.Errorf("the page reported a navigation: %v", r)
	}
	step(recorder, "field", "textbox", "Email")
	step(recorder, "click", "button", "Join")
	if st := e.mustOK(map[string]any{"action": "teach_state", "tabId": 50}); st["teaching"] != true || st["steps"] != float64(2) {
		t.Fatalf("state %v", st)
	}
	stored, _ := e.session.Get(context.Background(), teachKey(50))
	if raw := string(stored[teachKey(50)]); strings.Contains(raw, "ada@") || strings.Contains(raw, "evil") || strings.Contains(raw, "q=1") {
		t.Fatalf("the session keeps a value or another page: %s", raw)
	}

	reply := e.mustOK(map[string]any{"action": "teach_end", "tabId": 50, "title": "Join"})
	w := reply["workflow"].(map[string]any)
	if params := w["params"].([]any); len(params) != 1 || params[0].(map[string]any)["name"] != "email" {
		t.Fatalf("params %v", w["params"])
	}
	if st := e.mustOK(map[string]any{"action": "teach_state", "tabId": 50}); st["teaching"] != false {
		t.Errorf("still recording after the end: %v", st)
	}
	local, _ := e.local.Get(context.Background(), workflow.StorageKey)
	if raw := string(local[workflow.StorageKey]); strings.Contains(raw, "ada@") {
		t.Fatalf("the workflow keeps the typed value: %s", raw)
	}

	e.mustOK(map[string]any{"action": "workflow_run", "tabId": 50, "id": w["id"], "params": map[string]any{"email": "bob@example.com"}})
	if j := e.waitEnd(50); j.Status != protocol.StatusDone {
		t.Fatalf("replay ended %s: %s", j.Status, j.Error)
	}
	want := []string{`type_ax {"ref":"ref_2","text":"bob@example.com"}`, `click_ax {"ref":"ref_3"}`}
	if got := page.taken(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replay actions %q, want %q", got, want)
	}
}

func TestTeachCancelDropsTheRecording(t *testing.T) {
	e, _ := formEnv(t)
	e.mustOK(map[string]any{"action": "teach_start", "tabId": 50})
	e.sendAs(Sender{ID: "ext", URL: "https://example.com/", TabID: 50}, map[string]any{"action": "teach_step",
		"step": map[string]any{"kind": "click", "role": "button", "name": "Join", "family": "https://example.com/"}})
	e.mustOK(map[string]any{"action": "teach_cancel", "tabId": 50})
	if r := e.send(map[string]any{"action": "teach_end", "tabId": 50}); r["ok"] != false {
		t.Fatalf("a cancelled recording was saved: %v", r)
	}
	if list := e.mustOK(map[string]any{"action": "workflows_list"})["workflows"].([]any); len(list) != 0 {
		t.Fatalf("workflows %v", list)
	}
}

// movingTab is a tab whose address the test changes.
type movingTab struct {
	fakeTabs
	url *string
}

func (m movingTab) Get(_ context.Context, id int) (platform.Tab, error) {
	return platform.Tab{ID: id, URL: *m.url, Status: "complete"}, nil
}

func TestTeachFollowsNavigations(t *testing.T) {
	e := newEnv(t, signsUp()) // a still clock: the click led to the next page
	e.r.p.Content = &formPage{tree: signupTree}
	url := "https://example.com/start"
	e.r.p.Tabs = movingTab{url: &url}
	recorder := Sender{ID: "ext", URL: url, TabID: 50}
	e.mustOK(map[string]any{"action": "teach_start", "tabId": 50})
	// The user goes elsewhere on their own: a navigate step.
	url = "https://example.com/signup/42?from=home"
	e.mustOK(map[string]any{"action": "teach_page", "tabId": 50})
	recorder.URL = url
	if r := e.sendAs(recorder, map[string]any{"action": "teach_step", "step": map[string]any{"kind": "click", "role": "button", "name": "Join",
		"family": url}}); r["ok"] != true {
		t.Fatalf("teach_step: %v", r)
	}
	// A page the click led to is not a step of its own.
	url = "https://example.com/welcome"
	e.mustOK(map[string]any{"action": "teach_page", "tabId": 50})
	recorder.URL = url
	e.sendAs(recorder, map[string]any{"action": "teach_step", "step": map[string]any{"kind": "click", "role": "link", "name": "Home", "family": url}})
	w := e.mustOK(map[string]any{"action": "teach_end", "tabId": 50})["workflow"].(map[string]any)
	var got []string
	for _, s := range w["steps"].([]any) {
		st := s.(map[string]any)
		got = append(got, fmt.Sprint(st["action"], " ", st["url"], " ", st["family"]))
	}
	want := []string{"navigate https://example.com/signup/42 https://example.com/start", "click <nil> https://example.com/signup/*",
		"click <nil> https://example.com/welcome"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTeachClosedTabDropsTheRecording(t *testing.T) {
	e, _ := formEnv(t)
	e.mustOK(map[string]any{"action": "teach_start", "tabId": 50})
	e.mustOK(map[string]any{"action": "tab_closed", "tabId": 50})
	if st := e.mustOK(map[string]any{"action": "teach_state", "tabId": 50}); st["teaching"] != false {
		t.Fatalf("a closed tab still records: %v", st)
	}
}

// A single-page app's pushState reaches the background as an address
// change of the same document, possibly before the report of the click
// that caused it: the navigation is still that click's result, not a
// step of its own, and the session follows the new address.
func TestTeachFollowsPushStateBeforeTheClickReport(t *testing.T) {
	e := newEnv(t, signsUp())
	e.r.p.Content = &formPage{tree: signupTree}
	url := "https://app.example/inbox"
	e.r.p.Tabs = movingTab{url: &url}
	recorder := Sender{ID: "ext", URL: url, TabID: 50}
	e.mustOK(map[string]any{"action": "teach_start", "tabId": 50})
	clickAt := float64(e.clock.Now().UnixMilli())
	// The app pushed its new address; the tab's report wins the race.
	url = "https://app.example/settings"
	e.mustOK(map[string]any{"action": "teach_page", "tabId": 50})
	if r := e.sendAs(recorder, map[string]any{"action": "teach_step", "step": map[string]any{"kind": "click", "role": "link", "name": "Settings",
		"family": "https://app.example/inbox", "at": clickAt}}); r["ok"] != true {
		t.Fatalf("teach_step: %v", r)
	}
	recorder.URL = url
	e.sendAs(recorder, map[string]any{"action": "teach_step", "step": map[string]any{"kind": "click", "role": "button", "name": "Save",
		"family": url, "at": clickAt + 500}})
	w := e.mustOK(map[string]any{"action": "teach_end", "tabId": 50})["workflow"].(map[string]any)
	var got []string
	for _, s := range w["steps"].([]any) {
		st := s.(map[string]any)
		got = append(got, fmt.Sprint(st["action"], " ", st["family"]))
	}
	want := []string{"click https://app.example/inbox", "click https://app.example/settings"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
