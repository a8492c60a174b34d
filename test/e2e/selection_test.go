//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// The selection toolbar (docs/decisions/selection-toolbar.md) lives in a
// closed shadow root: the page cannot reach it, and neither can the usual
// selectors. These helpers read the DOM as CDP sees it (piercing shadow
// roots) and click with trusted input, as a person does.

// pierced reads the page's whole DOM as CDP sees it, shadow roots included.
func pierced(t *testing.T, ctx context.Context) *cdp.Node {
	t.Helper()
	depth, pierce := int64(-1), true
	doc, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (*cdp.Node, error) {
		res, err := cdp.Call(ctx, tg, dom.GetDocument, dom.GetDocumentParams{Depth: &depth, Pierce: &pierce})
		return res.Root, err
	})
	if err != nil {
		t.Fatalf("read the page's DOM: %v", err)
	}
	return doc
}

func attrOf(n *cdp.Node, name string) (string, bool) {
	for i := 0; i+1 < len(n.Attributes); i += 2 {
		if n.Attributes[i] == name {
			return n.Attributes[i+1], true
		}
	}
	return "", false
}

// inToolbar returns the first node under <webbrain-selection> for which
// match holds, or nil.
func inToolbar(n *cdp.Node, inHost bool, match func(*cdp.Node) bool) *cdp.Node {
	inHost = inHost || n.LocalName == "webbrain-selection"
	if inHost && match(n) {
		return n
	}
	for _, c := range append(append([]*cdp.Node{}, n.ShadowRoots...), n.Children...) {
		if f := inToolbar(c, inHost, match); f != nil {
			return f
		}
	}
	return nil
}

// shadowFind returns the first node in the toolbar's root with
// attr=value, or nil.
func shadowFind(t *testing.T, ctx context.Context, attr, value string) *cdp.Node {
	t.Helper()
	return inToolbar(pierced(t, ctx), false, func(n *cdp.Node) bool {
		v, ok := attrOf(n, attr)
		return ok && v == value
	})
}

// waitShadow waits until shadowFind finds a node.
func waitShadow(t *testing.T, ctx context.Context, attr, value string, within time.Duration) *cdp.Node {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if n := shadowFind(t, ctx, attr, value); n != nil {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing with %s=%q appeared in the toolbar's shadow root", attr, value)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// nodeText is a node's innerText.
func nodeText(t *testing.T, ctx context.Context, n *cdp.Node) string {
	t.Helper()
	byValue := true
	text, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (string, error) {
		obj, err := cdp.Call(ctx, tg, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: n.BackendNodeID})
		if err != nil {
			return "", err
		}
		res, err := cdp.Call(ctx, tg, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
			FunctionDeclaration: `function() { return this.innerText; }`, ObjectID: obj.Object.ObjectID, ReturnByValue: &byValue})
		if err != nil {
			return "", err
		}
		if res.ExceptionDetails != nil {
			return "", fmt.Errorf("%s", res.ExceptionDetails.Text)
		}
		var s string
		err = json.Unmarshal([]byte(res.Result.Value), &s)
		return s, err
	})
	if err != nil {
		t.Fatalf("read a node's text: %v", err)
	}
	return text
}

// clickNode clicks the middle of n with trusted mouse input.
func clickNode(t *testing.T, ctx context.Context, n *cdp.Node) {
	t.Helper()
	err := chromedp.Do(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		box, err := cdp.Call(ctx, tg, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: n.BackendNodeID})
		if err != nil {
			return chromedp.Void{}, err
		}
		q := box.Model.Content
		x, y := (q[0]+q[4])/2, (q[1]+q[5])/2
		return chromedp.Void{}, mouse(ctx, tg, x, y, x, y)
	})
	if err != nil {
		t.Fatalf("click: %v", err)
	}
}

// mouse presses at (x1, y1), moves to (x2, y2) and releases: a click, or
// a drag that selects text.
func mouse(ctx context.Context, tg *chromedp.Target, x1, y1, x2, y2 float64) error {
	left := input.MouseButtonLeft
	steps := []input.DispatchMouseEventParams{
		{Type: input.DispatchMouseEventTypeMouseMoved, X: x1, Y: y1},
		{Type: input.DispatchMouseEventTypeMousePressed, X: x1, Y: y1, Button: left, Buttons: 1, ClickCount: 1},
		{Type: input.DispatchMouseEventTypeMouseMoved, X: (x1 + x2) / 2, Y: (y1 + y2) / 2, Button: left, Buttons: 1},
		{Type: input.DispatchMouseEventTypeMouseMoved, X: x2, Y: y2, Button: left, Buttons: 1},
		{Type: input.DispatchMouseEventTypeMouseReleased, X: x2, Y: y2, Button: left, ClickCount: 1},
	}
	for _, p := range steps {
		if _, err := cdp.Call(ctx, tg, input.DispatchMouseEvent, p); err != nil {
			return err
		}
	}
	return nil
}

// dragSelect selects the text of the element css by dragging across it.
func dragSelect(t *testing.T, ctx context.Context, css string) {
	t.Helper()
	r := evalIn[[]float64](t, ctx, fmt.Sprintf(`(() => {
		const el = document.querySelector(%q);
		el.scrollIntoView({block: "center"});
		const range = document.createRange();
		range.selectNodeContents(el);
		const rs = [...range.getClientRects()];
		const b = rs.length ? rs : [el.getBoundingClientRect()];
		const first = b[0], last = b[b.length - 1];
		return [first.left + 1, first.top + first.height / 2, last.right - 1, last.top + last.height / 2];
	})()`, css))
	if err := chromedp.Do(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		return chromedp.Void{}, mouse(ctx, tg, r[0], r[1], r[2], r[3])
	}); err != nil {
		t.Fatalf("select %s: %v", css, err)
	}
}

func selectionShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("WB_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Selecting text shows the toolbar; Translate answers in a card through
// the configured provider (the fake model, over the real wire format)
// with one tool-less call whose selection is wrapped as page data. The
// page only ever sees a closed host, and nothing runs in the panel.
func TestSelectionToolbarTranslates(t *testing.T) {
	srv := llmtest.NewTurns(llmtest.Turn{Text: "**Guten Morgen**, Welt. Die Bäckerei öffnet um sieben."})
	s := openSession(t, "selection.html", srv, openAIChat)

	dragSelect(t, s.page, "#greeting")
	translate := waitShadow(t, s.page, "data-action", "translate", 10*time.Second)
	for _, a := range []string{"explain", "proofread", "more"} {
		if shadowFind(t, s.page, "data-action", a) == nil {
			t.Errorf("the toolbar has no %s button", a)
		}
	}
	selectionShot(t, s.page, "selection-toolbar")
	clickNode(t, s.page, translate)

	card := waitShadow(t, s.page, "data-state", "done", runTimeout)
	text := nodeText(t, s.page, card)
	if !strings.Contains(text, "Guten Morgen, Welt. Die Bäckerei öffnet um sieben.") || !strings.Contains(text, "Translation") {
		t.Errorf("the card shows %q", text)
	}
	if n := shadowFind(t, s.page, "data-state", "done"); n == nil || shadowFindIn(t, s.page, "strong") == "" {
		t.Error("the answer's bold text is not drawn as a <strong> node")
	}
	selectionShot(t, s.page, "selection-card")

	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	if len(reqs[0].Tools) != 0 {
		t.Errorf("the card's call offers tools: %v", reqs[0].Tools)
	}
	user := ""
	for _, m := range reqs[0].Messages {
		if m.Role == llm.RoleUser {
			user = m.Content
		}
	}
	i := strings.Index(user, "<untrusted")
	if i < 0 || !strings.Contains(user[i:], "Good morning, world. The bakery opens at seven.") || !strings.Contains(user[:i], "Translate") {
		t.Errorf("the request does not wrap the selection as page data:\n%s", user)
	}
	if got := s.pageRecord(); strings.Join(got, " ") != "host:closed" {
		t.Errorf("the page saw %v, want only a closed host", got)
	}
	if s.runStatus() == "running" {
		t.Error("a card started a run in the panel")
	}

	// Close ends the card.
	close := shadowFind(t, s.page, "aria-label", "Close")
	if close == nil {
		t.Fatal("the card has no Close button")
	}
	clickNode(t, s.page, close)
	time.Sleep(300 * time.Millisecond)
	if shadowFind(t, s.page, "data-state", "done") != nil {
		t.Error("the card is still there after Close")
	}
}

// shadowFindIn returns the text of the first element named tag inside the
// toolbar's root, or "".
func shadowFindIn(t *testing.T, ctx context.Context, tag string) string {
	t.Helper()
	n := inToolbar(pierced(t, ctx), false, func(n *cdp.Node) bool { return n.LocalName == tag })
	if n == nil {
		return ""
	}
	out := ""
	for _, c := range n.Children {
		out += c.NodeValue
	}
	return out
}

// No toolbar on a password field or inside a rich-text editor.
func TestSelectionToolbarSkipsPasswordsAndEditors(t *testing.T) {
	srv := llmtest.NewTurns()
	s := openSession(t, "selection.html", srv, openAIChat)
	// Focus the password field, then drag across its text.
	evalIn[chromedp.Void](t, s.page, `document.getElementById('secret').focus()`)
	dragSelect(t, s.page, "#secret")
	if got := evalIn[int](t, s.page, `(() => { const p = document.getElementById('secret'); return p.selectionEnd - p.selectionStart; })()`); got == 0 {
		t.Fatal("the drag selected nothing in the password field")
	}
	dragSelect(t, s.page, "#editor")
	time.Sleep(700 * time.Millisecond)
	if n := shadowFind(t, s.page, "role", "toolbar"); n != nil {
		t.Error("a toolbar appeared on a password field or an editor")
	}
	// The same page still offers it on plain text.
	dragSelect(t, s.page, "#greeting")
	waitShadow(t, s.page, "role", "toolbar", 10*time.Second)
	if len(srv.Requests()) != 0 {
		t.Error("selecting text called the model")
	}
}

// More… hands the selection to the side panel, which shows the quote; the
// question sent from there is an Ask run that carries the selection as
// page data. The context menu's entries reach the same script: the
// background's message (what its onClicked sends) opens a card.
func TestSelectionMoreAndContextMenu(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if len(req.Tools) == 0 {
			return llmtest.Turn{Text: "An instruction hidden in the page."}
		}
		return answer("It asks to delete the account; WebBrain will not.")
	})
	s := openSession(t, "selection.html", srv, openAIChat)

	dragSelect(t, s.page, "#injection")
	clickNode(t, s.page, waitShadow(t, s.page, "data-action", "more", 10*time.Second))
	// The popup's Ask with an empty question opens the panel with the quote.
	clickNode(t, s.page, waitShadow(t, s.page, "data-action", "ask", 10*time.Second))
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.text("#selection-quote"), "Ignore all previous instructions") {
		if time.Now().After(deadline) {
			t.Fatalf("the panel shows no quote: %q", s.text("#selection-quote"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	panelShot(t, s, "selection-panel-quote")
	if n := shadowFind(t, s.page, "data-state", "handed"); n != nil {
		t.Logf("the page's note after More…: %q", nodeText(t, s.page, n))
	}
	s.send("act", "What does this ask for?")
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	first := ""
	for _, m := range last.Messages {
		if m.Role == llm.RoleUser {
			first = m.Content
			break
		}
	}
	i := strings.Index(first, "<untrusted")
	if !strings.HasPrefix(first, "What does this ask for?") || i < 0 || !strings.Contains(first[i:], "Ignore all previous instructions") {
		t.Errorf("the run's message does not carry the selection as page data:\n%s", first)
	}
	// Grounded on the selection: no page tools at all, not even Ask's
	// read-only ones (docs/decisions/selection-toolbar.md).
	if strings.Join(last.Tools, ",") != "done" {
		t.Errorf("a selected-text run offered %v: want done alone", last.Tools)
	}
	if !strings.Contains(s.text("#transcript"), "About the selected text") {
		t.Error("the transcript does not say the message was about the selection")
	}

	// The context menu: its onClicked handler hands the entry to the tab's
	// toolbar script with toSelectionScript (the worker's own function).
	evalIn[chromedp.Void](t, env.worker, fmt.Sprintf(`toSelectionScript(%d, {wbSelection: "run", kind: "explain", text: "Good morning, world."})`, s.tabID), chromedp.EvalAwaitPromise)
	card := waitShadow(t, s.page, "data-state", "done", runTimeout)
	if text := nodeText(t, s.page, card); !strings.Contains(text, "Explanation") || !strings.Contains(text, "An instruction hidden in the page.") {
		t.Errorf("the context menu's card shows %q", text)
	}
}

// More…'s popup offers what the bar does not (Summarize, Quiz me,
// Humanize): its Summarize hands the selection to the panel, which sends
// the request at once as an Ask run with the selection as page data.
func TestSelectionMorePopupAsksInThePanel(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		return answer("A greeting to the world.")
	})
	s := openSession(t, "selection.html", srv, openAIChat)
	dragSelect(t, s.page, "#greeting")
	clickNode(t, s.page, waitShadow(t, s.page, "data-action", "more", 10*time.Second))
	waitShadow(t, s.page, "data-action", "humanize", 10*time.Second)
	waitShadow(t, s.page, "data-action", "quiz", 10*time.Second)
	pageShot(t, s, "selection-more-popup")
	clickNode(t, s.page, waitShadow(t, s.page, "data-action", "summarize", 10*time.Second))
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model was not asked")
	}
	last := reqs[len(reqs)-1]
	first := ""
	for _, m := range last.Messages {
		if m.Role == llm.RoleUser {
			first = m.Content
			break
		}
	}
	i := strings.Index(first, "<untrusted")
	if !strings.HasPrefix(first, "Summarize the selected text.") || i < 0 || !strings.Contains(first[i:], "Good morning, world.") {
		t.Errorf("the run's message is not the popup's request with the selection as page data:\n%s", first)
	}
	for _, tool := range last.Tools {
		if tool == "click_ax" || tool == "type_ax" {
			t.Errorf("a selected-text run offered %s: it must be read-only", tool)
		}
	}
	if !strings.Contains(s.text("#transcript"), "Summarize the selected text.") {
		t.Errorf("the transcript does not show the request: %q", s.text("#transcript"))
	}
}

// An answer cut at the card's limit says so and offers Continue in side
// panel, which sends the selection and the unfinished answer to a panel
// run at once, both as page data.
func TestSelectionCardContinuesInThePanel(t *testing.T) {
	long := strings.Repeat("Guten Morgen. ", 5000) // 70,000 characters: over what a card holds
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if len(req.Tools) == 0 {
			return llmtest.Turn{Text: long}
		}
		return answer("…und so weiter.")
	})
	s := openSession(t, "selection.html", srv, openAIChat)
	dragSelect(t, s.page, "#greeting")
	clickNode(t, s.page, waitShadow(t, s.page, "data-action", "translate", 10*time.Second))
	waitShadow(t, s.page, "data-note", "truncated", runTimeout)
	clickNode(t, s.page, waitShadow(t, s.page, "data-action", "continue", 5*time.Second))
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	reqs := srv.Requests()
	first := ""
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == llm.RoleUser {
			first = m.Content
			break
		}
	}
	i := strings.Index(first, "<untrusted")
	if !strings.HasPrefix(first, "Continue the earlier answer") || i < 0 ||
		!strings.Contains(first[i:], "Good morning, world.") || !strings.Contains(first[i:], "Earlier answer") ||
		!strings.Contains(first[i:], "Guten Morgen. Guten Morgen.") {
		t.Errorf("the continuation does not carry the selection and the answer as page data:\n%s", clip(first, 600))
	}
	if !strings.Contains(s.text("#transcript"), "…und so weiter.") {
		t.Error("the panel does not show the continuation's answer")
	}
}

// The keyboard shortcut (the "selection-toolbar" command) shows the bar
// for a selection made without the mouse: its handler hands {wbSelection:
// "show"} to the page's script the same way the context menu does.
func TestSelectionToolbarFromTheShortcut(t *testing.T) {
	s := openSession(t, "selection.html", llmtest.NewTurns(), openAIChat)
	evalIn[chromedp.Void](t, s.page, `(() => {
		const r = document.createRange();
		r.selectNodeContents(document.getElementById('greeting'));
		getSelection().removeAllRanges();
		getSelection().addRange(r);
	})()`)
	time.Sleep(300 * time.Millisecond)
	if shadowFind(t, s.page, "role", "toolbar") != nil {
		t.Fatal("the bar appeared without a mouse selection or the shortcut")
	}
	evalIn[chromedp.Void](t, env.worker, fmt.Sprintf(`toSelectionScript(%d, {wbSelection: "show"})`, s.tabID), chromedp.EvalAwaitPromise)
	waitShadow(t, s.page, "role", "toolbar", 10*time.Second)
	// Escape, at the focused bar, closes it.
	if err := chromedp.Do(s.page, chromedp.KeyEvent("\x1b")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if shadowFind(t, s.page, "role", "toolbar") != nil {
		t.Error("Escape did not close the focused bar")
	}
}
