//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// A trusted click whose handler calls alert() or confirm() would block the
// page and the run; the debugger answers at once: the alert is
// acknowledged, the confirmation dismissed, and the results say so with
// the dialog text inside the untrusted block.
func TestChromeAnswersDialogs(t *testing.T) {
	refs := map[string]string{}
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return callTool("get_accessibility_tree", map[string]any{})
		case 1:
			for _, name := range []string{"Save draft", "Delete item"} {
				ref, err := findRef(lastToolResult(req), "button", name)
				if err != nil {
					return scriptFailed(err)
				}
				refs[name] = ref
			}
			return callTool("click_ax", map[string]any{"ref": refs["Save draft"]})
		case 2:
			return callTool("click_ax", map[string]any{"ref": refs["Delete item"]})
		}
		return answer("Done.")
	})
	// The model reads the request as asking to delete the item the page shows.
	srv.Decider = func(llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: `{"choice":"delete_this_item","quote":"delete the item"}`}
	}
	s := openSession(t, "dialogs.html", srv, openAIChat)
	s.send("act", "Save the draft, then delete the item.")

	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	for _, r := range s.toolRows() {
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
	}
	if got := strings.Join(s.pageRecord(), " "); got != "alert-returned confirm:false" {
		t.Errorf("the page recorded %q, want the alert acknowledged and the confirm dismissed", got)
	}
	if got := evalIn[string](t, s.page, `document.getElementById('status').textContent`); got != "Draft saved." {
		t.Errorf("the page's status is %q: the click's handler did not finish after the alert", got)
	}
	reqs := srv.Requests()
	var results []string // tool results in order: tree, save, delete
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == llm.RoleTool {
			results = append(results, m.Content)
		}
	}
	if len(results) != 3 {
		t.Fatalf("%d tool results, want 3", len(results))
	}
	checkDialogResult(t, results[1], "an alert; WebBrain acknowledged it (OK)", "Draft saved to the cloud.")
	checkDialogResult(t, results[2], "a confirm dialog; WebBrain dismissed it (answers Cancel)", "Delete item forever?")
}

// checkDialogResult wants our account of the dialog before the untrusted
// block and the page's text only inside it.
func checkDialogResult(t *testing.T, result, account, text string) {
	t.Helper()
	ours, page, ok := strings.Cut(result, "<untrusted_page_content_")
	if !ok || !strings.Contains(ours, account) || strings.Contains(ours, text) || !strings.Contains(page, text) {
		t.Errorf("result does not report %q with the text %q untrusted:\n%s", account, text, result)
	}
	if strings.Contains(result, "Trusted input was unavailable") {
		t.Errorf("the click fell back to synthetic events: %s", firstLine(result))
	}
}

// Leaving a page with unsaved changes shows a beforeunload warning; the
// agent's own navigate chose to go, so WebBrain answers Leave for it.
func TestChromeNavigateLeavesPageWithUnsavedChanges(t *testing.T) {
	page1 := env.fixtures.URL + "/page1.html?test=" + url.QueryEscape(t.Name())
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return callTool("get_accessibility_tree", map[string]any{})
		case 1:
			ref, err := findRef(lastToolResult(req), "button", "Start editing")
			if err != nil {
				return scriptFailed(err)
			}
			return callTool("click_ax", map[string]any{"ref": ref})
		case 2:
			return callTool("navigate", map[string]any{"url": page1})
		}
		return answer("Done.")
	})
	s := openSession(t, "dialogs.html", srv, openAIChat)
	s.send("act", "Start editing, then open Station One.")

	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	for _, r := range s.toolRows() {
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
	}
	tabURL := evalIn[string](t, env.worker, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.url)`, s.tabID), chromedp.EvalAwaitPromise)
	if tabURL != page1 {
		t.Errorf("tab URL %s after navigate, want %s", tabURL, page1)
	}
	result := lastToolResult(srv.Requests()[len(srv.Requests())-1])
	if !strings.Contains(result, "a leave-page warning; WebBrain chose Leave for the navigation it started") {
		t.Errorf("navigate result does not report the warning:\n%s", result)
	}
}
