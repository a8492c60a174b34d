//go:build firefox

package firefox

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/webbrain/webbrain/test/testenv"
)

var (
	benchRun    = flag.Bool("bench-startup", false, "run TestFirefoxStartupBench (a benchmark, not part of the test suite)")
	benchStarts = flag.Int("starts", 7, "TestFirefoxStartupBench: how many background-page starts to measure")
	benchFresh  = flag.Bool("fresh", false, "TestFirefoxStartupBench: start a fresh browser for every start instead of reinstalling the add-on")
	benchKept   = flag.Bool("kept", false, "TestFirefoxStartupBench: measure the start after a reload, which compiles the copy of the module the first start kept")
)

// TestFirefoxStartupBench measures the background page's start to Go ready
// (globalThis.wbStartup.goReady: performance.now() counts from the page's
// start) over several starts, each a reinstall of the add-on or, with
// -fresh, a fresh browser, and prints the median. With -kept it measures
// the start after reloading the installed add-on once its first start kept
// a copy of the module, as a browser start with WebBrain installed does:
//
//	go test -tags firefox -run TestFirefoxStartupBench -v ./test/firefox -args -bench-startup [-starts=9 -fresh -kept]
//
// It prints numbers and asserts none, so the test suite skips it.
func TestFirefoxStartupBench(t *testing.T) {
	if !*benchRun {
		t.Skip("a benchmark: pass -args -bench-startup (./build.sh bench does)")
	}
	dir := distDir(t)
	n := *benchStarts
	if n < 1 {
		t.Fatalf("-starts=%d: want at least 1", n)
	}
	var ready, script []float64
	var ff *firefox
	defer func() {
		if ff != nil {
			ff.close()
		}
	}()
	for i := range n {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		if ff == nil {
			var err error
			if ff, err = startFirefox(ctx); err != nil {
				cancel()
				t.Fatal(err)
			}
		}
		st, err := measureStart(ctx, ff, dir)
		cancel()
		if err != nil {
			t.Fatalf("start %d: %v", i+1, err)
		}
		t.Logf("start %d: script at %6.1f ms, Go ready at %6.1f ms, module compiled from the %s", i+1, st.ScriptStart, *st.GoReady, st.Module)
		script = append(script, st.ScriptStart)
		ready = append(ready, *st.GoReady)
		if *benchFresh {
			ff.close()
			ff = nil
		}
	}
	how := "add-on reinstalls in one browser"
	if *benchFresh {
		how = "fresh browsers"
	}
	if *benchKept {
		how += ", each measured after a reload that compiles the kept copy"
	}
	fmt.Printf("firefox background page start to Go ready, %d %s: median %.0f ms (min %.0f, max %.0f); background.js ran at median %.0f ms\n",
		n, how, median(ready), slices.Min(ready), slices.Max(ready), median(script))
}

// measureStart installs the add-on, waits until its Go core is ready, reads
// wbStartup and uninstalls it again.
func measureStart(ctx context.Context, ff *firefox, dir string) (startup, error) {
	chromeBC, err := ff.chromeWindow(ctx)
	if err != nil {
		return startup{}, err
	}
	if err := ff.pinUUID(ctx, chromeBC); err != nil {
		return startup{}, err
	}
	id, err := ff.installAddon(ctx, dir)
	if err != nil {
		return startup{}, err
	}
	defer ff.uninstallAddon(context.Background(), id)
	page, err := ff.openExtPage(ctx, chromeBC, "/settings/settings.html")
	if err != nil {
		return startup{}, err
	}
	if *benchKept {
		if page, err = reloadWithKeptModule(ctx, ff, chromeBC, page); err != nil {
			return startup{}, err
		}
	}
	return readyStartup(ctx, ff, page)
}

// reloadWithKeptModule waits for the background to keep its copy of the
// module, reloads the add-on and returns a new page of it.
func reloadWithKeptModule(ctx context.Context, ff *firefox, chromeBC, page string) (string, error) {
	for {
		var n int
		if err := ff.eval(ctx, page, testenv.KeptModuleBytes, &n); err != nil {
			return "", err
		}
		if n > 4_000_000 {
			break
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("the background never kept a copy of the module: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	const origin = `browser.runtime.getBackgroundPage().then((p) => p.performance.timeOrigin)`
	var before float64
	if err := ff.eval(ctx, page, origin, &before); err != nil {
		return "", err
	}
	// The page goes with the reload, so its promise may never settle.
	_ = ff.eval(ctx, page, `(setTimeout(() => browser.runtime.reload(), 50), true)`, nil)
	for {
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("the add-on never reloaded: %w", ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
		// A page opened while the add-on reloads can hang: each try gets 3 s.
		tctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		next, err := ff.openExtPage(tctx, chromeBC, "/settings/settings.html")
		var now float64
		if err == nil {
			err = ff.eval(tctx, next, origin, &now)
		}
		cancel()
		if err == nil && now != before {
			return next, nil
		}
	}
}

// readyStartup polls wbStartup from page until Go is ready.
func readyStartup(ctx context.Context, ff *firefox, page string) (startup, error) {
	for {
		var st startup
		if err := ff.eval(ctx, page, readStartup, &st); err != nil {
			return startup{}, err
		}
		if st.GoReady != nil {
			return st, nil
		}
		select {
		case <-ctx.Done():
			return startup{}, fmt.Errorf("Go never became ready: %w", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
