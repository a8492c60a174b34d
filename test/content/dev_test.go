//go:build browser

package content

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// devEntry calls one of Dev mode's entries and returns the whole reply.
func (p *page) devEntry(name string, args any) map[string]any {
	p.t.Helper()
	a, err := json.Marshal(args)
	if err != nil {
		p.t.Fatal(err)
	}
	return evalJS[map[string]any](p, fmt.Sprintf("window.__wbRunTool(%q, %s)", name, a))
}

// TestDevPatchIsRevertedExactly: a patch of an important inline style, a
// class and attributes is undone to the exact attribute text the page had,
// and an element without a style attribute gets none back.
func TestDevPatchIsRevertedExactly(t *testing.T) {
	p := open(t, "/devpatch.html")
	before := p.js(`document.querySelector('#note').outerHTML`)
	r := p.devEntry("dev_patch", map[string]any{"selector": "#note", "patchId": "patch_1", "patch": map[string]any{
		"style":       map[string]any{"color": "green", "padding": nil, "--gap": "3px"},
		"addClass":    []string{"fixed"},
		"removeClass": []string{"warn"},
		"attributes":  map[string]any{"title": "New title", "data-x": "1"},
	}})
	if r["ok"] != true {
		t.Fatalf("dev_patch: %v", r)
	}
	res := r["result"].(map[string]any)
	changes, _ := json.Marshal(res["changes"])
	contains(t, "changes", string(changes), `{"after":"green","before":"blue","kind":"style","name":"color","priority":"important"}`,
		`{"after":null,"before":"2px","kind":"style","name":"padding","priority":""}`, `{"after":null,"before":"warn","kind":"class","name":"warn","whole":"warn keep"}`,
		`{"after":"New title","before":"Old title","kind":"attribute","name":"title"}`, `{"after":"1","before":null,"kind":"attribute","name":"data-x"}`)
	if got := p.js(`getComputedStyle(document.querySelector('#note')).color + '|' + document.querySelector('#note').className`); got != "rgb(0, 128, 0)|keep fixed" {
		t.Errorf("patched: %q", got)
	}
	r = p.devEntry("dev_unpatch", map[string]any{"patchId": "patch_1", "doc": res["doc"], "changes": res["changes"]})
	if r["result"].(map[string]any)["reverted"] != true {
		t.Fatalf("dev_unpatch: %v", r)
	}
	after := p.js(`document.querySelector('#note').outerHTML`)
	// The browser may reorder declarations it rewrites; compare the parts.
	for _, want := range []string{`color: blue !important`, `padding: 2px`, `title="Old title"`, `class="warn keep"`} {
		if !strings.Contains(after, want) {
			t.Errorf("after revert %s lacks %s (before: %s)", after, want, before)
		}
	}
	if strings.Contains(after, "data-x") || strings.Contains(after, "--gap") || strings.Contains(after, "fixed") {
		t.Errorf("after revert: %s", after)
	}
	r = p.devEntry("dev_unpatch", map[string]any{"patchId": "patch_1", "doc": res["doc"], "changes": res["changes"]})
	if r["result"].(map[string]any)["reverted"] != false {
		t.Errorf("a second revert: %v", r)
	}

	// A plain element gets no empty style attribute back.
	r = p.devEntry("dev_patch", map[string]any{"selector": "#plain", "patchId": "patch_2", "patch": map[string]any{"style": map[string]any{"display": "none"}}})
	res = r["result"].(map[string]any)
	p.devEntry("dev_unpatch", map[string]any{"patchId": "patch_2", "doc": res["doc"], "changes": res["changes"]})
	if got := p.js(`String(document.querySelector('#plain').hasAttribute('style'))`); got != "false" {
		t.Errorf("#plain kept a style attribute")
	}

	// A value the browser rejects undoes the call; a script URL is refused.
	r = p.devEntry("dev_patch", map[string]any{"selector": "#plain", "patchId": "patch_3", "patch": map[string]any{"style": map[string]any{"margin": "1px", "color": "not-a-color"}}})
	if r["ok"] != false || !strings.Contains(r["error"].(string), "did not accept color") || p.js(`String(document.querySelector('#plain').hasAttribute('style'))`) != "false" {
		t.Errorf("rejected value: %v", r)
	}
	r = p.devEntry("dev_patch", map[string]any{"selector": "#link", "patchId": "patch_4", "patch": map[string]any{"attributes": map[string]any{"href": "java\tscript:alert(1)"}}})
	if r["ok"] != false || p.js(`document.querySelector('#link').getAttribute('href')`) != "/help" {
		t.Errorf("javascript: URL: %v", r)
	}
}

func TestDevSourceStylesAndMark(t *testing.T) {
	p := open(t, "/devpatch.html")
	r := p.devEntry("dev_source", map[string]any{"maxChars": 500})
	res := r["result"].(map[string]any)
	if !strings.HasPrefix(res["text"].(string), "<html") || res["next"] != float64(500) || res["total"].(float64) <= 500 {
		t.Errorf("first part: %v", res)
	}
	r = p.devEntry("dev_source", map[string]any{"selector": "#link"})
	if got := r["result"].(map[string]any)["text"]; got != `<a id="link" href="/help">Help</a>` {
		t.Errorf("element source %q", got)
	}
	r = p.devEntry("dev_styles", map[string]any{"selector": "#note", "properties": []string{"margin-top", "color"}})
	contains(t, "styles", r["result"].(string), "margin-top: 7px", "color: rgb(0, 0, 255)", "#note { margin-top: 7px; }", ".warn { color: rgb(200, 0, 0); }", "Classes: warn keep")

	p.devEntry("dev_mark", map[string]any{"selector": "#link", "token": "mark_00ff"})
	if got := p.js(`document.querySelector('[data-webbrain-mark="mark_00ff"]')?.id ?? ''`); got != "link" {
		t.Errorf("marked %q", got)
	}
	p.devEntry("dev_mark", map[string]any{"token": "mark_00ff", "remove": true})
	if got := p.js(`String(document.querySelectorAll('[data-webbrain-mark]').length)`); got != "0" {
		t.Errorf("%s marks left", got)
	}
}
