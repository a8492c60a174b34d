//go:build browser

package axtree

import (
	"regexp"
	"strings"
	"testing"
)

// TestSVGDrawings: what a page draws in an inline svg and a person clicks
// or reads is shown: targets with refs, shape, colour, size and place;
// drawn text as text; an icon in a control and a titled drawing stay one
// name (svg.html).
func TestSVGDrawings(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/svg.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree,
		// Pointer cursor on each shape: named by text, else colour and kind.
		`clickable "8" `+ref+` fill=black size=11x22 at=116,23`,
		`clickable "green square" `+ref+` fill=green size=10x10 at=70,130`,
		`clickable "large blue circle" `+ref+` fill=blue size=20x20 at=10,130`,
		`clickable "small blue circle" `+ref+` fill=blue size=8x8 at=40,40`,
		`clickable "orange triangle" `+ref+` fill=orange size=20x20 at=110,90`,
		// The pointer comes from a :hover rule; the id is a point.
		`clickable "\(1,-2\)" `+ref+` fill=black size=8x8 at=100,120`,
		`clickable "\(-3,1\)" `+ref+` fill=black size=8x8 at=20,60`,
		`text "x"`, `text "y"`,
		// Pie slices: a pointer group named by its label, coloured by its shape.
		`clickable "Cat" `+ref+` fill=red size=100x100 at=150,50`,
		`clickable "Dog" `+ref+` fill=blue size=100x100 at=150,150`,
		`clickable "Bird" `+ref+` fill=orange size=100x200 at=50,100`,
		// A chart without targets: its labels, a row's on one line.
		`text "Mon Tue"`, `text "Visits per day"`,
		// A wrapped label's lines are words apart.
		`text "North region"`,
		`text "… \(more drawn parts not listed\)"`,
		// Unchanged: the icon names its control, a titled drawing is one image.
		`button "Close" `+ref,
		`link "Home" `+ref+` href=/home`,
		`img "Acme logo"`,
	)
	for _, not := range []string{`"ACME"`, `"H"`, `red circle`, `"x" ` + "[", `gray line`, `stroke=`} {
		if strings.Contains(tree, not) {
			t.Errorf("the tree shows %s, which is inside a control, a titled drawing or not a target:\n%s", not, tree)
		}
	}
	for _, icon := range []string{"Close", "Home", "Acme logo"} {
		if n := len(regexp.MustCompile(`(?m)^\s*.*"`+icon+`".*$`).FindAllString(tree, -1)); n != 1 {
			t.Errorf("%q has %d lines, want 1:\n%s", icon, n, tree)
		}
	}
	// A map of 300 clickable regions shows 100.
	if n := strings.Count(tree, `clickable "gray circle"`); n != 100 {
		t.Errorf("the map shows %d regions, want 100 (the bound)", n)
	}
	// The interactive filter keeps the targets.
	inter := p.tree(map[string]any{"filter": "interactive", "maxChars": 0}).Tree
	mustLines(t, inter, `clickable "small blue circle" `+ref+` .*`, `clickable "\(1,-2\)" `+ref+` .*`, `clickable "Cat" `+ref+` .*`)
}

// TestSVGTargetsAreClicked: a drawn target's ref finds its element, and a
// real click at the centre of its box (where the click tools aim) reaches
// the page's own handler.
func TestSVGTargetsAreClicked(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/svg.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	for _, c := range []struct{ line, want string }{
		{`clickable "small blue circle" (\[ref_\d+\])`, "clicked blue"},
		{`clickable "\(1,-2\)" (\[ref_\d+\])`, "clicked (1,-2)"},
		{`clickable "Bird" (\[ref_\d+\])`, "clicked Bird"},
		{`clickable "8" (\[ref_\d+\])`, "clicked 8"},
	} {
		m := regexp.MustCompile(c.line).FindStringSubmatch(tree)
		if m == nil {
			t.Fatalf("no line %q in:\n%s", c.line, tree)
		}
		p.clickRef(strings.Trim(m[1], "[]"))
		var got string
		p.eval(`document.getElementById("clicked").textContent`, &got)
		if got != c.want {
			t.Errorf("clicking %s: the page says %q, want %q", c.line, got, c.want)
		}
	}
}
