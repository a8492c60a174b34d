package background

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/platform/nativefetch"
	"github.com/webbrain/webbrain/wasm/platform/platformtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

// self is the extension under test; panel is the sender of its side panel's messages.
var (
	self  = platform.Extension{ID: "ext", Origin: "chrome-extension://ext"}
	panel = Sender{ID: "ext", URL: "chrome-extension://ext/sidepanel/sidepanel.html"}
)

// env is a Router over fakes, with the real provider talking to a
// scripted LLM server.
type env struct {
	t       *testing.T
	r       *Router
	srv     *llmtest.Server
	local   *platformtest.Storage
	session *countingStorage
	ui      *broadcaster
	clock   *fakeClock
	alarms  *alarms
	content *fakeContent
}

func newEnv(t *testing.T, srv *llmtest.Server) *env {
	t.Helper()
	e := &env{t: t, srv: srv, local: platformtest.NewStorage(), session: newCountingStorage(),
		ui: &broadcaster{}, clock: newFakeClock(), alarms: &alarms{}, content: &fakeContent{}}
	t.Cleanup(srv.Close)
	e.r = New(platform.Platform{
		Tabs: fakeTabs{}, Content: e.content, Local: e.local, Session: e.session,
		Fetch: nativefetch.Fetcher{}, Alarms: e.alarms, Clock: e.clock, UI: e.ui, Browser: "chrome", Self: self,
	})
	s := settings.Settings{
		Providers: []llm.Config{{ID: "test", Name: "Test", Kind: protocol.KindOpenAIChat,
			BaseURL: srv.URL + "/v1", Model: llmtest.Model, Tier: protocol.TierMid}},
		ActiveProvider: "test", MaxSteps: 10, AskBeforeActions: true, Memory: true, MemoryAutoLearn: true, ScheduledTasks: true, NotifySound: true,
	}
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		t.Fatal(err)
	}
	return e
}

// send passes msg through Handle as the panel and decodes the reply.
func (e *env) send(msg map[string]any) map[string]any {
	return e.sendAs(panel, msg)
}

func (e *env) sendAs(s Sender, msg map[string]any) map[string]any {
	e.t.Helper()
	raw, err := json.Marshal(msg)
	if err != nil {
		e.t.Fatal(err)
	}
	out, err := json.Marshal(e.r.Handle(context.Background(), raw, s))
	if err != nil {
		e.t.Fatalf("reply is not JSON-serializable: %v", err)
	}
	var reply map[string]any
	if err := json.Unmarshal(out, &reply); err != nil {
		e.t.Fatal(err)
	}
	return reply
}

func (e *env) mustOK(msg map[string]any) map[string]any {
	e.t.Helper()
	reply := e.send(msg)
	if reply["ok"] != true {
		e.t.Fatalf("%v: %v", msg["action"], reply)
	}
	return reply
}

// waitEnd waits until the tab's run is over and returns its stored journal.
func (e *env) waitEnd(tabID int) Journal {
	e.t.Helper()
	eventually(e.t, "the run to end", func() bool { return e.r.active(tabID) == nil })
	j, ok := storedJournal(e.t, e.session, tabID)
	if !ok {
		e.t.Fatal("no journal stored")
	}
	return j
}

func (e *env) conversation(tabID int) []llm.Message {
	e.t.Helper()
	got, _ := e.session.Get(context.Background(), convKey(tabID))
	var msgs []llm.Message
	if raw, ok := got[convKey(tabID)]; ok {
		if err := json.Unmarshal(raw, &msgs); err != nil {
			e.t.Fatal(err)
		}
	}
	return msgs
}

func kinds(events []Entry) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = ev.Kind
	}
	return out
}
