package scenario

import (
	"regexp"
	"slices"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

var staleWords = regexp.MustCompile(`(?i)stale|no longer|detached|not in the (page|document)`)

// StaleRefIsRecovered: the page re-renders a button after the model read
// the tree. Clicking the old ref must fail with an error that names live
// refs and click nothing; after a re-read the new ref clicks the new button
// once.
func StaleRefIsRecovered(t *testing.T, d Driver) {
	var s Session
	var oldRef string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 1:
			ref, err := FindRef(LastToolResult(req), "button", "Confirm")
			if err != nil {
				return ScriptFailed(err)
			}
			oldRef = ref
			// The page changes between the model's read and its click.
			if err := s.Eval(Page, `(window.replaceConfirm(), true)`, nil); err != nil {
				return ScriptFailed(err)
			}
			return CallTool("click_ax", map[string]any{"ref": oldRef})
		case 2:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 3:
			ref, err := FindRef(LastToolResult(req), "button", "Confirm")
			if err != nil {
				return ScriptFailed(err)
			}
			return CallTool("click_ax", map[string]any{"ref": ref})
		}
		return Answer("Confirmed.")
	})
	s = d.Open(t, "stale.html", srv, OpenAIChat)
	s.Send("act", "Confirm the order.")

	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if got := PageRecord(t, s); !slices.Equal(got, []string{"click:confirm-new"}) {
		t.Errorf("the page recorded %q, want exactly one click on the new button", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d model requests, want 5", len(reqs))
	}
	stale := LastToolResult(reqs[2])
	t.Logf("click_ax with the stale ref %s returned: %s", oldRef, stale)
	if !staleWords.MatchString(stale) {
		t.Errorf("click_ax with the replaced element's ref %s returned %q: want a stale-ref error", oldRef, stale)
	}
	var live []string // refs of the re-read tree, other than the dead one
	for _, r := range AllRefs(LastToolResult(reqs[3])) {
		if r != oldRef {
			live = append(live, r)
		}
	}
	if !slices.ContainsFunc(live, func(r string) bool { return ContainsRef(stale, r) }) {
		t.Errorf("the stale error %q names none of the live refs %v", stale, live)
	}
	rows := ToolRows(t, s)
	if len(rows) != 4 || rows[1].Tool != "click_ax" || !rows[1].IsError || rows[3].IsError {
		t.Errorf("tool rows %+v: want the first click_ax marked tool-error, the second not", rows)
	}
}
