//go:build firefox

package firefox

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// startup is globalThis.wbStartup of the background page (jsglue/background.js):
// performance.now() when the script ran and when Go reported ready.
type startup struct {
	ScriptStart float64  `json:"scriptStart"`
	GoReady     *float64 `json:"goReady"`
	Module      string   `json:"module"` // what the module was compiled from: "cache" or "package"
}

const readStartup = `browser.runtime.getBackgroundPage().then(p => p.wbStartup ?? null)`

// The background page loads webbrain.wasm, Go reports ready, and the host
// object tells Go it runs in Firefox without a debugger.
func TestBackgroundPageStartsGo(t *testing.T) {
	e := sharedEnv(t)
	deadline := time.Now().Add(20 * time.Second)
	var st startup
	for {
		st = evalIn[startup](t, e.ff, e.bridge, readStartup)
		if st.GoReady != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Go never became ready: wbStartup %+v", st)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if *st.GoReady < st.ScriptStart {
		t.Errorf("goReady %.0f ms before scriptStart %.0f ms", *st.GoReady, st.ScriptStart)
	}
	t.Logf("background page: script at %.0f ms, Go ready at %.0f ms", st.ScriptStart, *st.GoReady)

	host := evalIn[struct {
		Browser  string `json:"browser"`
		Debugger bool   `json:"debugger"`
		Go       bool   `json:"go"`
	}](t, e.ff, e.bridge, `browser.runtime.getBackgroundPage().then(p => ({
		browser: p.wbHost.browser, debugger: !!p.wbHost.debugger, go: typeof p.wbGo?.handle === 'function'}))`)
	if host.Browser != "firefox" || host.Debugger || !host.Go {
		t.Errorf("background host %+v, want browser firefox, no debugger, wbGo.handle set", host)
	}

	r := evalIn[struct {
		OK       bool           `json:"ok"`
		Settings map[string]any `json:"settings"`
	}](t, e.ff, e.bridge, `browser.runtime.sendMessage({action: "settings_get"})`)
	if !r.OK || r.Settings["providers"] == nil {
		t.Errorf("settings_get answered %+v, want ok with providers", r)
	}
}

// Ask: the model reads the accessibility tree and answers with a fact only
// the page holds.
func TestAskReadsTheAccessibilityTree(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return scenario.CallTool("get_accessibility_tree", map[string]any{})
		}
		tree := scenario.LastToolResult(req)
		if !strings.Contains(tree, "3,417 paper lanterns") {
			return scenario.ScriptFailed(errors.New("the tree lacks the lantern count:\n" + scenario.Clip(tree, 2000)))
		}
		return scenario.Answer("**3,417** lanterns will float from Pier 9.")
	})
	s := openSession(t, "article.html", srv)
	s.Send("ask", "How many lanterns will float this year?")

	if got := scenario.WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if !slices.Contains(reqs[0].Tools, "get_accessibility_tree") || slices.Contains(reqs[0].Tools, "click_ax") {
		t.Errorf("Ask offered %v: want get_accessibility_tree and no click_ax", reqs[0].Tools)
	}
	rows := scenario.ToolRows(t, s)
	if len(rows) != 1 || rows[0].Tool != "get_accessibility_tree" || rows[0].IsError {
		t.Errorf("tool rows %+v, want one successful get_accessibility_tree", rows)
	}
	if got := scenario.Text(t, s, "#transcript .msg.assistant"); !strings.Contains(got, "3,417 lanterns will float") {
		t.Errorf("answer %q, want the lantern count", got)
	}
	if j := scenario.RunState(t, s); j.Status != "done" || !strings.Contains(j.Final, "3,417") {
		t.Errorf("run_state status %q final %q, want done with the answer", j.Status, j.Final)
	}
}

// Act: the model types a name into a field and clicks a button by their
// refs; the page sees the typed value and a synthetic (untrusted) click.
func TestActTypesAndClicks(t *testing.T) {
	var clickDesc string
	refs := map[string]string{}
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			clickDesc = toolDescription(req, "click")
			return scenario.CallTool("get_accessibility_tree", map[string]any{})
		case 1:
			tree := scenario.LastToolResult(req)
			for key, node := range map[string][2]string{"name": {"textbox", "Your name"}, "greet": {"button", "Greet me"}} {
				ref, err := scenario.FindRef(tree, node[0], node[1])
				if err != nil {
					return scenario.ScriptFailed(err)
				}
				refs[key] = ref
			}
			return scenario.CallTool("type_ax", map[string]any{"ref": refs["name"], "text": "Ada Lovelace"})
		case 2:
			return scenario.CallTool("click_ax", map[string]any{"ref": refs["greet"]})
		case 3:
			return scenario.CallTool("read_page", map[string]any{})
		}
		page := scenario.LastToolResult(req)
		if !strings.Contains(page, "Hello, Ada Lovelace!") {
			return scenario.ScriptFailed(errors.New("the page shows no greeting:\n" + scenario.Clip(page, 2000)))
		}
		return scenario.Answer("The page says: Hello, Ada Lovelace!")
	})
	s := openSession(t, "greet.html", srv)
	s.Send("act", "Greet me as Ada Lovelace.")

	if got := scenario.WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	type click struct {
		Name    string `json:"name"`
		Trusted bool   `json:"trusted"`
	}
	if got := evalIn[[]click](t, s.env.ff, s.page, `window.__record`); len(got) != 1 || got[0].Name != "Ada Lovelace" || got[0].Trusted {
		t.Errorf("the page recorded clicks %+v, want one untrusted click with the name Ada Lovelace", got)
	}
	var tools []string
	for _, r := range scenario.ToolRows(t, s) {
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
		tools = append(tools, r.Tool)
	}
	if want := "get_accessibility_tree type_ax click_ax read_page"; strings.Join(tools, " ") != want {
		t.Errorf("tool rows %v, want %s", tools, want)
	}
	if !strings.Contains(clickDesc, "synthetic events") {
		t.Errorf("the click tool's description %q lacks Firefox's synthetic-events note", clickDesc)
	}
	if got := scenario.Text(t, s, "#transcript .msg.assistant"); !strings.Contains(got, "Hello, Ada Lovelace!") {
		t.Errorf("answer %q, want the greeting read back from the page", got)
	}
}
