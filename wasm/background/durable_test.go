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
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/platform/nativefetch"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// pageCounter is a Content that counts page actions; while hold is set a
// call blocks, like a tool the worker died in the middle of.
type pageCounter struct {
	mu    sync.Mutex
	calls []string
	hold  chan struct{}
}

func (c *pageCounter) Send(ctx context.Context, _ int, msg json.RawMessage) (json.RawMessage, error) {
	var m struct {
		Name string
		Args struct{ Tool string }
	}
	_ = json.Unmarshal(msg, &m)
	read := m.Name == protocol.PageRead // a page read with the wall readings
	if read {
		m.Name = m.Args.Tool
	}
	if strings.HasPrefix(m.Name, "wb_") {
		// The action gate's probe: an ordinary button, not a page action.
		return json.RawMessage(`{"ok":true,"result":{"tag":"button","role":"button","type":"button","name":"Go"}}`), nil
	}
	c.mu.Lock()
	c.calls = append(c.calls, m.Name)
	hold := c.hold
	c.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
		}
	}
	if read {
		return json.RawMessage(`{"ok":true,"result":{"text":"page text"}}`), nil
	}
	return json.RawMessage(`{"ok":true,"result":"page text"}`), nil
}

func (c *pageCounter) names() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

// restart simulates a new background: a Router over a copy of the session
// storage as the old one left it, with its own page. The old Router goes
// on in its own copy, out of the test's sight.
func (e *env) restart(page *pageCounter) *env {
	e.t.Helper()
	all, _ := e.session.Get(context.Background())
	next := *e
	next.session = newCountingStorage()
	_ = next.session.Set(context.Background(), all)
	next.ui = &broadcaster{}
	next.r = New(platform.Platform{
		Tabs: fakeTabs{}, Content: page, Local: e.local, Session: next.session,
		Fetch: nativefetch.Fetcher{}, Alarms: &alarms{}, Clock: e.clock, UI: next.ui, Browser: "chrome", Self: self,
	})
	next.r.Resume(context.Background())
	return &next
}

func act(tabID int, text string) map[string]any {
	return map[string]any{"action": "chat_start", "tabId": tabID, "text": text, "mode": "act", "requestId": "req-1"}
}

func steerMsg(tabID int, requestID, text string) map[string]any {
	return map[string]any{"action": "steer", "tabId": tabID, "requestId": requestID, "text": text}
}

// lastIsToolResult scripts a model that clicks once and then answers.
func clickThenAnswer(answer string) *llmtest.Server {
	return llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleTool {
			return llmtest.Turn{Text: answer}
		}
		return llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: "click_ax", Arguments: `{"ref":"e1"}`}}}
	})
}

func userCorrections(msgs []llm.Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role == llm.RoleUser && strings.HasPrefix(m.Content, "Correction from the user") {
			out = append(out, m.Content[strings.LastIndex(m.Content, ": ")+2:])
		}
	}
	return out
}

func TestSteerIsJournaledBeforeTheAckAndAppliedOnce(t *testing.T) {
	// The corrected request waits for the test to have looked at the
	// journal: a run that ended at once would already have dropped it.
	looked := make(chan struct{})
	release := sync.OnceFunc(func() { close(looked) })
	e := newEnv(t, llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{Text: "never", Delay: time.Minute}
		}
		<-looked
		return llmtest.Turn{Text: "Corrected answer."}
	}))
	t.Cleanup(release) // before the server closes, should the test fail first
	e.mustOK(chat(5, "question"))
	eventually(t, "the model request", func() bool { return len(e.srv.Requests()) == 1 })

	page := Sender{ID: "ext", URL: "https://evil.example/", TabID: 0}
	if rep := e.sendAs(page, steerMsg(5, "req-1", "x")); rep["ok"] != false {
		t.Fatalf("a web page steered the run: %v", rep)
	}
	if rep := e.send(steerMsg(5, "other", "x")); rep["ok"] != false || rep["ended"] != true {
		t.Fatalf("a correction for another request: %v", rep)
	}
	e.mustOK(steerMsg(5, "req-1", "answer in French"))
	got, _ := e.session.Get(context.Background(), steerKey(5))
	if !strings.Contains(string(got[steerKey(5)]), "answer in French") {
		t.Fatalf("acknowledged before it was journaled: %s", got[steerKey(5)])
	}
	release()

	j := e.waitEnd(5)
	if j.Final != "Corrected answer." {
		t.Fatalf("journal %+v", j)
	}
	reqs := e.srv.Requests()
	if len(reqs) != 2 || len(userCorrections(reqs[1].Messages)) != 1 {
		t.Fatalf("%d requests; corrections in the last: %q", len(reqs), userCorrections(reqs[len(reqs)-1].Messages))
	}
	ks := kinds(j.Events)
	if !contains(ks, protocol.EventSteer) || !contains(ks, protocol.EventCorrection) || contains(ks, protocol.EventSteerReturned) {
		t.Fatalf("events %v", ks)
	}
	if left, _ := e.session.Get(context.Background(), steerKey(5), runKey(5)); len(left) != 0 {
		t.Fatalf("run state left after the run: %v", left)
	}
	if rep := e.send(steerMsg(5, "req-1", "too late")); rep["ended"] != true {
		t.Fatalf("a correction after the end: %v", rep)
	}
}

func TestStopHandsUnappliedCorrectionsBack(t *testing.T) {
	page := &pageCounter{hold: make(chan struct{})}
	e := newEnv(t, clickThenAnswer("done"))
	e.r.p.Content = page
	e.mustOK(act(6, "click it"))
	eventually(t, "the click", func() bool { return len(page.names()) == 1 })
	e.mustOK(steerMsg(6, "req-1", "first"))
	e.mustOK(steerMsg(6, "req-1", "second"))
	e.mustOK(map[string]any{"action": "abort", "tabId": 6})
	j := e.waitEnd(6)
	n := len(j.Events)
	if j.Status != protocol.StatusStopped || j.Events[n-2].Kind != protocol.EventSteerReturned ||
		strings.Join(j.Events[n-2].Corrections, ",") != "first,second" {
		t.Fatalf("journal end %+v", j.Events[n-2:])
	}
}

func TestRestartDuringAnActionDoesNotRepeatIt(t *testing.T) {
	page := &pageCounter{hold: make(chan struct{})}
	e := newEnv(t, clickThenAnswer("Clicked once."))
	e.r.p.Content = page
	e.mustOK(act(7, "click it"))
	eventually(t, "the click", func() bool { return len(page.names()) == 1 })
	before, _ := storedJournal(t, e.session, 7)

	page2 := &pageCounter{}
	e2 := e.restart(page2)
	j := e2.waitEnd(7)
	if j.Status != protocol.StatusDone || j.Final != "Clicked once." || len(page2.names()) != 0 {
		t.Fatalf("status %s final %q, page calls after restart %v", j.Status, j.Final, page2.names())
	}
	if !contains(kinds(j.Events), protocol.EventResumed) || j.Seq <= before.Seq || j.RequestID != "req-1" {
		t.Fatalf("journal after resume: seq %d (was %d), %v", j.Seq, before.Seq, kinds(j.Events))
	}
	reqs := e.srv.Requests()
	last := reqs[len(reqs)-1].Messages
	if !strings.Contains(last[len(last)-1].Content, "effect is unknown") {
		t.Fatalf("the model was not told the action was interrupted: %+v", last[len(last)-1])
	}
	conv := e2.conversation(7)
	if conv[len(conv)-1].Content != "Clicked once." {
		t.Fatalf("conversation not saved after resume: %+v", conv)
	}
}

func TestRestartDuringAModelRequestSendsItAgain(t *testing.T) {
	e := newEnv(t, llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{Text: "lost", Delay: time.Minute}
		}
		return llmtest.Turn{Text: "Second try."}
	}))
	e.mustOK(chat(8, "question"))
	eventually(t, "the model request", func() bool { return len(e.srv.Requests()) == 1 })
	e.mustOK(steerMsg(8, "req-1", "be brief"))
	// Restart before the correction reached the conversation.
	e2 := e.restart(&pageCounter{})
	j := e2.waitEnd(8)
	if j.Final != "Second try." {
		t.Fatalf("journal %+v", j)
	}
	reqs := e.srv.Requests()
	last := reqs[len(reqs)-1]
	if got := userCorrections(last.Messages); len(got) != 1 || got[0] != "be brief" {
		t.Fatalf("corrections in the resumed request: %q", got)
	}
	if last.Messages[1].Role != llm.RoleUser || !strings.HasPrefix(last.Messages[1].Content, "question") {
		t.Fatalf("the resumed request lost the task: %+v", last.Messages[1])
	}
}

func TestResumeSkipsFinishedRuns(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "ok"}))
	e.mustOK(chat(9, "q"))
	e.waitEnd(9)
	_ = e.session.Set(context.Background(), map[string]json.RawMessage{
		runKey(9): json.RawMessage(`{"requestId":"req-1","mode":"ask","text":"q"}`)})
	e2 := e.restart(&pageCounter{})
	if e2.r.active(9) != nil || len(e.srv.Requests()) != 1 {
		t.Fatal("a finished run was started again")
	}
	if left, _ := e2.session.Get(context.Background(), runKey(9)); len(left) != 0 {
		t.Fatal("the stale record was kept")
	}
}
