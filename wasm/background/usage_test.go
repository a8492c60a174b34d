package background

import (
	"context"
	"encoding/json"
	"github.com/webbrain/webbrain/wasm/uitext"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/cost"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

// testPrice is the scripted model's price in the tests: $1 per million
// input tokens, $0.10 cached, $10 output.
var testPrice = cost.Price{Input: 1, Cached: 0.1, Output: 10}

// priced gives the scripted model a price (a local server is otherwise
// free) and the allowances. Learning after a run is off: its call would
// count in the day at a time the test does not control.
func (e *env) priced(day, run float64) {
	e.t.Helper()
	s, problem := settings.Load(context.Background(), e.local)
	if problem != nil {
		e.t.Fatal(problem)
	}
	s.Prices = map[string]cost.Price{llmtest.Model: testPrice}
	s.DailyAllowanceUSD, s.RunAllowanceUSD = day, run
	s.MemoryAutoLearn = false
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		e.t.Fatal(err)
	}
}

func askReq(tabID int, requestID, text string) map[string]any {
	return map[string]any{"action": "chat_start", "tabId": tabID, "text": text, "mode": "ask", "requestId": requestID}
}

func usageEvents(j Journal) []Entry {
	var out []Entry
	for _, ev := range j.Events {
		if ev.Kind == protocol.EventUsage {
			out = append(out, ev)
		}
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestEveryModelCallIsJournaledAndCountedPerDay(t *testing.T) {
	u1 := llm.Usage{InputTokens: 3000, CachedInputTokens: 2000, OutputTokens: 40}
	u2 := llm.Usage{InputTokens: 3500, OutputTokens: 120}
	e := newEnv(t, llmtest.NewTurns(
		llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: "read_page", Arguments: `{}`}}, Usage: &u1},
		llmtest.Turn{Text: "It says page text.", Usage: &u2},
	))
	e.priced(0, 0)
	e.mustOK(askReq(3, "r3", "read it"))
	j := e.waitEnd(3)
	if j.Status != protocol.StatusDone {
		t.Fatalf("journal %+v", j)
	}
	calls := usageEvents(j)
	if len(calls) != 2 {
		t.Fatalf("usage events %v", kinds(j.Events))
	}
	c1, c2 := testPrice.Cost(u1), testPrice.Cost(u2)
	if got := calls[0].Usage; got.InputTokens != 3000 || got.CachedInputTokens != 2000 || got.OutputTokens != 40 ||
		!got.Priced || !near(got.CostUSD, c1) || got.Model != llmtest.Model || calls[0].Text != "" {
		t.Fatalf("first call %+v", got)
	}
	want := cost.Tally{Calls: 2, InputTokens: 6500, CachedInputTokens: 2000, OutputTokens: 160, CostUSD: c1 + c2}
	if got := j.Usage.Tally; got.Calls != want.Calls || got.InputTokens != want.InputTokens ||
		got.CachedInputTokens != want.CachedInputTokens || got.OutputTokens != want.OutputTokens || !near(got.CostUSD, want.CostUSD) {
		t.Fatalf("run totals %+v want %+v", got, want)
	}

	// A second run the same day adds to the day.
	e.srv.Close()
	e2 := newEnvOn(t, e, llmtest.NewTurns(llmtest.Turn{Text: "Short.", Usage: &u2}))
	e2.mustOK(askReq(4, "r4", "again"))
	e2.waitEnd(4)
	reply := e2.mustOK(map[string]any{"action": "usage_get", "days": 2})
	var got struct {
		Days []cost.Day `json:"days"`
	}
	raw, _ := json.Marshal(reply)
	json.Unmarshal(raw, &got)
	if len(got.Days) != 2 || got.Days[0].Date != "2026-11-30" || got.Days[0].Calls != 3 ||
		got.Days[0].OutputTokens != 280 || !near(got.Days[0].CostUSD, c1+2*c2) || got.Days[1].Calls != 0 {
		t.Fatalf("usage_get %s", raw)
	}
	if reply := e2.send(map[string]any{"action": "usage_get", "days": 91}); reply["ok"] != false {
		t.Fatalf("91 days: %v", reply)
	}
}

// newEnvOn is a fresh Router on prev's storage and clock, talking to srv.
func newEnvOn(t *testing.T, prev *env, srv *llmtest.Server) *env {
	e := newEnv(t, srv)
	all, _ := prev.local.Get(context.Background())
	e.local.Set(context.Background(), all)
	s, _ := settings.Load(context.Background(), e.local)
	s.Providers[0].BaseURL = srv.URL + "/v1"
	settings.Save(context.Background(), e.local, s)
	e.clock = prev.clock
	return e
}

// The first answer costs $1.20, past the $1 daily allowance: it is kept
// with a notice, and the run pauses before the next call until the
// allowance is raised.
func TestAllowancePausesBeforeTheNextCallAndRaiseResumes(t *testing.T) {
	big := llm.Usage{InputTokens: 200000, OutputTokens: 100000} // $0.20 + $1.00
	small := llm.Usage{InputTokens: 1000, OutputTokens: 10}
	e := newEnv(t, llmtest.NewTurns(
		llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: "read_page", Arguments: `{}`}}, Usage: &big},
		llmtest.Turn{Text: "Done reading.", Usage: &small},
	))
	e.priced(1, 0)
	e.mustOK(askReq(5, "r5", "read it"))
	var card Entry
	eventually(t, "the allowance card", func() bool {
		ru := e.r.active(5)
		if ru == nil {
			return false
		}
		ev, ok := ru.j.last(protocol.EventAllowance)
		card = ev
		return ok
	})
	if n := len(e.srv.Requests()); n != 1 {
		t.Fatalf("%d model requests before the pause, want 1", n)
	}
	ru := e.r.active(5)
	calls := usageEvents(ru.j.snapshot())
	if len(calls) != 1 || !strings.Contains(calls[0].Text, "reached the cost allowance") || !strings.Contains(calls[0].Text, "answer is kept") {
		t.Fatalf("the crossing call's notice: %+v", calls)
	}
	a := card.Allowance
	if a == nil || a.Scope != cost.ScopeDay || a.LimitUSD != 1 || !near(a.SpentUSD, 1.2) || a.RaiseUSD != 1 ||
		!strings.Contains(card.Text, "Today's cost allowance is $1.00 and $1.20 has been spent") {
		t.Fatalf("card %+v %+v", card, a)
	}
	// The card and the notice carry their keys, the amounts as data.
	if m := card.Msg; m == nil || m.Key != "bg_allowance_paused" || m.Params["raise"] != "$1.00" ||
		m.Params["limit"].(uitext.Msg).Key != "bg_allowance_day_spent" || m.Params["limit"].(uitext.Msg).Params["spent"] != "$1.20" {
		t.Errorf("card msg %+v", card.Msg)
	}
	if m := calls[0].Msg; m == nil || m.Key != "bg_allowance_reached" || m.Params["limit"].(uitext.Msg).Key != "bg_allowance_day_spent" {
		t.Errorf("notice msg %+v", calls[0].Msg)
	}
	if reply := e.send(map[string]any{"action": "allowance_answer", "tabId": 5, "requestId": "r5", "id": card.ID, "decision": "maybe"}); reply["ok"] != false {
		t.Fatalf("unknown decision accepted: %v", reply)
	}
	e.mustOK(map[string]any{"action": "allowance_answer", "tabId": 5, "requestId": "r5", "id": card.ID, "decision": "raise"})
	j := e.waitEnd(5)
	if j.Status != protocol.StatusDone || j.Final != "Done reading." || len(e.srv.Requests()) != 2 {
		t.Fatalf("journal %+v after %d requests", j, len(e.srv.Requests()))
	}
	if _, ok := findEntry(j, protocol.EventAllowanceResolved, card.ID); !ok {
		t.Fatalf("no resolution in %v", kinds(j.Events))
	}
	day, _ := e.r.usage.Today(context.Background())
	if day.RaisedUSD != 1 || day.Calls != 2 {
		t.Fatalf("today %+v", day)
	}
	if reply := e.send(map[string]any{"action": "allowance_answer", "tabId": 5, "requestId": "r5", "id": card.ID, "decision": "raise"}); reply["ok"] != false {
		t.Fatalf("a second answer was accepted: %v", reply)
	}
}

func findEntry(j Journal, kind, id string) (Entry, bool) {
	for _, ev := range j.Events {
		if ev.Kind == kind && ev.ID == id {
			return ev, true
		}
	}
	return Entry{}, false
}

// A run allowance pauses before the first call whose estimate does not
// fit; after a background restart the same card waits, and Stop ends the
// run as stopped without the call.
func TestRunAllowancePauseSurvivesARestartAndStops(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "never sent"}))
	e.priced(0, 0.0001) // less than any call's output budget
	e.mustOK(askReq(7, "r7", "hello"))
	var id string
	var runCard Entry
	eventually(t, "the allowance card", func() bool {
		ru := e.r.active(7)
		if ru == nil {
			return false
		}
		ev, ok := ru.j.last(protocol.EventAllowance)
		id, runCard = ev.ID, ev
		return ok && ev.Allowance.Scope == cost.ScopeRun
	})
	if m := runCard.Msg; m == nil || m.Key != "bg_allowance_paused" || m.Params["limit"].(uitext.Msg).Key != "bg_allowance_run_spent" {
		t.Errorf("card msg %+v", runCard.Msg)
	}
	e2 := e.restart(&pageCounter{})
	eventually(t, "the resumed run to wait again", func() bool {
		ru := e2.r.active(7)
		return ru != nil && ru.j.hasEvent(protocol.EventResumed, "")
	})
	e2.mustOK(map[string]any{"action": "allowance_answer", "tabId": 7, "requestId": "r7", "id": id, "decision": "stop"})
	j := e2.waitEnd(7)
	if j.Status != protocol.StatusStopped || len(e.srv.Requests()) != 0 {
		t.Fatalf("journal %+v after %d requests", j, len(e.srv.Requests()))
	}
	cards := 0
	for _, ev := range j.Events {
		if ev.Kind == protocol.EventAllowance {
			cards++
		}
	}
	if cards != 1 {
		t.Fatalf("%d cards, want the same one after the restart: %v", cards, kinds(j.Events))
	}
}

// The memory learner runs after the run has ended: at the allowance it is
// skipped, with no card on a finished run; below it, it asks the model.
func TestLearnerAfterTheRunIsSkippedAtTheAllowance(t *testing.T) {
	for _, spent := range []bool{false, true} {
		out := 100
		if spent {
			out = 200000 // $2, past the $1 allowance
		}
		u := llm.Usage{InputTokens: 1000, OutputTokens: out}
		e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "Noted.", Usage: &u}))
		e.priced(1, 0)
		s, _ := settings.Load(context.Background(), e.local)
		s.MemoryAutoLearn = true
		settings.Save(context.Background(), e.local, s)
		e.mustOK(askReq(9, "r9", "I always want answers in German"))
		if j := e.waitEnd(9); j.Status != protocol.StatusDone {
			t.Fatalf("journal %+v", j)
		}
		if !spent {
			eventually(t, "the learner's request", func() bool { return len(e.srv.MemoryRequests()) == 1 })
			continue
		}
		time.Sleep(300 * time.Millisecond) // the learner's goroutine had its chance
		if n := len(e.srv.MemoryRequests()); n != 0 {
			t.Fatalf("the learner asked the model %d times past the allowance", n)
		}
		if j, _ := storedJournal(t, e.session, 9); j.Events[len(j.Events)-1].Kind != protocol.EventFinal {
			t.Fatalf("events after the end: %v", kinds(j.Events))
		}
	}
}

// A job's run that pauses at the allowance says so in a notification,
// its title and text keyed for the interface language.
func TestAllowanceNotificationIsKeyed(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "never sent"}))
	notes := &notifier{}
	e.r.p.Notify = notes
	e.priced(0, 0.0001)
	e.mustOK(askReq(8, jobRequestPrefix+"j1:1", "hello"))
	eventually(t, "the notification", func() bool { return len(notes.all()) > 0 })
	if keys := notes.allKeys(); keys[0] != "bg_notify_allowance: bg_allowance_paused" {
		t.Fatalf("keys %q, shown %q", keys, notes.all())
	}
	if shown := notes.all()[0]; !strings.Contains(shown, "This run's cost allowance is $0.0001") {
		t.Fatalf("shown %q", shown)
	}
	ru := e.r.active(8)
	card, _ := ru.j.last(protocol.EventAllowance)
	e.mustOK(map[string]any{"action": "allowance_answer", "tabId": 8, "requestId": jobRequestPrefix + "j1:1", "id": card.ID, "decision": "stop"})
	e.waitEnd(8)
}
