// Command startup measures how fast the extension's service worker answers
// after Chrome stopped it, the case a user meets whenever the worker went
// idle, how fast it answers once awake, and how fast the side panel is
// usable once opened. It loads dist/chrome in headless Chromium beside two
// references, written to a temporary directory, whose service workers
// answer the same message with one storage read: a plain JS worker, and a
// Go worker that links nothing but syscall/js (package floor), the least
// any Go worker costs. Round after round it stops every service worker
// (CDP ServiceWorker.stopAllWorkers), wakes one with a
// chrome.runtime.sendMessage from its extension page, then sends it more
// messages; the three take turns, so all see the same load. It also reads
// the timing jsglue/background.js recorded in globalThis.wbStartup, which
// says where WebBrain's wake went. -baseline adds another build of
// WebBrain (an earlier commit's dist/chrome) to the same turns, so a change
// is measured against what it replaced under the same load. -panel measures
// only the side panel: it opens the panel of -ext and of -baseline in turns,
// once with the worker awake and once right after Chrome stopped it, and
// says where the panel's time went (its own performance entries).
//
//	go run ./test/bench/startup -ext dist/chrome [-baseline dir] [-panel]
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
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
	baseline := flag.String("baseline", "", "another build of the extension (an earlier commit's dist/chrome) to wake in the same turns")
	runs := flag.Int("n", 20, "number of worker restarts")
	panelOnly := flag.Bool("panel", false, "measure only the side panel, of -ext and -baseline in turns, with the worker awake and stopped")
	chromium := flag.String("chromium", testenv.Chromium(), "Chromium binary")
	flag.Parse()
	log.SetFlags(0)
	if err := run(*chromium, *ext, *baseline, *runs, *panelOnly); err != nil {
		log.Fatal("startup bench: ", err)
	}
}

// Each round sends the woken worker warmMessages messages, then
// settleMessages unmeasured ones, then warmMessages more: the first are
// answered while the engine still compiles the code they run, the last
// once the code they run is hot.
const (
	warmMessages   = 10
	settleMessages = 40
)

// side is one extension under test: its worker target and an open page of
// its own, from which messages go to its worker.
type side struct {
	name     string
	isWorker func(*target.Info) bool
	page     context.Context
	untimed  bool // its worker records no wbStartup steps (a baseline build may not)
}

// round is one wake and the warm messages after it, in milliseconds.
type round struct {
	wake   float64   // sendMessage to a stopped worker → reply, seen by the page
	warm   []float64 // sendMessage to the awake worker → reply, just woken
	hot    []float64 // the same after settleMessages more
	timing startup   // the worker's own clock
}

// A reference extension answers like WebBrain's settings_get, with one
// storage read: plain JS in reference.js, or Go with nothing but
// syscall/js in floor.js (the floor package here).
const (
	referenceWorker = `"use strict";
globalThis.wbStartup = { scriptStart: performance.now() };
chrome.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
  if (!msg || typeof msg.action !== "string") return false;
  globalThis.wbStartup.firstMessage ??= performance.now();
  chrome.storage.local.get("settings").then((items) => {
    globalThis.wbStartup.firstReply ??= performance.now();
    sendResponse({ ok: true, settings: items.settings ?? {} });
  });
  return true;
});
`
	floorWorker = `"use strict";
globalThis.wbStartup = { scriptStart: performance.now() };
const wasm = fetch("floor.wasm");
importScripts("wasm_exec.js");
const ready = new Promise((resolve) => {
  globalThis.floorReady = resolve;
});
const go = new Go();
WebAssembly.instantiateStreaming(wasm, go.importObject).then((r) => go.run(r.instance));
chrome.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
  if (!msg || typeof msg.action !== "string") return false;
  globalThis.wbStartup.firstMessage ??= performance.now();
  ready
    .then(() => globalThis.floorHandle())
    .then((items) => {
      globalThis.wbStartup.firstReply ??= performance.now();
      sendResponse({ ok: true, settings: items.settings ?? {} });
    });
  return true;
});
`
	referenceManifest = `{
  "manifest_version": 3,
  "name": "Reference %[1]s",
  "version": "1.0",
  "background": { "service_worker": "%[1]s" },
  "permissions": ["storage"],
  "content_security_policy": { "extension_pages": "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" }
}
`
)

// workerNamed picks the service worker of an extension whose worker
// script is file.
func workerNamed(file string) func(*target.Info) bool {
	return func(info *target.Info) bool {
		return info.Type == "service_worker" && strings.HasPrefix(info.URL, "chrome-extension://") &&
			strings.HasSuffix(info.URL, "/"+file)
	}
}

// writeReference writes an extension whose worker is script, named file,
// into dir.
func writeReference(dir, file, script string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(fmt.Sprintf(referenceManifest, file)), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, file), []byte(script), 0o644)
}

// writeFloor writes the Go floor extension into dir: floor.js, the floor
// package built for js/wasm as WebBrain's module is, and the toolchain's
// wasm_exec.js.
func writeFloor(dir string) error {
	if err := writeReference(dir, "floor.js", floorWorker); err != nil {
		return err
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "floor.wasm"),
		"github.com/webbrain/webbrain/test/bench/startup/floor")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("build the floor module: %v\n%s", err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return err
	}
	glue, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), glue, 0o644)
}

func run(chromium, ext, baseline string, n int, panelOnly bool) error {
	ext, err := absDir(ext)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(ext, "manifest.json")); err != nil {
		return fmt.Errorf("no built extension in %s (run ./build.sh): %w", ext, err)
	}
	tmp, err := os.MkdirTemp("", "webbrain-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	profile, ref, floor := filepath.Join(tmp, "profile"), filepath.Join(tmp, "reference"), filepath.Join(tmp, "floor")
	if err := writeReference(ref, "reference.js", referenceWorker); err != nil {
		return err
	}
	if err := writeFloor(floor); err != nil {
		return err
	}

	dirs := ext + "," + ref + "," + floor
	if baseline != "" {
		if baseline, err = absDir(baseline); err != nil {
			return err
		}
		dirs += "," + baseline
	}
	opts := testenv.ExtensionOptions(profile, dirs,
		chromedp.ExecPath(chromium),
		chromedp.Flag("disable-features", "Translate,DisableLoadExtensionCommandLineSwitch"),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Do(browserCtx); err != nil {
		return fmt.Errorf("start Chromium: %w", err)
	}

	ours := &side{name: "WebBrain (Go/wasm)", isWorker: workerOf(ext)}
	goFloor := &side{name: "Go floor (syscall/js only)", isWorker: workerNamed("floor.js")}
	plain := &side{name: "plain JS reference", isWorker: workerNamed("reference.js")}
	sides := []*side{ours, goFloor, plain}
	if baseline != "" {
		base := &side{name: "WebBrain baseline build", isWorker: workerOf(baseline), untimed: true}
		sides = []*side{ours, base, goFloor, plain}
	}
	var origin, baseOrigin string
	for i, sd := range sides {
		w, err := waitWorker(browserCtx, sd.isWorker)
		if err != nil {
			return err
		}
		o := w.URL[:strings.LastIndex(w.URL, "/")+1]
		if sd == ours {
			origin = o
		} else if i == 1 && baseline != "" {
			baseOrigin = o
		}
		page, cancelPage := chromedp.NewContext(browserCtx)
		defer cancelPage()
		// Any extension page gets chrome.runtime; the manifest is always there.
		if err := chromedp.Do(page, chromedp.Navigate(o+"manifest.json")); err != nil {
			return fmt.Errorf("open a page of %s: %w", sd.name, err)
		}
		sd.page = page
		if _, err := send(page, 1); err != nil { // first start: install, cold caches
			return err
		}
		if sd == ours {
			if err := waitKept(page); err != nil {
				return err
			}
		}
	}
	if _, err := chromedp.Call(browserCtx, serviceworker.Enable, cdp.Empty{}); err != nil {
		return fmt.Errorf("enable the ServiceWorker domain: %w", err)
	}
	if panelOnly {
		return panelTurns(browserCtx, n, sides, []string{origin, baseOrigin})
	}

	rounds := map[*side][]round{}
	for i := range n {
		// Each round starts with another side, so none is always first
		// after a stop.
		for j := range sides {
			sd := sides[(i+j)%len(sides)]
			r, err := restart(browserCtx, sd, sides)
			if err != nil {
				return fmt.Errorf("%s: %w", sd.name, err)
			}
			rounds[sd] = append(rounds[sd], r)
		}
	}
	printRounds(n, sides, goFloor, rounds)

	var opens []float64
	for range n {
		p, err := openPanel(browserCtx, origin)
		if err != nil {
			return err
		}
		opens = append(opens, p.Usable)
	}
	fmt.Printf("side panel over %d opens (ms)                   median    min    max\n", n)
	report("  navigation start -> usable", opens)
	return nil
}

func printRounds(n int, sides []*side, goFloor *side, rounds map[*side][]round) {
	ours, plain := sides[0], sides[len(sides)-1]
	col := func(sd *side, f func(round) []float64) []float64 {
		var v []float64
		for _, r := range rounds[sd] {
			v = append(v, f(r)...)
		}
		return v
	}
	compare := func(title string, f func(round) []float64) {
		fmt.Printf("%-56s median    min    max\n", title)
		medians := map[*side]float64{}
		for _, sd := range sides {
			medians[sd] = report("  "+sd.name, col(sd, f))
		}
		for _, sd := range sides[:len(sides)-1] {
			fmt.Printf("  %-44s %7.2f\n", sd.name+" / JS", medians[sd]/medians[plain])
		}
	}
	compare(fmt.Sprintf("message to a stopped worker -> reply, %d wakes (ms)", n),
		func(r round) []float64 { return []float64{r.wake} })
	compare(fmt.Sprintf("warm round trip, the %d messages after each wake (ms)", warmMessages),
		func(r round) []float64 { return r.warm })
	compare(fmt.Sprintf("warm round trip, %d messages after %d more (ms)", warmMessages, settleMessages),
		func(r round) []float64 { return r.hot })

	// The steps of WebBrain's wake on the worker's clock; each is the
	// median of its own samples, so they need not add up to the whole.
	step := func(f func(startup) float64) func(round) []float64 {
		return func(r round) []float64 { return []float64{f(r.timing)} }
	}
	fmt.Printf("where WebBrain's wake goes, worker clock (ms)            median    min    max\n")
	report("  worker start -> background.js runs", col(ours, step(func(t startup) float64 { return t.ScriptStart })))
	report("    JS reference: worker start -> script runs", col(plain, step(func(t startup) float64 { return t.ScriptStart })))
	report("  wasm_exec.js, host.js loaded", col(ours, step(func(t startup) float64 { return t.Glue - t.ScriptStart })))
	report("  module read and compiled (streaming)", col(ours, step(func(t startup) float64 { return t.Compiled - t.Glue })))
	kept := 0
	for _, r := range rounds[ours] {
		if r.timing.Module == "cache" {
			kept++
		}
	}
	fmt.Printf("    compiled from the copy kept in IndexedDB in %d of %d wakes, else from the packaged .gz\n", kept, len(rounds[ours]))
	report("  instantiated", col(ours, step(func(t startup) float64 { return t.Instantiated - t.Compiled })))
	report("  Go runtime start and package init", col(ours, step(func(t startup) float64 { return t.GoMain - t.Instantiated })))
	report("  main -> Go ready", col(ours, step(func(t startup) float64 { return t.GoReady - t.GoMain })))
	report("  message arrives (worker start ->)", col(ours, step(func(t startup) float64 { return t.FirstMessage })))
	report("  Go ready -> first reply", col(ours, step(func(t startup) float64 { return t.FirstReply - t.GoReady })))
	report("  worker start -> first reply", col(ours, step(func(t startup) float64 { return t.FirstReply })))
	report("    Go floor: worker start -> first reply", col(goFloor, step(func(t startup) float64 { return t.FirstReply })))
	report("    JS reference: worker start -> first reply", col(plain, step(func(t startup) float64 { return t.FirstReply })))
}

// usableProbe runs at document start in the panel and records when it is
// usable: its script running with every listener attached (body[data-ready];
// the static HTML already carries a run status) and the active provider
// shown (the settings answered).
const usableProbe = `new MutationObserver((_, mo) => {
	const ready = document.body?.dataset.ready === 'true';
	const provider = document.querySelector('#provider')?.textContent ?? '';
	if (ready && provider && !provider.startsWith('Loading')) {
		window.__wbUsableAt = performance.now();
		mo.disconnect();
	}
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});`

// panelTiming is what one open of the side panel recorded on its own
// clock, in ms from navigation start: when it was usable, and the steps
// before (0 when the build marks none of them).
type panelTiming struct {
	Usable   float64 `json:"usable"`
	HTML     float64 `json:"html"`     // the document's response ended
	Parsed   float64 `json:"parsed"`   // domInteractive: the HTML parsed
	Scripts  float64 `json:"scripts"`  // the last script the page fetched arrived
	NScripts float64 `json:"nScripts"` // how many scripts it fetched before usable
	KB       float64 `json:"kb"`       // their decoded size
	Early    float64 `json:"early"`    // wb:early, early.js runs (wakes the background)
	Catalog  float64 `json:"catalog"`  // wb:catalog, the language's catalogs fetched
	Modules  float64 `json:"modules"`  // wb:modules, the entry module starts running
	I18n     float64 `json:"i18n"`     // wb:i18n, the language loaded and the page translated
	Ready    float64 `json:"ready"`    // wb:ready, every listener attached
	Provider float64 `json:"provider"` // wb:provider, the header names the provider
	Paint    float64 `json:"paint"`    // first contentful paint
	// Marks holds every wb: mark the panel made before it was usable.
	Marks map[string]float64 `json:"marks"`
}

const panelTimingJS = `(() => {
	const at = window.__wbUsableAt ?? 0;
	if (!at) return null;
	const nav = performance.getEntriesByType('navigation')[0];
	const scripts = performance.getEntriesByType('resource')
		.filter((r) => /\.m?js$/.test(new URL(r.name).pathname) && r.responseEnd <= at);
	const mark = (name) => performance.getEntriesByName(name, 'mark')[0]?.startTime ?? 0;
	return {
		usable: at, html: nav?.responseEnd ?? 0, parsed: nav?.domInteractive ?? 0,
		scripts: Math.max(0, ...scripts.map((r) => r.responseEnd)), nScripts: scripts.length,
		kb: scripts.reduce((n, r) => n + r.decodedBodySize, 0) / 1024,
		early: mark('wb:early'), catalog: mark('wb:catalog'), modules: mark('wb:modules'), i18n: mark('wb:i18n'), ready: mark('wb:ready'), provider: mark('wb:provider'),
		paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
		marks: Object.fromEntries(performance.getEntriesByType('mark')
			.filter((m) => m.name.startsWith('wb:') && m.startTime <= at).map((m) => [m.name, m.startTime])),
	};
})()`

// knownMarks are the marks panelTiming has fields for.
var knownMarks = []string{"wb:early", "wb:catalog", "wb:modules", "wb:i18n", "wb:ready", "wb:provider"}

// openPanel opens the side panel page in a new tab and returns its timing
// once it is usable.
func openPanel(browserCtx context.Context, origin string) (panelTiming, error) {
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: usableProbe})
		return err
	}), chromedp.Navigate(origin+"sidepanel/sidepanel.html?tabId=1")); err != nil {
		return panelTiming{}, fmt.Errorf("open the panel: %w", err)
	}
	for range 500 {
		p, err := chromedp.Run(ctx, chromedp.Evaluate[*panelTiming](panelTimingJS))
		if err != nil {
			return panelTiming{}, err
		}
		if p != nil {
			return *p, nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return panelTiming{}, errors.New("the side panel never became usable")
}

// panelTurns opens the panel of each build (origins: -ext's, then
// -baseline's if given) n times in turns, first with its worker awake and
// then right after Chrome stopped every worker, and reports both.
func panelTurns(browserCtx context.Context, n int, sides []*side, origins []string) error {
	names := []string{"this build", "baseline build"}
	if origins[1] == "" {
		origins = origins[:1]
	}
	opens := map[string][]panelTiming{}
	for i := range n {
		for j := range origins {
			k := (i + j) % len(origins) // each round starts with another build
			for _, cold := range []bool{false, true} {
				if cold {
					if _, err := chromedp.Call(browserCtx, serviceworker.StopAllWorkers, cdp.Empty{}); err != nil {
						return fmt.Errorf("stop workers: %w", err)
					}
					if err := waitNoWorker(browserCtx, sides); err != nil {
						return err
					}
				}
				p, err := openPanel(browserCtx, origins[k])
				if err != nil {
					return fmt.Errorf("%s: %w", names[k], err)
				}
				key := fmt.Sprintf("%s, worker %s", names[k], map[bool]string{false: "awake", true: "stopped"}[cold])
				opens[key] = append(opens[key], p)
			}
		}
	}
	for k := range origins {
		for _, state := range []string{"awake", "stopped"} {
			key := fmt.Sprintf("%s, worker %s", names[k], state)
			fmt.Printf("side panel, %s, %d opens (ms from navigation start)  median    min    max\n", key, n)
			col := func(name string, f func(panelTiming) float64) {
				var v []float64
				for _, p := range opens[key] {
					if x := f(p); x > 0 {
						v = append(v, x)
					}
				}
				if len(v) > 0 {
					report("  "+name, v)
				}
			}
			col("HTML received", func(p panelTiming) float64 { return p.HTML })
			col("HTML parsed (domInteractive)", func(p panelTiming) float64 { return p.Parsed })
			col("last script fetched", func(p panelTiming) float64 { return p.Scripts })
			col("  scripts fetched (count)", func(p panelTiming) float64 { return p.NScripts })
			col("  their size (KB)", func(p panelTiming) float64 { return p.KB })
			col("early.js runs (wb:early)", func(p panelTiming) float64 { return p.Early })
			col("catalogs fetched (wb:catalog)", func(p panelTiming) float64 { return p.Catalog })
			col("entry module runs (wb:modules)", func(p panelTiming) float64 { return p.Modules })
			col("language loaded (wb:i18n)", func(p panelTiming) float64 { return p.I18n })
			col("listeners attached (wb:ready)", func(p panelTiming) float64 { return p.Ready })
			col("provider shown (wb:provider)", func(p panelTiming) float64 { return p.Provider })
			col("first contentful paint", func(p panelTiming) float64 { return p.Paint })
			col("usable (probe)", func(p panelTiming) float64 { return p.Usable })
			// Any other marks (a build may add its own while one looks closer).
			var extra []string
			for _, p := range opens[key] {
				for name := range p.Marks {
					if !slices.Contains(extra, name) && !slices.Contains(knownMarks, name) {
						extra = append(extra, name)
					}
				}
			}
			slices.Sort(extra)
			for _, name := range extra {
				col("mark "+name, func(p panelTiming) float64 { return p.Marks[name] })
			}
		}
	}
	return nil
}

// restart stops every worker, wakes sd's with a message, sends it
// the warm messages and collects its timing.
func restart(ctx context.Context, sd *side, sides []*side) (round, error) {
	if _, err := chromedp.Call(ctx, serviceworker.StopAllWorkers, cdp.Empty{}); err != nil {
		return round{}, fmt.Errorf("stop workers: %w", err)
	}
	if err := waitNoWorker(ctx, sides); err != nil {
		return round{}, err
	}
	// Gone, so the worker found after the wake is a fresh start.
	ms, err := send(sd.page, 1+2*warmMessages+settleMessages)
	if err != nil {
		return round{}, err
	}
	r := round{wake: ms[0], warm: ms[1 : 1+warmMessages], hot: ms[1+warmMessages+settleMessages:]}
	if sd.untimed {
		return r, nil
	}
	w, err := waitWorker(ctx, sd.isWorker)
	if err != nil {
		return round{}, err
	}
	r.timing, err = workerTiming(ctx, w.TargetID)
	if err != nil {
		return round{}, err
	}
	return r, nil
}

// send sends count messages one after another from an extension page and
// returns each round trip in ms as the page measured it; each reply must
// come from the worker's core, not from a failure.
func send(page context.Context, count int) ([]float64, error) {
	js := fmt.Sprintf(`(async () => {
		const out = [];
		for (let i = 0; i < %d; i++) {
			const t = performance.now();
			const reply = await chrome.runtime.sendMessage({action: "settings_get"});
			out.push({ms: performance.now() - t, reply});
		}
		return out;
	})()`, count)
	type result struct {
		MS    float64         `json:"ms"`
		Reply json.RawMessage `json:"reply"`
	}
	res, err := chromedp.Run(page, chromedp.Evaluate[[]result](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return nil, fmt.Errorf("message the worker: %w", err)
	}
	ms := make([]float64, len(res))
	for i, r := range res {
		var reply struct {
			OK bool `json:"ok"`
		}
		if err := json.Unmarshal(r.Reply, &reply); err != nil || !reply.OK {
			return nil, fmt.Errorf("the worker answered %s", r.Reply)
		}
		ms[i] = r.MS
	}
	return ms, nil
}

// waitKept waits until the worker's first start has kept its copy of the
// module in IndexedDB, as it does a few seconds into the first start of a
// build; a user's worker lives longer than that, the bench's would not.
func waitKept(page context.Context) error {
	for range 300 {
		n, err := chromedp.Run(page, chromedp.Evaluate[int](testenv.KeptModuleBytes, chromedp.EvalAwaitPromise))
		if err != nil {
			return fmt.Errorf("read the kept module's size: %w", err)
		}
		if n > 4_000_000 {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("the worker kept no copy of the module within 30 s")
}

// startup is globalThis.wbStartup: when each step of the start ended, in
// ms from the worker's start. The reference records only scriptStart and
// the first message and reply.
type startup struct {
	ScriptStart  float64 `json:"scriptStart"`
	Glue         float64 `json:"glue"`
	Compiled     float64 `json:"compiled"`
	Instantiated float64 `json:"instantiated"`
	GoMain       float64 `json:"goMain"`
	GoReady      float64 `json:"goReady"`
	FirstMessage float64 `json:"firstMessage"`
	FirstReply   float64 `json:"firstReply"`
	Module       string  `json:"module"` // what the module was compiled from: "cache" or "package"
}

// workerTiming reads globalThis.wbStartup in the worker target.
func workerTiming(ctx context.Context, id target.ID) (startup, error) {
	wctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(id))
	defer cancel()
	var lastErr error
	// A worker's globals can be missing for a moment after its target appears.
	for range 50 {
		s, err := chromedp.Run(wctx, chromedp.Evaluate[*startup](`globalThis.wbStartup ?? null`))
		if err == nil && s != nil && s.FirstReply > 0 {
			return *s, nil
		}
		lastErr = err
		time.Sleep(20 * time.Millisecond)
	}
	return startup{}, fmt.Errorf("the worker recorded no reply time (%v)", lastErr)
}

// absDir is dir made absolute with its links resolved: Chromium derives an
// unpacked extension's id from that path.
func absDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// workerOf picks the background.js worker of the unpacked extension in
// dir. Chromium's id for it is the SHA-256 of the path, its first 16
// bytes in hex with the digits 0-f written a-p.
func workerOf(dir string) func(*target.Info) bool {
	sum := sha256.Sum256([]byte(dir))
	id := []byte(hex.EncodeToString(sum[:16]))
	for i, c := range id {
		if c <= '9' {
			id[i] = 'a' + c - '0'
		} else {
			id[i] = 'a' + 10 + c - 'a'
		}
	}
	prefix := "chrome-extension://" + string(id) + "/"
	return func(info *target.Info) bool {
		return testenv.IsExtensionWorker(info) && strings.HasPrefix(info.URL, prefix)
	}
}

// waitWorker returns the service worker target isWorker picks. A
// restarted worker keeps its target id.
func waitWorker(ctx context.Context, isWorker func(*target.Info) bool) (*target.Info, error) {
	for range 250 {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			return nil, err
		}
		if i := slices.IndexFunc(infos, isWorker); i >= 0 {
			return infos[i], nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, errors.New("the extension's service worker did not appear: did Chromium refuse the extension (a file the manifest names is missing)?")
}

// waitNoWorker waits until no side has a service worker running.
func waitNoWorker(ctx context.Context, sides []*side) error {
	running := func(info *target.Info) bool {
		return slices.ContainsFunc(sides, func(sd *side) bool { return sd.isWorker(info) })
	}
	for range 250 {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(infos, running) {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.New("the service workers did not stop")
}

// report prints the median, min and max of v and returns the median.
func report(name string, v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	median := v[len(v)/2]
	if len(v)%2 == 0 {
		median = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	fmt.Printf("%-46s %7.1f %6.1f %6.1f\n", name, median, v[0], v[len(v)-1])
	return median
}
