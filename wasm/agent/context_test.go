package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// longHistory is a system prompt, a first task, and pairs of tool rounds
// (assistant with two calls, two results) and short user turns.
func longHistory(rounds int) []llm.Message {
	conv := []llm.Message{{Role: llm.RoleSystem, Content: "old prompt"}, {Role: llm.RoleUser, Content: "original task"}}
	for i := 0; i < rounds; i++ {
		a := fmt.Sprintf("c%d_a", i)
		b := fmt.Sprintf("c%d_b", i)
		conv = append(conv,
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: a, Name: "read_page", Arguments: "{}"}, {ID: b, Name: "click_ax", Arguments: `{"ref":"ref_1"}`}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: a, Name: "read_page", Content: "text"},
			llm.Message{Role: llm.RoleTool, ToolCallID: b, Name: "click_ax", Content: "clicked"},
		)
	}
	return conv
}

// trimTo replaces all but the last keep messages with the fixed note.
func trimTo(conv []llm.Message, task, keep int) ([]llm.Message, int) {
	first, start, ok := split(conv, keep)
	if !ok {
		return conv, task
	}
	return replaceDropped(conv, task, first, start, compactionNote(conv[first+1:start]))
}

func TestCompactKeepsTaskTailAndPairs(t *testing.T) {
	conv := longHistory(20) // 62 messages
	conv = append(conv, llm.Message{Role: llm.RoleUser, Content: "current task"})
	task := len(conv) - 1
	out, newTask := trimTo(conv, task, keepRecent)
	if out[0].Role != llm.RoleSystem || out[1].Content != "original task" || !strings.Contains(out[2].Content, "earlier messages were removed") {
		t.Fatalf("head = %s", roles(out[:3]))
	}
	if out[newTask].Content != "current task" || newTask != len(out)-1 {
		t.Errorf("task index %d of %d", newTask, len(out))
	}
	if out[3].Role == llm.RoleTool {
		t.Error("the kept part starts with an orphaned tool result")
	}
	if n := len(out) - 3; n < keepRecent || n > keepRecent+2 {
		t.Errorf("kept %d recent messages", n)
	}
	checkPairs(t, out)
	if !strings.Contains(out[2].Content, "click_ax ×") || !strings.Contains(out[2].Content, "read_page ×") {
		t.Errorf("note = %q", out[2].Content)
	}
	// A current task that falls in the dropped part is kept after the note.
	conv = longHistory(3)
	conv = append(conv, llm.Message{Role: llm.RoleUser, Content: "current task"})
	task = len(conv) - 1
	conv = append(conv, longHistory(15)[2:]...)
	out, newTask = trimTo(conv, task, keepRecent)
	if out[newTask].Content != "current task" || newTask != 3 {
		t.Errorf("task at %d: %q", newTask, out[newTask].Content)
	}
	checkPairs(t, out)
}

func TestNeedsCompaction(t *testing.T) {
	small := longHistory(2)
	if needsCompaction(small, 0, 0) {
		t.Error("a small conversation is due")
	}
	if !needsCompaction(longHistory(17), 0, 0) {
		t.Error("53 messages are not due")
	}
	big := append(longHistory(1), llm.Message{Role: llm.RoleUser, Content: strings.Repeat("x", 80001)})
	if !needsCompaction(big, 0, 0) {
		t.Error("80,001 characters are not due")
	}
	if !needsCompaction(small, 6144, 8192) || needsCompaction(small, 6143, 8192) {
		t.Error("token trigger not at 75% of the context window")
	}
}

func TestRunCompactsWithModelSummary(t *testing.T) {
	var summaryReq llmtest.Request
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			summaryReq = req
			return llmtest.Turn{Text: "The user wants a blue mug; the cart page was read."}
		}
		return llmtest.Turn{Text: "ok"}
	})
	history := longHistory(20)
	out, err := h.run(context.Background(), history, "next step please")
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if len(summaryReq.Tools) != 0 || gjson.GetBytes(summaryReq.Body, "tools").Exists() {
		t.Errorf("the summary request offers tools: %v", summaryReq.Tools)
	}
	if mt := gjson.GetBytes(summaryReq.Body, "max_tokens").Int(); mt != summaryMaxTokens {
		t.Errorf("summary max_tokens = %d", mt)
	}
	if sm := summaryReq.Messages; len(sm) != 2 || !strings.Contains(sm[1].Content, "original task") || !strings.Contains(sm[1].Content, "called click_ax") {
		t.Errorf("summary request = %+v", sm)
	}
	sent := reqs[1].Messages
	if len(sent) > compactMessages {
		t.Fatalf("sent %d messages", len(sent))
	}
	if sent[1].Content != "original task" || !strings.Contains(sent[2].Content, "The user wants a blue mug") ||
		!strings.HasPrefix(sent[len(sent)-1].Content, "next step please") {
		t.Errorf("sent roles %s: %q", roles(sent), sent[2].Content)
	}
	if n := len(sent) - 3; n < keepRecent || n > keepRecent+2 {
		t.Errorf("kept %d recent messages", n)
	}
	checkPairs(t, sent)
	checkPairs(t, out.Conversation)
	if len(history) != 62 {
		t.Error("history was modified")
	}
	ev := h.eventsOf(protocol.EventContextCompacted)
	if len(ev) != 1 || ev[0].Reason != protocol.CompactedAuto || ev[0].Count != len(history)+1-2-(len(sent)-3) {
		t.Errorf("events %+v", ev)
	}
}

func TestCompactionFallsBackToNote(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{Status: 400, ErrorBody: `{"error":{"message":"summaries are not supported"}}`}
		}
		return llmtest.Turn{Text: "ok"}
	})
	if _, err := h.run(context.Background(), longHistory(20), "go on"); err != nil {
		t.Fatal(err)
	}
	sent := h.srv.Requests()[1].Messages
	if !strings.Contains(sent[2].Content, "earlier messages were removed") || !strings.Contains(sent[2].Content, "read_page ×") {
		t.Errorf("note = %q", sent[2].Content)
	}
	checkPairs(t, sent)
	if len(h.eventsOf(protocol.EventContextCompacted)) != 1 || len(h.eventsOf(protocol.EventError)) != 0 {
		t.Errorf("events %v", h.kinds())
	}
}

func TestTokenBudgetTriggersCompaction(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if len(req.Tools) == 0 {
			return llmtest.Turn{Text: "summary"}
		}
		if n < 3 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("read_page", map[string]any{})}}
		}
		return llmtest.Turn{Text: "ok"}
	})
	// The fake server counts four bytes of request a token: the first
	// request alone is far over 75% of 2,000 tokens.
	h.opts.ContextWindow = 2000
	if _, err := h.run(context.Background(), longHistory(12), "go on"); err != nil {
		t.Fatal(err)
	}
	if len(h.eventsOf(protocol.EventContextCompacted)) == 0 {
		t.Fatalf("no compaction: %v", h.kinds())
	}
}

const overflowBody = `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`

func TestOverflowTrimsAndRetriesOnce(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{Status: 400, ErrorBody: overflowBody}
		}
		return llmtest.Turn{Text: "ok"}
	})
	out, err := h.run(context.Background(), longHistory(8), "current task")
	if err != nil || out.Final != "ok" {
		t.Fatalf("%q %v", out.Final, err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 || len(reqs[0].Messages) != 27 {
		t.Fatalf("%d requests", len(reqs))
	}
	sent := reqs[1].Messages
	// System, original task, note, then the last keepOnOverflow messages
	// widened to whole tool rounds: two rounds and the current task.
	if sent[0].Role != llm.RoleSystem || sent[1].Content != "original task" || !strings.Contains(sent[2].Content, "earlier messages were removed") {
		t.Fatalf("head %s", roles(sent))
	}
	if len(sent) != 3+keepOnOverflow+1 || sent[3].Role != llm.RoleAssistant || !strings.HasPrefix(sent[len(sent)-1].Content, "current task") {
		t.Errorf("sent %s", roles(sent))
	}
	checkPairs(t, sent)
	ev := h.eventsOf(protocol.EventContextCompacted)
	if len(ev) != 1 || ev[0].Reason != protocol.CompactedOverflow {
		t.Errorf("events %+v", ev)
	}
}

func TestOverflowTwiceIsAClearError(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Status: 400, ErrorBody: overflowBody}
	})
	out, err := h.run(context.Background(), longHistory(8), "current task")
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.KindContextOverflow {
		t.Fatalf("err = %v", err)
	}
	if n := len(h.srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	ev := h.eventsOf(protocol.EventError)
	if len(ev) != 1 || !strings.Contains(ev[0].Text, "too long for this model's context window") || !strings.Contains(ev[0].Text, "larger context window") {
		t.Errorf("error events %+v", ev)
	}
	if len(ev) == 1 && !carriesKey(ev[0].Msg, "bg_err_context_still_too_long") {
		t.Errorf("the error event carries no key for the panel: %+v", ev[0].Msg)
	}
	checkPairs(t, out.Conversation)
}

func TestContextWindowDefaults(t *testing.T) {
	for _, c := range []struct {
		cfg  llm.Config
		want int
	}{
		{llm.Config{BaseURL: "http://127.0.0.1:11434/v1"}, 16384},
		{llm.Config{BaseURL: "http://localhost:1234/v1"}, 16384},
		{llm.Config{BaseURL: "https://api.openai.com/v1"}, 131072},
		{llm.Config{Kind: protocol.KindAnthropic}, 131072},
		{llm.Config{BaseURL: "http://localhost:8080", ContextWindow: 32768}, 32768},
	} {
		if got := ContextWindow(c.cfg); got != c.want {
			t.Errorf("%+v: %d, want %d", c.cfg, got, c.want)
		}
	}
}

func TestTranscriptKeepsFirstAndLatest(t *testing.T) {
	msgs := []llm.Message{{Role: llm.RoleUser, Content: "[Context summary] earlier"}}
	for i := 0; i < 40; i++ {
		msgs = append(msgs, llm.Message{Role: llm.RoleTool, Name: "read_page", Content: fmt.Sprintf("page %d %s", i, strings.Repeat("x", 2000))})
	}
	got := transcript(msgs, 3000)
	if utf8.RuneCountInString(got) > 3000 || !strings.HasPrefix(got, "User: [Context summary] earlier") ||
		!strings.Contains(got, "page 39 ") || strings.Contains(got, "page 0 ") || !strings.Contains(got, "messages omitted") {
		t.Errorf("transcript = %q", got)
	}
}

// carriesKey reports whether m is key or holds it as a parameter.
func carriesKey(m *uitext.Msg, key string) bool {
	if m == nil {
		return false
	}
	if m.Key == key {
		return true
	}
	for _, p := range m.Params {
		if inner, ok := p.(uitext.Msg); ok && carriesKey(&inner, key) {
			return true
		}
	}
	return false
}
