package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/webbrain/webbrain/wasm/platform"
)

// Limits on how much of the dialog record one result repeats: a page can
// open dialogs in a loop, and their text is page content.
const (
	maxReportedDialogs = 10
	maxDialogText      = 500
)

// takeDialogs drains the dialogs the debugger answered in the tab. The
// record is a courtesy to the model: failing to read it must not fail the
// action that already happened.
func (d *Dispatcher) takeDialogs(ctx context.Context) []platform.Dialog {
	if d.p.Debugger == nil {
		return nil
	}
	ds, err := d.p.Debugger.Dialogs(ctx, d.tabID)
	if err != nil {
		return nil
	}
	return ds
}

// armDialogs attaches the debugger before a navigation so its dialogs are
// answered; leaveFrom grants the one-use Leave for a beforeunload warning
// from that page. Only Stop is an error: a page the debugger cannot attach
// to (chrome://) still navigates, and its dialogs need the user.
func (d *Dispatcher) armDialogs(ctx context.Context, leaveFrom string) error {
	if d.p.Debugger == nil {
		return nil
	}
	if err := d.p.Debugger.ArmDialogs(ctx, d.tabID, leaveFrom); err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// dialogNote tells the model which dialogs WebBrain answered and how. Our
// account stays outside the untrusted block; the dialogs' own texts go
// inside it, numbered to match.
func (b Boundary) dialogNote(ds []platform.Dialog) string {
	if len(ds) == 0 {
		return ""
	}
	var out, texts strings.Builder
	fmt.Fprintf(&out, "Since the last result the page opened %s, which WebBrain answered itself:\n", plural(len(ds), "native dialog"))
	for i, dl := range ds {
		if i == maxReportedDialogs {
			fmt.Fprintf(&out, "(%d more not listed.)\n", len(ds)-i)
			break
		}
		fmt.Fprintf(&out, "%d. %s.\n", i+1, dialogAnswer(dl))
		fmt.Fprintf(&texts, "%d. %s\n", i+1, cutRunes(dl.Message, maxDialogText))
	}
	out.WriteString("WebBrain never accepts a confirmation during a task; if the task needs one, ask the user to do that step. The dialog texts:\n")
	return out.String() + b.Wrap(strings.TrimSuffix(texts.String(), "\n"))
}

// dialogSummary is dialogNote without the page's text, for an error
// message, which is not wrapped as page content.
func dialogSummary(ds []platform.Dialog) string {
	if len(ds) == 0 {
		return ""
	}
	var parts []string
	for i, dl := range ds {
		if i == maxReportedDialogs {
			parts = append(parts, fmt.Sprintf("%d more", len(ds)-i))
			break
		}
		parts = append(parts, dialogAnswer(dl))
	}
	return " The page also opened " + plural(len(ds), "native dialog") + ": " + strings.Join(parts, "; ") + "."
}

// dialogAnswer says what a dialog was and what WebBrain chose.
func dialogAnswer(dl platform.Dialog) string {
	switch {
	case dl.Type == "alert":
		return "an alert; WebBrain acknowledged it (OK)"
	case dl.Type == "beforeunload" && dl.Accepted:
		return "a leave-page warning; WebBrain chose Leave for the navigation it started"
	case dl.Type == "beforeunload":
		return "a leave-page warning; WebBrain chose Stay, so the page did not unload"
	case dl.Type == "prompt":
		return "a prompt dialog asking for text; WebBrain dismissed it (answers Cancel, no text)"
	case dl.Accepted:
		return fmt.Sprintf("a %s dialog; WebBrain accepted it (OK)", dl.Type)
	}
	return fmt.Sprintf("a %s dialog; WebBrain dismissed it (answers Cancel)", dl.Type)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
