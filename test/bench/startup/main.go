// Command startup measures how fast the extension's service worker gets the
// Go core ready after Chrome stopped it, the case a user meets whenever the
// worker went idle, and how fast the side panel is usable once opened. It loads dist/chrome in headless Chromium, then, run after
// run, stops every service worker (CDP ServiceWorker.stopAllWorkers), wakes
// ours with a chrome.runtime.sendMessage from an extension page and reads the
// timing jsglue/background.js recorded in globalThis.wbStartup.
//
//	go run ./test/bench/startup -ext dist/chrome
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/testenv"
)

func main() {
	ext := flag.String("ext", "dist/chrome", "unpacked extension directory")
	runs := flag.Int("n", 20, "number of worker restarts")
	chromium := flag.String("chromium", testenv.Chromium(), "Chromium binary")
	flag.Parse()
	log.SetFlags(0)
	if err := run(*chromium, *ext, *runs); err != nil {
		log.Fatal("startup bench: ", err)
	}
}

// sample is one restart, in milliseconds.
type sample struct {
	ready     float64 // worker start (its time origin) → Go ready
	script    float64 // background.js start → Go ready
	roundTrip float64 // sendMessage to a stopped worker → reply, seen by the page
}

func run(chromium, ext string, n int) error {
	ext, err := filepath.Abs(ext)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(ext, "manifest.json")); err != nil {
		return fmt.Errorf("no built extension in %s (run ./build.sh): %w", ext, err)
	}
	profile, err := os.MkdirTemp("", "webbrain-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)

	opts := testenv.ExtensionOptions(profile, ext,
		chromedp.ExecPath(chromium),
		chromedp.Flag("disable-features", "Translate,DisableLoadExtensionCommandLineSwitch"),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Do(browserCtx); err != nil {
		return fmt.Errorf("start Chromium: %w", err)
	}

	worker, err := waitWorker(browserCtx)
	if err != nil {
		return err
	}
	origin := strings.TrimSuffix(worker.URL, "background.js")
	// Any extension page gets chrome.runtime; the manifest is always there.
	if err := chromedp.Do(browserCtx, chromedp.Navigate(origin+"manifest.json")); err != nil {
		return fmt.Errorf("open an extension page: %w", err)
	}
	if _, err := chromedp.Call(browserCtx, serviceworker.Enable, cdp.Empty{}); err != nil {
		return fmt.Errorf("enable the ServiceWorker domain: %w", err)
	}
	if _, err := wake(browserCtx); err != nil { // first start: install, cold caches
		return err
	}

	var samples []sample
	for range n {
		s, err := restart(browserCtx)
		if err != nil {
			return err
		}
		samples = append(samples, s)
	}
	fmt.Printf("worker start-up over %d restarts (ms)           median    min    max\n", n)
	report("  worker start -> Go ready", samples, func(s sample) float64 { return s.ready })
	report("  background.js start -> Go ready", samples, func(s sample) float64 { return s.script })
	report("  message to stopped worker -> reply", samples, func(s sample) float64 { return s.roundTrip })

	var opens []sample
	for range n {
		ms, err := openPanel(browserCtx, origin)
		if err != nil {
			return err
		}
		opens = append(opens, sample{ready: ms})
	}
	fmt.Printf("side panel over %d opens (ms)                   median    min    max\n", n)
	report("  navigation start -> usable", opens, func(s sample) float64 { return s.ready })
	return nil
}

// usableProbe runs at document start in the panel and records when it is
// usable: its tab bound (the transcript has a run status) and the active
// provider shown (the settings answered).
const usableProbe = `new MutationObserver((_, mo) => {
	const status = document.querySelector('#transcript')?.dataset.runStatus;
	const provider = document.querySelector('#provider')?.textContent ?? '';
	if (status && provider && !provider.startsWith('Loading')) {
		window.__wbUsableAt = performance.now();
		mo.disconnect();
	}
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});`

// openPanel opens the side panel page in a new tab and returns the time
// from navigation start to usable.
func openPanel(browserCtx context.Context, origin string) (float64, error) {
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: usableProbe})
		return err
	}), chromedp.Navigate(origin+"sidepanel/sidepanel.html?tabId=1")); err != nil {
		return 0, fmt.Errorf("open the panel: %w", err)
	}
	for range 200 {
		at, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`window.__wbUsableAt ?? 0`))
		if err != nil {
			return 0, err
		}
		if at > 0 {
			return at, nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0, errors.New("the side panel never became usable")
}

// restart stops the worker, wakes it with a message and collects its timing.
func restart(ctx context.Context) (sample, error) {
	if _, err := chromedp.Call(ctx, serviceworker.StopAllWorkers, cdp.Empty{}); err != nil {
		return sample{}, fmt.Errorf("stop workers: %w", err)
	}
	if err := waitNoWorker(ctx); err != nil {
		return sample{}, err
	}
	// Gone, so the worker found after the wake is a fresh start.
	rt, err := wake(ctx)
	if err != nil {
		return sample{}, err
	}
	w, err := waitWorker(ctx)
	if err != nil {
		return sample{}, err
	}
	timing, err := workerTiming(ctx, w.TargetID)
	if err != nil {
		return sample{}, err
	}
	return sample{ready: timing.GoReady, script: timing.GoReady - timing.ScriptStart, roundTrip: rt}, nil
}

// wake sends a message from the extension page and returns the round trip
// in ms as the page measured it; the reply must come from the Go core.
func wake(ctx context.Context) (float64, error) {
	const js = `(async () => {
		const t = performance.now();
		const reply = await chrome.runtime.sendMessage({action: "settings_get"});
		return {ms: performance.now() - t, reply};
	})()`
	type result struct {
		MS    float64         `json:"ms"`
		Reply json.RawMessage `json:"reply"`
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[result](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return 0, fmt.Errorf("wake the worker: %w", err)
	}
	var reply struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(res.Reply, &reply); err != nil || (!reply.OK && strings.Contains(reply.Error, "core failed")) {
		return 0, fmt.Errorf("the worker answered %s", res.Reply)
	}
	return res.MS, nil
}

type startup struct {
	ScriptStart float64 `json:"scriptStart"`
	GoReady     float64 `json:"goReady"`
}

// workerTiming reads globalThis.wbStartup in the worker target.
func workerTiming(ctx context.Context, id target.ID) (startup, error) {
	wctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(id))
	defer cancel()
	var lastErr error
	// A worker's globals can be missing for a moment after its target appears.
	for range 50 {
		s, err := chromedp.Run(wctx, chromedp.Evaluate[*startup](`globalThis.wbStartup ?? null`))
		if err == nil && s != nil && s.GoReady > 0 {
			return *s, nil
		}
		lastErr = err
		time.Sleep(20 * time.Millisecond)
	}
	return startup{}, fmt.Errorf("the worker recorded no Go ready time (%v)", lastErr)
}

// waitWorker returns the extension's service worker target. A restarted
// worker keeps its target id.
func waitWorker(ctx context.Context) (*target.Info, error) {
	for range 250 {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			return nil, err
		}
		if i := slices.IndexFunc(infos, testenv.IsExtensionWorker); i >= 0 {
			return infos[i], nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, errors.New("the extension's service worker did not appear: did Chromium refuse the extension (a file the manifest names is missing)?")
}

// waitNoWorker waits until the extension has no service worker running.
func waitNoWorker(ctx context.Context) error {
	for range 250 {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(infos, testenv.IsExtensionWorker) {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.New("the service worker did not stop")
}

func report(name string, samples []sample, f func(sample) float64) {
	v := make([]float64, len(samples))
	for i, s := range samples {
		v[i] = f(s)
	}
	slices.Sort(v)
	median := v[len(v)/2]
	if len(v)%2 == 0 {
		median = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	fmt.Printf("%-40s %7.1f %6.1f %6.1f\n", name, median, v[0], v[len(v)-1])
}
