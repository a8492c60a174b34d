//go:build e2e

package durable

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/testenv"
)

// spoilKeptModule overwrites every kept copy with bytes that are no module.
const spoilKeptModule = `new Promise((resolve, reject) => {
	const open = indexedDB.open("webbrain-module");
	open.onerror = () => reject(open.error);
	open.onsuccess = () => {
		const db = open.result;
		const tx = db.transaction("module", "readwrite");
		const store = tx.objectStore("module");
		const keys = store.getAllKeys();
		keys.onsuccess = () => { for (const k of keys.result) store.put(new Blob(["not a module"]), k); };
		tx.oncomplete = () => { db.close(); resolve(keys.result.length); };
		tx.onerror = () => { db.close(); reject(tx.error); };
	};
})`

// waitKept waits until the worker keeps a copy of the module (the packaged
// one is 2.4 MB gzip, 9 MB decompressed).
func waitKept(t *testing.T, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for evalIn[int](t, env.control, testenv.KeptModuleBytes, chromedp.EvalAwaitPromise) < 4_000_000 {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// wakeAndSource wakes the stopped worker with a message from the control
// page, checks it answers, and returns what the worker compiled the module
// from ("cache" or "package").
func wakeAndSource(t *testing.T) string {
	t.Helper()
	ok := evalIn[bool](t, env.control, `chrome.runtime.sendMessage({action: "settings_get"}).then((r) => !!r && r.ok !== false)`,
		chromedp.EvalAwaitPromise)
	if !ok {
		t.Fatal("the woken worker did not answer settings_get")
	}
	info, _, err := testenv.ExtensionWorker(env.browser, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := chromedp.NewContext(env.browser, chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
	defer cancel()
	var from string
	for range 50 {
		if from = evalIn[string](t, wctx, `globalThis.wbStartup?.module ?? ""`); from != "" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return from
}

// TestWorkerCompilesTheKeptModule: once a start has kept a decompressed
// copy of the module, a stopped worker compiles from it; a copy that does
// not compile is dropped, the packaged module is used, and a good copy is
// kept again.
func TestWorkerCompilesTheKeptModule(t *testing.T) {
	waitKept(t, "a start to keep the module")
	stopWorker(t)
	if from := wakeAndSource(t); from != "cache" {
		t.Fatalf("a woken worker compiled from %q, want the kept copy", from)
	}

	if n := evalIn[int](t, env.control, spoilKeptModule, chromedp.EvalAwaitPromise); n != 1 {
		t.Fatalf("spoiled %d kept copies, want exactly one (one per build)", n)
	}
	stopWorker(t)
	if from := wakeAndSource(t); from != "package" {
		t.Fatalf("with a spoiled copy the worker compiled from %q, want the packaged module", from)
	}
	waitKept(t, "a good copy to be kept again")
	stopWorker(t)
	if from := wakeAndSource(t); from != "cache" {
		t.Fatalf("after the copy was kept again the worker compiled from %q, want the kept copy", from)
	}
}
