package agent

import (
	"fmt"
	"sort"
	"strings"

	"github.com/webbrain/webbrain/wasm/llm"
)

// Context management thresholds (spec "Context management").
const (
	compactMessages = 50
	compactChars    = 80000
	compactRatio    = 0.75
	keepRecent      = 30
	// keepOnOverflow is what the emergency trim keeps when the provider
	// rejects a request as too long for its context window.
	keepOnOverflow = 6
)

// needsCompaction reports whether conv is due for compaction: too many
// messages, too many characters, or (when the context window is known)
// the last request used at least compactRatio of it.
func needsCompaction(conv []llm.Message, lastInputTokens, contextWindow int) bool {
	if len(conv) > compactMessages || llm.ConversationChars(conv) > compactChars {
		return true
	}
	return contextWindow > 0 && float64(lastInputTokens) >= compactRatio*float64(contextWindow)
}

// split finds what a reduction to the last keep messages drops: the
// messages between the first user message (the original task) and start,
// where the kept tail begins. The tail never starts with a tool result, so
// a call and its results stay together. ok is false when nothing would be
// dropped.
func split(conv []llm.Message, keep int) (first, start int, ok bool) {
	first = -1
	for i, m := range conv {
		if m.Role == llm.RoleUser {
			first = i
			break
		}
	}
	start = len(conv) - keep
	for start > 0 && start < len(conv) && conv[start].Role == llm.RoleTool {
		start--
	}
	return first, start, first >= 0 && start > first+1
}

// replaceDropped returns the conversation with conv[first+1:start]
// replaced by note, keeping the current turn's user message at task even
// when it was in the dropped part, and the new index of task.
func replaceDropped(conv []llm.Message, task, first, start int, note string) ([]llm.Message, int) {
	out := make([]llm.Message, 0, first+3+len(conv)-start)
	out = append(out, conv[:first+1]...)
	out = append(out, llm.Message{Role: llm.RoleUser, Content: note})
	newTask := task
	switch {
	case task > first && task < start: // the current task was in the dropped part
		out = append(out, conv[task])
		newTask = len(out) - 1
	case task >= start:
		newTask = len(out) + task - start
	}
	out = append(out, conv[start:]...)
	return out, newTask
}

// compactionNote stands in for dropped messages without a model call:
// how many, and which tools ran.
func compactionNote(dropped []llm.Message) string {
	counts := map[string]int{}
	for _, m := range dropped {
		for _, c := range m.ToolCalls {
			counts[c.Name]++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[Context note from WebBrain: %d earlier messages were removed to keep the conversation within the model's limits.", len(dropped))
	if len(counts) > 0 {
		b.WriteString(" They included these tool calls: ")
		b.WriteString(toolCounts(counts))
		b.WriteString(".")
	}
	b.WriteString(" The original task and the most recent messages follow; read the page again if you need what was removed.]")
	return b.String()
}

// toolCounts renders {"click_ax": 2} as "click_ax ×2" in name order.
func toolCounts(counts map[string]int) string {
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s ×%d", n, counts[n])
	}
	return strings.Join(parts, ", ")
}
