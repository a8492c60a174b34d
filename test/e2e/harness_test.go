//go:build e2e

// Package e2e drives the built Chrome extension (dist/chrome) in headless
// Chromium: a fixture page in one tab, the side panel in another, and a
// scripted fake model (llmtest) behind a provider saved through the real
// settings message. Run it with `go test -tags e2e ./test/e2e/` after
// `./build.sh`; docs/testing.md explains the set-up.
package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
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
	extDir := filepath.Join(root, "dist", "chrome")
	if _, err := os.Stat(filepath.Join(extDir, "manifest.json")); err != nil {
		return 0, fmt.Errorf("%s has no manifest.json: run ./build.sh first", extDir)
	}
	profile, err := os.MkdirTemp("", "webbrain-e2e-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(profile)

	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), allocatorOptions(extDir, profile)...)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil { // starts the browser
		return 0, fmt.Errorf("start chromium: %w", err)
	}

	workerID, extID, err := findServiceWorker(browser, 20*time.Second)
	if err != nil {
		return 0, err
	}
	wlog := &consoleLog{}
	worker, cancelWorker := chromedp.NewContext(browser, chromedp.WithTargetID(workerID), chromedp.WithListener(wlog.listen))
	defer cancelWorker()
	if err := chromedp.Do(worker); err != nil {
		return 0, fmt.Errorf("attach to the service worker: %w", err)
	}

	fixtures := httptest.NewServer(scenario.Fixtures(root, "test/e2e/testdata"))
	defer fixtures.Close()

	env = &browserEnv{root: root, extID: extID, browser: browser, worker: worker, workerLg: wlog, fixtures: fixtures}
	return m.Run(), nil
}

func allocatorOptions(extDir, profile string) []chromedp.ExecAllocatorOption {
	return testenv.ChromiumOptions(profile,
		// The defaults disable extensions; this suite is about one.
		chromedp.Flag("disable-extensions", false),
		chromedp.Flag("load-extension", extDir),
		chromedp.Flag("disable-extensions-except", extDir),
		chromedp.WindowSize(1280, 900),
	)
}

// findServiceWorker waits for the extension's background worker target and
// reads the extension id from its URL (chrome-extension://<id>/background.js).
func findServiceWorker(browser context.Context, timeout time.Duration) (target.ID, string, error) {
	deadline := time.Now().Add(timeout)
	for {
		infos, err := chromedp.Targets(browser)
		if err != nil {
			return "", "", err
		}
		for _, info := range infos {
			if info.Type != "service_worker" || !strings.HasPrefix(info.URL, "chrome-extension://") {
				continue
			}
			rest := strings.TrimPrefix(info.URL, "chrome-extension://")
			if id, path, ok := strings.Cut(rest, "/"); ok && path == "background.js" {
				return info.TargetID, id, nil
			}
		}
		if time.Now().After(deadline) {
			return "", "", errors.New("the extension's service worker (chrome-extension://<id>/background.js) never appeared: does dist/chrome load?")
		}
		time.Sleep(200 * time.Millisecond)
	}
}
