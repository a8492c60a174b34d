package background

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

// dangerPage shows one "Delete account" button in a POST form and records
// the page actions it receives (not the gate's probes).
type dangerPage struct {
	mu      sync.Mutex
	actions []string
}

func (p *dangerPage) Send(_ context.Context, _ int, msg json.RawMessage) (json.RawMessage, error) {
	var m struct{ Name string }
	_ = json.Unmarshal(msg, &m)
	if m.Name == "wb_doc" {
		return json.RawMessage(`{"ok":true,"result":{"doc":"d1","url":"https://example.com/settings"}}`), nil
	}
	if m.Name == "wb_status" { // the completion judge's read
		return json.RawMessage(`{"ok":true,"result":{"url":"https://example.com/settings","errors":[]}}`), nil
	}
	if m.Name == "wb_probe" {
		return json.RawMessage(`{"ok":true,"result":{"tag":"button","role":"button","type":"submit","name":"Delete account",
			"inForm":true,"formMethod":"post","formAction":"https://example.com/account/delete","pageUrl":"https://example.com/settings"}}`), nil
	}
	p.mu.Lock()
	p.actions = append(p.actions, m.Name)
	p.mu.Unlock()
	return json.RawMessage(`{"ok":true,"result":"Clicked."}`), nil
}

func (p *dangerPage) names() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.actions...)
}

// obeyThenReport clicks the button the page asks for, then reports the
// tool's result as its answer: a model that does what the page says.
func obeyThenReport() *llmtest.Server {
	return llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleTool {
			return llmtest.Turn{Text: "Result: " + last.Content}
		}
		return llmtest.Turn{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "click_ax", Arguments: `{"ref":"ref_9"}`}}}
	})
}

func waitCard(t *testing.T, e *env, tabID int) Entry {
	t.Helper()
	var card Entry
	eventually(t, "the approval card", func() bool {
		ru := e.r.active(tabID)
		if ru == nil {
			return false
		}
		c, ok := ru.j.find(protocol.EventApproval, "appr_c1")
		card = c
		return ok
	})
	return card
}

func answerCard(tabID int, id, decision string) map[string]any {
	return map[string]any{"action": "approval_answer", "tabId": tabID, "requestId": "req-1", "id": id, "decision": decision}
}

func TestDeclinedCardKeepsThePageUntouched(t *testing.T) {
	page := &dangerPage{}
	e := newEnv(t, obeyThenReport())
	e.r.p.Content = page
	e.mustOK(act(3, "what does this settings page offer?"))
	card := waitCard(t, e, 3)
	if card.Approval == nil || card.Approval.Site != "example.com" || len(card.Approval.Reasons) == 0 ||
		card.Approval.ExpiresAt != e.clock.Now().Add(approvalTimeout).UnixMilli() {
		t.Fatalf("card %+v", card.Approval)
	}
	if rep := e.send(answerCard(3, "appr_c1", "yes please")); rep["ok"] != false {
		t.Fatalf("an unknown decision was accepted: %v", rep)
	}
	e.mustOK(answerCard(3, "appr_c1", "decline"))
	if rep := e.send(answerCard(3, "appr_c1", "approve")); rep["ok"] != false {
		t.Fatalf("a second answer was accepted: %v", rep)
	}
	j := e.waitEnd(3)
	if len(page.names()) != 0 {
		t.Fatalf("the page received %v after a decline", page.names())
	}
	res, ok := lastOf(j.Events, protocol.EventApprovalResolved)
	if !ok || res.Decision != "decline" || res.Reason != protocol.ResolvedUser {
		t.Fatalf("resolution %+v", res)
	}
	if j.Status != protocol.StatusDone || !strings.Contains(j.Final, "declined") {
		t.Fatalf("the model was not told: %q", j.Final)
	}
}

func TestApprovedCardLetsTheActionThrough(t *testing.T) {
	page := &dangerPage{}
	e := newEnv(t, obeyThenReport())
	e.r.p.Content = page
	e.mustOK(act(4, "what does this settings page offer?"))
	waitCard(t, e, 4)
	e.mustOK(answerCard(4, "appr_c1", "approve"))
	tick(t, e)
	e.waitEnd(4)
	if got := page.names(); len(got) != 1 || got[0] != "click_ax" {
		t.Fatalf("page actions %v", got)
	}
}

func TestUnansweredCardTimesOutDeclined(t *testing.T) {
	page := &dangerPage{}
	e := newEnv(t, obeyThenReport())
	e.r.p.Content = page
	e.mustOK(act(5, "what does this settings page offer?"))
	waitCard(t, e, 5)
	eventually(t, "the card's timer", func() bool { return e.clock.Waiters() > 0 })
	e.clock.Advance(approvalTimeout + time.Second)
	j := e.waitEnd(5)
	res, ok := lastOf(j.Events, protocol.EventApprovalResolved)
	if !ok || res.Decision != "decline" || res.Reason != protocol.ResolvedTimeout || len(page.names()) != 0 {
		t.Fatalf("resolution %+v, page %v", res, page.names())
	}
}

func TestCardSurvivesABackgroundRestart(t *testing.T) {
	page := &dangerPage{}
	e := newEnv(t, obeyThenReport())
	e.r.p.Content = page
	e.mustOK(act(7, "what does this settings page offer?"))
	before := waitCard(t, e, 7)

	e2 := e.restart(&pageCounter{})
	page2 := &dangerPage{}
	e2.r.p.Content = page2
	e2.send(map[string]any{"action": "run_state", "tabId": 7}) // wakes the resume
	after := waitCard(t, e2, 7)
	if after.Approval.ExpiresAt != before.Approval.ExpiresAt {
		t.Fatalf("the card changed across the restart: %+v then %+v", before.Approval, after.Approval)
	}
	e2.mustOK(answerCard(7, "appr_c1", "approve"))
	tick(t, e2)
	e2.waitEnd(7)
	if got := page2.names(); len(got) != 1 || got[0] != "click_ax" {
		t.Fatalf("page actions after the restart %v", got)
	}
}

func lastOf(events []Entry, kind string) (Entry, bool) {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Kind == kind {
			return events[i], true
		}
	}
	return Entry{}, false
}

// tick moves the fake clock on until the test ends: a click waits a
// moment to see whether it started a navigation.
func tick(t *testing.T, e *env) {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				e.clock.Advance(100 * time.Millisecond)
			}
		}
	}()
}

func TestWithTheSettingOffNoCardIsShown(t *testing.T) {
	page := &dangerPage{}
	e := newEnv(t, obeyThenReport())
	s, _ := settings.Load(context.Background(), e.local)
	s.AskBeforeActions = false
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		t.Fatal(err)
	}
	e.r.p.Content = page
	tick(t, e)
	e.mustOK(act(8, "what does this settings page offer?"))
	j := e.waitEnd(8)
	if _, asked := lastOf(j.Events, protocol.EventApproval); asked || len(page.names()) != 1 {
		t.Fatalf("card shown %v, page actions %v", asked, page.names())
	}
}
