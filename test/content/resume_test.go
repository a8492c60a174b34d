//go:build browser

package content

import (
	"encoding/json"
	"strings"
	"testing"
)

// prepareWith runs trusted_prepare with a receipt and decodes its plan;
// a failed prepare is returned as the reply.
func (p *page) prepareWith(tool string, args map[string]any, rc rcpt) (plan, receiptReply) {
	p.t.Helper()
	r := p.send("trusted_prepare", map[string]any{"tool": tool, "args": args}, rc)
	var pl plan
	if r.OK {
		if err := json.Unmarshal(r.Result, &pl); err != nil || (pl.Done == "" && len(pl.Steps) == 0) {
			p.t.Fatalf("prepare %s: %s (%v)", tool, r.Result, err)
		}
	}
	return pl, r
}

// mustPrepare is prepareWith for a prepare that must succeed.
func (p *page) mustPrepare(tool string, args map[string]any, rc rcpt) plan {
	p.t.Helper()
	pl, r := p.prepareWith(tool, args, rc)
	if !r.OK {
		p.t.Fatalf("prepare %s failed: %s", tool, r.Error)
	}
	return pl
}

// finishWith runs trusted_finish with a receipt and returns its report.
func (p *page) finishWith(rc rcpt) string {
	p.t.Helper()
	r := p.send("trusted_finish", map[string]any{}, rc)
	if !r.OK {
		p.t.Fatalf("trusted_finish failed: %s", r.Error)
	}
	return r.text()
}

// stepsOf lists a plan's steps as text: key:K, insert:T or mouse.
func stepsOf(pl plan) string {
	var out []string
	for _, s := range pl.Steps {
		switch {
		case s.Mouse != nil:
			out = append(out, "mouse")
		case s.Key != nil:
			out = append(out, "key:"+s.Key.Key)
		case s.Insert != nil:
			out = append(out, "insert:"+*s.Insert)
		}
	}
	return strings.Join(out, " ")
}

// part is the plan's steps from i to j.
func part(pl plan, i, j int) plan {
	return plan{Steps: pl.Steps[i:j]}
}

func (p *page) wantCounts(want map[string]int) {
	p.t.Helper()
	for k, n := range want {
		if got := p.count(k); got != n {
			p.t.Errorf("%s seen %d times, want %d (counts %s)", k, got, n, p.js(`JSON.stringify(window.__counts)`))
		}
	}
}

func TestTrustedResumeClick(t *testing.T) {
	p := open(t, "/receipts.html")
	doc := p.docID()
	args := map[string]any{"ref": p.ref("#inc")}

	// None of the click arrived: the resume plans the same click again.
	rc := rcpt{"click-1", doc}
	first := p.mustPrepare("click_ax", args, rc)
	again := p.mustPrepare("click_ax", args, rc)
	if stepsOf(again) != "mouse" || *again.Steps[0].Mouse != *first.Steps[0].Mouse {
		t.Fatalf("resume plan %+v, want the click at %+v again", again, first.Steps[0].Mouse)
	}
	p.perform(again)
	report := p.finishWith(rc)
	contains(t, "report", report, `Clicked button "Add one"`)
	p.wantCounts(map[string]int{"click": 1})
	// Done: a further prepare sends nothing and answers the report.
	if done := p.mustPrepare("click_ax", args, rc); done.Done != report || len(done.Steps) != 0 {
		t.Errorf("prepare of a done receipt = %+v, want done with the report", done)
	}
	if r := p.finishWith(rc); r != report {
		t.Errorf("finish again = %q, want the stored report", r)
	}

	// The click arrived before the stop: the resume reports it, sends nothing.
	rc = rcpt{"click-2", doc}
	p.perform(p.mustPrepare("click_ax", args, rc))
	done := p.mustPrepare("click_ax", args, rc)
	if len(done.Steps) != 0 {
		t.Fatalf("resume after the click arrived plans %s", stepsOf(done))
	}
	contains(t, "resumed report", done.Done, `Clicked button "Add one"`, `"2"`)
	if r := p.finishWith(rc); r != done.Done {
		t.Errorf("finish after a done resume = %q, want %q", r, done.Done)
	}
	p.wantCounts(map[string]int{"click": 2})

	// The element went away and no click arrived: unknown, nothing sent.
	rc = rcpt{"click-3", doc}
	p.mustPrepare("click_ax", args, rc)
	p.do(`document.getElementById('inc').remove()`)
	_, r := p.prepareWith("click_ax", args, rc)
	if r.OK {
		t.Fatalf("resume for a removed element: %s", r.Result)
	}
	contains(t, "removed element error", r.Error, "removed from the page", "unknown", "Read the page")
}

func TestTrustedResumeReplacingTyping(t *testing.T) {
	p := open(t, "/receipts.html")
	doc := p.docID()
	args := map[string]any{"ref": p.ref("#name"), "text": "Ada Lov", "submit": true}
	const whole = "key:Backspace key:A key:d key:a key:  key:L key:o key:v key:Enter"

	// Half the keys arrived: replacing is planned again in full.
	rc := rcpt{"type-1", doc}
	first := p.mustPrepare("type_ax", args, rc)
	if stepsOf(first) != whole {
		t.Fatalf("plan %q", stepsOf(first))
	}
	p.perform(part(first, 0, 4))
	if v := p.js(`document.getElementById('name').value`); v != "Ada" {
		t.Fatalf("after half the plan the field holds %q", v)
	}
	again := p.mustPrepare("type_ax", args, rc)
	if stepsOf(again) != whole {
		t.Errorf("resume plan %q, want the whole %q", stepsOf(again), whole)
	}
	p.perform(again)
	contains(t, "report", p.finishWith(rc), `it now holds "Ada Lov"`)
	if v := p.js(`document.getElementById('name').value`); v != "Ada Lov" {
		t.Errorf("field %q", v)
	}
	p.wantCounts(map[string]int{"submit": 1, "key:Enter": 1})

	// The text arrived, Enter did not: only Enter is sent.
	rc = rcpt{"type-2", doc}
	args["text"] = "Grace"
	first = p.mustPrepare("type_ax", args, rc)
	p.perform(part(first, 0, len(first.Steps)-1))
	again = p.mustPrepare("type_ax", args, rc)
	if stepsOf(again) != "key:Enter" {
		t.Errorf("resume plan %q, want Enter alone", stepsOf(again))
	}
	p.perform(again)
	p.finishWith(rc)
	p.wantCounts(map[string]int{"submit": 2, "key:Enter": 2, "key:G": 1})

	// All of it arrived, and the page emptied the field on submit (a chat):
	// done, not typed and sent again.
	p.do(`document.getElementById('order').addEventListener('submit', () => { document.getElementById('name').value = ''; })`)
	rc = rcpt{"type-3", doc}
	args["text"] = "Hi"
	p.perform(p.mustPrepare("type_ax", args, rc))
	done := p.mustPrepare("type_ax", args, rc)
	if len(done.Steps) != 0 || done.Done == "" {
		t.Errorf("resume after everything arrived plans %q", stepsOf(done))
	}
	p.wantCounts(map[string]int{"submit": 3, "key:H": 1})
}

func TestTrustedResumeAppendingTyping(t *testing.T) {
	p := open(t, "/receipts.html")
	doc := p.docID()
	p.do(`(() => { const n = document.getElementById('notes'); n.focus(); n.setSelectionRange(5, 5); })()`)
	args := map[string]any{"text": " world!"}

	rc := rcpt{"append-1", doc}
	first := p.mustPrepare("type_text", args, rc)
	p.perform(part(first, 0, 3))
	again := p.mustPrepare("type_text", args, rc)
	if got := stepsOf(again); got != "key:r key:l key:d key:!" {
		t.Errorf("resume plan %q, want the rest of the text", got)
	}
	// Stopped again part-way through the rest.
	p.perform(part(again, 0, 1))
	third := p.mustPrepare("type_text", args, rc)
	if got := stepsOf(third); got != "key:l key:d key:!" {
		t.Errorf("second resume plan %q", got)
	}
	p.perform(third)
	contains(t, "report", p.finishWith(rc), `Typed "world!"`, `it now holds "Hello world!"`)
	if v := p.js(`document.getElementById('notes').value`); v != "Hello world!" {
		t.Errorf("textarea %q", v)
	}
	p.wantCounts(map[string]int{"key:w": 1, "key:o": 1, "key:r": 1, "key:l": 1, "key:d": 1, "key:!": 1})

	// The field holds something else: the effect is unknown, nothing is sent.
	rc = rcpt{"append-2", doc}
	first = p.mustPrepare("type_text", map[string]any{"text": "abc"}, rc)
	p.perform(part(first, 0, 1))
	p.do(`document.getElementById('notes').value = 'rewritten'`)
	_, r := p.prepareWith("type_text", map[string]any{"text": "abc"}, rc)
	if r.OK {
		t.Fatalf("resume over a rewritten field planned %s", r.Result)
	}
	contains(t, "error", r.Error, `holds "rewritten"`, "unknown", "Read the page")
	// The answer is final for the receipt.
	if _, again := p.prepareWith("type_text", map[string]any{"text": "abc"}, rc); again.Error != r.Error {
		t.Errorf("prepare again = %+v, want the stored error", again)
	}

	// A password's value never shows, only its length.
	p.do(`(() => { const f = document.getElementById('pw'); f.value = 'secret'; f.focus(); f.setSelectionRange(6, 6); })()`)
	rc = rcpt{"append-3", doc}
	first = p.mustPrepare("type_text", map[string]any{"text": "xyz"}, rc)
	p.perform(part(first, 0, 1))
	p.do(`document.getElementById('pw').value = 'hunter22'`)
	_, r = p.prepareWith("type_text", map[string]any{"text": "xyz"}, rc)
	contains(t, "password error", r.Error, "8 characters, hidden")
	if strings.Contains(r.Error, "hunter") || strings.Contains(r.Error, "secret") {
		t.Errorf("the error shows the password: %s", r.Error)
	}
}

func TestTrustedResumePressKeys(t *testing.T) {
	p := open(t, "/receipts.html")
	doc := p.docID()
	p.do(`(() => { const n = document.getElementById('name'); n.value = ''; n.focus(); })()`)
	args := map[string]any{"keys": "a b c d"}

	rc := rcpt{"keys-1", doc}
	first := p.mustPrepare("press_keys", args, rc)
	p.perform(part(first, 0, 2))
	again := p.mustPrepare("press_keys", args, rc)
	if got := stepsOf(again); got != "key:c key:d" {
		t.Errorf("resume plan %q, want the keys not seen", got)
	}
	p.perform(again)
	contains(t, "report", p.finishWith(rc), "Pressed a b c d")
	if v := p.js(`document.getElementById('name').value`); v != "abcd" {
		t.Errorf("field %q", v)
	}
	p.wantCounts(map[string]int{"key:a": 1, "key:b": 1, "key:c": 1, "key:d": 1})

	// All of them arrived: done.
	rc = rcpt{"keys-2", doc}
	p.perform(p.mustPrepare("press_keys", map[string]any{"keys": "e f"}, rc))
	if done := p.mustPrepare("press_keys", map[string]any{"keys": "e f"}, rc); done.Done == "" {
		t.Errorf("resume after all keys plans %q", stepsOf(done))
	}
	p.wantCounts(map[string]int{"key:e": 1, "key:f": 1})
}

// When trusted input becomes unavailable, the synthetic tool runs under the
// prepared receipt and does only what did not arrive.
func TestTrustedFallbackUnderReceipt(t *testing.T) {
	p := open(t, "/receipts.html")
	doc := p.docID()

	rc := rcpt{"fallback-click", doc}
	args := map[string]any{"ref": p.ref("#inc")}
	p.mustPrepare("click_ax", args, rc)
	r := p.send("click_ax", args, rc)
	contains(t, "synthetic click", r.text(), `Clicked button "Add one"`)
	sameReply(t, "synthetic again", r, p.send("click_ax", args, rc))
	if f := p.send("trusted_finish", map[string]any{}, rc); f.text() != r.text() {
		t.Errorf("finish after the fallback = %+v", f)
	}
	p.wantCounts(map[string]int{"click": 1})

	p.do(`(() => { const n = document.getElementById('notes'); n.focus(); n.setSelectionRange(5, 5); })()`)
	rc = rcpt{"fallback-type", doc}
	first := p.mustPrepare("type_text", map[string]any{"text": " there"}, rc)
	p.perform(part(first, 0, 3))
	r = p.send("type_text", map[string]any{"text": " there"}, rc)
	if !r.OK {
		t.Fatalf("synthetic rest failed: %s", r.Error)
	}
	if v := p.js(`document.getElementById('notes').value`); v != "Hello there" {
		t.Errorf("textarea %q", v)
	}
	p.wantCounts(map[string]int{"key:t": 1, "key:h": 1, "key:e": 2, "key:r": 1})
}

// The 30 s timeout or another action drops the watch of a prepared
// receipt; its finish and its resume still work from what the receipt kept.
func TestTrustedReceiptOutlivesItsWatch(t *testing.T) {
	p := open(t, "/receipts.html")
	doc := p.docID()
	args := map[string]any{"ref": p.ref("#name"), "text": "Bo"}

	rc := rcpt{"late-1", doc}
	p.perform(p.mustPrepare("type_ax", args, rc))
	p.ok("get_window_info", map[string]any{}) // another action ends the watch
	contains(t, "late report", p.finishWith(rc), `it now holds "Bo"`, "not watched")

	rc = rcpt{"late-2", doc}
	p.do(`document.getElementById('notes').focus()`)
	first := p.mustPrepare("type_text", map[string]any{"text": "xyz"}, rc)
	p.perform(part(first, 0, 1))
	p.ok("get_window_info", map[string]any{})
	again := p.mustPrepare("type_text", map[string]any{"text": "xyz"}, rc)
	if stepsOf(again) != "key:y key:z" {
		t.Errorf("resume plan after the watch ended %q", stepsOf(again))
	}
	p.perform(again)
	// The test focused the field without placing the caret: typing went at
	// its start, and the resume continued there.
	contains(t, "report", p.finishWith(rc), `Typed "xyz"`, `it now holds "xyzHello"`)
	p.wantCounts(map[string]int{"key:x": 1, "key:y": 1, "key:z": 1})
}

func TestTrustedReceiptForAnotherDocument(t *testing.T) {
	p := open(t, "/receipts.html")
	rc := rcpt{"elsewhere", "another-document"}
	_, r := p.prepareWith("click_ax", map[string]any{"ref": p.ref("#inc")}, rc)
	if r.OK || !r.Changed {
		t.Errorf("prepare = %+v, want changed", r)
	}
	if f := p.send("trusted_finish", map[string]any{}, rc); f.OK || !f.Changed {
		t.Errorf("finish = %+v, want changed", f)
	}
}
