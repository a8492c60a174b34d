package agent

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/skills"
	"github.com/webbrain/webbrain/wasm/tools"
)

// notesSkill is a user skill with a plain read and a POST that writes.
const notesSkill = "# Notes\n\nKeep and read the user's notes on their notes service.\n\n```webbrain-tools\n" + `{"tools": [
 {"name": "find_notes", "kind": "http", "readOnly": true, "method": "GET", "endpoint": "https://api.notes.example/v1/search",
  "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
 {"name": "save_note", "kind": "http", "method": "POST", "endpoint": "https://api.notes.example/v1/notes",
  "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}
]}` + "\n```\n"

// skillNet stands in for the network behind a Dispatcher: it records the
// skill requests it is given and answers each.
type skillNet struct {
	*tools.Dispatcher
	mu    sync.Mutex
	calls []tools.HTTPCall
}

func (s *skillNet) CallHTTP(_ context.Context, c tools.HTTPCall) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
	return "GET answered HTTP 200.\n" + `{"notes": ["Lisbon: book the tram tour"]}`, nil
}

func (s *skillNet) DownloadJob(context.Context, tools.HTTPCall, time.Duration) (string, error) {
	return "", nil
}

// cardUser answers every approval card with a decision and keeps them.
type cardUser struct {
	decision guard.Decision
	cards    []guard.Approval
}

func (u *cardUser) Approve(_ context.Context, a guard.Approval) (guard.Decision, error) {
	u.cards = append(u.cards, a)
	return u.decision, nil
}

func notesCatalog(t *testing.T, mode string) []skills.Skill {
	t.Helper()
	return skills.Catalog([]skills.Stored{{ID: "notes", Markdown: notesSkill, Enabled: true}}, mode, "mid")
}

func TestLoadedSkillOffersItsToolsAndTheGateAsksForWrites(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0: // not offered before the skill is loaded
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("find_notes", map[string]any{"q": "Lisbon"})}}
		case 1:
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("load_skill", map[string]any{"skill_id": "notes"})}}
		case 2:
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("find_notes", map[string]any{"q": "Lisbon"})}}
		case 3:
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("save_note", map[string]any{"text": "Lisbon trip: tram tour"})}}
		}
		return llmtest.Turn{Text: "Your Lisbon note says to book the tram tour."}
	})
	net := &skillNet{Dispatcher: h.dispatcher()}
	h.opts.Executor = net
	user := &cardUser{decision: guard.Decline}
	h.opts.Gate = guard.New(guard.Config{Mode: protocol.ModeAct, AskBeforeActions: true, Approver: user})
	h.opts.Skills = notesCatalog(t, protocol.ModeAct)
	out, err := h.run(context.Background(), nil, "What do my notes say about Lisbon?")
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if hasTool(reqs[0], "find_notes") || !hasTool(reqs[2], "find_notes") || !hasTool(reqs[2], "save_note") {
		t.Errorf("tools before the load %v, after %v", reqs[0].Tools, reqs[2].Tools)
	}
	results := toolMessages(out.Conversation)
	if !strings.HasPrefix(results[0].Content, "Error:") {
		t.Errorf("a tool of an unloaded skill ran: %s", results[0].Content)
	}
	if !strings.Contains(results[1].Content, "find_notes, save_note") || strings.Contains(results[1].Content, "api.notes.example/v1/notes") {
		t.Errorf("load result: %s", results[1].Content)
	}
	if !strings.Contains(results[2].Content, "tram tour") {
		t.Errorf("find_notes result: %s", results[2].Content)
	}
	if !strings.Contains(results[3].Content, "declined") {
		t.Errorf("save_note result: %s", results[3].Content)
	}
	if len(net.calls) != 1 || net.calls[0].URL != "https://api.notes.example/v1/search?q=Lisbon" || net.calls[0].Method != "GET" {
		t.Errorf("requests sent: %+v", net.calls)
	}
	if len(user.cards) != 1 || user.cards[0].Tool != "save_note" || user.cards[0].Category != protocol.CategorySend {
		t.Errorf("cards: %+v", user.cards)
	}
}

func TestAskOffersOnlyASkillsPlainReads(t *testing.T) {
	askNotes := strings.Replace(notesSkill, "# Notes\n\n", "# Notes\n\n```webbrain-skill\n{\"summary\": \"Keep and read the user's notes.\", \"modes\": [\"ask\", \"act\"]}\n```\n\n", 1)
	h := newHarness(t, protocol.ModeAsk, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("load_skill", map[string]any{"skill_id": "notes"})}}
		case 1:
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("save_note", map[string]any{"text": "x"})}}
		}
		return llmtest.Turn{Text: "ok"}
	})
	net := &skillNet{Dispatcher: h.dispatcher()}
	h.opts.Executor = net
	h.opts.Skills = skills.Catalog([]skills.Stored{{ID: "notes", Markdown: askNotes, Enabled: true}}, protocol.ModeAsk, "mid")
	out, err := h.run(context.Background(), nil, "What do my notes say about Lisbon?")
	if err != nil {
		t.Fatal(err)
	}
	if req := h.srv.Requests()[1]; !hasTool(req, "find_notes") || hasTool(req, "save_note") {
		t.Errorf("Ask tools after the load: %v", req.Tools)
	}
	results := toolMessages(out.Conversation)
	if !strings.Contains(results[0].Content, "save_note (not a plain read") || !strings.HasPrefix(results[1].Content, "Error:") {
		t.Errorf("results %q / %q", results[0].Content, results[1].Content)
	}
	if len(net.calls) != 0 {
		t.Errorf("Ask sent %+v", net.calls)
	}
}
