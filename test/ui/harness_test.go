//go:build browser

// Package ui tests the side panel and settings pages on their own: the
// extension/ sources and the vendor files are served over HTTP (with the
// extension's CSP), and a fake `chrome` object (testdata/fake-chrome.js)
// is injected before the page scripts. Run with
// `go test -tags browser ./test/ui/` after `npm ci --prefix vendor-js`.
package ui

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/testenv"
)

//go:embed testdata/fake-chrome.js
var fakeChrome string

var (
	browserCtx context.Context
	server     *httptest.Server
)

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ui:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	root, err := testenv.RepoRoot()
	if err != nil {
		return 0, err
	}
	handler, err := extensionHandler(root)
	if err != nil {
		return 0, err
	}
	server = httptest.NewServer(handler)
	defer server.Close()

	profile, err := os.MkdirTemp("", "webbrain-ui-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(profile)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		testenv.ChromiumOptions(profile, chromedp.WindowSize(420, 800))...)
	defer cancelAlloc()
	var cancel context.CancelFunc
	browserCtx, cancel = chromedp.NewContext(alloc)
	defer cancel()
	if err := chromedp.Do(browserCtx); err != nil {
		return 0, fmt.Errorf("start chromium: %w", err)
	}
	return m.Run(), nil
}

// extensionHandler serves extension/ at the root and the files listed in
// vendor-js/files.txt at /vendor/<basename>, as the build lays them out.
func extensionHandler(root string) (http.Handler, error) {
	list, err := os.Open(filepath.Join(root, "vendor-js", "files.txt"))
	if err != nil {
		return nil, err
	}
	defer list.Close()
	vendor := map[string]string{}
	sc := bufio.NewScanner(list)
	for sc.Scan() {
		if f := strings.TrimSpace(sc.Text()); f != "" {
			p := filepath.Join(root, "vendor-js", "node_modules", filepath.FromSlash(f))
			if _, err := os.Stat(p); err != nil {
				return nil, fmt.Errorf("%w (run npm ci --prefix vendor-js)", err)
			}
			vendor[path.Base(f)] = p
		}
	}
	files := http.FileServer(http.Dir(filepath.Join(root, "extension")))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The extension pages' CSP: inline scripts and handlers fail here too.
		w.Header().Set("Content-Security-Policy", "script-src 'self'; object-src 'self'")
		if name, ok := strings.CutPrefix(r.URL.Path, "/vendor/"); ok {
			p, found := vendor[name]
			if !found {
				http.NotFound(w, r)
				return
			}
			http.ServeFile(w, r, p)
			return
		}
		files.ServeHTTP(w, r)
	}), nil
}

// tab is one page under test with the fake chrome installed.
type tab struct {
	t   *testing.T
	ctx context.Context

	mu       sync.Mutex
	problems []string // uncaught exceptions and console errors
}

// openPage opens pagePath (e.g. "/sidepanel/sidepanel.html?tabId=7") with
// the fake chrome and setup (JavaScript run right after it, before the
// page's own scripts, typically filling __fake.replies).
func openPage(t *testing.T, pagePath, setup string) *tab {
	t.Helper()
	tb := &tab{t: t}
	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithListener(tb.listen))
	t.Cleanup(cancel)
	tb.ctx = ctx
	err := chromedp.Do(ctx,
		chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			if _, err := cdp.Call(ctx, target, cdplog.Enable, cdp.Empty{}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, target, page.AddScriptToEvaluateOnNewDocument,
				page.AddScriptToEvaluateOnNewDocumentParams{Source: fakeChrome + "\n" + setup})
			return err
		}),
		chromedp.Navigate(server.URL+pagePath),
	)
	if err != nil {
		t.Fatalf("open %s: %v", pagePath, err)
	}
	t.Cleanup(tb.checkProblems)
	return tb
}

func (tb *tab) listen(ev any) {
	var problem string
	switch e := ev.(type) {
	case *runtime.EventExceptionThrown:
		problem = e.ExceptionDetails.Text
		if e.ExceptionDetails.Exception != nil {
			problem += " " + e.ExceptionDetails.Exception.Description
		}
	case *cdplog.EventEntryAdded:
		if e.Entry.Level == cdplog.EntryLevelError && !strings.HasSuffix(e.Entry.URL, "favicon.ico") {
			problem = e.Entry.Text
		}
	}
	if problem != "" {
		tb.mu.Lock()
		tb.problems = append(tb.problems, problem)
		tb.mu.Unlock()
	}
}

func (tb *tab) checkProblems() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, p := range tb.problems {
		tb.t.Errorf("page error: %s", p)
	}
}

// eval evaluates js (awaiting a promise) and decodes the result.
func eval[T any](tb *tab, js string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 10*time.Second)
	defer cancel()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("eval %s: %v", js, err)
	}
	return out
}

// do runs js (statements; await allowed) for its effect.
func (tb *tab) do(js string) {
	tb.t.Helper()
	eval[bool](tb, "(async () => { "+js+" })().then(() => true)")
}

// waitFor polls the boolean expression js until it holds.
func (tb *tab) waitFor(what, js string) {
	tb.t.Helper()
	_, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](js,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		body := eval[string](tb, `document.body.innerHTML`)
		tb.t.Fatalf("waiting for %s: %v\nbody: %s", what, err, body)
	}
}

func (tb *tab) run(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.t.Fatal(err)
	}
}

// sent returns the messages the page sent with action.
func (tb *tab) sent(action string) []map[string]any {
	tb.t.Helper()
	return eval[[]map[string]any](tb, fmt.Sprintf(`__fake.sentOf(%q)`, action))
}

// pressEnter presses Enter (with Shift if shift) as a keyboard does: a
// keyDown that carries the text, so a prevented keydown inserts nothing.
// chromedp.KeyEvent sends a separate char event that always inserts.
func pressEnter(shift bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		p := input.DispatchKeyEventParams{
			Type: input.DispatchKeyEventTypeKeyDown, Key: "Enter", Code: "Enter",
			WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13, Text: "\r", UnmodifiedText: "\r",
		}
		if shift {
			p.Modifiers = 8
		}
		if _, err := cdp.Call(ctx, target, input.DispatchKeyEvent, p); err != nil {
			return err
		}
		p.Type, p.Text, p.UnmodifiedText = input.DispatchKeyEventTypeKeyUp, "", ""
		_, err := cdp.Call(ctx, target, input.DispatchKeyEvent, p)
		return err
	})
}

// ctrlShift presses Ctrl+Shift+<letter> on the focused element.
func ctrlShift(letter string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		up := strings.ToUpper(letter)
		p := input.DispatchKeyEventParams{
			Type: input.DispatchKeyEventTypeRawKeyDown, Key: up, Code: "Key" + up, Modifiers: 2 | 8,
			WindowsVirtualKeyCode: int64(up[0]), NativeVirtualKeyCode: int64(up[0]),
		}
		if _, err := cdp.Call(ctx, target, input.DispatchKeyEvent, p); err != nil {
			return err
		}
		p.Type = input.DispatchKeyEventTypeKeyUp
		_, err := cdp.Call(ctx, target, input.DispatchKeyEvent, p)
		return err
	})
}

// screenshot saves the page as <WB_SCREENSHOTS>/<name>.png when that
// environment variable names a directory: a person looks at the panel.
func (tb *tab) screenshot(name string) {
	tb.t.Helper()
	dir := os.Getenv("WB_SCREENSHOTS")
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(tb.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
}
