//go:build browser

package ui

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// press sends one key without text (Escape, Tab) to the focused element.
func press(key string, code int64, modifiers int64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		p := input.DispatchKeyEventParams{
			Type: input.DispatchKeyEventTypeRawKeyDown, Key: key, Code: key, Modifiers: modifiers,
			WindowsVirtualKeyCode: code, NativeVirtualKeyCode: code,
		}
		if _, err := cdp.Call(ctx, target, input.DispatchKeyEvent, p); err != nil {
			return err
		}
		p.Type = input.DispatchKeyEventTypeKeyUp
		_, err := cdp.Call(ctx, target, input.DispatchKeyEvent, p)
		return err
	})
}

// Escape in the composer stops the active run, as Stop does; without a
// run it sends nothing.
func TestEscapeStopsTheRun(t *testing.T) {
	tb := openPanel(t, "")
	tb.run(chromedp.Focus(chromedp.CSS("#prompt")), press("Escape", 27, 0))
	if n := len(tb.sent("abort")); n != 0 {
		t.Fatalf("Escape without a run sent %d aborts", n)
	}
	startRun(tb, "Compare the prices")
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "a draft"), press("Escape", 27, 0))
	tb.waitFor("abort", `__fake.sentOf('abort').length === 1`)
	if got := tb.sent("abort")[0]; got["tabId"] != float64(7) {
		t.Errorf("abort = %v", got)
	}
	if v := eval[string](tb, `document.querySelector('#prompt').value`); v != "a draft" {
		t.Errorf("Escape changed the draft to %q", v)
	}
}

// After a card is answered the focus is back in the composer, and every
// control a keyboard reaches shows the focus ring.
func TestFocusAfterAnswersAndFocusRing(t *testing.T) {
	tb := openPanel(t, "")
	rid := startRun(tb, "Order a mug")
	deliver(tb, rid, 1, `{kind: "tool_call", id: "c1", name: "read_page", args: "{}"}`)
	deliver(tb, rid, 2, `{kind: "tool_result", id: "c1", name: "read_page", result: "Mugs"}`)
	deliver(tb, rid, 3, `{kind: "clarify", id: "q1", text: "Which size?", options: ["Small", "Large"]}`)
	tb.waitFor("the card", `!!document.querySelector('.clarify-option')`)

	// Shift+Tab from the composer walks back through the transcript's
	// controls: each one shows an outline.
	tb.run(chromedp.Focus(chromedp.CSS("#prompt")))
	seen := map[string]bool{}
	for i := 0; i < 8; i++ {
		tb.run(press("Tab", 9, 8))
		el := eval[string](tb, `(e => e.className || e.tagName)(document.activeElement)`)
		outline := eval[string](tb, `getComputedStyle(document.activeElement).outlineStyle + ' ' + getComputedStyle(document.activeElement).outlineWidth`)
		if outline != "solid 2px" {
			t.Errorf("%s has outline %q when reached by keyboard", el, outline)
		}
		seen[el] = true
		if el == "SUMMARY" {
			tb.screenshot("focus-tool-row")
		}
		if el == "clarify-option" {
			tb.screenshot("focus-clarify")
		}
	}
	for _, want := range []string{"clarify-option", "SUMMARY"} {
		if !seen[want] {
			t.Errorf("Shift+Tab never reached %s (reached %v)", want, seen)
		}
	}

	tb.run(chromedp.Focus(chromedp.CSS(".clarify-option")), pressEnter(false))
	tb.waitFor("clarify_answer", `__fake.sentOf('clarify_answer').length === 1`)
	if !eval[bool](tb, `document.activeElement === document.querySelector('#prompt')`) {
		t.Errorf("focus after answering is on %s, want the composer", eval[string](tb, `document.activeElement.outerHTML.slice(0, 80)`))
	}
}
