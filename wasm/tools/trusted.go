package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// trustedTools send their clicks and keys through CDP when the browser has
// a debugger (Chrome), so the page sees event.isTrusted === true. The
// content script still does the page's part: trusted_prepare resolves the
// target, checks it, focuses and plans the input; trusted_finish reports
// what the input changed (extension/content/trusted.js).
var trustedTools = map[string]bool{
	protocol.ToolClickAX: true, protocol.ToolClick: true, protocol.ToolTypeAX: true, protocol.ToolTypeText: true,
	protocol.ToolPressKeys: true, protocol.ToolHover: true, protocol.ToolDragDrop: true,
}

func (d *Dispatcher) usesTrustedInput(t *tool) bool {
	return d.p.Debugger != nil && trustedTools[t.name]
}

// trustedPlan is the content script's answer to trusted_prepare: the input
// to send, or Done when the page's own path already acted (an <option> is
// selected, not clicked).
type trustedPlan struct {
	Done  string        `json:"done"`
	Steps []trustedStep `json:"steps"`
}

// trustedStep is one input action; exactly one field is set.
type trustedStep struct {
	Mouse  *point    `json:"mouse"` // a click
	Hover  *point    `json:"hover"` // the pointer moves there
	Drag   *drag     `json:"drag"`  // press, move, release
	Key    *keyPress `json:"key"`
	Insert *string   `json:"insert"`
}

// drag is a pressed-pointer drag between two top-frame viewport points.
type drag struct {
	From point `json:"from"`
	To   point `json:"to"`
}

// sendTrusted runs t with CDP input; note reports the native dialogs the
// debugger answered meanwhile (dialogs.go). When the first CDP command fails
// (no debugger could attach: another debugger, a chrome:// page) nothing
// reached the page, so the synthetic path runs instead and note says so.
// A failure part-way is an error: repeating the input could duplicate it.
func (d *Dispatcher) sendTrusted(ctx context.Context, frame int, t *tool, args map[string]any, synthetic json.RawMessage, receipt map[string]string) (text, note string, err error) {
	// Under a receipt the page answers a prepare it has seen with what is
	// still missing, or with Done (docs/decisions/exactly-once.md).
	prep, err := json.Marshal(map[string]any{"wb": "tool", "name": protocol.PageTrustedPrepare, "args": map[string]any{"tool": t.name, "args": args}, "receipt": receipt})
	if err != nil {
		return "", "", err
	}
	raw, err := d.send(ctx, frame, t, prep)
	if err != nil {
		return "", "", err
	}
	var plan trustedPlan
	if err := json.Unmarshal([]byte(raw), &plan); err != nil {
		return "", "", fmt.Errorf("%s: the page sent an unreadable input plan", t.name)
	}
	if plan.Done != "" {
		return plan.Done, "", nil
	}
	// A frame's points are in its own viewport; CDP input takes the top's.
	if err := d.pointsToTop(ctx, frame, plan.Steps); err != nil {
		return "", "", fmt.Errorf("%s: %v", t.name, err)
	}
	sent, cdpErr := d.dispatchSteps(ctx, plan.Steps)
	if ctx.Err() != nil {
		return "", "", ctx.Err()
	}
	if cdpErr != nil && sent == 0 {
		note = fmt.Sprintf("Trusted input was unavailable (%v), so synthetic events were used; pages that check event.isTrusted may ignore them.", cdpErr)
		text, err = d.send(ctx, frame, t, synthetic)
		return text, note, err
	}
	if cdpErr != nil {
		return "", "", fmt.Errorf("%s stopped part-way: %v; read the page before trying again.%s", t.name, cdpErr, dialogSummary(d.takeDialogs(ctx)))
	}
	// The page's report comes after the input, so a dialog the input
	// opened has been answered by then.
	finish, err := json.Marshal(map[string]any{"wb": "tool", "name": protocol.PageTrustedFinish, "args": map[string]any{}, "receipt": receipt})
	if err != nil {
		return "", "", err
	}
	text, err = d.send(ctx, frame, t, finish)
	return text, d.b.dialogNote(d.takeDialogs(ctx)), err
}

// dispatchSteps sends the plan's input and returns how many CDP commands
// succeeded.
func (d *Dispatcher) dispatchSteps(ctx context.Context, steps []trustedStep) (int, error) {
	sent := 0
	send := func(method string, params map[string]any) error {
		if _, err := d.p.Debugger.Send(ctx, d.tabID, method, params); err != nil {
			return err
		}
		sent++
		return nil
	}
	for _, s := range steps {
		var err error
		switch {
		case s.Mouse != nil:
			err = mouseClick(send, *s.Mouse)
		case s.Hover != nil:
			err = mouseHover(send, *s.Hover)
		case s.Drag != nil:
			err = mouseDrag(send, s.Drag.From, s.Drag.To)
		case s.Key != nil:
			err = pressKey(send, *s.Key)
		case s.Insert != nil:
			err = send("Input.insertText", map[string]any{"text": *s.Insert})
		}
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// notedResult puts a note of ours before the page's result, outside its
// untrusted block, keeping the whole within MaxResultChars.
func (b Boundary) notedResult(note, text, hint string) string {
	if note == "" {
		return b.PageResult(text, hint)
	}
	return note + "\n" + b.pageResultWithin(text, hint, MaxResultChars-utf8.RuneCountInString(note)-1)
}
