//go:build firefox

package firefox

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// Helpers for the fake model's scripts: a script decides its next turn from
// what the add-on really sent, so the scenarios use real refs and page text.

func callTool(name string, args map[string]any) llmtest.Turn {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: name, Arguments: string(b)}}}
}

func answer(text string) llmtest.Turn { return llmtest.Turn{Text: text} }

// scriptFailed ends the run with the reason the script could not go on.
func scriptFailed(err error) llmtest.Turn { return answer("SCRIPT FAILED: " + err.Error()) }

// lastToolResult is the content of the newest tool message of req.
func lastToolResult(req llmtest.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == llm.RoleTool {
			return req.Messages[i].Content
		}
	}
	return ""
}

var refPattern = regexp.MustCompile(`\b(ref_\w+)\b`)

// findRef returns the ref of the tree line `role "name" … [ref_N]`.
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
	return "", fmt.Errorf("no ref for %s in the tree:\n%s", node, clip(tree, 2000))
}

// toolDescription returns the description of the named tool in the
// request body (OpenAI chat form), or "" when it was not offered.
func toolDescription(req llmtest.Request, name string) string {
	var body struct {
		Tools []struct {
			Function struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"function"`
		} `json:"tools"`
	}
	if json.Unmarshal(req.Body, &body) != nil {
		return ""
	}
	for _, t := range body.Tools {
		if t.Function.Name == name {
			return t.Function.Description
		}
	}
	return ""
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
