//go:build browser

package content

import (
	"strings"
	"testing"
	"time"
)

// childFrame is one entry of wb_frames.
type childFrame struct {
	Path    []int  `json:"path"`
	Ref     string `json:"ref"`
	Name    string `json:"name"`
	Visible bool   `json:"visible"`
}

// TestFramesAreListedAndPlaced checks the parent's half of the frame
// tools: its iframes with their paths and refs, and a point of a child
// frame placed in its viewport, refused when something covers the frame.
func TestFramesAreListedAndPlaced(t *testing.T) {
	p := open(t, "/scenario/frames.html")
	var frames []childFrame
	p.internal("wb_frames", map[string]any{}, &frames)
	if len(frames) < 3 || frames[0].Name != "Note form" || frames[1].Name != "Payment form" ||
		len(frames[1].Path) != 1 || frames[1].Path[0] != 1 || !frames[0].Visible || !strings.HasPrefix(frames[1].Ref, "ref_") {
		t.Fatalf("wb_frames = %+v", frames)
	}
	var at struct{ X, Y float64 }
	p.internal("wb_frame_box", map[string]any{"index": 1, "x": 5, "y": 7}, &at)
	want := evalJS[struct{ X, Y float64 }](p, `(() => { const f = document.getElementById('cross'); const r = f.getBoundingClientRect();
		return {x: Math.round(r.left + f.clientLeft + 5), y: Math.round(r.top + f.clientTop + 7)}; })()`)
	if at != want {
		t.Errorf("wb_frame_box = %+v, want %+v", at, want)
	}
	p.do(`(() => { const f = document.getElementById('cross').getBoundingClientRect(); const d = document.createElement('div');
		d.textContent = 'Cookie banner'; d.style.cssText = 'position:fixed;background:#fff;left:' + f.left + 'px;top:' + f.top + 'px;width:' + f.width + 'px;height:' + f.height + 'px';
		document.body.append(d); })()`)
	var refused struct{ Error string }
	p.internal("wb_frame_box", map[string]any{"index": 1, "x": 5, "y": 7}, &refused)
	if !strings.Contains(refused.Error, "covered by") || !strings.Contains(refused.Error, "Cookie banner") {
		t.Errorf("a covered frame: %+v", refused)
	}
}

// TestShadowRootTools: controls inside an open shadow root and a
// same-origin frame are listed flat with refs that work; get_shadow_dom
// outlines the open root; shadow_dom_query finds its button; a closed root
// stays closed to the page's script.
func TestShadowRootTools(t *testing.T) {
	p := open(t, "/scenario/frames.html")
	deadline := time.Now().Add(5 * time.Second)
	for p.js(`document.getElementById('same').contentDocument?.getElementById('note') ? 'y' : ''`) == "" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	list := p.ok("get_interactive_elements", map[string]any{})
	contains(t, "get_interactive_elements", list, `textbox "Gift message"`, `button "Save gift message"`, `textbox "Delivery note"`, `iframe "Payment form"`)
	if strings.Contains(list, "Accept terms") {
		t.Errorf("a closed root's button is listed:\n%s", list)
	}
	outline := p.ok("get_shadow_dom", map[string]any{})
	contains(t, "get_shadow_dom", outline, "#shadow-root (open)", `<button#save> button "Save gift message" [ref_`, `"Gift message"`)
	if strings.Contains(outline, "Accept terms") {
		t.Errorf("get_shadow_dom shows a closed root:\n%s", outline)
	}
	found := p.ok("shadow_dom_query", map[string]any{"selector": "button"})
	contains(t, "shadow_dom_query", found, "1 matches in open shadow roots", `button "Save gift message" [ref_`, "(in <wb-widget>)")
	ref := found[strings.Index(found, "[ref_")+1:]
	ref = ref[:strings.Index(ref, "]")]
	p.ok("type_ax", map[string]any{"ref": p.ref("wb-widget"), "text": "x"})
	p.ok("click_ax", map[string]any{"ref": ref})
	if got := p.record(); len(got) != 1 || got[0] != "shadow-save:x" {
		t.Errorf("the page recorded %q, want the shadow button clicked once with the typed text", got)
	}
	if e := p.failing("shadow_dom_query", map[string]any{"selector": "button["}); !strings.Contains(e, "not a valid CSS selector") {
		t.Errorf("a bad selector: %s", e)
	}

	// A component inside another's shadow root, with a slot.
	p.do(`(() => { const outer = document.createElement('x-outer'); outer.innerHTML = '<b>Slotted</b>';
		const r = outer.attachShadow({mode: 'open'}); r.innerHTML = '<section><slot></slot><x-inner></x-inner></section>';
		r.querySelector('x-inner').attachShadow({mode: 'open'}).innerHTML = '<div><button>Deep button</button></div>';
		document.body.append(outer); })()`)
	outline = p.ok("get_shadow_dom", map[string]any{"ref": p.heldRef("x-outer")})
	contains(t, "nested get_shadow_dom", outline, "1 shadow host:", `<slot> ← <b> "Slotted"`, "<x-inner>\n    #shadow-root (open)", `button "Deep button" [ref_`)
	shallow := p.ok("get_shadow_dom", map[string]any{"ref": p.heldRef("x-outer"), "maxDepth": 1})
	if strings.Contains(shallow, "x-inner") {
		t.Errorf("maxDepth 1 shows the second level:\n%s", shallow)
	}
	contains(t, "shadow_dom_query in a nested root", p.ok("shadow_dom_query", map[string]any{"selector": "button"}), `button "Deep button"`, "(in <x-inner>)")
}
