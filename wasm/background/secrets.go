package background

import (
	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/secrets"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Secrets a page showed stay in the run's own conversation while it needs
// them; what outlives the run or is shown in tool rows has them masked
// (docs/decisions/action-gate.md).

// maskEvent hides secrets in what the journal keeps and broadcasts: tool
// results, tool arguments and errors. The final answer was cleaned by the
// gate, which keeps a secret the user asked for.
func maskEvent(ev agent.Event) agent.Event {
	switch ev.Kind {
	case protocol.EventToolResult, protocol.EventToolCall, protocol.EventError:
		ev.Result = secrets.Mask(ev.Result, nil)
		ev.Args = secrets.Mask(ev.Args, nil)
		if ev.Kind == protocol.EventError {
			ev.Text = secrets.Mask(ev.Text, nil)
		}
	}
	// A text's parameters are masked as its English is, whatever the kind:
	// the panel may show them instead.
	mask := func(s string) string { return secrets.Mask(s, nil) }
	ev.Msg = ev.Msg.Map(mask)
	if len(ev.OptionMsgs) > 0 {
		opts := make([]*uitext.Msg, len(ev.OptionMsgs))
		for i, m := range ev.OptionMsgs {
			opts[i] = m.Map(mask)
		}
		ev.OptionMsgs = opts
	}
	return ev
}

// storedConversation masks secrets in tool results and the model's words
// before the conversation is kept for the next turn; the user's own
// messages stay as they wrote them.
func storedConversation(conv []llm.Message) []llm.Message {
	out := make([]llm.Message, len(conv))
	for i, m := range conv {
		if m.Role == llm.RoleTool || m.Role == llm.RoleAssistant {
			m.Content = secrets.Mask(m.Content, nil)
			if len(m.ToolCalls) > 0 {
				calls := make([]llm.ToolCall, len(m.ToolCalls))
				for k, c := range m.ToolCalls {
					c.Arguments = secrets.Mask(c.Arguments, nil)
					calls[k] = c
				}
				m.ToolCalls = calls
			}
		}
		out[i] = m
	}
	return out
}
