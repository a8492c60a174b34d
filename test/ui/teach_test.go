//go:build browser

package ui

import (
	"testing"

	"github.com/chromedp/chromedp"
)

const teachSetup = `
__fake.teaching = false;
__fake.replies.teach_state = () => ({ok: true, teaching: __fake.teaching, steps: __fake.teaching ? 2 : 0});
__fake.replies.teach_start = () => { __fake.teaching = true; return {ok: true, teaching: true, steps: 0}; };
__fake.replies.teach_cancel = () => { __fake.teaching = false; return {ok: true, teaching: false}; };
__fake.replies.teach_end = () => { __fake.teaching = false; return {ok: true, teaching: false, warnings: [],
  workflow: {id: "wf_t", name: "Taught workflow", params: [{name: "email", label: "Email"}], steps: [{action: "type"}, {action: "click"}]}}; };`

func TestTeachBannerStartsStopsAndCancels(t *testing.T) {
	tb := openPanel(t, teachSetup)
	if eval[bool](tb, `!document.getElementById('teach-banner').hidden`) {
		t.Fatal("the banner shows before teaching started")
	}
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/teach --start"), pressEnter(false))
	tb.waitFor("the banner", `!document.getElementById('teach-banner').hidden`)
	tb.screenshot("teach-banner")
	tb.run(chromedp.Click(chromedp.CSS(`#teach-banner button:nth-of-type(1)`)))
	tb.waitFor("the saved notice", `document.getElementById('teach-banner').hidden &&
		[...document.querySelectorAll('.msg.notice')].some(n => n.textContent.includes('/workflow --run wf_t'))`)
	if sent := tb.sent("teach_end"); len(sent) != 1 || sent[0]["tabId"] == nil {
		t.Fatalf("teach_end sent %v", sent)
	}

	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/teach --start"), pressEnter(false))
	tb.waitFor("the banner again", `!document.getElementById('teach-banner').hidden`)
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/teach --cancel"), pressEnter(false))
	tb.waitFor("the cancelled notice", `document.getElementById('teach-banner').hidden &&
		[...document.querySelectorAll('.msg.notice')].some(n => n.textContent.includes('nothing was saved'))`)
	if n := len(tb.sent("chat_start")); n != 0 {
		t.Errorf("/teach started %d chat runs", n)
	}
}
