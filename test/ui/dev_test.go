//go:build browser

package ui

import (
	"testing"
)

// TestDevModeInThePanel: the picker offers Dev, /dev and Ctrl+Shift+D
// choose it for one message, and the "Revert page changes" control shows
// while the tab has Dev changes and reverts them all.
func TestDevModeInThePanel(t *testing.T) {
	tb := openPanel(t, `
window.__patches = [{id: "css_0123456789abcdef", kind: "css", url: "https://shop.example/"}];
__fake.replies.dev_patches = () => ({ok: true, patches: window.__patches});
__fake.replies.dev_revert = () => { const n = window.__patches.length; window.__patches = []; return {ok: true, reverted: n, gone: 0}; };
`)
	if n := eval[int](tb, `[...document.querySelectorAll('#mode option')].filter((o) => o.value === 'dev').length`); n != 1 {
		t.Fatalf("the mode picker has %d Dev options", n)
	}
	startRun(tb, "/dev Why is the header misaligned?")
	if start := tb.sent("chat_start")[0]; start["mode"] != "dev" || start["text"] != "Why is the header misaligned?" {
		t.Fatalf("chat_start = %v", start)
	}
	tb.do(`document.querySelector('#prompt').value = "/act fix it"; document.querySelector('#prompt').focus()`)
	tb.run(ctrlShift("d"))
	if v := eval[string](tb, `document.querySelector('#prompt').value`); v != "/dev fix it" {
		t.Errorf("after Ctrl+Shift+D the draft is %q", v)
	}

	tb.waitFor("the revert control", `(() => { const b = document.querySelector('#revert-patches'); return !b.hidden && b.textContent === 'Revert page changes (1)'; })()`)
	tb.do(`document.querySelector('#revert-patches').click()`)
	tb.waitFor("the control to hide", `document.querySelector('#revert-patches').hidden`)
	if got := tb.sent("dev_revert"); len(got) != 1 || got[0]["tabId"] != float64(7) || got[0]["id"] != nil {
		t.Errorf("dev_revert sent %v, want one revert-all for tab 7", got)
	}
}
