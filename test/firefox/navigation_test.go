//go:build firefox

package firefox

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

var departureCode = regexp.MustCompile(`departure code is ([A-Z]+-\d+)`)

// The background navigates the tab with tabs.update, the content script of
// the new page answers, and go_back returns through tabs.goBack.
func TestNavigationAcrossPages(t *testing.T) {
	e := sharedEnv(t)
	station2 := e.fixtures.URL + "/station2.html?test=" + url.QueryEscape(t.Name())
	var code string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return scenario.CallTool("navigate", map[string]any{"url": station2})
		case 1:
			return scenario.CallTool("read_page", map[string]any{})
		case 2:
			m := departureCode.FindStringSubmatch(scenario.LastToolResult(req))
			if m == nil {
				return scenario.Answer("SCRIPT FAILED: read_page after navigate did not show Station Two")
			}
			code = m[1]
			return scenario.CallTool("go_back", map[string]any{})
		}
		return scenario.Answer("The departure code on Station Two is " + code + ".")
	})
	s := openSession(t, "station1.html", srv)
	s.Send("act", "Open the timetable page, find the departure code, then come back here.")

	if got := scenario.WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if got := scenario.Text(t, s, "#transcript .msg.assistant"); !strings.Contains(got, "OTTER-77") {
		t.Errorf("answer %q lacks Station Two's departure code OTTER-77", got)
	}
	var tools []string
	for _, r := range scenario.ToolRows(t, s) {
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
		tools = append(tools, r.Tool)
	}
	if want := "navigate read_page go_back"; strings.Join(tools, " ") != want {
		t.Errorf("tool rows %v, want %s", tools, want)
	}
	tabURL := evalIn[string](t, e.ff, e.bridge, fmt.Sprintf(`browser.tabs.get(%d).then(t => t.url)`, s.tabID))
	if tabURL != s.pageURL {
		t.Errorf("tab URL %s after go_back, want %s", tabURL, s.pageURL)
	}
}
