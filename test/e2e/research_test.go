//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/test/scenario"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// TestResearchAsksChatGPTAfterApproval: with research escalation on, an
// Ask run's delegate_research shows WebBrain's card with the exact
// question; approved, the question is typed into https://chatgpt.com/ (a
// local stand-in over HTTPS) in a new tab, and ChatGPT's answer comes back
// to the model as untrusted evidence.
func TestResearchAsksChatGPTAfterApproval(t *testing.T) {
	const question = "When were paper lanterns first floated at Pier 9?"
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleTool {
			return answer("From ChatGPT: " + last.Content)
		}
		return callTool("delegate_research", map[string]any{"research_request": question})
	})
	s := openSession(t, "dialogs.html", srv, openAIChat)
	r := evalIn[map[string]any](t, s.panel, `chrome.runtime.sendMessage({action: 'settings_get'}).then(r => {
		const settings = {...r.settings, researchEscalationEnabled: true};
		return chrome.runtime.sendMessage({action: 'settings_save', settings});
	})`, chromedp.EvalAwaitPromise)
	if r["ok"] != true {
		t.Fatalf("settings_save: %v", r)
	}
	s.send("ask", "When did the lantern festival start?")
	scenario.WaitFor(t, s, "the research card", 30*time.Second, `!!document.querySelector('.approval-card.pending button[data-decision="approve"]')`)
	if got := s.text(".approval-card .approval-category"); got != "Ask ChatGPT" {
		t.Fatalf("card category %q", got)
	}
	if got := s.text(".approval-card .approval-details"); !strings.Contains(got, question) {
		t.Fatalf("the card does not show the exact question: %q", got)
	}
	if err := chromedp.Do(s.panel, chromedp.Click(chromedp.CSS(`.approval-card.pending button[data-decision="approve"]`))); err != nil {
		t.Fatal(err)
	}
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	final := s.text("#transcript .msg.assistant:last-of-type")
	if !strings.Contains(final, "1952") {
		t.Fatalf("final answer %q", final)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1].Messages
	if got := last[len(last)-1].Content; !strings.Contains(got, "untrusted evidence") || !strings.Contains(got, "https://archive.example.org/pier9") {
		t.Fatalf("the model got %q", got)
	}
	asked := evalIn[[]string](t, env.worker, `chrome.tabs.query({url: 'https://chatgpt.com/*'}).then(async ts => {
		if (ts.length !== 1) return ['tabs: ' + ts.length];
		const [r] = await chrome.scripting.executeScript({target: {tabId: ts[0].id}, world: 'MAIN', func: () => window.__asked});
		return r.result;
	})`, chromedp.EvalAwaitPromise)
	if len(asked) != 1 || asked[0] != question {
		t.Fatalf("ChatGPT was asked %q", asked)
	}
}
