//go:build browser

package content

import (
	"strings"
	"testing"
)

func TestClickReportsWhatCoversTheTarget(t *testing.T) {
	p := open(t, "/overlay.html")
	// The tree leaves the covered button out; the model holds its ref from
	// a read made before the banner came.
	tree := p.ok("get_accessibility_tree", map[string]any{"filter": "all"})
	if strings.Contains(tree, "Buy now") {
		t.Errorf("the tree shows a button the banner covers:\n%s", tree)
	}
	buy := p.heldRef("#buy")
	err := p.failing("click_ax", map[string]any{"ref": buy})
	contains(t, "error", err, "is covered by", `"Cookie consent"`)
	if rec := p.record(); len(rec) != 0 {
		t.Fatalf("the page saw %v; nothing should have been clicked", rec)
	}
	res := p.ok("click_ax", map[string]any{"ref": p.ref("#accept")})
	contains(t, "accept result", res, "Clicked button \"Accept cookies\"")
	p.ok("click_ax", map[string]any{"ref": buy})
	if got := strings.Join(p.record(), " "); got != "accept buy" {
		t.Errorf("page record = %q, want %q", got, "accept buy")
	}
}

// A label drawn over its own checkbox is not an obstruction.
func TestClickThroughOwnLabel(t *testing.T) {
	p := open(t, "/edge/obstructed_checkbox_page.html")
	res := p.ok("click_ax", map[string]any{"ref": p.ref("#hobbies-checkbox-2")})
	contains(t, "result", res, "now checked")
	if p.js(`document.getElementById('hobbies-checkbox-2').checked`) != "true" {
		t.Error("checkbox 2 not checked")
	}
}

func TestStaleRefNamesLiveRefs(t *testing.T) {
	p := open(t, "/stale.html")
	save := p.ref("#save")
	cancel := p.ref("#cancel")
	p.do(`window.rerender()`)
	err := p.failing("click_ax", map[string]any{"ref": save})
	contains(t, "error", err, save+` (button "Save") is stale`, "Nearby live refs:", `button "Cancel" [`+cancel+`]`, "get_accessibility_tree")
	if rec := p.record(); len(rec) != 0 {
		t.Errorf("a stale ref clicked something: %v", rec)
	}
}

func TestClickReportsChanges(t *testing.T) {
	p := open(t, "/stale.html")
	res := p.ok("click_ax", map[string]any{"ref": p.ref("#ask")})
	contains(t, "dialog result", res, "a dialog opened", "Really delete?")
	p.ok("press_keys", map[string]any{"keys": "Escape"})
	if p.js(`document.getElementById('confirm').open`) != "false" {
		t.Error("Escape did not close the modal dialog")
	}
	res = p.ok("click_ax", map[string]any{"ref": p.ref("#more")})
	contains(t, "summary result", res, "is now open")
	res = p.ok("click_ax", map[string]any{"ref": p.ref("#nav")})
	contains(t, "link result", res, "URL changed to", "#section2")
}

func TestClickAtCoordinates(t *testing.T) {
	p := open(t, "/form.html")
	pt := evalJS[struct{ X, Y float64 }](p, `(() => { const r = document.getElementById('agree').getBoundingClientRect();
		return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`)
	res := p.ok("click", map[string]any{"x": pt.X, "y": pt.Y})
	contains(t, "result", res, `checkbox "I agree"`, "now checked")
	err := p.failing("click", map[string]any{"x": 5000, "y": 10})
	contains(t, "error", err, "outside the")
}

func TestClickReportsNavigation(t *testing.T) {
	p := open(t, "/stale.html")
	res := p.ok("click_ax", map[string]any{"ref": p.ref("#away")})
	contains(t, "result", res, "navigation started to "+suite.server.URL+"/form.html")
}
