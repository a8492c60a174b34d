package background

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func chat(tabID int, text string) map[string]any {
	return map[string]any{"action": "chat_start", "tabId": tabID, "text": text, "mode": "ask", "requestId": "req-1"}
}

func TestChatStartRepliesAtOnceAndJournalsTheRun(t *testing.T) {
	answer := "The page is an example domain."
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: answer, Delay: 300 * time.Millisecond}))

	reply := e.mustOK(chat(4, "What is this page?"))
	if reply["requestId"] != "req-1" {
		t.Fatalf("reply %v", reply)
	}
	// The reply came before the model answered: the run is still going.
	state := e.mustOK(map[string]any{"action": "run_state", "tabId": 4})
	if j := state["journal"].(map[string]any); j["status"] != protocol.StatusRunning {
		t.Fatalf("run_state right after chat_start: %v", j)
	}
	if active, _ := e.alarms.state(); active[keepaliveAlarm] != 30*time.Second {
		t.Fatalf("no keepalive alarm while running: %v", active)
	}

	j := e.waitEnd(4)
	if j.Status != protocol.StatusDone || j.Final != answer || j.RequestID != "req-1" || j.Mode != "ask" {
		t.Fatalf("journal %+v", j)
	}
	ks := kinds(j.Events)
	if ks[0] != protocol.EventRunStarted || ks[len(ks)-1] != protocol.EventFinal || !contains(ks, protocol.EventStep) || !contains(ks, protocol.EventTextDelta) {
		t.Fatalf("event kinds %v", ks)
	}
	if j.Events[0].Text != "What is this page?" || j.Events[0].Mode != "ask" {
		t.Fatalf("run_started %+v", j.Events[0])
	}

	ups := e.ui.updates()
	if len(ups) != j.Seq {
		t.Fatalf("%d broadcasts for %d events", len(ups), j.Seq)
	}
	for i, u := range ups {
		if u.Type != "agent_update" || u.TabID != 4 || u.RequestID != "req-1" || u.Seq != i+1 || u.Event.Kind != ks[i] {
			t.Fatalf("broadcast %d out of order: %+v", i, u)
		}
	}

	conv := e.conversation(4)
	if len(conv) < 2 || conv[len(conv)-1].Role != llm.RoleAssistant || conv[len(conv)-1].Content != answer {
		t.Fatalf("conversation not saved: %+v", conv)
	}
	if active, created := e.alarms.state(); len(active) != 0 || created != 1 {
		t.Fatalf("keepalive after the run: active %v, created %d", active, created)
	}
}

func TestConversationCarriesOver(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "First answer."}, llmtest.Turn{Text: "Second answer."}))
	e.mustOK(chat(2, "first question"))
	e.waitEnd(2)
	e.mustOK(chat(2, "second question"))
	if j := e.waitEnd(2); j.Final != "Second answer." {
		t.Fatalf("second run %+v", j)
	}
	reqs := e.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	var sawFirst bool
	for _, m := range reqs[1].Messages {
		sawFirst = sawFirst || (m.Role == llm.RoleAssistant && m.Content == "First answer.")
	}
	if !sawFirst {
		t.Fatal("the second request did not carry the first turn")
	}
}

func TestReplayWindowKeepsLast256Events(t *testing.T) {
	words := make([]string, 400)
	for i := range words {
		words[i] = "w"
	}
	text := strings.Join(words, " ")
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: text}))
	e.mustOK(chat(1, "count"))
	j := e.waitEnd(1)
	if j.Seq <= journalEvents || len(j.Events) != journalEvents {
		t.Fatalf("seq %d with %d events", j.Seq, len(j.Events))
	}
	for i, ev := range j.Events {
		if ev.Seq != j.Seq-journalEvents+1+i {
			t.Fatalf("event %d has seq %d (last %d)", i, ev.Seq, j.Seq)
		}
	}
	if j.Text != text || j.Final != text {
		t.Fatalf("accumulated text %d bytes, final %d bytes, want %d", len(j.Text), len(j.Final), len(text))
	}
}

func TestAbortMidModelRequest(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "never", Delay: time.Minute}))
	e.mustOK(chat(9, "slow question"))
	eventually(t, "the model request", func() bool { return len(e.srv.Requests()) == 1 })

	start := time.Now()
	e.mustOK(map[string]any{"action": "abort", "tabId": 9})
	j := e.waitEnd(9)
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("stopping took %v", took)
	}
	if j.Status != protocol.StatusStopped || j.Events[len(j.Events)-1].Kind != protocol.EventStopped {
		t.Fatalf("journal after abort: status %q kinds %v", j.Status, kinds(j.Events))
	}
	conv := e.conversation(9)
	var sawUser bool
	for _, m := range conv {
		sawUser = sawUser || (m.Role == llm.RoleUser && strings.Contains(m.Content, "slow question"))
	}
	if !sawUser {
		t.Fatalf("the stopped turn was not saved: %+v", conv)
	}
}

func TestProvider401IsAPlainErrorEvent(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Status: http.StatusUnauthorized,
		ErrorBody: `{"error":{"message":"Incorrect API key provided: sk-te****1234."}}`}))
	e.mustOK(chat(5, "hello"))
	j := e.waitEnd(5)
	last := j.Events[len(j.Events)-1]
	if j.Status != protocol.StatusError || last.Kind != protocol.EventError || last.Text != j.Error {
		t.Fatalf("journal %+v", j)
	}
	if !strings.Contains(j.Error, "API key") || strings.Contains(j.Error, "llm:") || strings.Contains(j.Error, "{") {
		t.Fatalf("not a plain message: %q", j.Error)
	}
}

func TestSettingsProblemIsAnErrorEvent(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	_ = e.local.Set(context.Background(), map[string]json.RawMessage{"settings": json.RawMessage(`{"providers":"broken"}`)})
	// Damaged settings fall back to the defaults (a local Ollama); the run
	// must still end with the reason rather than a hang.
	e.mustOK(chat(6, "hi"))
	j := e.waitEnd(6)
	if j.Status != protocol.StatusError || !strings.Contains(j.Error, "settings") {
		t.Fatalf("journal %+v", j)
	}
}

func TestChatStartRefusals(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "x", Delay: time.Minute}))
	for _, c := range []struct {
		msg  map[string]any
		want string
	}{
		{map[string]any{"action": "chat_start", "tabId": 1, "text": "hi", "mode": "dance"}, "mode"},
		{map[string]any{"action": "chat_start", "tabId": 1, "text": " ", "mode": "ask"}, "empty"},
		{map[string]any{"action": "chat_start", "text": "hi", "mode": "ask"}, "tabId"},
		{map[string]any{"action": "fly"}, "Unknown action"},
		{map[string]any{"tabId": 1}, "no action"},
	} {
		reply := e.send(c.msg)
		if reply["ok"] != false || !strings.Contains(reply["error"].(string), c.want) {
			t.Errorf("%v: %v", c.msg, reply)
		}
	}
	if e.r.active(1) != nil {
		t.Fatal("a refused chat_start started a run")
	}

	e.mustOK(chat(1, "first"))
	reply := e.send(chat(1, "second"))
	if reply["ok"] != false || reply["error"] != "a run is already active in this tab" {
		t.Fatalf("second run in the same tab: %v", reply)
	}
	e.mustOK(map[string]any{"action": "abort", "tabId": 1})
	e.waitEnd(1)
}

func TestClearConversationStopsTheRunAndRemovesKeys(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "x", Delay: time.Minute}))
	ctx := context.Background()
	other := map[string]json.RawMessage{"agentConv:2": json.RawMessage(`[]`), "runUi:2": json.RawMessage(`{}`), "tabChat:2": json.RawMessage(`"<p>"`)}
	_ = e.session.Set(ctx, other)
	_ = e.session.Set(ctx, map[string]json.RawMessage{"agentConv:8": json.RawMessage(`[]`), "tabChat:8": json.RawMessage(`"<p>"`)})

	e.mustOK(chat(8, "question"))
	eventually(t, "the model request", func() bool { return len(e.srv.Requests()) == 1 })
	ru := e.r.active(8)
	e.mustOK(map[string]any{"action": "clear_conversation", "tabId": 8})
	if e.r.active(8) != nil {
		t.Fatal("the run survived the clear")
	}
	// Once the run has ended nothing of it writes any more (the journal
	// was dropped first): what is stored now stays.
	select {
	case <-ru.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the run did not end after the clear")
	}
	got, _ := e.session.Get(ctx)
	for _, k := range []string{"agentConv:8", "runUi:8", "tabChat:8"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s still stored", k)
		}
	}
	for k := range other {
		if _, ok := got[k]; !ok {
			t.Errorf("%s of another tab was removed", k)
		}
	}
	if state := e.mustOK(map[string]any{"action": "run_state", "tabId": 8}); state["journal"] != nil {
		t.Fatalf("journal after clear: %v", state["journal"])
	}
}

func TestRunStateReportsAnOrphanedRun(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	_ = e.session.Set(context.Background(), map[string]json.RawMessage{
		"runUi:3": json.RawMessage(`{"requestId":"old","mode":"act","status":"running","seq":2,"events":[]}`)})
	j := e.mustOK(map[string]any{"action": "run_state", "tabId": 3})["journal"].(map[string]any)
	if j["status"] != protocol.StatusError || j["error"] != interruptedText || j["requestId"] != "old" {
		t.Fatalf("orphaned journal %v", j)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestToolCallIsJournaledBeforeTheToolRuns(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(
		llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: "read_page", Arguments: `{}`}}},
		llmtest.Turn{Text: "It says page text."},
	))
	var storedAtSend []string
	e.content.onSend = func() {
		if j, ok := storedJournal(t, e.session, 3); ok && storedAtSend == nil { // read_page, not the judge's read
			storedAtSend = kinds(j.Events)
		}
	}
	e.mustOK(map[string]any{"action": "chat_start", "tabId": 3, "text": "read it", "mode": "act", "requestId": "r"})
	j := e.waitEnd(3)
	if j.Status != protocol.StatusDone || j.Final != "It says page text." {
		t.Fatalf("journal %+v", j)
	}
	if len(storedAtSend) == 0 || storedAtSend[len(storedAtSend)-1] != protocol.EventToolCall {
		t.Fatalf("stored journal when the tool ran: %v", storedAtSend)
	}
	var result *Entry
	for i := range j.Events {
		if j.Events[i].Kind == protocol.EventToolResult {
			result = &j.Events[i]
		}
	}
	if result == nil || result.Name != "read_page" || !strings.Contains(result.Result, "page text") {
		t.Fatalf("tool_result %+v in %v", result, kinds(j.Events))
	}
}

func TestClarifyAnswerResumesTheRun(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(
		llmtest.Turn{ToolCalls: []llm.ToolCall{{ID: "ask1", Name: "clarify", Arguments: `{"question":"Which size?","options":["S","M"]}`}}},
		llmtest.Turn{Text: "Ordering M."},
	))
	e.mustOK(map[string]any{"action": "chat_start", "tabId": 6, "text": "order a shirt", "mode": "act", "requestId": "r6"})
	eventually(t, "the question", func() bool {
		ru := e.r.active(6)
		return ru != nil && ru.j.hasEvent(protocol.EventClarify, "ask1")
	})
	var questions int
	for _, u := range e.ui.updates() {
		if u.Event.Kind == protocol.EventClarify {
			questions++
		}
	}
	if questions != 1 {
		t.Fatalf("%d clarify events broadcast, want 1", questions)
	}
	if reply := e.send(map[string]any{"action": "clarify_answer", "tabId": 6, "requestId": "old", "id": "ask1", "answer": "S"}); reply["ok"] != false {
		t.Fatalf("answer for another request accepted: %v", reply)
	}
	if reply := e.send(map[string]any{"action": "clarify_answer", "tabId": 6, "requestId": "r6", "id": "nope", "answer": "S"}); reply["ok"] != false {
		t.Fatalf("answer for another question accepted: %v", reply)
	}
	e.mustOK(map[string]any{"action": "clarify_answer", "tabId": 6, "requestId": "r6", "id": "ask1", "answer": "M"})
	if j := e.waitEnd(6); j.Status != protocol.StatusDone || j.Final != "Ordering M." {
		t.Fatalf("journal %+v", j)
	}
	reqs := e.srv.Requests()
	last := reqs[len(reqs)-1].Messages
	if m := last[len(last)-1]; m.Role != llm.RoleTool || !strings.Contains(m.Content, "M") {
		t.Fatalf("the answer did not reach the model: %+v", m)
	}
}

func TestPanicEndsOnlyTheRun(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "unused"}))
	e.r.p.Tabs = panicTabs{}
	e.mustOK(chat(2, "hi"))
	if j := e.waitEnd(2); j.Status != protocol.StatusError || !strings.Contains(j.Error, "internal error") {
		t.Fatalf("journal %+v", j)
	}
	if active, _ := e.alarms.state(); len(active) != 0 {
		t.Fatal("keepalive left on after a crashed run")
	}
}
