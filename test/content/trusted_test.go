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

// plan is trusted_prepare's answer.
type plan struct {
	Done  string `json:"done"`
	Steps []struct {
		Mouse *struct{ X, Y float64 } `json:"mouse"`
		Key   *struct {
			Key, Code, Text string
			KeyCode         int64 `json:"keyCode"`
		} `json:"key"`
		Insert *string `json:"insert"`
	} `json:"steps"`
}

// prepare runs trusted_prepare for tool and decodes its plan.
func (p *page) prepare(tool string, args map[string]any) plan {
	p.t.Helper()
	a, _ := json.Marshal(map[string]any{"tool": tool, "args": args})
	raw := evalJS[json.RawMessage](p, fmt.Sprintf(`window.__wbRunTool("trusted_prepare", %s).then((r) => r.ok ? r.result : {error: r.error})`, a))
	var pl plan
	if err := json.Unmarshal(raw, &pl); err != nil || (pl.Done == "" && len(pl.Steps) == 0) {
		p.t.Fatalf("prepare %s: %s (%v)", tool, raw, err)
	}
	return pl
}

// perform sends the plan as CDP input, as the background does in Chrome
// (modifier chords are left to the Go unit tests).
func (p *page) perform(pl plan) {
	p.t.Helper()
	var err error
	key := func(typ input.DispatchKeyEventType, k string, code string, kc int64, text string) {
		if err == nil {
			_, err = chromedp.Call(p.ctx, input.DispatchKeyEvent, input.DispatchKeyEventParams{
				Type: typ, Key: k, Code: code, WindowsVirtualKeyCode: kc, NativeVirtualKeyCode: kc, Text: text})
		}
	}
	for _, s := range pl.Steps {
		switch {
		case s.Mouse != nil:
			for _, ev := range []input.DispatchMouseEventParams{
				{Type: input.DispatchMouseEventTypeMouseMoved},
				{Type: input.DispatchMouseEventTypeMousePressed, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1},
				{Type: input.DispatchMouseEventTypeMouseReleased, Button: input.MouseButtonLeft, ClickCount: 1},
			} {
				ev.X, ev.Y = s.Mouse.X, s.Mouse.Y
				if err == nil {
					_, err = chromedp.Call(p.ctx, input.DispatchMouseEvent, ev)
				}
			}
		case s.Key != nil:
			text := s.Key.Text
			if s.Key.Key == "Enter" {
				text = "\r"
			}
			down := input.DispatchKeyEventTypeRawKeyDown
			if text != "" {
				down = input.DispatchKeyEventTypeKeyDown
			}
			key(down, s.Key.Key, s.Key.Code, s.Key.KeyCode, text)
			key(input.DispatchKeyEventTypeKeyUp, s.Key.Key, s.Key.Code, s.Key.KeyCode, "")
		case s.Insert != nil:
			if err == nil {
				_, err = chromedp.Call(p.ctx, input.InsertText, input.InsertTextParams{Text: *s.Insert})
			}
		}
	}
	if err != nil {
		p.t.Fatalf("CDP input: %v", err)
	}
}

func TestTrustedClickPreparesAndReports(t *testing.T) {
	p := open(t, "/scenario/trusted.html")
	pl := p.prepare("click_ax", map[string]any{"ref": p.ref("#far")})
	if len(pl.Steps) != 1 || pl.Steps[0].Mouse == nil {
		t.Fatalf("plan %+v, want one mouse click", pl)
	}
	// The button was scrolled into view and the point is on it.
	at := p.js(fmt.Sprintf(`document.elementFromPoint(%v, %v).id`, pl.Steps[0].Mouse.X, pl.Steps[0].Mouse.Y))
	if at != "far" {
		t.Fatalf("the planned point hits #%s, not #far", at)
	}
	p.perform(pl)
	res := p.ok("trusted_finish", map[string]any{})
	contains(t, "result", res, `Clicked button "Far away"`)
	if got := strings.Join(p.record(), " "); got != "click:far:true" {
		t.Errorf("page record %q, want one trusted click", got)
	}
	contains(t, "second finish", p.failing("trusted_finish", map[string]any{}), "No trusted input is waiting")
}

func TestTrustedTypingClearsFocusesAndReports(t *testing.T) {
	p := open(t, "/scenario/trusted.html")
	p.do(`document.getElementById('far').focus()`)
	pl := p.prepare("type_ax", map[string]any{"ref": p.ref("#name"), "text": "Zoë A"})
	if p.js(`document.activeElement.id`) != "name" {
		t.Fatal("prepare did not focus the field")
	}
	var kinds []string
	for _, s := range pl.Steps {
		switch {
		case s.Key != nil:
			kinds = append(kinds, "key:"+s.Key.Key)
		case s.Insert != nil:
			kinds = append(kinds, "insert:"+*s.Insert)
		}
	}
	// Clearing is a Backspace over the selected old text; ë has no US key.
	if got := strings.Join(kinds, " "); got != "key:Backspace key:Z key:o insert:ë key:  key:A" {
		t.Errorf("plan steps %q", got)
	}
	p.perform(pl)
	res := p.ok("trusted_finish", map[string]any{})
	contains(t, "result", res, `it now holds "Zoë A"`)
	for _, r := range p.record() {
		if !strings.HasSuffix(r, ":true") {
			t.Errorf("untrusted event on the page: %s (record %v)", r, p.record())
		}
	}
	if got := p.js(`document.getElementById('name').value`); got != "Zoë A" {
		t.Errorf("value %q", got)
	}
}

// A failing prepare is the ordinary error, and a synthetic tool call (the
// fallback) ends a prepared watch.
func TestTrustedPrepareErrorsAndFallback(t *testing.T) {
	p := open(t, "/overlay.html")
	r := p.tool("trusted_prepare", map[string]any{"tool": "click_ax", "args": map[string]any{"ref": p.heldRef("#buy")}})
	if r.OK {
		t.Fatal("prepare of a covered button succeeded")
	}
	contains(t, "error", r.Error, "is covered by")
	p.prepare("click_ax", map[string]any{"ref": p.ref("#accept")})
	p.ok("click_ax", map[string]any{"ref": p.ref("#accept")})
	contains(t, "finish after fallback", p.failing("trusted_finish", map[string]any{}), "No trusted input is waiting")
}
