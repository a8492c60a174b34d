//go:build firefox

package firefox

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"
)

var (
	benchRun    = flag.Bool("bench-startup", false, "run TestFirefoxStartupBench (a benchmark, not part of the test suite)")
	benchStarts = flag.Int("starts", 7, "TestFirefoxStartupBench: how many background-page starts to measure")
	benchFresh  = flag.Bool("fresh", false, "TestFirefoxStartupBench: start a fresh browser for every start instead of reinstalling the add-on")
)

// TestFirefoxStartupBench measures the background page's start to Go ready
// (globalThis.wbStartup.goReady: performance.now() counts from the page's
// start) over several starts, each a reinstall of the add-on or, with
// -fresh, a fresh browser, and prints the median:
//
//	go test -tags firefox -run TestFirefoxStartupBench -v ./test/firefox -args -bench-startup [-starts=9 -fresh]
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
		t.Logf("start %d: script at %6.1f ms, Go ready at %6.1f ms", i+1, st.ScriptStart, *st.GoReady)
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
