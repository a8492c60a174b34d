//go:build e2e

// Package durable tests that runs survive the browser stopping the
// extension's service worker, and the panel's queue and steering, in the
// built Chrome extension (dist/chrome) in headless Chromium. Run it with
// `go test -tags e2e ./test/durable/` after `./build.sh`.
package durable

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/testenv"
)

// env is the browser every test shares.
var env struct {
	extID    string
	browser  context.Context
	control  context.Context // an extension page: tab queries, worker stops
	fixtures *httptest.Server
	served   serverLog // what the fixture server's dynamic pages received
	prices   prices    // what price.html shows, per run
}

func TestMain(m *testing.M) {
	code, err := runSuite(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "durable:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func runSuite(m *testing.M) (int, error) {
	b, err := testenv.StartExtensionBrowser(chromedp.WindowSize(1280, 900))
	if err != nil {
		return 0, err
	}
	defer b.Close()
	root, extID, browser := b.Root, b.ExtID, b.Ctx
	control, cancelControl := chromedp.NewContext(browser)
	defer cancelControl()
	if err := chromedp.Do(control, chromedp.Navigate(fmt.Sprintf("chrome-extension://%s/settings/settings.html", extID))); err != nil {
		return 0, fmt.Errorf("open the control page: %w", err)
	}
	env.fixtures = httptest.NewServer(fixtureHandler(filepath.Join(root, "test", "durable", "testdata")))
	defer env.fixtures.Close()
	env.extID, env.browser, env.control = extID, browser, control
	return m.Run(), nil
}

// swEnabled is set once the control page's session has the ServiceWorker
// domain enabled; enabling it again before every stop sometimes took
// more than half a second, which a stop timed to an event cannot afford.
var swEnabled bool

// stopWorker stops the extension's service worker the way the browser
// does when it is idle or under pressure.
func stopWorker(t *testing.T) {
	t.Helper()
	stop := func(ctx context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		if !swEnabled {
			if _, err := cdp.Call(ctx, tg, serviceworker.Enable, cdp.Empty{}); err != nil {
				return cdp.Empty{}, err
			}
			swEnabled = true
		}
		return cdp.Call(ctx, tg, serviceworker.StopAllWorkers, cdp.Empty{})
	}
	if _, err := chromedp.Run(env.control, stop); err != nil {
		t.Fatalf("stop the service worker: %v", err)
	}
}

func evalIn[T any](t *testing.T, ctx context.Context, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		t.Fatalf("evaluate %.80s: %v", expr, err)
	}
	return v
}

// waitFor polls expr in ctx until it is true.
func waitFor(t *testing.T, ctx context.Context, what string, timeout time.Duration, expr string) {
	t.Helper()
	if ok, err := pollUntil(ctx, expr, timeout); !ok {
		t.Fatalf("timed out after %v waiting for %s (last error: %v)", timeout, what, err)
	}
}

// pollUntil polls expr in ctx every 25 ms until it is true or timeout
// passes, and returns the last evaluation error.
func pollUntil(ctx context.Context, expr string, timeout time.Duration) (bool, error) {
	deadline := time.Now().Add(timeout)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return true, nil
		}
		if time.Now().After(deadline) {
			return false, err
		}
		time.Sleep(25 * time.Millisecond)
	}
}
