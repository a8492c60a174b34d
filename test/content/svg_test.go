//go:build browser

package content

import (
	"regexp"
	"strings"
	"testing"
)

// TestClickSVGParts: a shape drawn in an svg is clicked by its ref, also
// an arc of a donut whose box centre is in the hole or on another arc: the
// pointer goes to a point of the box that is on the shape.
func TestClickSVGParts(t *testing.T) {
	p := open(t, "/svg-click.html")
	tree := p.ok("get_accessibility_tree", map[string]any{"filter": "all"})
	for _, want := range []string{`clickable "Tea" [`, `clickable "Coffee" [`, `clickable "red square" [`} {
		if !strings.Contains(tree, want) {
			t.Errorf("no %s in the tree:\n%s", want, tree)
		}
	}
	for _, id := range []string{"coffee", "tea", "shape-7"} {
		res := p.ok("click_ax", map[string]any{"ref": p.ref("#" + id)})
		contains(t, id+" result", res, "Clicked clickable")
		// Where the pointer went is on the shape, as a real pointer there
		// (trusted input) would find it.
		m := regexp.MustCompile(`at \((\d+), (\d+)\)`).FindStringSubmatch(res)
		if m == nil {
			t.Fatalf("%s: no point in %q", id, res)
		}
		if hit := p.js(`document.elementFromPoint(` + m[1] + `, ` + m[2] + `).id`); hit != id {
			t.Errorf("%s was clicked at (%s, %s), where the page has %q", id, m[1], m[2], hit)
		}
	}
	// A part of an icon inside a link is named as nothing of its own: the
	// link is the target.
	if role := p.js(`window.__wb_ax_role(document.querySelector("#home-dot"))`); role != "generic" {
		t.Errorf("a shape inside a link's icon has role %q, want generic", role)
	}
	if got := strings.Join(p.record(), " "); got != "coffee tea shape-7" {
		t.Errorf("page record = %q, want %q", got, "coffee tea shape-7")
	}
}
