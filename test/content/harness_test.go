//go:build browser

// Package content tests the page tools of the content script (main.mjs in
// extension/content and the modules it imports) in headless Chromium: each
// test opens a fixture page, injects accessibility-tree.js and content.js
// as the build bundles them, in the order the extension does (no extension
// APIs: the scripts must work without them), calls window.__wbRunTool and
// checks what the page itself observed.
//
//	go test -tags browser -p 1 ./test/content/
package content

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/testenv"
)

var suite struct {
	browser context.Context
	server  *httptest.Server
	scripts string // accessibility-tree.js then the content script
}

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "content tests:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	root, err := testenv.RepoRoot()
	if err != nil {
		return 0, err
	}
	scripts, err := testenv.ContentScripts(root)
	if err != nil {
		return 0, err
	}
	suite.scripts = scripts.Tree + "\n;\n" + scripts.Content

	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(filepath.Join(root, "test", "content", "testdata"))))
	edge := testenv.EdgePages(root)
	mux.Handle("/edge/", http.StripPrefix("/edge/", http.FileServer(http.Dir(edge))))
	// Pages the end-to-end suites use too live once, in test/scenario.
	scenarioPages := filepath.Join(root, "test", "scenario", "testdata")
	mux.Handle("/scenario/", http.StripPrefix("/scenario/", http.FileServer(http.Dir(scenarioPages))))
	suite.server = httptest.NewServer(mux)
	defer suite.server.Close()

	profile, err := os.MkdirTemp("", "webbrain-content-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(profile)
	opts := testenv.ChromiumOptions(profile, chromedp.WindowSize(1200, 800))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil { // starts the browser
		return 0, fmt.Errorf("start chromium: %w", err)
	}
	suite.browser = browser
	return m.Run(), nil
}

// page is one tab with the content scripts injected.
type page struct {
	t   *testing.T
	ctx context.Context
}

// open loads path (under testdata/, /edge/... for the edge pages,
// /scenario/... for the pages shared with the end-to-end suites)
// in a new tab and injects the content scripts.
func open(t *testing.T, path string) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(suite.browser)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelTimeout)
	if err := chromedp.Do(ctx, chromedp.Navigate(suite.server.URL+path)); err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	p := &page{t: t, ctx: ctx}
	p.do(suite.scripts)
	return p
}

// evalJS runs JS in the page, awaits a Promise, and decodes the value.
func evalJS[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("eval %s: %v", testenv.Clip(js, 120), err)
	}
	return v
}

// do runs JS in the page for its effect.
func (p *page) do(js string) {
	p.t.Helper()
	evalJS[chromedp.Void](p, js)
}

// reply is what __wbRunTool resolves to.
type reply struct {
	OK     bool   `json:"ok"`
	Result string `json:"result"`
	Error  string `json:"error"`
}

// tool calls a page tool and returns its reply.
func (p *page) tool(name string, args any) reply {
	p.t.Helper()
	a, err := json.Marshal(args)
	if err != nil {
		p.t.Fatal(err)
	}
	return evalJS[reply](p, fmt.Sprintf("window.__wbRunTool(%q, %s)", name, a))
}

// ok calls a tool that must succeed and returns its result text.
func (p *page) ok(name string, args any) string {
	p.t.Helper()
	r := p.tool(name, args)
	if !r.OK {
		p.t.Fatalf("%s %v failed: %s", name, args, r.Error)
	}
	return r.Result
}

// failing calls a tool that must fail and returns its error text.
func (p *page) failing(name string, args any) string {
	p.t.Helper()
	r := p.tool(name, args)
	if r.OK {
		p.t.Fatalf("%s %v succeeded, want an error; result: %s", name, args, r.Result)
	}
	return r.Error
}

// ref reads the accessibility tree, as the model does, and returns the ref
// it gave the element matching the CSS selector.
func (p *page) ref(selector string) string {
	p.t.Helper()
	p.ok("get_accessibility_tree", map[string]any{"filter": "all", "maxChars": 16000})
	ref := evalJS[string](p, fmt.Sprintf(`(() => { const el = document.querySelector(%q);
		return el ? window.__wb_ax_ref(el, false) : "no element"; })()`, selector))
	if ref == "" || ref == "no element" {
		p.t.Fatalf("the tree gave no ref to %s (%s)", selector, ref)
	}
	return ref
}

// heldRef is the ref of an element the tree does not show now (covered):
// one a model kept from a read made before the cover came.
func (p *page) heldRef(selector string) string {
	p.t.Helper()
	ref := evalJS[string](p, fmt.Sprintf(`(() => { const el = document.querySelector(%q);
		return el ? window.__wb_ax_ref(el) : "no element"; })()`, selector))
	if ref == "" || ref == "no element" {
		p.t.Fatalf("no ref for %s (%s)", selector, ref)
	}
	return ref
}

// js evaluates an expression and returns it as a string.
func (p *page) js(expr string) string {
	p.t.Helper()
	return evalJS[string](p, "String("+expr+")")
}

// record returns the page's window.__record (what its own scripts saw).
func (p *page) record() []string {
	p.t.Helper()
	return evalJS[[]string](p, "window.__record || []")
}

func contains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s = %q\nwant it to contain %q", what, got, w)
		}
	}
}

// TestMessageListenerAndReinjection checks the extension entry: one
// runtime.onMessage listener that answers {wb: "tool"} asynchronously,
// ignores other messages, and is not added again by a second injection.
func TestMessageListenerAndReinjection(t *testing.T) {
	p := open(t, "/form.html")
	p.do(`window.__listeners = [];
		window.chrome = {runtime: {onMessage: {addListener: (fn) => window.__listeners.push(fn)}}};
		delete window.__wbRunTool;`)
	p.do(suite.scripts)
	p.do(suite.scripts)
	if n := p.js(`window.__listeners.length`); n != "1" {
		t.Fatalf("%s listeners registered, want 1", n)
	}
	got := evalJS[reply](p, `new Promise((resolve) => {
		const fn = window.__listeners[0];
		if (fn({action: 'other'}, {}, () => {}) !== false) resolve({ok: false, error: 'claimed a foreign message'});
		const async = fn({wb: 'tool', name: 'get_window_info', args: {}}, {}, resolve);
		if (async !== true) resolve({ok: false, error: 'did not keep the channel open'});
	})`)
	if !got.OK {
		t.Fatalf("reply = %+v", got)
	}
	contains(t, "reply", got.Result, "Title: Order form")
	unknown := p.tool("no_such_tool", map[string]any{})
	contains(t, "unknown tool error", unknown.Error, `Unknown page tool "no_such_tool"`)
}
