//go:build e2e

// Package e2e drives the built Chrome extension (dist/chrome) in headless
// Chromium: a fixture page in one tab, the side panel in another, and a
// scripted fake model (llmtest) behind a provider saved through the real
// settings message. Run it with `go test -tags e2e ./test/e2e/` after
// `./build.sh`; docs/testing.md explains the set-up.
package e2e

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/test/testenv"
)

// env is the one browser every test shares (started in TestMain).
var env *browserEnv

type browserEnv struct {
	root     string          // repository root
	extID    string          // the extension's id
	browser  context.Context // chromedp context owning the browser
	worker   context.Context // attached to the extension's service worker
	workerLg *consoleLog     // the service worker's console
	fixtures *httptest.Server
}

func TestMain(m *testing.M) {
	code, err := runSuite(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func runSuite(m *testing.M) (int, error) {
	root, err := testenv.RepoRoot()
	if err != nil {
		return 0, err
	}
	extDir, err := testenv.BuiltExtension(root)
	if err != nil {
		return 0, err
	}
	profile, err := os.MkdirTemp("", "webbrain-e2e-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(profile)

	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), testenv.ExtensionOptions(profile, extDir, chromedp.WindowSize(1280, 900))...)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil { // starts the browser
		return 0, fmt.Errorf("start chromium: %w", err)
	}

	workerInfo, extID, err := testenv.ExtensionWorker(browser, 20*time.Second)
	if err != nil {
		return 0, err
	}
	wlog := &consoleLog{}
	worker, cancelWorker := chromedp.NewContext(browser, chromedp.WithTargetID(workerInfo.TargetID), chromedp.WithListener(wlog.listen))
	defer cancelWorker()
	if err := chromedp.Do(worker); err != nil {
		return 0, fmt.Errorf("attach to the service worker: %w", err)
	}

	fixtures := httptest.NewServer(scenario.Fixtures(root, "test/e2e/testdata"))
	defer fixtures.Close()

	env = &browserEnv{root: root, extID: extID, browser: browser, worker: worker, workerLg: wlog, fixtures: fixtures}
	return m.Run(), nil
}
