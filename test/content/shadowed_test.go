//go:build browser

package content

import (
	"strings"
	"testing"
)

// A page whose elements have the ids and names of every global WebBrain's
// scripts use still gives a correct tree and working refs: DOM named
// access puts those elements on window, also in the content script's world.
func TestPageElementsCannotShadowTheScriptsGlobals(t *testing.T) {
	p := open(t, "/shadowed.html")
	tree := p.ok("get_accessibility_tree", map[string]any{"filter": "all"})
	contains(t, "tree", tree, `heading "Checkout"`, `textbox "Name" [ref_`, `button "Pay now" [ref_`)
	p.ok("type_ax", map[string]any{"ref": p.ref("#name"), "text": "Ada"})
	res := p.ok("click_ax", map[string]any{"ref": p.ref("#pay")})
	contains(t, "click", res, `Clicked button "Pay now"`)
	if got := strings.Join(p.record(), " "); got != "pay:Ada" {
		t.Errorf("page record = %q, want pay:Ada", got)
	}
	err := p.failing("click_ax", map[string]any{"ref": "ref_9999"})
	contains(t, "unknown ref", err, "ref_9999", "get_accessibility_tree")

	// The exports are own, read-only functions; the registry is not on window.
	for _, name := range []string{"__wbRunTool", "__wb_ax_lookup", "__wb_ax_nearby", "__wb_ax_ref", "__wb_ax_role", "__wb_ax_name", "__generateAccessibilityTree"} {
		got := p.js(`(() => { const d = Object.getOwnPropertyDescriptor(window, "` + name + `"); return d && typeof d.value + " " + d.writable; })()`)
		if got != "function false" {
			t.Errorf("window.%s: %s, want an own non-writable function", name, got)
		}
	}
	if got := p.js(`Object.getOwnPropertyDescriptor(window, "__wbElementMap") === undefined`); got != "true" {
		t.Error("the ref registry is a window property")
	}
}
