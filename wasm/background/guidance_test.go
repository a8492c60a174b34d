package background

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

// githubTabs is a tab on a GitHub page, which has a packaged adapter.
type githubTabs struct{ fakeTabs }

func (githubTabs) Get(_ context.Context, id int) (platform.Tab, error) {
	return platform.Tab{ID: id, URL: "https://github.com/webbrain/webbrain", Title: "webbrain", Status: "complete"}, nil
}

// guidanceRun runs one Ask turn on a GitHub tab with siteAdapters set as
// given and returns the first model request.
func guidanceRun(t *testing.T, siteAdapters bool) llmtest.Request {
	e := newEnv(t, llmtest.NewTurns(llmtest.Turn{Text: "ok"}))
	e.r = New(platform.Platform{
		Tabs: githubTabs{}, Content: e.content, Local: e.local, Session: e.session,
		Fetch: e.r.p.Fetch, Alarms: e.alarms, Clock: e.clock, UI: e.ui, Browser: "chrome", Self: self,
	})
	s, _ := settings.Load(context.Background(), e.local)
	s.SiteAdapters = siteAdapters
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		t.Fatal(err)
	}
	e.mustOK(chat(4, "Draft a reply to the last issue comment"))
	if j := e.waitEnd(4); j.Status != protocol.StatusDone {
		t.Fatalf("run ended %s: %s", j.Status, j.Error)
	}
	return e.srv.Requests()[0]
}

func TestRunsCarrySiteNotesAndTheSkillCatalog(t *testing.T) {
	req := guidanceRun(t, true)
	if user := req.Messages[len(req.Messages)-1]; user.Role != llm.RoleUser || !strings.Contains(user.Content, "Site notes from WebBrain for GitHub") {
		t.Errorf("no GitHub notes in the user message: %+v", user)
	}
	if !slices.Contains(req.Tools, "load_skill") || !strings.Contains(req.Messages[0].Content, "humanizer") {
		t.Errorf("Ask run lacks the skill catalog: %v", req.Tools)
	}
	if strings.Contains(req.Messages[0].Content, "form-filling") {
		t.Error("Ask run lists an Act-only skill")
	}
	if user := guidanceRun(t, false).Messages[1].Content; strings.Contains(user, "Site notes") {
		t.Errorf("notes with siteAdapters off: %s", user)
	}
}
