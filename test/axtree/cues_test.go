//go:build browser

package axtree

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// quoted is s as a text line of the tree quotes it.
func quoted(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPreservedWhiteSpace: text the page renders with its white space kept
// (<pre>, white-space: pre/pre-wrap/pre-line, a textarea's value) keeps
// its line breaks and indentation; other text still collapses; long blocks
// are clipped (pre.html).
func TestPreservedWhiteSpace(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/pre.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	lines := map[string]bool{}
	for _, l := range strings.Split(tree, "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	for _, want := range []string{
		"def greet(name):\n    if name:\n        return \"Hello, \" + name\n    return \"Hi\"",
		"First line\nSecond line",
		"  Indented   wrap",
		"for i in items:\n    print(i)",
		"line a\n  line b",
	} {
		if !lines[quoted(t, want)] {
			t.Errorf("no line %s in:\n%s", quoted(t, want), tree)
		}
	}
	mustLines(t, tree, `text "Normal text collapses"`, `text "After the code\."`)
	if !strings.Contains(tree, `textbox "Notes" [ref_`) || !strings.Contains(tree, `value="Line one\n  Line two" multiline`) {
		t.Errorf("the textarea's value lost its line break:\n%s", tree)
	}
	// A long block is clipped, saying how much is left out.
	if !strings.Contains(tree, quoted(t, "row 1   value 3\nrow 2   value 6")[:30]) || strings.Contains(tree, "row 120") ||
		!strings.Contains(tree, `more lines)"`) {
		t.Errorf("the long block is not clipped as expected:\n%s", tree)
	}
	if len(tree) > 3000 {
		t.Errorf("tree of %d chars: the long block is not bounded", len(tree))
	}
}

// hover moves the mouse over the element the selector finds, as a person
// would (real :hover and mouseenter).
func (p *page) hover(sel string) {
	p.t.Helper()
	var pt []float64
	p.eval(`(() => { const r = document.querySelector(`+quoted(p.t, sel)+`).getBoundingClientRect(); return [r.left + 5, r.top + r.height / 2]; })()`, &pt)
	ev := input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: pt[0], Y: pt[1]}
	if _, err := chromedp.Call(p.ctx, input.DispatchMouseEvent, ev); err != nil {
		p.t.Fatalf("hover %s: %v", sel, err)
	}
}

// TestHoverMenus: a control that opens a menu only on hover (a CSS :hover
// rule or a mouseenter handler in markup, no ARIA) says so; its hidden
// items are not shown until the menu opens (hover.html).
func TestHoverMenus(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/hover.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree,
		`link "Products" `+ref+` href=/products haspopup=hover`,
		`link "About" `+ref+` href=/about`,
		`clickable "Services" `+ref+` haspopup=hover`,
		`button "Departments" `+ref+` haspopup=hover`,
		`link "Story" `+ref+` href=/story`,
		`button "Tools" `+ref+` collapsed haspopup`, // ARIA says it already
		`link "Account" `+ref+` href=/account haspopup=hover`,
		`link "More" `+ref+` href=/more haspopup=hover`, // a:hover + .flyout
		`button "Cross origin" `+ref,                    // its rule is in a sheet the page cannot read
	)
	for _, hidden := range []string{"Shoes", "Hats", "Repair", "Garden", "Tool one", "Orders", "Xo item", "Flyout item"} {
		if strings.Contains(tree, hidden) {
			t.Errorf("hidden menu item %q is in the tree before the menu opens:\n%s", hidden, tree)
		}
	}
	p.hover(`a[href="/products"]`)
	open := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, open, `link "Shoes" `+ref+` href=/p/shoes`, `link "Hats" `+ref+` href=/p/hats`)
	p.hover(`a[href="/account"]`)
	open = p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, open, `link "Orders" `+ref+` href=/orders`)
}

// TestClassStates: states a page shows only by class names are read when
// the evidence is good, and never over ARIA or native state; a drawn box
// without text whose class says checkbox or switch is one (states.html).
func TestClassStates(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/states.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree,
		`button "Daily" `+ref+` selected`, `button "Weekly" `+ref, `button "Monthly" `+ref,
		`clickable "Grid" `+ref+` selected`, `clickable "List" `+ref,
		`link "Home" `+ref+` href=/home current`, `link "News" `+ref+` href=/news`,
		`link "Blog" `+ref+` href=/blog current`, `link "Shop" `+ref+` href=/shop`,
		`button "Bold" `+ref+` pressed`,
		`button "Shipping" `+ref+` expanded`, `button "Returns" `+ref+` collapsed`,
		`button "Pay" `+ref+` disabled`,
		`link "Next" `+ref+` href=/next disabled`,
		`tab "Alpha" `+ref, `tab "Beta" `+ref+` selected`, // aria-selected wins over the class
		`link "One" `+ref+` href=/1`, `link "Two" `+ref+` href=/2`, // every item has it: no evidence
		`button "Icon toggle" `+ref, // an icon font's class
		`button "Go" `+ref,
		`menuitem "Cut" `+ref, `menuitem "Copy" `+ref+` selected`,
		`switch "Wi-Fi" `+ref+` checked`,
		`checkbox "Native box" `+ref+` unchecked`,
		`button "Open dialog" `+ref,
		`button "Muted" `+ref, // aria-pressed="false" wins
		// Drawn boxes whose class says what they are, named by the caption beside them.
		`checkbox "Send me offers" `+ref+` checked`, `checkbox "Send me news" `+ref,
		`switch "Dark mode" `+ref+` checked`,
		`button "Menu" `+ref, // a menu's "navbar-toggle" is no switch
	)
}
