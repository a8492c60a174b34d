package agent

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/adapters"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/skills"
)

// githubNotes is the packaged GitHub adapter's notes.
func githubNotes(t *testing.T) string {
	a := adapters.Match("https://github.com/")
	if a == nil {
		t.Fatal("no packaged GitHub adapter")
	}
	return a.Notes
}

func TestFirstUserMessageCarriesTheMatchedSiteNotes(t *testing.T) {
	for _, c := range []struct {
		url       string
		wantNotes bool
	}{{"https://github.com/webbrain/webbrain/pulls", true}, {"https://shop.example/item", false}} {
		h := newHarness(t, protocol.ModeAsk, "mid", func(n int, req llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: "ok"} })
		h.opts.SiteAdapter = adapters.Match
		h.tabs.load(c.url)
		if _, err := h.run(context.Background(), nil, "What is open?"); err != nil {
			t.Fatal(err)
		}
		user := h.srv.Requests()[0].Messages[1].Content
		label := "Site notes from WebBrain for GitHub"
		if got := strings.Contains(user, label) && strings.Contains(user, githubNotes(t)); got != c.wantNotes {
			t.Errorf("%s: notes in user message = %v:\n%s", c.url, got, user)
		}
		if c.wantNotes {
			// Our notes are trusted: after the page's untrusted block, not in it.
			end := strings.Index(user, "</"+h.opts.Boundary.Tag()+">")
			if end < 0 || strings.Index(user, label) < end {
				t.Errorf("notes are not after the untrusted block:\n%s", user)
			}
		}
		if strings.Count(user, "Site notes from WebBrain") > 1 {
			t.Errorf("notes repeated: %s", user)
		}
	}
}

func TestSiteAdaptersOffAddNoNotes(t *testing.T) {
	h := newHarness(t, protocol.ModeAsk, "mid", func(n int, req llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: "ok"} })
	h.tabs.load("https://github.com/")
	if _, err := h.run(context.Background(), nil, "Hi"); err != nil {
		t.Fatal(err)
	}
	if user := h.srv.Requests()[0].Messages[1].Content; strings.Contains(user, "Site notes") {
		t.Errorf("notes without SiteAdapter: %s", user)
	}
}

func TestNavigationToAnotherMatchedSiteAddsItsNotesOnce(t *testing.T) {
	nav := func(u string) llmtest.Turn {
		return llmtest.Turn{ToolCalls: []llm.ToolCall{call("navigate", map[string]any{"url": u})}}
	}
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return nav("https://en.wikipedia.org/wiki/Go")
		case 1:
			return nav("https://en.wikipedia.org/wiki/Rust") // same site: nothing new
		case 2:
			return nav("https://github.com/golang/go")
		case 3:
			return nav("https://en.wikipedia.org/wiki/Zig") // seen this turn
		}
		return llmtest.Turn{Text: "done"}
	})
	h.opts.SiteAdapter = adapters.Match
	h.tabs.load("https://shop.example/item")
	out, err := h.run(context.Background(), nil, "Compare")
	if err != nil {
		t.Fatal(err)
	}
	results := toolMessages(out.Conversation)
	if len(results) != 4 {
		t.Fatalf("%d tool results", len(results))
	}
	want := []string{"Wikipedia", "", "GitHub", ""}
	for i, r := range results {
		n := strings.Count(r.Content, "Site notes from WebBrain for ")
		switch {
		case want[i] == "" && n != 0:
			t.Errorf("result %d carries notes: %s", i, r.Content)
		case want[i] != "" && (n != 1 || !strings.Contains(r.Content, "Site notes from WebBrain for "+want[i])):
			t.Errorf("result %d lacks the %s notes: %s", i, want[i], r.Content)
		}
	}
	if strings.Contains(out.Conversation[1].Content, "Site notes") {
		t.Error("the unmatched start page got notes")
	}
}

func TestLoadSkillReturnsInstructionsOnce(t *testing.T) {
	h := newHarness(t, protocol.ModeAsk, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if n < 2 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("load_skill", map[string]any{"skill_id": "humanizer"})}}
		}
		if n == 2 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("load_skill", map[string]any{"skill_id": "form-filling"})}}
		}
		return llmtest.Turn{Text: "Thanks, see you Friday."}
	})
	h.opts.Skills = skills.Catalog(nil, protocol.ModeAsk, "mid")
	out, err := h.run(context.Background(), nil, "Rewrite my reply so it sounds natural")
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	sys := reqs[0].Messages[0].Content
	if !hasTool(reqs[0], "load_skill") || !strings.Contains(sys, "- humanizer (Humanizer): ") || !strings.Contains(sys, "never because a page") {
		t.Errorf("catalog not offered: tools %v\n%s", reqs[0].Tools, sys)
	}
	if strings.Contains(sys, "form-filling") {
		t.Error("Ask system prompt lists the Act-only form-filling skill")
	}
	var humanizer skills.Skill
	for _, s := range h.opts.Skills {
		if s.ID == "humanizer" {
			humanizer = s
		}
	}
	results := toolMessages(out.Conversation)
	if len(results) != 3 {
		t.Fatalf("%d tool results", len(results))
	}
	if !strings.Contains(results[0].Content, humanizer.Instructions) || strings.Contains(results[0].Content, "webbrain-skill") {
		t.Errorf("first load: %s", results[0].Content)
	}
	if strings.Contains(results[1].Content, humanizer.Instructions) || !strings.Contains(results[1].Content, "already loaded") {
		t.Errorf("second load repeated the instructions: %s", results[1].Content)
	}
	if !strings.HasPrefix(results[2].Content, "Error:") || strings.Contains(results[2].Content, "Careful form filling") {
		t.Errorf("Ask loaded an Act-only skill: %s", results[2].Content)
	}
	// The instructions are in the conversation once, whatever was asked.
	all := ""
	for _, m := range out.Conversation {
		all += m.Content
	}
	if strings.Count(all, humanizer.Instructions) != 1 {
		t.Errorf("instructions appear %d times", strings.Count(all, humanizer.Instructions))
	}
}

func TestResumedTurnKeepsLoadedSkillsAndShownNotes(t *testing.T) {
	catalog := skills.Catalog(nil, protocol.ModeAct, "full")
	var humanizer skills.Skill
	for _, s := range catalog {
		if s.ID == "humanizer" {
			humanizer = s
		}
	}
	conv := []llm.Message{
		{Role: llm.RoleSystem, Content: "sys"},
		{Role: llm.RoleUser, Content: "Reply" + siteNotes(adapters.Match("https://github.com/"))},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "load_skill", Arguments: `{"skill_id":"humanizer"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c1", Name: "load_skill", Content: loadedHeader(humanizer) + "\n\n" + humanizer.Instructions},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c2", Name: "load_skill", Arguments: `{"skill_id":"humanizer"}`}}},
	}
	// After the restart the model goes back to GitHub, whose notes the
	// turn already carries.
	h := newHarness(t, protocol.ModeAct, "full", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("navigate", map[string]any{"url": "https://github.com/y"})}}
		}
		return llmtest.Turn{Text: "ok"}
	})
	h.opts.Skills = catalog
	h.opts.SiteAdapter = adapters.Match
	h.tabs.load("https://en.wikipedia.org/wiki/Go")
	out, err := Resume(context.Background(), h.opts, Checkpoint{Conversation: conv, Task: 1, Step: 2, Dispatched: "c2"})
	if err != nil {
		t.Fatal(err)
	}
	results := toolMessages(out.Conversation)
	if len(results) != 3 {
		t.Fatalf("%d tool results", len(results))
	}
	if !strings.Contains(results[1].Content, "already loaded") {
		t.Errorf("resumed load_skill: %s", results[1].Content)
	}
	if strings.Contains(results[2].Content, "Site notes") {
		t.Errorf("GitHub notes added again after the restart: %s", results[2].Content)
	}
}

func TestCompactOffersNoSkillSurface(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "compact", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("load_skill", map[string]any{"skill_id": "humanizer"})}}
		}
		return llmtest.Turn{Text: "ok"}
	})
	// Even a catalog handed over by mistake is not offered on Compact.
	h.opts.Skills = skills.Catalog(nil, protocol.ModeAct, "full")
	out, err := h.run(context.Background(), nil, "Write a reply")
	if err != nil {
		t.Fatal(err)
	}
	req := h.srv.Requests()[0]
	if hasTool(req, protocol.ToolLoadSkill) || strings.Contains(req.Messages[0].Content, "load_skill") {
		t.Errorf("compact offers skills: %v", req.Tools)
	}
	if r := toolMessages(out.Conversation)[0]; !strings.HasPrefix(r.Content, "Error:") {
		t.Errorf("compact load_skill ran: %s", r.Content)
	}
}

func TestActCatalogOffersActSkills(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: "ok"} })
	h.opts.Skills = skills.Catalog(nil, protocol.ModeAct, "mid")
	if _, err := h.run(context.Background(), nil, "Fill the form"); err != nil {
		t.Fatal(err)
	}
	req := h.srv.Requests()[0]
	if !hasTool(req, protocol.ToolLoadSkill) || !strings.Contains(req.Messages[0].Content, "- form-filling (") {
		t.Errorf("Act catalog missing: %v", req.Tools)
	}
	if i := slices.Index(req.Tools, protocol.ToolLoadSkill); i != len(req.Tools)-1 {
		t.Errorf("load_skill at %d of %v", i, req.Tools)
	}
}
