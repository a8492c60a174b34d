//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

var departureCode = regexp.MustCompile(`departure code ([A-Z]+-\d+)`)

// The model navigates to a second page, reads it, goes back, and answers
// with what only the second page said.
func TestNavigationAcrossPages(t *testing.T) {
	page2 := env.fixtures.URL + "/page2.html?test=" + url.QueryEscape(t.Name())
	var code string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return callTool("navigate", map[string]any{"url": page2})
		case 1:
			return callTool("read_page", map[string]any{})
		case 2:
			m := departureCode.FindStringSubmatch(lastToolResult(req))
			if m == nil {
				return answer("SCRIPT FAILED: read_page after navigate did not show page 2")
			}
			code = m[1]
			return callTool("go_back", map[string]any{})
		}
		return answer("The departure code on Station Two is " + code + ".")
	})
	s := openSession(t, "page1.html", srv, openAIChat)
	// Nobody touches page 1 first: chrome.tabs.goBack would skip it (Chrome's
	// history intervention) and land on about:blank; go_back must not.
	s.send("act", "Open the timetable page, find the departure code, then come back here.")

	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if got := s.text("#transcript .msg.assistant"); !strings.Contains(got, "ZEBRA-42") {
		t.Errorf("answer %q lacks page 2's departure code ZEBRA-42", got)
	}
	var tools []string
	for _, r := range s.toolRows() {
		tools = append(tools, r.Tool)
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
	}
	if strings.Join(tools, " ") != "navigate read_page go_back" {
		t.Errorf("tool rows %v, want navigate read_page go_back", tools)
	}
	tabURL := evalIn[string](t, env.worker, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.url)`, s.tabID), chromedp.EvalAwaitPromise)
	if tabURL != s.pageURL {
		t.Errorf("tab URL %s after go_back, want %s", tabURL, s.pageURL)
	}
}
