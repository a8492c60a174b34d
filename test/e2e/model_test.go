//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// Helpers for the fake model's scripts. A script reads what the extension
// really sent (the tree, tool results) and decides its next turn from it, so
// the scenarios exercise real refs and real page text.

// callTool is a turn that asks for one tool call.
func callTool(name string, args map[string]any) llmtest.Turn {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: name, Arguments: string(b)}}}
}

// answer is a final text turn.
func answer(text string) llmtest.Turn { return llmtest.Turn{Text: text} }

// lastToolResult is the content of the newest tool message of req.
func lastToolResult(req llmtest.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == llm.RoleTool {
			return req.Messages[i].Content
		}
	}
	return ""
}

// refPattern finds the ref a tree line carries, e.g. ref_12 in
// `button "Send" [ref_12]` (the tools document refs as ref_<n>).
var refPattern = regexp.MustCompile(`\b(ref_\w+)\b`)

// findRef returns the ref of the tree node with this role and accessible
// name (`role "name"` on one line).
func findRef(tree, role, name string) (string, error) {
	node := fmt.Sprintf("%s %q", role, name)
	for _, line := range strings.Split(tree, "\n") {
		if !strings.Contains(line, node) {
			continue
		}
		if m := refPattern.FindStringSubmatch(line); m != nil {
			return m[1], nil
		}
	}
	return "", fmt.Errorf("no ref for %s in the tree:\n%s", node, clip(tree, 3000))
}

// allRefs lists every ref in a tree, in order.
func allRefs(tree string) []string {
	var refs []string
	for _, m := range refPattern.FindAllStringSubmatch(tree, -1) {
		refs = append(refs, m[1])
	}
	return refs
}

// scriptFailed is what a script answers when the extension did not send what
// the scenario expects: the run ends and the test shows the reason.
func scriptFailed(err error) llmtest.Turn {
	return answer("SCRIPT FAILED: " + err.Error())
}
