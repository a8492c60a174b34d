//go:build browser

package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// questionInView says whether the last question's top is in the
// transcript's visible part.
const questionInView = `(() => {
  const r = document.querySelector('#transcript'), q = [...r.querySelectorAll('.msg.user')].at(-1);
  const top = q.getBoundingClientRect().top - r.getBoundingClientRect().top;
  return top >= 0 && top < r.clientHeight;
})()`

const atBottom = `(() => { const r = document.querySelector('#transcript'); return r.scrollHeight - r.scrollTop - r.clientHeight < 40; })()`

func jumpLabel(tb *tab) string {
	return eval[string](tb, `(() => { const b = document.querySelector('#jump'); return b.hidden ? '' : b.textContent; })()`)
}

// A long answer grows below its question instead of pushing it away; the
// floating button follows the response, goes back to the question, and the
// user's own scroll to the bottom resumes following.
func TestReadingFirstScroll(t *testing.T) {
	tb := openPanel(t, "")
	// An earlier exchange fills the view, so the new question starts low.
	rid0 := startRun(tb, "First question")
	deliver(tb, rid0, 1, `{kind: "run_started", text: "First question", mode: "ask"}`)
	deliver(tb, rid0, 2, fmt.Sprintf(`{kind: "final", text: %q}`, strings.Repeat("An earlier answer line.\n\n", 60)))
	tb.waitFor("the first run to end", `document.querySelector('#transcript').dataset.runStatus === 'done'`)

	rid := startRun(tb, "Explain this page in depth")
	deliver(tb, rid, 1, `{kind: "run_started", text: "Explain this page in depth", mode: "ask"}`)
	for i := range 80 {
		deliver(tb, rid, 2+i, fmt.Sprintf(`{kind: "text_delta", text: "Paragraph %d of a long answer.\n\n"}`, i))
	}
	tb.waitFor("the whole answer", `document.querySelector('#transcript .msg.assistant:last-child')?.textContent.includes('Paragraph 79')`)
	tb.waitFor("the question kept in view", questionInView)
	if eval[bool](tb, atBottom) {
		t.Fatal("the view followed the live edge while the user reads the question")
	}
	if got := jumpLabel(tb); got != "Follow response" {
		t.Fatalf("button = %q, want Follow response", got)
	}
	tb.screenshot("reading-first")

	tb.run(chromedp.Click(chromedp.CSS("#jump")))
	tb.waitFor("the live edge", atBottom)
	deliver(tb, rid, 90, `{kind: "text_delta", text: "More text after following.\n\n"}`)
	tb.waitFor("following the new text", `document.querySelector('#transcript .msg.assistant:last-child')?.textContent.includes('More text after')`)
	tb.waitFor("still at the live edge", atBottom)
	if got := jumpLabel(tb); got != "Back to question" {
		t.Fatalf("button while following = %q, want Back to question", got)
	}

	tb.run(chromedp.Click(chromedp.CSS("#jump")))
	tb.waitFor("the question again", questionInView)
	deliver(tb, rid, 91, `{kind: "text_delta", text: "Even more text.\n\n"}`)
	tb.waitFor("the last delta", `document.querySelector('#transcript .msg.assistant:last-child')?.textContent.includes('Even more')`)
	if !eval[bool](tb, questionInView) {
		t.Fatal("the reading position was not kept")
	}

	// The user scrolls to the bottom by hand: following resumes.
	tb.do(`(() => { const r = document.querySelector('#transcript'); r.scrollTop = r.scrollHeight; })()`)
	tb.waitFor("following by the user's scroll", `document.querySelector('#jump').textContent === 'Back to question'`)
	deliver(tb, rid, 92, `{kind: "text_delta", text: "Followed text.\n\n"}`)
	tb.waitFor("the followed delta", `document.querySelector('#transcript .msg.assistant:last-child')?.textContent.includes('Followed text')`)
	tb.waitFor("at the live edge", atBottom)

	// Reading an earlier turn once the run is over offers the latest.
	deliver(tb, rid, 93, `{kind: "final", text: ""}`)
	tb.do(`document.querySelector('#transcript').scrollTop = 0`)
	tb.waitFor("Jump to latest", `!document.querySelector('#jump').hidden && document.querySelector('#jump').textContent === 'Jump to latest'`)

	// A card that waits for the user is brought into view.
	rid2 := startRun(tb, "Delete the draft")
	deliver(tb, rid2, 1, `{kind: "run_started", text: "Delete the draft", mode: "act"}`)
	tb.do(`document.querySelector('#transcript').scrollTop = 0`)
	deliver(tb, rid2, 2, approvalEvent("a1"))
	tb.waitFor("the card in view", `(() => {
	  const r = document.querySelector('#transcript').getBoundingClientRect(), c = document.querySelector('.approval-card').getBoundingClientRect();
	  return c.bottom <= r.bottom + 1 && c.top >= r.top - 1;
	})()`)
}
