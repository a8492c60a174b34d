//go:build firefox

// Package firefox drives the built Firefox add-on (dist/firefox) in headless
// firefox-esr over WebDriver BiDi: no geckodriver, only a WebSocket. Run it
// with `go test -tags firefox ./test/firefox` after `./build.sh`;
// docs/firefox.md explains the set-up.
package firefox

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/test/testenv"
)

// env is the browser the scenarios share, started by the first that needs
// it (the lint test needs none) and closed in TestMain.
var (
	envOnce sync.Once
	env     *browserEnv
	envErr  error
)

type browserEnv struct {
	ff       *firefox
	chrome   string // the browser window's chrome-scope browsing context
	bridge   string // an extension page (settings.html) with browser.* APIs
	fixtures *httptest.Server
}

func TestMain(m *testing.M) {
	code := m.Run()
	if env != nil {
		env.ff.close()
		env.fixtures.Close()
	}
	os.Exit(code)
}

// distDir returns dist/firefox, or fails the test when it is not built.
func distDir(t testing.TB) string {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "dist", "firefox")
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		t.Fatalf("%s has no manifest.json: run ./build.sh first", dir)
	}
	return dir
}

// sharedEnv returns the shared browser with the add-on installed and Go ready.
func sharedEnv(t *testing.T) *browserEnv {
	t.Helper()
	dir := distDir(t)
	envOnce.Do(func() { env, envErr = startEnv(dir) })
	if envErr != nil {
		t.Fatal(envErr)
	}
	return env
}

func startEnv(dir string) (*browserEnv, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ff, err := startFirefox(ctx)
	if err != nil {
		return nil, err
	}
	fixtures := newFixtureServer(dir)
	e, err := installEnv(ctx, ff, dir, fixtures)
	if err != nil {
		fixtures.Close()
		ff.close()
		return nil, err
	}
	return e, nil
}

// newFixtureServer serves test/firefox/testdata and the shared scenarios'
// pages; dir is dist/firefox.
func newFixtureServer(dir string) *httptest.Server {
	root := filepath.Dir(filepath.Dir(dir))
	return httptest.NewServer(scenario.Fixtures(root, "test/firefox/testdata"))
}

// installEnv installs the add-on in ff and opens the bridge page.
func installEnv(ctx context.Context, ff *firefox, dir string, fixtures *httptest.Server) (*browserEnv, error) {
	e := &browserEnv{ff: ff, fixtures: fixtures}
	var err error
	if e.chrome, err = ff.chromeWindow(ctx); err != nil {
		return nil, err
	}
	id, err := ff.installAddon(ctx, dir)
	if err != nil {
		return nil, err
	}
	if id != geckoID {
		return nil, fmt.Errorf("the add-on installed as %q: set geckoID in test/firefox to firefox/manifest.json's gecko id", id)
	}
	if e.bridge, err = ff.openExtPage(ctx, e.chrome, "/settings/settings.html"); err != nil {
		return nil, fmt.Errorf("open the bridge page: %w", err)
	}
	return e, nil
}
