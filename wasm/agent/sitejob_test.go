package agent

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/webbrain/webbrain/wasm/adapters"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// submitGate lets every call through and records a click as a
// submission of kind cat, as guard.Gate does for a consequential action.
type submitGate struct {
	mu   sync.Mutex
	cat  guard.Category
	subs []guard.Submission
}

func (g *submitGate) SetWords([]string, string) {}
func (g *submitGate) CheckSkill(context.Context, llm.ToolCall, guard.SkillCall) (string, error) {
	return "no skill tools in this test", nil
}
func (g *submitGate) Check(_ context.Context, c llm.ToolCall) (string, error) {
	if c.Name == protocol.ToolClickAX && g.cat != "" {
		g.mu.Lock()
		g.subs = append(g.subs, guard.Submission{Category: g.cat, PageURL: "https://github.com/acme/tool/issues/new", CallID: c.ID})
		g.mu.Unlock()
	}
	return "", nil
}
func (g *submitGate) Observe(string)                 {}
func (g *submitGate) Visit(string)                   {}
func (g *submitGate) CleanAnswer(text string) string { return text }
func (g *submitGate) Submissions() []guard.Submission {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]guard.Submission(nil), g.subs...)
}

// clicksThenClaims clicks once, then claims success on every turn.
func clicksThenClaims(n int, req llmtest.Request) llmtest.Turn {
	if n == 0 {
		return llmtest.Turn{ToolCalls: []llm.ToolCall{call("click_ax", map[string]any{"ref": "4"})}}
	}
	return llmtest.Turn{ToolCalls: []llm.ToolCall{call("done", map[string]any{"summary": "The issue is filed.", "status": "success"})}}
}

func TestSiteJobNeedsItsTerminalEvidence(t *testing.T) {
	gh := adapters.Match("https://github.com/acme/tool")
	bound := adapters.Bind(gh, "create-issue", "https://github.com/acme/tool")
	if bound == nil {
		t.Fatal("no github job")
	}
	cases := []struct {
		name      string
		cat       guard.Category // what the gate let through; "" nothing
		statusURL string
		outcome   string
		requests  int
		final     string
	}{
		{"filed and shown", guard.CatSubmit, "https://github.com/acme/tool/issues/42", "success", 2, "The issue is filed."},
		{"submitted, not shown", guard.CatSubmit, "https://github.com/acme/tool/issues/new", "partial", 3, "The submission was made, but the page does not show the new item"},
		{"shown elsewhere", guard.CatSubmit, "https://gitlab.example/acme/tool/issues/42", "partial", 3, "does not show the new item"},
		{"never submitted", "", "https://github.com/acme/tool/issues/42", "failed", 3, "Nothing was submitted: no submit action"},
		{"a download is no submission", guard.CatDownload, "https://github.com/acme/tool/issues/42", "failed", 3, "Nothing was submitted"},
	}
	for _, c := range cases {
		h := newHarness(t, protocol.ModeAct, "mid", clicksThenClaims)
		h.content.statusURL = c.statusURL
		h.opts.Gate = &submitGate{cat: c.cat}
		h.opts.SiteJob = bound
		out, err := h.run(context.Background(), nil, "file an issue about the crash")
		if err != nil {
			t.Fatal(err)
		}
		reqs := h.srv.Requests()
		if len(reqs) != c.requests {
			t.Errorf("%s: %d model requests, want %d", c.name, len(reqs), c.requests)
		}
		if sys := reqs[0].Messages[0].Content; !strings.Contains(sys, `[Site job] WebBrain bound this task to its site job "create-issue"`) || !strings.Contains(sys, "/*/*/issues/#") {
			t.Errorf("%s: the job's contract is not in the system prompt", c.name)
		}
		if c.requests == 3 {
			back := reqs[2].Messages[len(reqs[2].Messages)-1].Content
			if !strings.Contains(back, `Not finished: this task is WebBrain's site job "create-issue"`) {
				t.Errorf("%s: sent back %q", c.name, back)
			}
		}
		if f := finalEvent(t, h); f.Outcome != c.outcome || !strings.Contains(out.Final, c.final) {
			t.Errorf("%s: outcome %q, final %q", c.name, f.Outcome, out.Final)
		}
	}
}

// A submission the gate let through whose click then failed is no
// submission: the run ends failed, not partial.
func TestFailedSubmissionIsNotEvidence(t *testing.T) {
	gh := adapters.Match("https://github.com/acme/tool")
	h := newHarness(t, protocol.ModeAct, "mid", clicksThenClaims)
	h.content.statusURL = "https://github.com/acme/tool/issues/new"
	h.content.reply = func(_ context.Context, name string, _ map[string]any) (string, error) {
		if name == "click_ax" {
			return "", errors.New("the element is covered by another element")
		}
		return name + " done", nil
	}
	h.opts.Gate = &submitGate{cat: guard.CatSubmit}
	h.opts.SiteJob = adapters.Bind(gh, "create-issue", "https://github.com/acme/tool")
	out, err := h.run(context.Background(), nil, "file an issue about the crash")
	if err != nil {
		t.Fatal(err)
	}
	if f := finalEvent(t, h); f.Outcome != "failed" || !strings.Contains(out.Final, "Nothing was submitted") {
		t.Errorf("outcome %q, final %q", f.Outcome, out.Final)
	}
}

// A send job with recipient evidence needs the gate's verified recipient.
func TestSendJobNeedsTheVerifiedRecipient(t *testing.T) {
	slack := adapters.Match("https://app.slack.com/client/T1/C1")
	bound := adapters.Bind(slack, "send-message", "https://app.slack.com/client/T1/C1")
	h := newHarness(t, protocol.ModeAct, "mid", clicksThenClaims)
	h.opts.Gate = &submitGate{cat: guard.CatSend} // a send without a verified recipient
	h.opts.SiteJob = bound
	out, err := h.run(context.Background(), nil, "tell #general the build is green")
	if err != nil {
		t.Fatal(err)
	}
	if f := finalEvent(t, h); f.Outcome != "partial" || !strings.Contains(out.Final, "not verified as going to the recipient") {
		t.Errorf("outcome %q, final %q", f.Outcome, out.Final)
	}
}

// Each adapter the run meets is reported once per arrival on its site,
// with whether its notes went to the model then.
func TestSiteMatchesAreReported(t *testing.T) {
	var seen []string
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "ok"}
	})
	h.tabs.tab.URL = "https://github.com/acme/tool"
	h.opts.SiteAdapter = adapters.Match
	h.opts.SiteMatched = func(a *adapters.Adapter, injected bool) {
		seen = append(seen, a.ID+":"+map[bool]string{true: "injected", false: "known"}[injected])
	}
	if _, err := h.run(context.Background(), nil, "read the readme"); err != nil {
		t.Fatal(err)
	}
	if strings.Join(seen, " ") != "github:injected" {
		t.Errorf("reported %v", seen)
	}
}
