//go:build e2e

package e2e

import (
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// In Chrome the extension clicks and types through chrome.debugger (CDP
// Input.*): the fixture page records event.isTrusted for the click on a
// button it had to scroll to and for every key and edit in a field.
func TestChromeInputIsTrusted(t *testing.T) {
	refs := map[string]string{}
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return callTool("get_accessibility_tree", map[string]any{})
		case 1:
			for _, nd := range []struct{ key, role, name string }{{"far", "button", "Far away"}, {"name", "textbox", "Name"}} {
				ref, err := findRef(lastToolResult(req), nd.role, nd.name)
				if err != nil {
					return scriptFailed(err)
				}
				refs[nd.key] = ref
			}
			return callTool("click_ax", map[string]any{"ref": refs["far"]})
		case 2:
			return callTool("type_ax", map[string]any{"ref": refs["name"], "text": "Zoë"})
		case 3:
			return callTool("press_keys", map[string]any{"keys": "Backspace"})
		}
		return answer("Done.")
	})
	s := openSession(t, "trusted.html", srv, openAIChat)
	s.send("act", "Press the far button and type my name.")

	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	for _, r := range s.toolRows() {
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
	}
	reqs := srv.Requests()
	var results []string // tool results in order: tree, click, type, keys
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == llm.RoleTool {
			results = append(results, m.Content)
		}
	}
	if len(results) != 4 {
		t.Fatalf("%d tool results, want 4", len(results))
	}
	for _, res := range results {
		if strings.Contains(res, "Trusted input was unavailable") {
			t.Errorf("a tool fell back to synthetic events: %s", firstLine(res))
		}
	}
	rec := s.pageRecord()
	want := []string{
		"click:far:true",
		"keydown:Backspace:true", "input:true", // clearing the old value
		"keydown:Z:true", "input:true", "keydown:o:true", "input:true", "input:true", // ë is inserted text
		"keydown:Backspace:true", "input:true",
	}
	if strings.Join(rec, " ") != strings.Join(want, " ") {
		t.Errorf("the page recorded\n%q\nwant\n%q", rec, want)
	}
	if got := evalIn[string](t, s.page, `document.getElementById('name').value`); got != "Zo" {
		t.Errorf("the field holds %q, want %q", got, "Zo")
	}
	if !strings.Contains(results[2], `it now holds "Zoë"`) {
		t.Errorf("type_ax result %q does not read the value back", results[2])
	}
}
