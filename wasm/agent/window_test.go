package agent

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/tools"
)

// An expanded tree read reaches the model with up to 16,000 characters
// when the provider's window allows it, and 8,000 otherwise.
func TestExpandedTreeResultReachesTheModel(t *testing.T) {
	for _, c := range []struct {
		window   int
		min, max int
	}{{131072, 15000, 16000}, {16384, 7000, tools.MaxResultChars}} {
		h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
			if n == 0 {
				return llmtest.Turn{ToolCalls: []llm.ToolCall{call("get_accessibility_tree", map[string]any{"filter": "all", "maxChars": 12000})}}
			}
			return llmtest.Turn{Text: "read"}
		})
		h.opts.ContextWindow = c.window
		h.opts.Executor = h.opts.Executor.(*tools.Dispatcher).WithContextWindow(c.window)
		h.content.reply = func(ctx context.Context, name string, args map[string]any) (string, error) {
			return strings.Repeat("tree line\n", 2000), nil
		}
		if _, err := h.run(context.Background(), nil, "read the whole thread"); err != nil {
			t.Fatal(err)
		}
		res := toolMessages(h.srv.Requests()[1].Messages)
		if n := utf8.RuneCountInString(res[0].Content); len(res) != 1 || n < c.min || n > c.max {
			t.Errorf("window %d: result of %d characters, want %d to %d", c.window, n, c.min, c.max)
		}
	}
}
