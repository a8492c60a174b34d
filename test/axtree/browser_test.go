//go:build browser

// Package axtree tests extension/content/accessibility-tree.mjs in headless
// Chromium: the script, bundled as the build does, is injected into real
// pages (the edge pages in test/testdata/edge-pages and the fixtures in
// testdata) and its output is asserted.
// Run: go test -tags browser ./test/axtree
package axtree

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/testenv"
)

// result mirrors what window.__generateAccessibilityTree returns.
type result struct {
	Tree         string         `json:"tree"`
	Truncated    bool           `json:"truncated"`
	Continuation map[string]any `json:"continuation"`
	TotalLines   int            `json:"totalLines"`
	RefCount     int            `json:"refCount"`
	Overlays     int            `json:"overlays"`
	Whole        bool           `json:"whole"`
	Error        string         `json:"error"`
}

// repoRoot is the repository root, or the test fails.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

var bundled struct {
	once    sync.Once
	scripts testenv.Scripts
	err     error
}

// contentScripts are the content scripts as the build bundles them, made once.
func contentScripts(root string) (testenv.Scripts, error) {
	bundled.once.Do(func() { bundled.scripts, bundled.err = testenv.ContentScripts(root) })
	return bundled.scripts, bundled.err
}

// page is one browser tab with the tree script at hand.
type page struct {
	t         *testing.T
	ctx       context.Context
	base      string
	script    string
	listeners string // click-listeners.js
}

// newPage starts a fresh headless Chromium serving /edge/ (the edge
// pages) and /fixtures/ (testdata) from a local server.
func newPage(t *testing.T) *page {
	t.Helper()
	root := repoRoot(t)
	edge := testenv.EdgePages(root)
	scripts, err := contentScripts(root)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/edge/", http.StripPrefix("/edge/", http.FileServer(http.Dir(edge))))
	mux.Handle("/fixtures/", http.StripPrefix("/fixtures/", http.FileServer(http.Dir("testdata"))))
	// jQuery from the npm registry (vendor-js's devDependencies), for a
	// fixture's delegated handlers.
	mux.Handle("/jquery/", http.StripPrefix("/jquery/", http.FileServer(http.Dir(filepath.Join(root, "vendor-js", "node_modules", "jquery", "dist")))))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		testenv.ChromiumOptions(t.TempDir(), chromedp.WindowSize(1280, 800))...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
	})
	return &page{t: t, ctx: ctx, base: srv.URL, script: scripts.Tree, listeners: scripts.Listeners}
}

// listen runs click-listeners.js in every document this tab loads from
// now on, before the document's own scripts, as the manifests have it run.
func (p *page) listen() {
	p.t.Helper()
	_, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument,
		cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: p.listeners})
	if err != nil {
		p.t.Fatal(err)
	}
}

// open loads a page and injects the tree script.
func (p *page) open(path string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(p.base+path), chromedp.Evaluate[chromedp.Void](p.script)); err != nil {
		p.t.Fatalf("open %s: %v", path, err)
	}
}

// eval runs a JS expression and decodes its JSON value into out.
func (p *page) eval(expr string, out any) {
	p.t.Helper()
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("eval %s: %v", testenv.Clip(expr, 80), err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		p.t.Fatalf("eval %s: decode %s: %v", testenv.Clip(expr, 80), raw, err)
	}
}

// tree calls __generateAccessibilityTree with the given options. The
// fixtures are small pages, which the interactive filter would show whole:
// unless a test sets wholeBelow, the interactive filter's own rendering is
// what it gets.
func (p *page) tree(opts map[string]any) result {
	p.t.Helper()
	if _, ok := opts["wholeBelow"]; !ok {
		opts["wholeBelow"] = 0
	}
	b, err := json.Marshal(opts)
	if err != nil {
		p.t.Fatal(err)
	}
	var r result
	p.eval("window.__generateAccessibilityTree("+string(b)+")", &r)
	return r
}
