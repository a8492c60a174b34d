package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
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

func TestCompactKeepsTaskTailAndPairs(t *testing.T) {
	conv := longHistory(20) // 62 messages
	conv = append(conv, llm.Message{Role: llm.RoleUser, Content: "current task"})
	task := len(conv) - 1
	out, newTask := compact(conv, task)
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
	out, newTask = compact(conv, task)
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
	if !needsCompaction(small, 7000, 8192) || needsCompaction(small, 6000, 8192) {
		t.Error("token trigger not at 75% of the context window")
	}
}

func TestRunCompactsLongHistory(t *testing.T) {
	h := newHarness(t, ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "ok"}
	})
	history := longHistory(20)
	out, err := h.run(context.Background(), history, "next step please")
	if err != nil {
		t.Fatal(err)
	}
	sent := h.srv.Requests()[0].Messages
	if len(sent) > compactMessages {
		t.Fatalf("sent %d messages", len(sent))
	}
	if sent[1].Content != "original task" || !strings.HasPrefix(sent[len(sent)-1].Content, "next step please") {
		t.Errorf("sent roles %s", roles(sent))
	}
	checkPairs(t, sent)
	checkPairs(t, out.Conversation)
	if len(history) != 62 {
		t.Error("history was modified")
	}
}
