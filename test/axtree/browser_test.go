//go:build browser

// Package axtree tests extension/content/accessibility-tree.js in headless
// Chromium: the script is injected into real pages (the shared edge-page
// corpus and the fixtures in testdata) and its output is asserted.
// Run: go test -tags browser ./test/axtree
package axtree

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// result mirrors what window.__generateAccessibilityTree returns.
type result struct {
	Tree         string         `json:"tree"`
	Truncated    bool           `json:"truncated"`
	Continuation map[string]any `json:"continuation"`
	TotalLines   int            `json:"totalLines"`
	RefCount     int            `json:"refCount"`
	Overlays     int            `json:"overlays"`
	Error        string         `json:"error"`
}

// repoRoot walks up from the test's directory to the one holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// page is one browser tab with the tree script at hand.
type page struct {
	t      *testing.T
	ctx    context.Context
	base   string
	script string
}

// newPage starts a fresh headless Chromium serving /edge/ (the shared edge
// pages) and /fixtures/ (testdata) from a local server.
func newPage(t *testing.T) *page {
	t.Helper()
	root := repoRoot(t)
	edge := filepath.Join(root, "..", "shared", "corpus", "edge-pages")
	if _, err := os.Stat(edge); err != nil {
		t.Fatalf("shared corpus missing beside the repo: %v", err)
	}
	script, err := os.ReadFile(filepath.Join(root, "extension", "content", "accessibility-tree.js"))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/edge/", http.StripPrefix("/edge/", http.FileServer(http.Dir(edge))))
	mux.Handle("/fixtures/", http.StripPrefix("/fixtures/", http.FileServer(http.Dir("testdata"))))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath("/usr/bin/chromium"),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", "new"),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 800),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
	})
	return &page{t: t, ctx: ctx, base: srv.URL, script: string(script)}
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
		p.t.Fatalf("eval %s: %v", clip(expr), err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		p.t.Fatalf("eval %s: decode %s: %v", clip(expr), raw, err)
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// tree calls __generateAccessibilityTree with the given options.
func (p *page) tree(opts map[string]any) result {
	p.t.Helper()
	b, err := json.Marshal(opts)
	if err != nil {
		p.t.Fatal(err)
	}
	var r result
	p.eval("window.__generateAccessibilityTree("+string(b)+")", &r)
	return r
}
