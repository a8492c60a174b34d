package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/platform/platformtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// devColumn reads the spec table's Mid, Full and Dev cells per tool.
func devColumn(t *testing.T) map[string][3]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "tool-table.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][3]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "|")
		for i := range c {
			c[i] = strings.TrimSpace(c[i])
		}
		out[c[0]] = [3]string{c[3], c[4], c[5]}
	}
	return out
}

// TestDevModeIsActPlusTheDevColumn: Dev offers the tier's Act tools and
// the Dev add-ons (Chrome-only ones in Chrome alone); a Compact provider
// never gets the add-ons; the add-ons stay out of Ask and Act.
func TestDevModeIsActPlusTheDevColumn(t *testing.T) {
	table := devColumn(t)
	yes := func(cell, browser string) bool { return cell == "Yes" || cell == "C" && browser == "chrome" }
	for _, browser := range []string{"chrome", "firefox"} {
		for ti, tier := range []string{"mid", "full"} {
			var got []string
			for _, s := range ForMode(protocol.ModeDev, tier, browser, 0, FeatureWebMCP) {
				got = append(got, s.Name)
			}
			for _, tl := range catalog {
				row := table[tl.name]
				want := yes(row[ti], browser) || yes(row[2], browser)
				if slices.Contains(got, tl.name) != want {
					t.Errorf("dev/%s/%s: %s offered=%v, spec cells %q", tier, browser, tl.name, !want, row)
				}
			}
		}
		for _, s := range ForMode(protocol.ModeDev, protocol.TierCompact, browser, 0) {
			if byName()[s.Name].cols&(colDev|colActAll) == colDev {
				t.Errorf("Compact Dev offers the add-on %s", s.Name)
			}
		}
	}
	for _, mode := range []string{protocol.ModeAsk, protocol.ModeAct} {
		for _, tier := range []string{"compact", "mid", "full"} {
			for _, s := range ForMode(mode, tier, "chrome", 0) {
				if byName()[s.Name].cols&(colDev|colActAll) == colDev {
					t.Errorf("%s/%s offers the Dev tool %s", mode, tier, s.Name)
				}
			}
		}
	}
	// A tool in both the Full column and Dev (the frame and shadow-DOM
	// readers) reaches a Mid provider in Dev only.
	both := colFull | colDev
	if both&column(protocol.ModeDev, "mid") == 0 || both&column(protocol.ModeAct, "mid") != 0 {
		t.Error("a Full + Dev tool must reach Mid in Dev only")
	}
}

func TestDevToolsExplainWhyTheyAreMissing(t *testing.T) {
	cases := []struct{ mode, tier, browser, tool, want string }{
		{protocol.ModeDev, "full", "firefox", "inject_css", "not available in this browser"},
		{protocol.ModeAct, "full", "chrome", "execute_js", "Dev mode tool"},
		{protocol.ModeAsk, "full", "chrome", "read_page_source", "Ask mode"},
	}
	for _, c := range cases {
		err := NotOffered(c.mode, c.tier, c.browser, c.tool)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s/%s/%s %s: %v, want %q", c.mode, c.tier, c.browser, c.tool, err, c.want)
		}
	}
	if err := NotOffered(protocol.ModeDev, "mid", "firefox", "execute_js"); err != nil {
		t.Errorf("Firefox Dev must offer execute_js: %v", err)
	}
}

func TestPatchArgumentsAreCanonicalAndSafe(t *testing.T) {
	p, err := parsePatch(map[string]any{
		"style":      map[string]any{"backgroundColor": "red", "--gap": "4px", "WebkitTransform": nil},
		"attributes": map[string]any{"Title": "x", "href": "https://ok.example/"},
		"addClass":   []any{"on"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for k := range p.Style {
		names = append(names, k)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"--gap", "-webkit-transform", "background-color"}) {
		t.Errorf("style names %q", names)
	}
	if _, ok := p.Attributes["title"]; !ok {
		t.Errorf("attribute names are not lower-cased: %v", p.Attributes)
	}
	bad := []map[string]any{
		{"attributes": map[string]any{"href": " JaVa\tScript:alert(1)"}},
		{"attributes": map[string]any{"formaction": "javascript:void 0"}},
		{"attributes": map[string]any{"onclick": "x()"}},
		{"attributes": map[string]any{"HREF": "a", "href": "b"}},
		{"style": map[string]any{"background-color": "red", "backgroundColor": "blue"}},
		{"style": map[string]any{"background": "url(javascript:alert(1))"}},
		{"addClass": []any{"a"}, "removeClass": []any{"a"}},
		{"style": map[string]any{"color": "red"}, "attributes": map[string]any{"style": "color: blue"}},
		{},
	}
	for _, args := range bad {
		if _, err := parsePatch(args); err == nil {
			t.Errorf("parsePatch(%v) accepted it", args)
		}
	}
	if checkCSS(map[string]any{"css": "@import url(https://evil.example/x.css);"}) == nil {
		t.Error("checkCSS accepted @import")
	}
}

// fakeCSS records the stylesheets of a tab; onInsert runs after each
// insertion (a navigation racing it).
type fakeCSS struct {
	mu       sync.Mutex
	sheets   []string
	onInsert func()
}

func (f *fakeCSS) InsertCSS(_ context.Context, _ int, css string) error {
	f.mu.Lock()
	f.sheets = append(f.sheets, css)
	hook := f.onInsert
	f.mu.Unlock()
	if hook != nil {
		hook()
	}
	return nil
}

func (f *fakeCSS) RemoveCSS(_ context.Context, _ int, css string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i := slices.Index(f.sheets, css); i >= 0 {
		f.sheets = slices.Delete(f.sheets, i, i+1)
	}
	return nil
}

// devRig is a Chrome Dev dispatcher over a page whose document id the
// test can change (a navigation) and whose element patches it records.
type devRig struct {
	*rig
	css     *fakeCSS
	session *platformtest.Storage
	mu      sync.Mutex
	doc     string
	patched map[string]bool // live element patches on the current document
}

func newDevRig() *devRig {
	r := &devRig{rig: newRig(protocol.ModeDev, "full"), css: &fakeCSS{}, session: platformtest.NewStorage(), doc: "doc-1", patched: map[string]bool{}}
	r.content.reply = func(name string, args map[string]any) (json.RawMessage, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		res := func(v any) (json.RawMessage, error) {
			b, _ := json.Marshal(map[string]any{"ok": true, "result": v})
			return b, nil
		}
		switch name {
		case protocol.PageDoc:
			return res(map[string]any{"doc": r.doc, "url": "https://shop.example/"})
		case protocol.PageDevSource:
			return res(map[string]any{"text": "<html></html>", "total": 13, "next": 0})
		case protocol.PageDevPatch:
			r.patched[args["patchId"].(string)] = true
			return res(map[string]any{"doc": r.doc, "url": "https://shop.example/", "target": `paragraph "Sale"`,
				"changes": []map[string]any{{"kind": "style", "name": "color", "before": "blue", "after": "red"}}})
		case protocol.PageDevUnpatch:
			id := args["patchId"].(string)
			ok := args["doc"] == r.doc && r.patched[id]
			delete(r.patched, id)
			return res(map[string]any{"reverted": ok})
		}
		return okReply(name + " ok")
	}
	p := platform.Platform{Tabs: r.tabs, Content: r.content, Session: r.session, CSS: r.css, Clock: platformtest.NewClock()}
	r.d = NewDispatcher(p, 7, protocol.ModeDev, "full", "chrome", tb)
	return r
}

func (r *devRig) navigate(doc string) {
	r.mu.Lock()
	r.doc = doc
	r.patched = map[string]bool{}
	r.mu.Unlock()
}

func (r *devRig) records(t *testing.T) []Patch {
	t.Helper()
	list, err := loadPatches(context.Background(), r.session, 7)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func TestPatchRecordsAreKeptAndRevertedOneByOneOrAll(t *testing.T) {
	r := newDevRig()
	out, err := r.run("inject_css", `{"css":".banner{display:none}"}`)
	if err != nil {
		t.Fatal(err)
	}
	cssID := patchIDIn(t, out, "css_")
	if len(r.css.sheets) != 1 || !strings.HasPrefix(r.css.sheets[0], cssMarker(cssID)) || !strings.HasSuffix(r.css.sheets[0], ".banner{display:none}") {
		t.Fatalf("inserted %q", r.css.sheets)
	}
	out, err = r.run("patch_element", `{"selector":"p.sale","style":{"color":"red"}}`)
	if err != nil {
		t.Fatal(err)
	}
	elID := patchIDIn(t, out, "patch_")
	if !strings.Contains(out, `style color: "blue" → "red"`) {
		t.Errorf("patch result without before/after: %s", out)
	}
	recs := r.records(t)
	if len(recs) != 2 || recs[0].ID != cssID || recs[0].Doc != "doc-1" || recs[1].ID != elID || len(recs[1].Changes) != 1 {
		t.Fatalf("records %+v", recs)
	}

	// A new worker (a new dispatcher) finds the undo in session storage.
	r.d = NewDispatcher(r.d.p, 7, protocol.ModeDev, "full", "chrome", tb)
	if out, err := r.run("revert_patch", `{"patchId":"`+elID+`"}`); err != nil || !strings.Contains(out, "Reverted "+elID) {
		t.Fatalf("revert_patch: %q %v", out, err)
	}
	if recs := r.records(t); len(recs) != 1 || recs[0].ID != cssID {
		t.Fatalf("after one revert: %+v", recs)
	}
	if _, err := r.run("remove_injected_css", `{"patchId":"`+elID+`"}`); err == nil {
		t.Error("remove_injected_css took an element patch id")
	}
	if out, err := r.run("revert_patch", `{"all":true}`); err != nil || !strings.Contains(out, "Reverted "+cssID) {
		t.Fatalf("revert all: %q %v", out, err)
	}
	if len(r.css.sheets) != 0 || len(r.records(t)) != 0 {
		t.Errorf("after revert all: sheets %q, records %+v", r.css.sheets, r.records(t))
	}
}

func TestANavigationVoidsPatchHandles(t *testing.T) {
	r := newDevRig()
	out, _ := r.run("inject_css", `{"css":"a{color:red}"}`)
	id := patchIDIn(t, out, "css_")
	r.navigate("doc-2")
	// The same CSS on the replacement page must not be removed by the
	// old handle.
	r.css.sheets = append(r.css.sheets[:0], cssMarker("css_0000000000000000")+"a{color:red}")
	out, err := r.run("remove_injected_css", `{"patchId":"`+id+`"}`)
	if err != nil || !strings.Contains(out, "page that is gone") {
		t.Fatalf("remove after navigation: %q %v", out, err)
	}
	if len(r.css.sheets) != 1 || len(r.records(t)) != 0 {
		t.Errorf("sheets %q, records %+v", r.css.sheets, r.records(t))
	}

	// The panel's list drops records of a document the tab left.
	r.run("patch_element", `{"ref":"ref_3","attributes":{"title":"x"}}`)
	r.navigate("doc-3")
	list, err := ListPatches(context.Background(), r.d.p, 7)
	if err != nil || len(list) != 0 || len(r.records(t)) != 0 {
		t.Errorf("list after navigation: %+v %v, stored %+v", list, err, r.records(t))
	}

	// A navigation during the injection: the CSS is taken out of the
	// replacement page again and nothing is recorded.
	r.css.onInsert = func() { r.navigate("doc-4") }
	if _, err := r.run("inject_css", `{"css":"b{color:red}"}`); err == nil || !strings.Contains(err.Error(), "page changed") {
		t.Fatalf("inject during navigation: %v", err)
	}
	if len(r.css.sheets) != 1 || len(r.records(t)) != 0 {
		t.Errorf("after the race: sheets %q, records %+v", r.css.sheets, r.records(t))
	}
}

func TestExecuteJSInChromeUsesRuntimeEvaluate(t *testing.T) {
	r := newDevRig()
	dbg := &evalDebugger{reply: `{"result":{"type":"string","value":"{\"n\":42}"}}`}
	r.d.p.Debugger = dbg
	out, err := r.run("execute_js", `{"code":"return {n: 6*7}"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `{"n":42}`) || !strings.Contains(out, tb.Tag()) {
		t.Errorf("result not wrapped as page data: %s", out)
	}
	if len(dbg.calls) != 1 || dbg.calls[0].method != "Runtime.evaluate" {
		t.Fatalf("debugger calls %+v", dbg.calls)
	}
	p := dbg.calls[0].params
	if out, err := r.run("execute_js", `{"code":""}`); err == nil {
		t.Errorf("empty code ran: %s", out)
	}
	if p["timeout"] != float64(15000) || p["awaitPromise"] != true || !strings.Contains(p["expression"].(string), "return {n: 6*7}") {
		t.Errorf("Runtime.evaluate params %v", p)
	}
}

func patchIDIn(t *testing.T, out, prefix string) string {
	t.Helper()
	i := strings.Index(out, prefix)
	if i < 0 || len(out) < i+len(prefix)+16 {
		t.Fatalf("no %s id in %q", prefix, out)
	}
	return out[i : i+len(prefix)+16]
}

// evalDebugger answers every CDP command with reply.
type evalDebugger struct {
	fakeDebugger
	reply string
}

func (f *evalDebugger) Send(ctx context.Context, tabID int, method string, params any) (json.RawMessage, error) {
	_, _ = f.fakeDebugger.Send(ctx, tabID, method, params)
	return json.RawMessage(f.reply), nil
}

// fakeCapture serves a fixed record.
type fakeCapture struct{ c platform.Captured }

func (f *fakeCapture) StartCapture(context.Context, int) error { return nil }
func (f *fakeCapture) StopCapture(context.Context, int) error  { return nil }
func (f *fakeCapture) Captured(context.Context, int) (platform.Captured, error) {
	return f.c, nil
}

func TestDiagnosticsAreFilteredMaskedAndWrapped(t *testing.T) {
	r := newDevRig()
	if _, err := r.run("read_console", `{}`); err == nil || !strings.Contains(err.Error(), "not available in this browser") {
		t.Fatalf("without a capture: %v", err)
	}
	r.d.p.Dev = &fakeCapture{}
	if _, err := r.run("read_console", `{}`); err == nil || !strings.Contains(err.Error(), "not watching") {
		t.Fatalf("with capture stopped: %v", err)
	}
	r.d.p.Dev = &fakeCapture{platform.Captured{
		Capturing: true, Dropped: 3,
		Console: []platform.ConsoleEntry{
			{Level: "log", Text: "ready"},
			{Level: "warning", Text: "slow"},
			{Level: "error", Text: "token sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 rejected", URL: "https://shop.example/app.js", Line: 12},
		},
		Network: []platform.NetworkEntry{
			{Method: "GET", URL: "https://shop.example/api/cart", Type: "Fetch", Status: 200, StatusText: "OK",
				RequestHeaders: map[string]string{"authorization": "[redacted]", "accept": "application/json"}},
			{Method: "POST", URL: "https://shop.example/api/pay", Type: "XHR", Failed: "net::ERR_FAILED"},
			{Method: "GET", URL: "https://cdn.example/x.png", Type: "Image", Status: 404},
		},
	}}
	out, err := r.run("read_console", `{"level":"warning"}`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "ready") || !strings.Contains(out, "[warning] slow") || !strings.Contains(out, "(https://shop.example/app.js:12)") ||
		strings.Contains(out, "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789") || !strings.Contains(out, "3 older entries were dropped") || !strings.Contains(out, tb.Tag()) {
		t.Errorf("read_console: %s", out)
	}
	out, _ = r.run("inspect_network_requests", `{"urlContains":"shop.example"}`)
	if !strings.Contains(out, "GET https://shop.example/api/cart [Fetch] → 200 OK") || !strings.Contains(out, "failed: net::ERR_FAILED") ||
		strings.Contains(out, "cdn.example") || strings.Contains(out, "authorization") {
		t.Errorf("inspect_network_requests: %s", out)
	}
	out, _ = r.run("inspect_network_requests", `{"failedOnly":true,"includeHeaders":true}`)
	if strings.Contains(out, "api/cart") || !strings.Contains(out, "api/pay") || !strings.Contains(out, "x.png") {
		t.Errorf("failedOnly: %s", out)
	}
	out, _ = r.run("inspect_network_requests", `{"urlContains":"cart","includeHeaders":true}`)
	if !strings.Contains(out, "request authorization: [redacted]") || !strings.Contains(out, "request accept: application/json") {
		t.Errorf("headers: %s", out)
	}
}

func TestAnInterruptedDevChangeIsNotSentAgain(t *testing.T) {
	r := newDevRig()
	_, err := r.d.ExecuteOnce(context.Background(), llmCall("execute_js", `{"code":"return 1"}`), Receipt{Resumed: true})
	if err == nil || !strings.Contains(err.Error(), "restarted") {
		t.Fatalf("resumed execute_js: %v", err)
	}
	if len(r.content.msgs) != 0 {
		t.Errorf("the page got %v", r.content.msgs)
	}
	if out, err := r.d.ExecuteOnce(context.Background(), llmCall("read_page_source", `{}`), Receipt{Resumed: true}); err != nil {
		t.Errorf("a resumed read failed: %q %v", out, err)
	}
}

func llmCall(name, args string) llm.ToolCall {
	return llm.ToolCall{ID: "c1", Name: name, Arguments: args}
}
