//go:build browser

package ui

import (
	"testing"

	"github.com/chromedp/chromedp"
)

func lastStart(tb *tab) map[string]any {
	tb.t.Helper()
	starts := tb.sent("chat_start")
	return starts[len(starts)-1]
}

// A run that failed offers Retry: the same request again, in its mode.
func TestRetryAfterAnError(t *testing.T) {
	tb := openPanel(t, "")
	rid := startRun(tb, "/act Add the mug to the cart")
	deliver(tb, rid, 1, `{kind: "run_started", text: "Add the mug to the cart", mode: "act"}`)
	deliver(tb, rid, 2, `{kind: "error", text: "The model request failed: 503"}`)
	tb.waitFor("Retry", `!!document.querySelector('#transcript > .msg.error:last-child button.run-retry')`)
	tb.screenshot("retry")
	tb.run(chromedp.Click(chromedp.CSS(".run-retry")))
	tb.waitFor("the retry", `__fake.sentOf('chat_start').length === 2`)
	if s := lastStart(tb); s["text"] != "Add the mug to the cart" || s["mode"] != "act" || s["requestId"] == rid {
		t.Errorf("retry sent %v", s)
	}
	if n := eval[int](tb, `document.querySelectorAll('.run-offer').length`); n != 0 {
		t.Errorf("%d offers left after the retry started", n)
	}
	if s := status(tb); s != "running" {
		t.Errorf("status after Retry = %q", s)
	}
}

// An automatic run routed to Act that stopped at the step limit offers
// Continue, which keeps Act; the button is reached and pressed by keyboard.
func TestContinueAfterTheStepLimit(t *testing.T) {
	tb := openPanel(t, "")
	rid := startRun(tb, "Fill the form")
	deliver(tb, rid, 1, `{kind: "run_started", text: "Fill the form", mode: "auto"}`)
	deliver(tb, rid, 2, `{kind: "run_mode", mode: "act", reason: "decision_model"}`)
	deliver(tb, rid, 3, `{kind: "tool_call", id: "c1", name: "read_page", args: "{}"}`)
	deliver(tb, rid, 4, `{kind: "tool_result", id: "c1", name: "read_page", result: "form"}`)
	deliver(tb, rid, 5, `{kind: "final", text: "Filled 2 of 3 fields.", outcome: "partial", reason: "step_limit"}`)
	tb.waitFor("Continue", `!!document.querySelector('#transcript > .msg.assistant:last-child button.run-continue')`)
	tb.do(`document.querySelector('.run-continue').focus()`)
	tb.screenshot("continue")
	tb.run(pressEnter(false))
	tb.waitFor("the continuation", `__fake.sentOf('chat_start').length === 2`)
	if s := lastStart(tb); s["text"] != "Continue the task from where you stopped." || s["mode"] != "act" {
		t.Errorf("continue sent %v", s)
	}
}

// A run routed to Ask is retried as automatic, so it is routed again; a
// finished or stopped run offers nothing.
func TestOffersOnlyWhereARunDidNotFinish(t *testing.T) {
	tb := openPanel(t, "")
	rid := startRun(tb, "What does it cost?")
	deliver(tb, rid, 1, `{kind: "run_mode", mode: "ask", reason: "default"}`)
	deliver(tb, rid, 2, `{kind: "final", text: "12 EUR."}`)
	tb.waitFor("done", `document.querySelector('#transcript').dataset.runStatus === 'done'`)
	if n := eval[int](tb, `document.querySelectorAll('.run-offer').length`); n != 0 {
		t.Errorf("a finished run offers %d buttons", n)
	}
	rid = startRun(tb, "And shipping?")
	deliver(tb, rid, 1, `{kind: "run_mode", mode: "ask", reason: "default"}`)
	deliver(tb, rid, 2, `{kind: "error", text: "The model request failed: timeout"}`)
	tb.waitFor("Retry", `!!document.querySelector('.run-retry')`)
	// The offer survives a reopened panel.
	tb.run(chromedp.Reload())
	tb.waitFor("Retry after reload", `document.body.dataset.ready === 'true' && !!document.querySelector('.run-retry')`)
	tb.run(chromedp.Click(chromedp.CSS(".run-retry")))
	tb.waitFor("the retry", `__fake.sentOf('chat_start').length >= 1 && __fake.sentOf('chat_start').at(-1).text === 'And shipping?'`)
	if s := lastStart(tb); s["mode"] != "auto" {
		t.Errorf("retry of a run routed to Ask sent mode %v, want auto", s["mode"])
	}
	rid = lastStart(tb)["requestId"].(string)
	deliver(tb, rid, 1, `{kind: "stopped"}`)
	tb.waitFor("stopped", `document.querySelector('#transcript').dataset.runStatus === 'stopped'`)
	if n := eval[int](tb, `document.querySelectorAll('.run-offer').length`); n != 0 {
		t.Errorf("a stopped run offers %d buttons", n)
	}
}
