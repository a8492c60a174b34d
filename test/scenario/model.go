package scenario

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

// CallTool is a turn that asks for one tool call.
func CallTool(name string, args map[string]any) llmtest.Turn {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: name, Arguments: string(b)}}}
}

// Answer is a final text turn.
func Answer(text string) llmtest.Turn { return llmtest.Turn{Text: text} }

// ScriptFailed is what a script answers when the extension did not send
// what the scenario expects: the run ends and the test shows the reason.
func ScriptFailed(err error) llmtest.Turn { return Answer("SCRIPT FAILED: " + err.Error()) }

// LastToolResult is the content of the newest tool message of req.
func LastToolResult(req llmtest.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == llm.RoleTool {
			return req.Messages[i].Content
		}
	}
	return ""
}

// ToolResults counts the tool messages of req: how far a script that
// answers by content, not by request number, has got.
func ToolResults(req llmtest.Request) int {
	n := 0
	for _, m := range req.Messages {
		if m.Role == llm.RoleTool {
			n++
		}
	}
	return n
}

// refPattern finds the ref a tree line carries, e.g. ref_12 in
// `button "Send" [ref_12]` (the tools document refs as ref_<n>).
var refPattern = regexp.MustCompile(`\b(ref_\w+)\b`)

// FindRef returns the ref of the tree node with this role and accessible
// name (`role "name"` on one line).
func FindRef(tree, role, name string) (string, error) {
	node := fmt.Sprintf("%s %q", role, name)
	for _, line := range strings.Split(tree, "\n") {
		if !strings.Contains(line, node) {
			continue
		}
		if m := refPattern.FindStringSubmatch(line); m != nil {
			return m[1], nil
		}
	}
	return "", fmt.Errorf("no ref for %s in the tree:\n%s", node, Clip(tree, 3000))
}

// AllRefs lists every ref in a tree, in order.
func AllRefs(tree string) []string {
	var refs []string
	for _, m := range refPattern.FindAllStringSubmatch(tree, -1) {
		refs = append(refs, m[1])
	}
	return refs
}

// ContainsRef reports whether text mentions ref as a whole token.
func ContainsRef(text, ref string) bool {
	return regexp.MustCompile(`(^|[^\w])` + regexp.QuoteMeta(ref) + `($|[^\w])`).MatchString(text)
}

// Clip shortens s to n bytes for a failure message.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// SummarizeRequests describes the model requests one per line, for the log
// of a failed scenario.
func SummarizeRequests(reqs []llmtest.Request) string {
	var b strings.Builder
	for i, r := range reqs {
		fmt.Fprintf(&b, "#%d %s: %d messages, tools %v", i, r.Path, len(r.Messages), r.Tools)
		if n := len(r.Messages); n > 0 {
			last := r.Messages[n-1]
			name := ""
			if last.Name != "" {
				name = "(" + last.Name + ")"
			}
			fmt.Fprintf(&b, "; last %s%s: %s", last.Role, name, Clip(last.Content, 400))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
