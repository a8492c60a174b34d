//go:build browser

package axtree

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestClickListeners: boxes a script made clickable (addEventListener, an
// onclick property, jQuery's delegated handlers; no pointer, role or markup)
// get refs once the page-world script noted them, a textless one told apart by its colour; a handler
// taken away, a framework's root, a page-wide box and the document do not
// make targets; a real click by ref reaches the page's handler; and the
// page's own calls behave as without the script.
func TestClickListeners(t *testing.T) {
	p := newPage(t)
	p.listen()
	p.open("/fixtures/listeners.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree,
		`clickable `+ref+` fill=red hint="swatch"`,
		`clickable `+ref+` fill=lime hint="swatch"`,
		`clickable `+ref+` fill=green hint="swatch"`,
		`clickable "Inbox" `+ref,
		`listitem "Old folder"`,
		`clickable "Archive" `+ref,
		`clickable "dot" `+ref+` fill=blue size=40x40 at=30,30`,
		`"Welcome to the app."`,
		`button "Start" `+ref,
		`clickable "Favourites" `+ref,
		`clickable "Undo" `+ref,
		// jQuery's delegated handlers: on the document, on a container.
		`clickable "News" `+ref, `clickable "Sport" `+ref,
		`clickable "Small" `+ref, `clickable "Large" `+ref,
	)
	if n := len(regexp.MustCompile(`\[ref_\d+\]`).FindAllString(tree, -1)); n != 13 {
		t.Errorf("%d refs, want 13 (the root, the page-wide box, the removed handler, the hidden box and the delegating containers are not targets):\n%s", n, tree)
	}
	if strings.Contains(tree, "Hidden action") {
		t.Errorf("a hidden box is shown:\n%s", tree)
	}
	inter := p.tree(map[string]any{"filter": "interactive", "maxChars": 0}).Tree
	mustLines(t, inter, `clickable `+ref+` fill=lime hint="swatch"`, `clickable "Archive" `+ref, `clickable "Favourites" `+ref)

	for _, c := range []struct{ line, want string }{
		{`clickable (\[ref_\d+\]) fill=lime`, "lime"},
		{`clickable "Archive" (\[ref_\d+\])`, "archive"},
		{`clickable "dot" (\[ref_\d+\])`, "dot"},
		{`clickable "Favourites" (\[ref_\d+\])`, "tile"},
		{`clickable "Sport" (\[ref_\d+\])`, "Sport"},
		{`clickable "Large" (\[ref_\d+\])`, "Large"},
	} {
		m := regexp.MustCompile(c.line).FindStringSubmatch(tree)
		if m == nil {
			t.Fatalf("no line %q in:\n%s", c.line, tree)
		}
		p.clickRef(strings.Trim(m[1], "[]"))
		var rec []string
		p.eval(`window.record`, &rec)
		if len(rec) == 0 || rec[len(rec)-1] != c.want {
			t.Errorf("clicking %s: the page recorded %q, want %q last", c.line, rec, c.want)
		}
	}

	// The page's own calls: names, lengths and source text as native, an
	// onclick property reads back, a removed handler is gone.
	var native []bool
	p.eval(`(() => { const a = EventTarget.prototype.addEventListener, r = EventTarget.prototype.removeEventListener; `+
		`const d = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onclick'); `+
		`return [a.name === 'addEventListener', a.length === 2, r.name === 'removeEventListener', `+
		`Function.prototype.toString.call(a).includes('[native code]'), Function.prototype.toString.call(d.set).includes('[native code]'), `+
		`typeof document.getElementById('archive').onclick === 'function']; })()`, &native)
	if slices.Contains(native, false) {
		t.Errorf("the page sees the wrapped functions differ from the browser's: %v", native)
	}
	var rec []string
	p.eval(`(() => { window.record = []; document.getElementById('gone').dispatchEvent(new MouseEvent('mousedown', {bubbles: true})); return window.record; })()`, &rec)
	if len(rec) != 0 {
		t.Errorf("a removed handler ran: %q", rec)
	}

	// A page that has bound and dropped many elements still has its new
	// ones noted.
	var done bool
	p.eval(`(() => { const box = document.createElement('div'); document.body.append(box); `+
		`for (let i = 0; i < 25000; i++) { const d = document.createElement('span'); d.addEventListener('click', () => {}); box.append(d); } `+
		`box.remove(); const late = document.createElement('div'); late.textContent = 'Late action'; `+
		`late.addEventListener('click', () => {}); document.getElementById('wrap').append(late); return true; })()`, &done)
	mustLines(t, p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree, `clickable "Late action" `+ref)

	// A tab opened before the extension was installed has no page-world
	// script: the same boxes are plain text, and nothing fails.
	q := newPage(t)
	q.open("/fixtures/listeners.html")
	plain := q.tree(map[string]any{"filter": "all", "maxChars": 0})
	if plain.Error != "" || strings.Contains(plain.Tree, "fill=") || strings.Contains(plain.Tree, `clickable "Archive"`) {
		t.Errorf("without the page-world script: error %q, tree:\n%s", plain.Error, plain.Tree)
	}
}

// clickRef clicks the middle of a ref's element with real (CDP) mouse
// events, as the click tools aim.
func (p *page) clickRef(r string) {
	p.t.Helper()
	var pt []float64
	p.eval(`(() => { const el = window.__wb_ax_lookup("`+r+`"); const b = el.getBoundingClientRect(); `+
		`const x = b.left + b.width / 2, y = b.top + b.height / 2; `+
		`const hit = el.getRootNode().elementFromPoint(x, y); return hit === el || el.contains(hit) ? [x, y] : []; })()`, &pt)
	if len(pt) != 2 {
		p.t.Fatalf("%s: the middle of its box is not on the element", r)
	}
	for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		ev := input.DispatchMouseEventParams{Type: typ, X: pt[0], Y: pt[1], Button: input.MouseButtonLeft, ClickCount: 1}
		if _, err := chromedp.Call(p.ctx, input.DispatchMouseEvent, ev); err != nil {
			p.t.Fatal(err)
		}
	}
}
