package background

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/trace"
)

const archivedKey = "sk-proj-Zq81LmN4vB7xC2pR9tY6wK3jH5gF0dS8aQ1e"

// setChat stores a panel transcript for the tab, as the panel does.
func (e *env) setChat(tabID int, items ...map[string]any) {
	e.t.Helper()
	raw, _ := json.Marshal(map[string]any{"v": 1, "items": items})
	if err := e.session.Set(context.Background(), map[string]json.RawMessage{chatKey(tabID): raw}); err != nil {
		e.t.Fatal(err)
	}
}

func entries(t *testing.T, rep map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, v := range rep["entries"].([]any) {
		out = append(out, v.(map[string]any))
	}
	return out
}

func TestClearArchivesRestoreAndTabClose(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(
		llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: "read_page", Arguments: `{}`}}},
		llmtest.Turn{Text: "The page says hello."},
	))
	e.r.p.Self.Version = "9.8.7"
	e.mustOK(chat(4, "What does the page say?"))
	e.waitEnd(4)
	e.setChat(4, map[string]any{"role": "user", "text": "What does the page say?"},
		map[string]any{"role": "tool", "name": "read_page", "args": "{}", "result": "Hello. API key: " + archivedKey},
		map[string]any{"role": "assistant", "text": "The page says hello."})

	e.mustOK(map[string]any{"action": "clear_conversation", "tabId": 4})
	list := entries(t, e.mustOK(map[string]any{"action": "history_list"}))
	if len(list) != 1 || list[0]["title"] != "What does the page say?" || list[0]["site"] != "example.com" ||
		strings.Join(toStrings(list[0]["modes"]), ",") != "ask" {
		t.Fatalf("history after clear: %v", list)
	}
	id := list[0]["id"].(string)
	got := e.mustOK(map[string]any{"action": "history_get", "id": id})
	raw, _ := json.Marshal(got)
	if !strings.Contains(string(raw), "The page says hello.") || strings.Contains(string(raw), archivedKey) {
		t.Fatalf("history_get: want the transcript, masked: %s", raw)
	}
	md := e.mustOK(map[string]any{"action": "conversation_export", "id": id})["markdown"].(string)
	if !strings.Contains(md, "Exported by WebBrain 9.8.7") || !strings.Contains(md, "- Tool `read_page` () → done") ||
		strings.Contains(md, archivedKey) {
		t.Fatalf("export:\n%s", md)
	}

	// Continue here, in another tab: the conversation is that tab's now and leaves the history.
	e.mustOK(map[string]any{"action": "history_restore", "id": id, "tabId": 9})
	conv := e.conversation(9)
	if len(conv) < 4 || !strings.HasPrefix(conv[1].Content, "What does the page say?") {
		t.Fatalf("restored conversation %+v", conv)
	}
	for _, m := range conv {
		if strings.Contains(m.Content, archivedKey) {
			t.Fatalf("the restored conversation holds the key")
		}
	}
	if list := entries(t, e.mustOK(map[string]any{"action": "history_list"})); len(list) != 0 {
		t.Fatalf("a restored conversation stays listed: %v", list)
	}
	exp := e.mustOK(map[string]any{"action": "conversation_export", "tabId": 9})["markdown"].(string)
	if !strings.Contains(exp, "**You:** What does the page say?") || !strings.Contains(exp, "- Site: example.com") {
		t.Fatalf("export of the restored tab:\n%s", exp)
	}

	// Closing the tab archives it again and frees its session keys.
	e.mustOK(map[string]any{"action": "tab_closed", "tabId": 9})
	if list := entries(t, e.mustOK(map[string]any{"action": "history_list"})); len(list) != 1 {
		t.Fatalf("after the tab closed: %v", list)
	}
	if got, _ := e.session.Get(context.Background(), convKey(9), chatKey(9), metaKey(9)); len(got) != 0 {
		t.Fatalf("session keys left after the tab closed: %v", got)
	}
	if rep := e.send(map[string]any{"action": "history_delete"}); rep["ok"] != false {
		t.Fatalf("delete without id or all: %v", rep)
	}
	if list := entries(t, e.mustOK(map[string]any{"action": "history_delete", "all": true})); len(list) != 0 {
		t.Fatalf("after delete all: %v", list)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}

func TestRestoreRefusedWhileARunIsActive(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "a"}))
	e.setChat(3, map[string]any{"role": "user", "text": "old"})
	e.mustOK(map[string]any{"action": "clear_conversation", "tabId": 3})
	id := entries(t, e.mustOK(map[string]any{"action": "history_list"}))[0]["id"]
	ru := e.r.newRun(5, "req-1", protocol.ModeAct, "go")
	ru.j = newJournal(e.r.p, 5, "req-1", protocol.ModeAct)
	e.r.mu.Lock()
	e.r.runs[5] = ru
	e.r.mu.Unlock()
	if rep := e.send(map[string]any{"action": "history_restore", "id": id, "tabId": 5}); rep["ok"] != false {
		t.Fatalf("restore during a run: %v", rep)
	}
}

// sink is a platform.Tracer keeping the last version of each run.
type sink struct {
	mu   sync.Mutex
	runs map[string]trace.Run
}

func (s *sink) Put(_ context.Context, raw json.RawMessage) error {
	var r trace.Run
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs[r.ID] = r
	return nil
}

func TestTraceRecordsARunWithoutItsContent(t *testing.T) {
	prompt := "Read the page, my password is Hunter2-Secret!"
	e := newEnv(t, llmtest.NewTurns(
		llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: "read_page", Arguments: `{"maxChars":2000}`}}},
		llmtest.Turn{Text: "It says hello."},
	))
	e.r.p.Self.Version = "9.8.7"
	tr := &sink{runs: map[string]trace.Run{}}
	e.r.p.Traces = tr
	s, _ := settings.Load(context.Background(), e.local)
	s.Traces = true
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		t.Fatal(err)
	}
	e.mustOK(chat(4, prompt))
	e.waitEnd(4)
	eventually(t, "the trace to end", func() bool {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		return tr.runs["req-1"].Status == protocol.StatusDone
	})
	tr.mu.Lock()
	run := tr.runs["req-1"]
	tr.mu.Unlock()
	raw, _ := json.Marshal(run)
	for _, leak := range []string{"Hunter2", "page text", "It says hello", "read the page"} {
		if strings.Contains(strings.ToLower(string(raw)), strings.ToLower(leak)) {
			t.Errorf("the trace holds %q: %s", leak, raw)
		}
	}
	if run.RecordedByWebBrainVersion != "9.8.7" || run.Site != "example.com" || run.Mode != "ask" || run.TabID != 4 {
		t.Errorf("run header %+v", run)
	}
	var reqs, tools int
	for _, ev := range run.Events {
		switch ev.Type {
		case "llm_request":
			if ev.Phase == "auxiliary" {
				continue // the memory learner, after the run
			}
			reqs++
			p := ev.Provenance
			if p == nil || p.SystemPromptChars == 0 || p.Roles["user"] == 0 || !p.Checks.ReadOnlyToolsInAsk ||
				p.PromptPolicyRevision != trace.PromptPolicyRevision {
				t.Errorf("request provenance %+v %+v", ev, p)
			}
		case "tool":
			tools++
			if ev.Tool != "read_page" || strings.Join(ev.ArgNames, ",") != "maxChars" || ev.ResultChars == 0 {
				t.Errorf("tool event %+v", ev)
			}
		}
	}
	if reqs != 2 || tools != 1 {
		t.Errorf("%d requests, %d tools: %s", reqs, tools, raw)
	}
}

func TestNoTraceWhenTheSettingIsOff(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "a"}))
	tr := &sink{runs: map[string]trace.Run{}}
	e.r.p.Traces = tr
	e.mustOK(chat(4, "hi"))
	e.waitEnd(4)
	if len(tr.runs) != 0 {
		t.Fatalf("traced with the setting off: %v", tr.runs)
	}
}
