package planner_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/planner"
	"github.com/webbrain/webbrain/wasm/platform/nativefetch"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/skills"
	"github.com/webbrain/webbrain/wasm/tools"
)

func TestParseReadsTheFirstObjectAndBoundsIt(t *testing.T) {
	long := strings.Repeat("step ", 100)
	reply := "Sure! ```json\n{\"action\":\"Execute\",\"summary\":\"Buy {two} mugs\",\"steps\":[\"" + long + "\",\"\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\",\"l\",\"m\"],\"risks\":[\"pays money\"],\"recipients\":[]}\n``` and {more}"
	p, err := planner.Parse(reply, protocol.PlannerTry)
	if err != nil {
		t.Fatal(err)
	}
	if p.Action != planner.Execute || p.Summary != "Buy {two} mugs" || len(p.Steps) != 12 || len([]rune(p.Steps[0])) > 200 || p.Steps[1] != "b" {
		t.Fatalf("plan %+v", p)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, reply := range []string{
		"I will delete the account.",
		`{"action":"delete everything"}`,
		`{"action":"clarify","question":"","summary":""}`,
		`{"action":"plan_only","steps":[]}`,
		`{"action":"execute","steps":"one"}`,
		`{"action":"execute"`,
	} {
		if p, err := planner.Parse(reply, protocol.PlannerTry); err == nil {
			t.Errorf("Parse(%q) = %+v; want an error", reply, p)
		}
	}
}

func TestOffKeepsNoSteps(t *testing.T) {
	p, err := planner.Parse(`{"action":"plan_only","steps":["a"],"risks":["b"]}`, protocol.PlannerOff)
	if err != nil || p.Action != planner.Execute || p.Steps != nil || p.Risks != nil {
		t.Fatalf("Off plan %+v, %v", p, err)
	}
}

// A translation that drops a step would show a plan other than the one
// that runs: the English one is shown instead.
func TestIncompleteTranslationIsDropped(t *testing.T) {
	p, err := planner.Parse(`{"action":"execute","summary":"S","steps":["a","b"],"risks":[],"localized":{"summary":"Z","steps":["x"],"risks":[]}}`, protocol.PlannerTry)
	if err != nil || p.Localized != nil {
		t.Fatalf("plan %+v, %v", p, err)
	}
	p, _ = planner.Parse(`{"action":"execute","summary":"S","steps":["a","b"],"risks":[],"localized":{"summary":"Z","steps":["x","y"],"risks":[]}}`, protocol.PlannerTry)
	if got := p.Markdown(true); got != "Z\n1. x\n2. y" {
		t.Fatalf("localized Markdown %q", got)
	}
	if got := p.Markdown(false); got != "S\n1. a\n2. b" {
		t.Fatalf("English Markdown %q", got)
	}
}

func TestDigestKeepsTheNewestAuthoredTurnsWithinBudget(t *testing.T) {
	var h []llm.Message
	h = append(h, llm.Message{Role: llm.RoleSystem, Content: "system prompt"})
	for i := 0; i < 8; i++ {
		h = append(h,
			llm.Message{Role: llm.RoleUser, Content: "question " + strings.Repeat("q", 700)},
			llm.Message{Role: llm.RoleAssistant, Content: "narration", ToolCalls: []llm.ToolCall{{ID: "c", Name: "read_page"}}},
			llm.Message{Role: llm.RoleTool, Content: "page text", ToolCallID: "c"},
			llm.Message{Role: llm.RoleAssistant, Content: "answer " + strings.Repeat("a", 100)})
	}
	d := planner.Digest(h)
	if len(d) > 2000 || strings.Contains(d, "system prompt") || strings.Contains(d, "narration") || strings.Contains(d, "page text") {
		t.Fatalf("digest (%d chars) %q", len(d), d)
	}
	lines := strings.Split(d, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[len(lines)-1], "Assistant: answer") || !strings.HasPrefix(lines[len(lines)-2], "User: question") {
		t.Fatalf("digest lines %q", lines)
	}
	if n := len([]rune(strings.TrimPrefix(lines[len(lines)-2], "User: "))); n != 600 {
		t.Fatalf("a user turn kept %d characters, want 600", n)
	}
}

func TestMakeRepairsOnceThenFails(t *testing.T) {
	srv := llmtest.New(func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{} })
	defer srv.Close()
	replies := []string{"Let me think about it.", `{"action":"execute","summary":"Read the page.","steps":["Read it"],"risks":[]}`}
	srv.Planner = func(req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: replies[len(srv.PlannerRequests())-1]}
	}
	prov := provider(t, srv)
	b := tools.NewBoundary()
	in := planner.Input{Level: protocol.PlannerTry, Task: "Summarise this", URL: "https://user:pw@example.com/a?token=s3cret#x", Title: "Example", Boundary: b}
	p, err := planner.Make(context.Background(), prov, in)
	if err != nil || p.Summary != "Read the page." {
		t.Fatalf("Make = %+v, %v", p, err)
	}
	reqs := srv.PlannerRequests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Messages[3].Content, "could not be used") {
		t.Fatalf("no repair request: %d requests", len(reqs))
	}
	user := reqs[0].Messages[1].Content
	if strings.Contains(user, "s3cret") || strings.Contains(user, "pw@") || !strings.Contains(user, "<"+b.Tag()+">") {
		t.Fatalf("the page address is not sanitised and wrapped:\n%s", user)
	}

	replies = []string{"no", "still no", "never"}
	srv2 := llmtest.New(func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{} })
	defer srv2.Close()
	srv2.Planner = func(req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: replies[len(srv2.PlannerRequests())-1]}
	}
	_, err = planner.Make(context.Background(), provider(t, srv2), in)
	var pe *planner.Error
	if !errors.As(err, &pe) || len(srv2.PlannerRequests()) != 2 {
		t.Fatalf("err = %v after %d requests; want a planner.Error after 2", err, len(srv2.PlannerRequests()))
	}
}

// The fake model server tells planner requests apart by a phrase both
// planner prompts must keep.
func TestPromptsCarryTheMarker(t *testing.T) {
	srv := llmtest.New(func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: "agent"} })
	defer srv.Close()
	for _, level := range protocol.Planners {
		if _, err := planner.Make(context.Background(), provider(t, srv), planner.Input{Level: level, Task: "x", Boundary: tools.NewBoundary()}); err != nil {
			t.Fatalf("%s: %v", level, err)
		}
	}
	if n, m := len(srv.PlannerRequests()), len(srv.Requests()); n != 3 || m != 0 {
		t.Fatalf("%d planner requests and %d others; want 3 and 0", n, m)
	}
}

func provider(t *testing.T, srv *llmtest.Server) llm.Provider {
	t.Helper()
	p, err := llm.New(llm.Config{ID: "t", Name: "t", Kind: protocol.KindOpenAIChat, BaseURL: srv.URL + "/v1", Model: llmtest.Model, Tier: protocol.TierMid}, nativefetch.Fetcher{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The planner sees the run's skill catalog and may choose skills; an id
// outside the catalog (turned off, another mode's, made up) is dropped.
func TestPlanChoosesOnlyCatalogSkills(t *testing.T) {
	srv := llmtest.New(func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{} })
	defer srv.Close()
	srv.Planner = func(req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: `{"action":"execute","summary":"Check the forecast.","steps":["Look up Lisbon"],"risks":[],"skill_ids":["open-meteo","form-filling","made-up","open-meteo"]}`}
	}
	catalog := skills.Catalog(nil, protocol.ModeAsk, "mid")
	p, err := planner.Make(context.Background(), provider(t, srv), planner.Input{Level: protocol.PlannerTry, Task: "Will it rain in Lisbon tomorrow?", Boundary: tools.NewBoundary(), Skills: catalog})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.SkillIDs) != 1 || p.SkillIDs[0] != "open-meteo" {
		t.Errorf("skill ids %v, want [open-meteo]", p.SkillIDs)
	}
	if user := srv.PlannerRequests()[0].Messages[1].Content; !strings.Contains(user, "- open-meteo (Open-Meteo weather): ") || strings.Contains(user, "form-filling") {
		t.Errorf("the planner's catalog:\n%s", user)
	}
}

func TestSiteJobsAreOfferedAndOnlyOfferedIDsKept(t *testing.T) {
	jobs := []planner.JobOption{{ID: "create-issue", Description: "Open a new issue in a repository."}}
	for _, c := range []struct{ reply, want string }{
		{`{"action":"execute","summary":"File it.","steps":["a"],"risks":[],"recipients":[],"site_job":"create-issue","localized":null}`, "create-issue"},
		{`{"action":"execute","summary":"File it.","steps":["a"],"risks":[],"recipients":[],"site_job":"delete-repo","localized":null}`, ""},
		{`{"action":"execute","summary":"File it.","steps":["a"],"risks":[],"recipients":[],"site_job":null,"localized":null}`, ""},
	} {
		srv := llmtest.New(func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{} })
		srv.Planner = func(llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: c.reply} }
		in := planner.Input{Level: protocol.PlannerTry, Task: "File a bug about the crash", URL: "https://github.com/acme/tool", Boundary: tools.NewBoundary(), Jobs: jobs}
		p, err := planner.Make(context.Background(), provider(t, srv), in)
		if err != nil || p.SiteJob != c.want {
			t.Errorf("reply %s: site_job %q, %v", c.reply, p.SiteJob, err)
		}
		user := srv.PlannerRequests()[0].Messages[1].Content
		if !strings.Contains(user, "- create-issue: Open a new issue in a repository.") || !strings.Contains(user, `"site_job"`) {
			t.Errorf("the jobs are not offered: %s", user)
		}
		srv.Close()
	}
	// Without jobs the planner is told nothing about them.
	srv := llmtest.New(func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{} })
	defer srv.Close()
	if _, err := planner.Make(context.Background(), provider(t, srv), planner.Input{Level: protocol.PlannerTry, Task: "x", Boundary: tools.NewBoundary()}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(srv.PlannerRequests()[0].Messages[1].Content, "site_job") {
		t.Error("site jobs offered without an adapter")
	}
}
