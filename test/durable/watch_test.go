//go:build e2e

package durable

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// watchJob is what the test reads of a watch through jobs_list.
type watchJob struct {
	ID         string   `json:"id"`
	State      string   `json:"state"`
	Runs       int      `json:"runs"`
	Beep       string   `json:"beep"`
	BeepKeys   []string `json:"beepKeys"`
	LastBeepAt int64    `json:"lastBeepAt"`
	Warning    string   `json:"warning"`
	Baseline   string   `json:"baseline"`
}

// TestWatchWithBeepPlaysTheTone: "/watch … /beep long" on a page whose
// price changes. The first check sees the old price (not yet); the
// price drops, the next check (moved forward through job_update, as the
// user would) arms the alert with beep and succeeds; the service worker
// opens the offscreen document, which plays the long tone with Web Audio
// (the job records the tone only once the document's audio context ran
// and the last note ended), a notification says what happened, and the
// offscreen document is closed again.
func TestWatchWithBeepPlaysTheTone(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		name, content := lastToolOfTurn(req)
		switch name {
		case "":
			return tool("get_accessibility_tree", map[string]any{"filter": "all"})
		case "get_accessibility_tree":
			if strings.Contains(content, "48 €") {
				return tool("beep", map[string]any{"event_key": "kettle 48 €", "message": "The kettle costs 48 €."})
			}
			return tool("done", map[string]any{"summary": "The price is 64 €.", "status": "partial"})
		case "beep":
			if !strings.HasPrefix(content, "Alert armed") {
				return llmtest.Turn{Text: "SCRIPT FAILED: beep answered " + content}
			}
			return tool("done", map[string]any{"summary": "The kettle now costs 48 €.", "status": "success"})
		}
		return llmtest.Turn{Text: "SCRIPT FAILED: unexpected " + name}
	})
	run := t.Name()
	s := openSessionAt(t, srv, "/price.html?run="+url.QueryEscape(run))
	waitFor(t, s.page, "the price", 10*time.Second, `document.getElementById('price').textContent === '64 €'`)
	s.typeEnter("ask", "/watch the price drops below 50 € /beep long", false)

	jobs := func() []watchJob {
		// Other tests' jobs share the browser's storage: this test reads its own.
		return evalIn[[]watchJob](t, s.panel, `chrome.runtime.sendMessage({action: 'jobs_list'}).then(r => r.jobs.filter(j => j.beep === 'long'))`, chromedp.EvalAwaitPromise)
	}
	waitJob := func(what string, ok func(watchJob) bool) watchJob {
		t.Helper()
		deadline := time.Now().Add(runTimeout)
		for {
			js := jobs()
			if len(js) == 1 && ok(js[0]) {
				return js[0]
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s: %+v", what, js)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	first := waitJob("the first check", func(j watchJob) bool { return j.Runs == 1 })
	t.Cleanup(func() {
		_, _ = chromedp.Run(env.control, chromedp.Evaluate[any](fmt.Sprintf(`chrome.runtime.sendMessage({action: 'job_delete', id: %q})`, first.ID), chromedp.EvalAwaitPromise))
	})
	if first.State != "pending" || first.Beep != "long" || first.Baseline != "The price is 64 €." || first.LastBeepAt != 0 {
		t.Fatalf("after the first check %+v", first)
	}
	if reqs := srv.Requests(); !hasTool(reqs[0], "beep") {
		t.Fatalf("the check was not offered beep: %v", reqs[0].Tools)
	}

	// Watch the browser's targets for the offscreen document while the
	// event happens.
	var mu sync.Mutex
	var offscreen []string
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			ts, err := chromedp.Targets(env.control)
			if err != nil {
				continue
			}
			for _, tg := range ts {
				if strings.Contains(tg.URL, "/pdf/offscreen.html") {
					mu.Lock()
					offscreen = append(offscreen, tg.Type)
					mu.Unlock()
				}
			}
		}
	}()
	env.prices.set(run, "48 €")
	waitFor(t, s.page, "the new price", 10*time.Second, `document.getElementById('price').textContent === '48 €'`)
	soon := time.Now().Add(time.Second).UnixMilli()
	r := evalIn[map[string]any](t, s.panel, fmt.Sprintf(`chrome.runtime.sendMessage({action: 'job_update', id: %q, runAt: %d})`, first.ID, soon), chromedp.EvalAwaitPromise)
	if r["ok"] != true {
		t.Fatalf("job_update: %v", r)
	}
	done := waitJob("the tone", func(j watchJob) bool { return j.LastBeepAt > 0 || j.Warning != "" })
	close(stop)
	<-watched
	if done.State != "completed" || done.Warning != "" || len(done.BeepKeys) != 1 || done.BeepKeys[0] != "kettle 48 €" {
		t.Fatalf("after the event %+v", done)
	}
	mu.Lock()
	seen := len(offscreen)
	mu.Unlock()
	if seen == 0 {
		t.Fatal("no offscreen document was opened for the tone")
	}
	// The document is closed once the tone has played.
	gone := func() bool {
		ts, err := chromedp.Targets(env.control)
		if err != nil {
			return false
		}
		for _, tg := range ts {
			if strings.Contains(tg.URL, "/pdf/offscreen.html") {
				return false
			}
		}
		return true
	}
	for deadline := time.Now().Add(5 * time.Second); !gone(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the offscreen document stayed open after the tone")
		}
	}
	id := "webbrain-job-" + done.ID
	shown := func() bool {
		return evalIn[bool](t, env.control, fmt.Sprintf(`chrome.notifications.getAll().then(n => %q in n)`, id), chromedp.EvalAwaitPromise)
	}
	for deadline := time.Now().Add(10 * time.Second); !shown(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no notification %s", id)
		}
	}
}

// hasTool reports whether req offered the tool.
func hasTool(req llmtest.Request, name string) bool {
	for _, n := range req.Tools {
		if n == name {
			return true
		}
	}
	return false
}
