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
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

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
	// downloads is the folder the browser saves downloads in.
	downloads string
	// notes stands in for a user skill's service at https://api.notes.example
	// (skills_test.go).
	notes *notesAPI
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
	// A stand-in for chatgpt.com, research escalation's fixed helper site,
	// on HTTPS with a test certificate the browser is told to accept.
	chatgpt := httptest.NewTLSServer(http.FileServer(http.Dir(filepath.Join("testdata", "chatgpt"))))
	defer chatgpt.Close()
	notes := newNotesAPI()
	defer notes.srv.Close()
	b, err := testenv.StartExtensionBrowser(chromedp.WindowSize(1280, 900),
		// The injection suite's sites answer on loopback under public names,
		// and so does a packaged adapter's host (adapters_test.go).
		testenv.MapHosts(map[string]string{"chatgpt.com": chatgpt.Listener.Addr().String(), notesHost: notes.srv.Listener.Addr().String()},
			append(scenario.InjectionHosts(), adapterHost, newsHost)...),
		chromedp.Flag("ignore-certificate-errors", true),
		// Pages may register WebMCP tools (document.modelContext), which
		// Chromium offers only behind this feature; chromedp's own features
		// stay on.
		chromedp.Flag("enable-features", "NetworkService,NetworkServiceInProcess,WebMCPTesting"))
	if err != nil {
		return 0, err
	}
	defer b.Close()
	root, extID, browser := b.Root, b.ExtID, b.Ctx
	wlog := &consoleLog{}
	// Downloads go to a folder of the run, not the user's.
	downloads := b.Downloads
	worker, cancelWorker := chromedp.NewContext(browser, chromedp.WithTargetID(b.Worker.TargetID), chromedp.WithListener(wlog.listen))
	defer cancelWorker()
	if err := chromedp.Do(worker); err != nil {
		return 0, fmt.Errorf("attach to the service worker: %w", err)
	}

	mux := http.NewServeMux()
	mux.Handle("/", scenario.Fixtures(root, "test/e2e/testdata"))
	// /bounce?to=URL redirects anywhere, as an open redirector on a
	// public site would (fetchurl_test.go).
	mux.HandleFunc("/bounce", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	fixtures := httptest.NewServer(mux)
	defer fixtures.Close()

	env = &browserEnv{root: root, extID: extID, browser: browser, worker: worker, workerLg: wlog, fixtures: fixtures, downloads: downloads, notes: notes}
	return m.Run(), nil
}
