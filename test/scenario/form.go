package scenario

import (
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// ActFillsAndSubmitsAForm: in Act mode the model fills a text input, a
// select, a checkbox and a contenteditable editor by their refs, submits,
// and reads the result; the page records exactly what the submit carried.
func ActFillsAndSubmitsAForm(t *testing.T, d Driver) {
	const want = `{"email":"ada@example.com","country":"CA","subscribe":true,"message":"Hello from WebBrain"}`
	refs := map[string]string{}
	nodes := []struct{ key, role, name string }{
		{"email", "textbox", "Email"},
		{"country", "combobox", "Country"},
		{"subscribe", "checkbox", "Subscribe to newsletter"},
		{"message", "textbox", "Message"},
		{"submit", "button", "Sign up"},
	}
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 1:
			tree := LastToolResult(req)
			for _, nd := range nodes {
				ref, err := FindRef(tree, nd.role, nd.name)
				if err != nil {
					return ScriptFailed(err)
				}
				refs[nd.key] = ref
			}
			return CallTool("type_ax", map[string]any{"ref": refs["email"], "text": "ada@example.com"})
		case 2:
			return CallTool("set_field", map[string]any{"ref": refs["country"], "value": "Canada"})
		case 3:
			return CallTool("click_ax", map[string]any{"ref": refs["subscribe"]})
		case 4:
			return CallTool("type_ax", map[string]any{"ref": refs["message"], "text": "Hello from WebBrain"})
		case 5:
			return CallTool("click_ax", map[string]any{"ref": refs["submit"]})
		case 6:
			return CallTool("read_page", map[string]any{})
		}
		if _, after, ok := strings.Cut(LastToolResult(req), "Submitted: "); ok {
			line, _, _ := strings.Cut(after, "\n")
			// A code span: Markdown typography must not curl the quotes.
			return Answer("The form says: `" + line + "`")
		}
		return Answer("SCRIPT FAILED: no submission shown on the page")
	})
	s := d.Open(t, "form.html", srv, OpenAIChat)
	s.Send("act", "Sign me up as ada@example.com from Canada, subscribe, and say hello.")

	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if got := PageRecord(t, s); len(got) != 1 || got[0] != want {
		t.Fatalf("the page received %q, want exactly one submit of %s", got, want)
	}
	var tools []string
	for _, r := range ToolRows(t, s) {
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
		tools = append(tools, r.Tool)
	}
	wantTools := "get_accessibility_tree type_ax set_field click_ax type_ax click_ax read_page"
	if strings.Join(tools, " ") != wantTools {
		t.Errorf("tool rows %v, want %s", tools, wantTools)
	}
	if got := Text(t, s, "#transcript .msg.assistant"); !strings.Contains(got, `"country":"CA"`) {
		t.Errorf("answer %q does not quote the submission read back from the page", got)
	}
}
