package background

import (
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
)

const pageKey = "sk-proj-Zx81Qm4LkT7wR2vN9yB5cH3jD6fG0aEu"

func TestSecretsStayOutOfTheJournalAndTheStoredConversation(t *testing.T) {
	ev := maskEvent(agent.Event{Kind: protocol.EventToolResult, Result: "Your key: " + pageKey})
	if strings.Contains(ev.Result, pageKey) {
		t.Fatalf("journaled result %q", ev.Result)
	}
	conv := storedConversation([]llm.Message{
		{Role: llm.RoleUser, Content: "use my key " + pageKey},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{Name: "type_ax", Arguments: `{"ref":"ref_1","text":"` + pageKey + `"}`}}},
		{Role: llm.RoleTool, Content: "Typed " + pageKey},
	})
	if !strings.Contains(conv[0].Content, pageKey) {
		t.Fatal("the user's own words were changed")
	}
	if strings.Contains(conv[1].ToolCalls[0].Arguments, pageKey) || strings.Contains(conv[2].Content, pageKey) {
		t.Fatalf("stored %+v", conv[1:])
	}
}
