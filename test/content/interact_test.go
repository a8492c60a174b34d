//go:build browser

package content

import (
	"strings"
	"testing"
)

// The synthetic paths of hover and drag_drop (Firefox's, and Chrome's
// without the debugger), verify_form scoped to a ref, and the page's side
// of solve_captcha, on the pages the end-to-end scenarios use.

func TestSyntheticHoverOpensScriptMenusAndExplainsCSSHover(t *testing.T) {
	p := open(t, "/scenario/hover-menu.html")
	res := p.ok("hover", map[string]any{"ref": p.ref(".js-menu button")})
	contains(t, "script menu", res, "with synthetic pointer events", "Now visible:", `link "Catalog" [`)
	res = p.ok("hover", map[string]any{"ref": p.ref(".css-menu button")})
	contains(t, "CSS menu", res, "CSS :hover", ".css-menu:hover .sub", "cannot be triggered")
	if p.js(`document.querySelector('.js-menu').classList.contains('open')`) != "false" {
		t.Error("moving to Account did not leave the Products menu (no mouseleave)")
	}
}

func TestSyntheticDragByCoordinatesAndHTML5Drop(t *testing.T) {
	p := open(t, "/scenario/dragdrop.html")
	pt := evalJS[struct{ X, Y float64 }](p, `(() => { const r = document.querySelectorAll('#tasks li')[3].getBoundingClientRect();
		return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`)
	res := p.ok("drag_drop", map[string]any{"sourceRef": p.ref("#tasks li"), "targetX": pt.X, "targetY": pt.Y})
	contains(t, "list drag", res, "pointer drag", "moved from item 1 to item 4")
	res = p.ok("drag_drop", map[string]any{"sourceRef": p.ref("#file"), "targetRef": p.heldRef("#tasks")})
	contains(t, "drop on the list", res, "HTML5 drag and drop", "did not accept a drop")
	p.ok("drag_drop", map[string]any{"sourceRef": p.ref("#file"), "targetRef": p.ref("#zone")})
	if got := strings.Join(p.record(), " "); got != "order:Beta,Gamma,Delta,Alpha dropped:Report.pdf" {
		t.Errorf("page record %q", got)
	}
	err := p.failing("drag_drop", map[string]any{"sourceRef": p.heldRef("#tasks"), "targetRef": p.ref("#tasks li")})
	contains(t, "drop into itself", err, "the dragged element itself")
}

func TestVerifyFormOfOneForm(t *testing.T) {
	p := open(t, "/scenario/validation.html")
	res := p.ok("verify_form", map[string]any{"ref": p.heldRef("#signup")})
	contains(t, "form", res, "7 fields: 4 invalid", `"Create account"`, `submitted by button "Create account"`, "(13 characters, hidden)")
	if strings.Contains(res, "hunter2secret") {
		t.Errorf("the password shows: %s", res)
	}
	res = p.ok("verify_form", map[string]any{"ref": p.heldRef("h1")})
	contains(t, "no fields", res, "No visible form fields")
	if rec := p.record(); len(rec) != 0 {
		t.Errorf("reading the form fired %v", rec)
	}
}

func TestCaptchaWidgetIsFoundAndFilled(t *testing.T) {
	p := open(t, "/scenario/captcha.html")
	found := evalJS[struct {
		OK     bool
		Result struct{ Kind, SiteKey, URL string }
	}](p, `window.__wbRunTool('wb_captcha', {})`)
	if !found.OK || found.Result.Kind != "recaptcha_v2" || found.Result.SiteKey != "6LeTestSiteKey000000000000000000000000000" || !strings.Contains(found.Result.URL, "captcha.html") {
		t.Fatalf("wb_captcha %+v", found)
	}
	applied := evalJS[struct{ OK bool }](p, `window.__wbRunTool('wb_captcha_apply', {kind: 'recaptcha_v2', token: 'TOKEN-1'})`)
	if !applied.OK || p.js(`document.querySelector('[name=g-recaptcha-response]').value`) != "TOKEN-1" {
		t.Errorf("wb_captcha_apply %+v", applied)
	}
	if r := evalJS[struct{ OK bool }](p, `window.__wbRunTool('wb_captcha_apply', {kind: 'turnstile', token: 'x'})`); r.OK {
		t.Error("a token went into a page without that widget")
	}
}
