//go:build firefox

package firefox

import (
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// Act fills a text input, a select, a checkbox and a contenteditable editor
// by their refs and submits; the page records exactly what the submit carried.
func TestActFillsAndSubmitsAForm(t *testing.T) {
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
			return callTool("get_accessibility_tree", map[string]any{})
		case 1:
			tree := lastToolResult(req)
			for _, nd := range nodes {
				ref, err := findRef(tree, nd.role, nd.name)
				if err != nil {
					return scriptFailed(err)
				}
				refs[nd.key] = ref
			}
			return callTool("type_ax", map[string]any{"ref": refs["email"], "text": "ada@example.com"})
		case 2:
			return callTool("set_field", map[string]any{"ref": refs["country"], "value": "Canada"})
		case 3:
			return callTool("click_ax", map[string]any{"ref": refs["subscribe"]})
		case 4:
			return callTool("type_ax", map[string]any{"ref": refs["message"], "text": "Hello from WebBrain"})
		case 5:
			return callTool("click_ax", map[string]any{"ref": refs["submit"]})
		case 6:
			return callTool("read_page", map[string]any{})
		}
		if _, after, ok := strings.Cut(lastToolResult(req), "Submitted: "); ok {
			line, _, _ := strings.Cut(after, "\n")
			// A code span: Markdown typography must not curl the quotes.
			return answer("The form says: `" + line + "`")
		}
		return answer("SCRIPT FAILED: no submission shown on the page")
	})
	s := openSession(t, "form.html", srv)
	s.send("act", "Sign me up as ada@example.com from Canada, subscribe, and say hello.")

	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if got := s.pageRecord(); len(got) != 1 || got[0] != want {
		t.Fatalf("the page received %q, want exactly one submit of %s", got, want)
	}
	var tools []string
	for _, r := range s.toolRows() {
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
		tools = append(tools, r.Tool)
	}
	if want := "get_accessibility_tree type_ax set_field click_ax type_ax click_ax read_page"; strings.Join(tools, " ") != want {
		t.Errorf("tool rows %v, want %s", tools, want)
	}
	if got := s.text("#transcript .msg.assistant"); !strings.Contains(got, `"country":"CA"`) {
		t.Errorf("answer %q does not quote the submission read back from the page", got)
	}
}
