package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/test/testenv"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/trace/tracetest"
)

// The secrets of HistoryAndTraces: one on the page, one in the prompt.
const (
	deployKey = "sk-proj-Pg7Wm2Qx9Lk4Rt8Vb3Nc6Hy1Jd5Fs0Ea2Zu"
	promptKey = "sk-proj-Hh4Kd9Zp2Wq7Lm3Xc8Vb5Nn1Tg6Rj0Ys4Fa"
)

// HistoryAndTraces: with Record traces on, an Ask run reads a page that
// shows a key; its trace is recorded, exported by /export --traces,
// valid against docs/webbrain-trace-1.schema.json and free of both the
// page's key and the one in the prompt. /clear puts the conversation in
// the History view, where it opens read-only and is deleted.
func HistoryAndTraces(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return CallTool("read_page", map[string]any{})
		}
		if !strings.Contains(LastToolResult(req), "02:40 UTC") {
			return ScriptFailed(errors.New("read_page did not return the build time"))
		}
		return Answer("The nightly build ships at **02:40 UTC**.")
	})
	s := d.Open(t, "deploy.html", srv, OpenAIChat)
	saveWithTraces(t, s, srv)
	// Downloads are caught in the panel: the test reads the file the user would get.
	if err := s.Eval(Panel, `(() => { window.__downloads = [];
	  HTMLAnchorElement.prototype.click = function () { __downloads.push(fetch(this.href).then((r) => r.text())); };
	  return true; })()`, nil); err != nil {
		t.Fatal(err)
	}

	prompt := "When does the nightly build ship? My key is " + promptKey
	s.Send("ask", prompt)
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q", got)
	}
	// The trace is written as the run ends, just after the panel sees it end.
	WaitFor(t, s, "the recorded trace", 10*time.Second,
		fmt.Sprintf(`wbTraceDB.list(%d).then((runs) => runs.length === 1 && runs[0].status === 'done')`, s.TabID()))
	s.Send("ask", "/export --traces")
	WaitFor(t, s, "the trace download", 10*time.Second, `window.__downloads.length === 1`)
	exported := Eval[string](t, s, Panel, `__downloads[0]`)
	checkTraceExport(t, s, exported)

	s.Send("ask", "/clear")
	WaitFor(t, s, "the cleared chat", 10*time.Second, `!document.querySelector('#transcript .msg.user')`)
	s.Click("#open-history")
	// Other scenarios' closed tabs may be listed too: this run's entry is found by its title.
	const findEntry = `[...document.querySelectorAll('#history-list .history-item')]
	  .find((li) => li.querySelector('.history-open').textContent.startsWith('When does the nightly build ship?'))`
	WaitFor(t, s, "the history entry", 10*time.Second, "!!"+findEntry)
	id := Eval[string](t, s, Panel, findEntry+".dataset.id")
	item := fmt.Sprintf(`#history-list .history-item[data-id=%q]`, id)
	if title := Text(t, s, item+" .history-open"); strings.Contains(title, promptKey) {
		t.Errorf("the history title holds the prompt's key: %q", title)
	}
	s.Click(item + " .history-open")
	WaitFor(t, s, "the old transcript", 10*time.Second,
		`document.querySelector('#history-transcript .msg.assistant strong')?.textContent === '02:40 UTC'`)
	old := Text(t, s, "#history-transcript")
	if strings.Contains(old, deployKey) || strings.Contains(old, promptKey) {
		t.Errorf("the archived transcript holds a key:\n%s", old)
	}
	s.Click("#history-back")
	WaitFor(t, s, "the list", 10*time.Second, fmt.Sprintf("!!document.querySelector(%q)", item))
	s.Click(item + " .history-delete")
	WaitFor(t, s, "the deletion", 10*time.Second, fmt.Sprintf("!document.querySelector(%q)", item))
	left := Eval[[]string](t, s, Panel, extAPI+`.runtime.sendMessage({action: 'history_list'}).then((r) => r.entries.map((e) => e.id))`)
	if slices.Contains(left, id) {
		t.Errorf("the deleted conversation is still listed: %v", left)
	}
}

// saveWithTraces saves srv as the only provider with Record traces on.
func saveWithTraces(t *testing.T, s Session, srv *llmtest.Server) {
	t.Helper()
	msg, _ := json.Marshal(map[string]any{"action": "settings_save", "settings": map[string]any{
		"providers": []map[string]any{{"id": "fake", "name": "Fake", "kind": "openai-chat", "baseUrl": srv.URL + "/v1",
			"model": llmtest.Model, "tier": "mid"}},
		"activeProvider": "fake", "maxSteps": 30, "traces": true,
	}})
	if r := Eval[reply](t, s, Panel, fmt.Sprintf(`%s.runtime.sendMessage(%s)`, extAPI, msg)); !r.OK {
		t.Fatalf("settings_save: %s", r.Error)
	}
}

func checkTraceExport(t *testing.T, s Session, exported string) {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := tracetest.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if errs := schema.Validate([]byte(exported)); len(errs) > 0 {
		t.Fatalf("the exported trace breaks the schema:\n%s\n%s", strings.Join(errs, "\n"), Clip(exported, 2000))
	}
	for _, secret := range []string{deployKey, promptKey, "nightly build", "02:40"} {
		if strings.Contains(exported, secret) {
			t.Errorf("the exported trace holds %q", secret)
		}
	}
	var doc struct {
		Version string `json:"exportedByWebBrainVersion"`
		Runs    []struct {
			Version string `json:"recordedByWebBrainVersion"`
			TabID   int    `json:"tabId"`
			Events  []struct {
				Type string `json:"type"`
				Tool string `json:"tool"`
			} `json:"events"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(exported), &doc); err != nil {
		t.Fatal(err)
	}
	version := Eval[string](t, s, Panel, extAPI+`.runtime.getManifest().version`)
	if doc.Version != version || len(doc.Runs) != 1 || doc.Runs[0].Version != version || doc.Runs[0].TabID != s.TabID() {
		t.Fatalf("export header %+v, manifest version %s", doc, version)
	}
	var kinds []string
	for _, ev := range doc.Runs[0].Events {
		kinds = append(kinds, ev.Type+":"+ev.Tool)
	}
	if slices.Index(kinds, "llm_request:") < 0 || !slices.Contains(kinds, "tool:read_page") || !slices.Contains(kinds, "end:") {
		t.Errorf("trace events %v", kinds)
	}
}
