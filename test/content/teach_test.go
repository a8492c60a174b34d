//go:build browser

package content

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// clickAt clicks the middle of the element selector finds with CDP input,
// which the page sees as the user's own (isTrusted).
func (p *page) clickAt(selector string) {
	p.t.Helper()
	pt := evalJS[struct{ X, Y float64 }](p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
		return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`, selector))
	for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		if _, err := chromedp.Call(p.ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
			Type: typ, X: pt.X, Y: pt.Y, Button: input.MouseButtonLeft, ClickCount: 1}); err != nil {
			p.t.Fatal(err)
		}
	}
}

func (p *page) keys(text string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(text)); err != nil {
		p.t.Fatal(err)
	}
}

// TestTeachRecordsOnlyTrustedActionsAndNoValues runs the recorder on the
// order form with a stand-in runtime that keeps what it would send.
func TestTeachRecordsOnlyTrustedActionsAndNoValues(t *testing.T) {
	p := open(t, "/form.html")
	p.do(`window.__sent = []; window.chrome = {runtime: {sendMessage: (m) => { window.__sent.push(m); return Promise.resolve({ok: true}); }}};`)
	if got := evalJS[string](p, `window.__wbRunTool('wb_teach', {}).then((r) => JSON.stringify(r))`); got != `{"ok":true,"result":{"recording":true}}` {
		t.Fatalf("wb_teach: %s", got)
	}
	// The page's own script events are not the user's.
	p.do(`document.getElementById('send').click();
		const f = document.getElementById('email'); f.value = 'script@example.com';
		f.dispatchEvent(new Event('input', {bubbles: true})); f.dispatchEvent(new Event('change', {bubbles: true}));
		document.getElementById('agree').click();`)
	if got := p.js(`JSON.stringify(window.__sent)`); got != "[]" {
		t.Fatalf("untrusted events were recorded: %s", got)
	}
	p.do(`document.getElementById('email').value = ''; document.getElementById('agree').checked = false;`)

	p.clickAt("#notes")
	p.keys("secret note text")
	p.clickAt("#agree")
	p.clickAt("#email")
	p.keys("ada@example.com\r")
	p.clickAt("#send")

	var sent []struct {
		Action string         `json:"action"`
		Step   map[string]any `json:"step"`
	}
	raw := p.js(`JSON.stringify(window.__sent)`)
	if err := json.Unmarshal([]byte(raw), &sent); err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"ada@", "secret note", "script@"} {
		if strings.Contains(raw, leak) {
			t.Fatalf("the recorder sent a value (%q): %s", leak, raw)
		}
	}
	var got []string
	for _, m := range sent {
		if m.Action != "teach_step" || !strings.HasSuffix(m.Step["family"].(string), "/form.html") {
			t.Fatalf("message %+v", m)
		}
		got = append(got, fmt.Sprintf("%s %s %q", m.Step["kind"], m.Step["role"], m.Step["name"]))
	}
	want := []string{`field textbox "Notes"`, `check checkbox "I agree"`, `field textbox "Email"`, `submit textbox "Email"`, `click button "Send"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sent[1].Step["checked"] != true {
		t.Errorf("the check step %v", sent[1].Step)
	}

	// Stopped, it records nothing more.
	p.do(`window.__wbRunTool('wb_teach', {stop: true})`)
	p.clickAt("#send")
	if n := p.js(`window.__sent.length`); n != "5" {
		t.Errorf("%s messages after the stop, want 5", n)
	}
}
