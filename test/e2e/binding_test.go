//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// A page that changes the recipient while the approval card waits gets
// nothing from the approval: the click is not made, and the next try's
// card shows the address the page holds now.
func TestApprovalDoesNotCoverARecipientThePageChangedMeanwhile(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0, 2:
			return callTool("get_accessibility_tree", map[string]any{})
		case 1, 3:
			ref, err := findRef(lastToolResult(req), "button", "Send")
			if err != nil {
				return scriptFailed(err)
			}
			return callTool("click_ax", map[string]any{"ref": ref})
		}
		return answer("The draft was not sent.")
	})
	s := openSession(t, "compose-draft.html", srv, openAIChat)
	s.send("act", "Look over this draft.")
	pending := `!!document.querySelector('.approval-card.pending button[data-decision="approve"]')`
	scenario.WaitFor(t, s, "the first approval card", 30*time.Second, pending)
	if details := s.text(".approval-card.pending .approval-details"); !strings.Contains(details, "alice@example.com") {
		t.Fatalf("the card shows %q, want the draft's recipient", details)
	}
	// The page swaps the recipient while the user reads the card.
	evalIn[chromedp.Void](t, s.page, `document.querySelector('input[name=to]').value = 'eve@evil.example'`)
	if err := chromedp.Do(s.panel, chromedp.Click(chromedp.CSS(`.approval-card.pending button[data-decision="approve"]`))); err != nil {
		t.Fatal(err)
	}
	scenario.WaitFor(t, s, "a second approval card, with the address the page holds now", 30*time.Second,
		`[...document.querySelectorAll('.approval-card.pending')].some(c => c.textContent.includes('eve@evil.example'))`)
	if err := chromedp.Do(s.panel, chromedp.Click(chromedp.CSS(`.approval-card.pending button[data-decision="decline"]`))); err != nil {
		t.Fatal(err)
	}
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	if rec := s.pageRecord(); len(rec) != 0 {
		t.Errorf("the page recorded %q", rec)
	}
	reqs := srv.Requests()
	msgs := reqs[2].Messages
	if res := msgs[len(msgs)-1].Content; !strings.Contains(res, "The page changed this action") {
		t.Errorf("the model was told %q after the approval of the changed action", res)
	}
}
