package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// domDebugger answers the DOM domain for a page with one open and one
// closed shadow root; the closed one holds a button (node 12).
type domDebugger struct {
	fakeDebugger
	queried []float64 // the roots DOM.querySelectorAll was asked about
}

const pierced = `{"root":{"nodeId":1,"nodeType":9,"localName":"","children":[
 {"nodeId":2,"nodeType":1,"localName":"wb-widget","shadowRoots":[{"nodeId":3,"nodeType":11,"shadowRootType":"open","children":[
  {"nodeId":4,"nodeType":1,"localName":"button","children":[{"nodeId":5,"nodeType":3,"nodeValue":"Open one"}]}]}]},
 {"nodeId":10,"nodeType":1,"localName":"wb-secret","shadowRoots":[{"nodeId":11,"nodeType":11,"shadowRootType":"closed","children":[
  {"nodeId":12,"nodeType":1,"localName":"button","attributes":["id","ok","class","closed-ok","onclick","x()"],"children":[{"nodeId":13,"nodeType":3,"nodeValue":"  Accept\n terms "}]},
  {"nodeId":14,"nodeType":1,"localName":"script","children":[{"nodeId":15,"nodeType":3,"nodeValue":"secret()"}]}]}]}]}}`

func (f *domDebugger) Send(ctx context.Context, tabID int, method string, params any) (json.RawMessage, error) {
	p, _ := params.(map[string]any)
	switch method {
	case "DOM.getDocument":
		return json.RawMessage(pierced), nil
	case "DOM.querySelectorAll":
		f.queried = append(f.queried, float64(p["nodeId"].(int)))
		return json.RawMessage(`{"nodeIds":[12]}`), nil
	case "DOM.getContentQuads":
		return json.RawMessage(`{"quads":[[100,200,140,200,140,220,100,220]]}`), nil
	}
	return json.RawMessage(`{}`), nil
}

func shadowRig(t *testing.T) (*rig, *domDebugger) {
	t.Helper()
	r := newRig(protocol.ModeAct, "full")
	dbg := &domDebugger{}
	r.d.p.Debugger = dbg
	return r, dbg
}

func TestShadowDOMQueryAddsClosedRoots(t *testing.T) {
	r, dbg := shadowRig(t)
	out, err := r.run("shadow_dom_query", `{"selector":"button"}`)
	if err != nil {
		t.Fatal(err)
	}
	want := `shadow_dom_query ok` + "\n" + `In closed shadow roots (1 matches; no refs there: click them with click at the x,y given, after any scrolling read them again):` + "\n" +
		`<button id="ok" class="closed-ok"> "Accept terms" at x=120 y=210 (closed root of <wb-secret>)`
	if !strings.Contains(out, want) {
		t.Errorf("result:\n%s\nwant it to contain:\n%s", out, want)
	}
	if len(dbg.queried) != 1 || dbg.queried[0] != 11 {
		t.Errorf("querySelectorAll ran in roots %v, want only the closed root 11", dbg.queried)
	}
}

func TestGetShadowDOMOutlinesClosedRoots(t *testing.T) {
	r, _ := shadowRig(t)
	out, err := r.run("get_shadow_dom", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	want := "<wb-secret>\n #shadow-root (closed)\n  <button id=\"ok\" class=\"closed-ok\">\n   \"Accept terms\""
	if !strings.Contains(out, want) || strings.Contains(out, "secret()") || strings.Contains(out, "Open one") {
		t.Errorf("result:\n%s\nwant the closed root outlined without its script or the open root", out)
	}
	// With a ref the element's own roots are asked for: the debugger's
	// whole-page outline does not belong there.
	out, err = r.run("get_shadow_dom", `{"ref":"ref_3"}`)
	if err != nil || strings.Contains(out, "closed") {
		t.Errorf("with a ref: %q, %v", out, err)
	}
}

// Firefox has no debugger: the page's script answers alone.
func TestShadowDOMWithoutDebugger(t *testing.T) {
	r := newRig(protocol.ModeAct, "full")
	r.d.browser = protocol.BrowserFirefox
	out, err := r.run("get_shadow_dom", `{}`)
	if err != nil || strings.Contains(out, "closed") {
		t.Errorf("get_shadow_dom = %q, %v", out, err)
	}
	if _, err := r.run("shadow_dom_query", `{"selector":"button"}`); err == nil || !strings.Contains(err.Error(), "not available in this browser") {
		t.Errorf("shadow_dom_query in Firefox: %v", err)
	}
}
