package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// ScriptClickTargetsAreClicked: boxes a page's script made clickable
// (addEventListener on textless colour boxes, an onclick property on a
// span) reach the model's tree with refs, the boxes by their colour,
// through the page-world script the manifest runs at document start; the
// model clicks the lime box and then Reset by those refs. The tree also
// counts drawn squares and marks a pane that scrolls.
func ScriptClickTargetsAreClicked(t *testing.T, d Driver) {
	var tree string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		last := LastToolResult(req)
		switch n {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 1:
			tree = last
			m := regexp.MustCompile(`clickable \[(ref_\w+)\] fill=lime\b`).FindStringSubmatch(last)
			if m == nil {
				return ScriptFailed(fmt.Errorf("no lime box with a ref in:\n%s", Clip(last, 2000)))
			}
			return CallTool("click_ax", map[string]any{"ref": m[1]})
		case 2:
			ref, err := FindRef(tree, "clickable", "Reset")
			if err != nil {
				return ScriptFailed(err)
			}
			return CallTool("click_ax", map[string]any{"ref": ref})
		}
		return Answer("The lime box was chosen, then reset.")
	})
	s := d.Open(t, "swatches.html", srv, OpenAIChat)
	s.Send("act", "Choose the lime colour, then press Reset.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	for _, r := range ToolRows(t, s) {
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
	}
	if rec := PageRecord(t, s); !slices.Equal(rec, []string{"lime", "reset"}) {
		t.Errorf("the page recorded %q, want [lime reset]\ntree:\n%s", rec, tree)
	}
	for _, fill := range []string{"fill=red", "fill=green", "fill=navy"} {
		if !regexp.MustCompile(`clickable \[ref_\w+\] ` + fill + `\b`).MatchString(tree) {
			t.Errorf("no box with %s in:\n%s", fill, tree)
		}
	}
	// The same tree counts drawn squares and marks a pane that scrolls by
	// itself, in each browser's computed styles.
	for _, want := range []string{"3 red boxes", "] scroll=down"} {
		if !strings.Contains(tree, want) {
			t.Errorf("the tree does not say %q:\n%s", want, tree)
		}
	}
}
