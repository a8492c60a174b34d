//go:build browser

package ui

import "testing"

// The panel shows where the conversation was compacted, inline and in
// order, and the run goes on.
func TestContextCompactedSeparator(t *testing.T) {
	tb := openPanel(t, "")
	rid := startRun(tb, "long task")
	deliver(tb, rid, 1, `{kind: "run_started", text: "long task", mode: "act"}`)
	deliver(tb, rid, 2, `{kind: "context_compacted", count: 32, reason: "auto"}`)
	deliver(tb, rid, 3, `{kind: "context_compacted", count: 9, reason: "overflow"}`)
	deliver(tb, rid, 4, `{kind: "final", text: "Done."}`)
	tb.waitFor("done", `document.querySelector('#transcript').dataset.runStatus === 'done'`)
	notes := eval[[]string](tb, `[...document.querySelectorAll('#transcript .msg.notice')].map(e => e.textContent)`)
	if len(notes) != 2 || notes[0] != "Context automatically compacted" || notes[1] == notes[0] {
		t.Fatalf("notices = %q", notes)
	}
	if s := eval[string](tb, `[...document.querySelector('#transcript').children].map(e => e.className).join('|')`); s != "msg user|msg notice separator|msg notice separator|msg assistant" {
		t.Errorf("transcript = %q", s)
	}
}
