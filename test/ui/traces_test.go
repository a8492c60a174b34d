//go:build browser

package ui

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

func TestTracesPageListsShowsAndExports(t *testing.T) {
	tb := openPage(t, "/traces/traces.html", historySetup)
	tb.waitFor("the page", `document.body.dataset.ready === 'true'`)
	tb.do(`
await wbTraceDB.clear();
const old = new Date(Date.now() - 20 * 24 * 3600 * 1000).toISOString();
await wbTraceDB.put({id: "old", tabId: 1, site: "a.example", mode: "ask", status: "running", startedAt: old, durationMs: 0,
  provider: {kind: "openai-chat", tier: "mid", vision: false}, events: []});
await wbTraceDB.put({id: "r1", tabId: 2, site: "shop.example", mode: "auto", finalMode: "act", status: "done", outcome: "success",
  startedAt: new Date().toISOString(), durationMs: 2500, recordedByWebBrainVersion: "9.9.9",
  provider: {kind: "openai-chat", tier: "mid", vision: false},
  events: [{at: 3, type: "llm_request", phase: "agent", toolCalls: 1}, {at: 9, type: "tool", tool: "read_page", argNames: ["maxChars"], resultChars: 120}]});`)
	// The finished run applied the retention rules: the 20-day-old run is gone.
	if ids := eval[[]string](tb, `wbTraceDB.list().then((runs) => runs.map((r) => r.id))`); strings.Join(ids, ",") != "r1" {
		t.Fatalf("stored runs %v: want the old one pruned", ids)
	}
	tb.run(chromedp.Reload())
	tb.waitFor("the rows", `document.body.dataset.ready === 'true' && document.querySelectorAll('#traces-rows tr').length === 1`)
	row := eval[string](tb, `document.querySelector('#traces-rows tr').textContent`)
	if !strings.Contains(row, "shop.example") || !strings.Contains(row, "auto → act") || !strings.Contains(row, "done (success)") {
		t.Errorf("row %q", row)
	}
	tb.do(`document.querySelector('#traces-rows tr').click()`)
	tb.waitFor("the events", `document.querySelectorAll('#trace-events tr').length === 2`)
	if ev := eval[string](tb, `document.querySelector('#trace-events').textContent`); !strings.Contains(ev, `argNames: ["maxChars"]`) {
		t.Errorf("events %q", ev)
	}
	tb.do(`document.querySelector('#trace-export').click()`)
	tb.waitFor("the download", `__fake.downloads.length === 1`)
	doc := eval[map[string]any](tb, `__fake.downloads[0].then((d) => JSON.parse(d.text))`)
	if doc["format"] != "webbrain-trace/1" || doc["exportedByWebBrainVersion"] != "9.9.9" || len(doc["runs"].([]any)) != 1 {
		t.Fatalf("export %v", doc)
	}
	tb.do(`await wbTraceDB.clear()`)
}
