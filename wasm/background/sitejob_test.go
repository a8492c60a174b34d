package background

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/adapters"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

const issuePlan = `{"action":"execute","summary":"File the bug.","steps":["Open Issues","Create the issue"],"risks":[],"question":null,"recipients":[],"site_job":"create-issue","localized":null}`

// onGitHub puts e's router on a GitHub tab, with site adapters on.
func onGitHub(e *env) {
	e.r = New(platform.Platform{
		Tabs: githubTabs{}, Content: e.content, Local: e.local, Session: e.session,
		Fetch: e.r.p.Fetch, Alarms: e.alarms, Clock: e.clock, UI: e.ui, Browser: "chrome", Self: self,
	})
	s, _ := settings.Load(context.Background(), e.local)
	s.SiteAdapters = true
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		e.t.Fatal(err)
	}
}

func TestPlannerBindsTheSiteJobOfTheLivePage(t *testing.T) {
	e := newEnv(t, answerOnly())
	onGitHub(e)
	usePlanner(t, e, protocol.PlannerTry, protocol.ReviewStrict, issuePlan)
	e.mustOK(act(5, "File a bug that the export crashes"))
	e.waitEnd(5)
	if user := e.srv.PlannerRequests()[0].Messages[1].Content; !strings.Contains(user, "- create-issue: ") {
		t.Fatalf("the planner was not offered GitHub's jobs:\n%s", user)
	}
	if sys := systemOf(e); !strings.Contains(sys, `[Site job] WebBrain bound this task to its site job "create-issue"`) {
		t.Fatalf("the run is not bound to the job:\n%s", sys)
	}
}

func TestNoJobBindsOffItsSiteOrAfterAnEdit(t *testing.T) {
	// A page without the adapter: the planner is offered nothing, and an
	// id it names anyway binds nothing.
	e := newEnv(t, answerOnly())
	usePlanner(t, e, protocol.PlannerTry, protocol.ReviewStrict, issuePlan)
	s, _ := settings.Load(context.Background(), e.local)
	s.SiteAdapters = true
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		t.Fatal(err)
	}
	e.mustOK(act(6, "File a bug that the export crashes"))
	e.waitEnd(6)
	if strings.Contains(e.srv.PlannerRequests()[0].Messages[1].Content, "create-issue") || strings.Contains(systemOf(e), "[Site job]") {
		t.Fatal("a job was offered or bound off GitHub")
	}
	// The user's edit of the reviewed plan discards the hidden binding.
	e = newEnv(t, answerOnly())
	onGitHub(e)
	usePlanner(t, e, protocol.PlannerStrict, protocol.ReviewStrict, issuePlan)
	e.mustOK(act(7, "File a bug that the export crashes"))
	waitPlanCard(t, e, 7, "plan-1")
	e.mustOK(answerPlan(7, "plan-1", protocol.PlanEdit, "1. Open Issues\n2. Only draft the issue"))
	e.waitEnd(7)
	if sys := systemOf(e); strings.Contains(sys, "[Site job]") || !strings.Contains(sys, "Only draft the issue") {
		t.Fatalf("an edited plan kept its job:\n%s", sys)
	}
}

// The run record keeps the binding and the recipients for a restart.
func TestRecordKeepsJobAndRecipients(t *testing.T) {
	e := newEnv(t, answerOnly())
	gh := adapters.Match("https://github.com/acme/tool")
	ru := &run{tabID: 8, requestID: "req-8", mode: protocol.ModeAct, text: "File it and tell Alice",
		job: adapters.Bind(gh, "create-issue", "https://github.com/acme/tool"), recipients: []string{"Alice"}}
	if err := e.r.saveRecord(ru, nil); err != nil {
		t.Fatal(err)
	}
	raw, _ := e.session.Get(context.Background(), runKey(8))
	var rec runRecord
	if err := json.Unmarshal(raw[runKey(8)], &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Job == nil || rec.Job.Adapter != "github" || rec.Job.Job.ID != "create-issue" || len(rec.Recipients) != 1 || rec.Recipients[0] != "Alice" {
		t.Fatalf("record %+v", rec)
	}
}
