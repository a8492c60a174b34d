//go:build e2e

package durable

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// scheduledRun reports whether req belongs to a scheduled task's run: its
// latest user message carries WebBrain's scheduled-task note.
func scheduledRun(req llmtest.Request) bool {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role == llm.RoleUser {
			return strings.Contains(m.Content, "[WebBrain: this run is the scheduled task")
		}
	}
	return false
}

// lastToolOfTurn is lastTool within the latest user turn.
func lastToolOfTurn(req llmtest.Request) (name, content string) {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		switch m := req.Messages[i]; m.Role {
		case llm.RoleTool:
			return m.Name, m.Content
		case llm.RoleUser:
			return "", ""
		}
	}
	return "", ""
}

// TestScheduledTaskRunsAfterAWorkerStop: the model schedules a task, the
// user approves it on WebBrain's card, the worker is stopped, and the
// job's alarm (moved forward through the panel's job_update, as the user
// would) wakes the worker, which runs the task against the page: the
// button is clicked exactly once.
func TestScheduledTaskRunsAfterAWorkerStop(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		name, content := lastToolOfTurn(req)
		if !scheduledRun(req) {
			if name == "" {
				return tool("schedule_task", map[string]any{"title": "Add one", "prompt": "Click the Add one button once.", "mode": "act",
					"schedule": map[string]any{"kind": "once", "after_seconds": 3600}})
			}
			return llmtest.Turn{Text: "Scheduled."}
		}
		switch name {
		case "":
			return tool("get_accessibility_tree", map[string]any{"filter": "interactive"})
		case "get_accessibility_tree":
			m := refRE.FindStringSubmatch(content)
			if m == nil {
				return llmtest.Turn{Text: "SCRIPT FAILED: no Add one button in " + content}
			}
			return tool("click_ax", map[string]any{"ref": m[1]})
		}
		return tool("done", map[string]any{"summary": "Clicked Add one.", "status": "success"})
	})
	s := openSession(t, srv)
	s.typeEnter("act", "In an hour, click Add one on this page", false)
	waitFor(t, s.panel, "the schedule card", runTimeout, `!!document.querySelector('.approval-card.pending button[data-decision="approve"]')`)
	if got := s.texts(".approval-card .approval-category"); len(got) != 1 || got[0] != "Schedule a task" {
		t.Fatalf("card category %v", got)
	}
	if err := chromedp.Do(s.panel, chromedp.Click(chromedp.CSS(`.approval-card.pending button[data-decision="approve"]`))); err != nil {
		t.Fatal(err)
	}
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("the scheduling run ended %q", got)
	}
	type job struct {
		ID    string `json:"id"`
		State string `json:"state"`
		Runs  int    `json:"runs"`
	}
	jobs := func() []job {
		return evalIn[[]job](t, s.panel, `chrome.runtime.sendMessage({action: 'jobs_list'}).then(r => r.jobs)`, chromedp.EvalAwaitPromise)
	}
	js := jobs()
	if len(js) != 1 || js[0].State != "pending" || s.clicks() != 0 {
		t.Fatalf("jobs %+v, clicks %d", js, s.clicks())
	}
	// The user moves the job to two seconds from now; then the browser
	// reclaims the worker.
	soon := time.Now().Add(2 * time.Second).UnixMilli()
	r := evalIn[map[string]any](t, s.panel, fmt.Sprintf(`chrome.runtime.sendMessage({action: 'job_update', id: %q, runAt: %d})`, js[0].ID, soon), chromedp.EvalAwaitPromise)
	if r["ok"] != true {
		t.Fatalf("job_update: %v", r)
	}
	stopWorker(t)
	waitFor(t, s.page, "the scheduled click", runTimeout, `(window.__record ?? []).length >= 1`)
	deadline := time.Now().Add(runTimeout)
	for js = jobs(); js[0].State != "completed"; js = jobs() {
		if time.Now().After(deadline) {
			t.Fatalf("job %+v", js[0])
		}
		time.Sleep(100 * time.Millisecond)
	}
	if s.clicks() != 1 || js[0].Runs != 1 {
		t.Fatalf("%d clicks, job %+v", s.clicks(), js[0])
	}
	// Nobody watched the run: its end is a system notification, shown
	// just after the job is marked completed.
	id := "webbrain-job-" + js[0].ID
	shown := func() bool {
		return evalIn[bool](t, env.control, fmt.Sprintf(`chrome.notifications.getAll().then(n => %q in n)`, id), chromedp.EvalAwaitPromise)
	}
	for deadline := time.Now().Add(10 * time.Second); !shown(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no notification %s", id)
		}
	}
}

// job is a scheduled job as jobs_list lists it.
type job struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	State string `json:"state"`
}

// byID is the job of jobs with id (a zero job when there is none).
func byID(jobs []job, id string) job {
	for _, j := range jobs {
		if j.ID == id {
			return j
		}
	}
	return job{}
}

// TestScheduledTaskForAnAddressUsesTheTabThere: a task for an address the
// user already has open runs in that tab as it is: the button there is
// clicked once, no tab is opened, and the user's tab stays open.
func TestScheduledTaskForAnAddressUsesTheTabThere(t *testing.T) {
	var pageURL string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		name, content := lastToolOfTurn(req)
		if !scheduledRun(req) {
			if name == "" {
				return tool("schedule_task", map[string]any{"title": "Add one here", "prompt": "Click the Add one button once.", "mode": "act",
					"schedule": map[string]any{"kind": "once", "after_seconds": 3600}, "target": map[string]any{"kind": "url", "url": pageURL}})
			}
			return llmtest.Turn{Text: "Scheduled."}
		}
		switch name {
		case "":
			return tool("get_accessibility_tree", map[string]any{"filter": "interactive"})
		case "get_accessibility_tree":
			m := refRE.FindStringSubmatch(content)
			if m == nil {
				return llmtest.Turn{Text: "SCRIPT FAILED: no Add one button in " + content}
			}
			return tool("click_ax", map[string]any{"ref": m[1]})
		}
		return tool("done", map[string]any{"summary": "Clicked Add one.", "status": "success"})
	})
	s := openSession(t, srv)
	pageURL = evalIn[string](t, s.page, `location.href`)
	s.typeEnter("act", "In an hour, click Add one on this page", false)
	waitFor(t, s.panel, "the schedule card", runTimeout, `!!document.querySelector('.approval-card.pending button[data-decision="approve"]')`)
	if err := chromedp.Do(s.panel, chromedp.Click(chromedp.CSS(`.approval-card.pending button[data-decision="approve"]`))); err != nil {
		t.Fatal(err)
	}
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("the scheduling run ended %q", got)
	}
	jobs := func() []job {
		return evalIn[[]job](t, s.panel, `chrome.runtime.sendMessage({action: 'jobs_list'}).then(r => r.jobs)`, chromedp.EvalAwaitPromise)
	}
	tabs := func() int {
		return evalIn[int](t, env.control, `chrome.tabs.query({}).then(ts => ts.length)`, chromedp.EvalAwaitPromise)
	}
	// Other tests' jobs may be listed too.
	var j job
	for _, o := range jobs() {
		if o.Title == "Add one here" {
			j = o
		}
	}
	if j.State != "pending" {
		t.Fatalf("no pending job of this test among %+v", jobs())
	}
	before := tabs()
	soon := time.Now().Add(2 * time.Second).UnixMilli()
	r := evalIn[map[string]any](t, s.panel, fmt.Sprintf(`chrome.runtime.sendMessage({action: 'job_update', id: %q, runAt: %d})`, j.ID, soon), chromedp.EvalAwaitPromise)
	if r["ok"] != true {
		t.Fatalf("job_update: %v", r)
	}
	waitFor(t, s.page, "the scheduled click in the user's tab", runTimeout, `(window.__record ?? []).length >= 1`)
	deadline := time.Now().Add(runTimeout)
	for got := byID(jobs(), j.ID); got.State != "completed"; got = byID(jobs(), j.ID) {
		if time.Now().After(deadline) {
			t.Fatalf("job %+v", got)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if s.clicks() != 1 {
		t.Fatalf("%d clicks in the user's tab", s.clicks())
	}
	if after := tabs(); after != before {
		t.Errorf("%d tabs before the task, %d after: the task opened or closed one", before, after)
	}
}

// TestScheduledTaskThatNeedsTheUser: a scheduled run meets a sign-in wall
// and asks the user with clarify. The job shows as needing the user, in
// jobs_list and in the panel's /jobs list, with a system notification;
// the user's answer in the panel lets the run go on, and the job
// completes.
func TestScheduledTaskThatNeedsTheUser(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		name, content := lastToolOfTurn(req)
		if !scheduledRun(req) {
			if name == "" {
				return tool("schedule_task", map[string]any{"title": "Pay the bill", "prompt": "Pay the electricity bill.", "mode": "act",
					"schedule": map[string]any{"kind": "once", "after_seconds": 3600}})
			}
			return llmtest.Turn{Text: "Scheduled."}
		}
		switch name {
		case "":
			return tool("clarify", map[string]any{"question": "The bank asks you to sign in. Sign in in this tab, then answer here."})
		case "clarify":
			if !strings.Contains(content, "Signed in") {
				return llmtest.Turn{Text: "SCRIPT FAILED: clarify answered " + content}
			}
		}
		return tool("done", map[string]any{"summary": "The bill is paid.", "status": "success"})
	})
	s := openSession(t, srv)
	s.typeEnter("act", "In an hour, pay the electricity bill", false)
	waitFor(t, s.panel, "the schedule card", runTimeout, `!!document.querySelector('.approval-card.pending button[data-decision="approve"]')`)
	if err := chromedp.Do(s.panel, chromedp.Click(chromedp.CSS(`.approval-card.pending button[data-decision="approve"]`))); err != nil {
		t.Fatal(err)
	}
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("the scheduling run ended %q", got)
	}
	type job struct {
		ID        string `json:"id"`
		State     string `json:"state"`
		NeedsUser string `json:"needsUser"`
	}
	// Other tests' jobs share the browser's storage: this test reads its own.
	jobs := func() []job {
		return evalIn[[]job](t, s.panel, `chrome.runtime.sendMessage({action: 'jobs_list'}).then(r => r.jobs.filter(j => j.title === 'Pay the bill'))`, chromedp.EvalAwaitPromise)
	}
	js := jobs()
	if len(js) != 1 {
		t.Fatalf("jobs %+v", js)
	}
	t.Cleanup(func() {
		_, _ = chromedp.Run(env.control, chromedp.Evaluate[any](fmt.Sprintf(`chrome.runtime.sendMessage({action: 'job_delete', id: %q})`, js[0].ID), chromedp.EvalAwaitPromise))
	})
	soon := time.Now().Add(time.Second).UnixMilli()
	evalIn[map[string]any](t, s.panel, fmt.Sprintf(`chrome.runtime.sendMessage({action: 'job_update', id: %q, runAt: %d})`, js[0].ID, soon), chromedp.EvalAwaitPromise)
	deadline := time.Now().Add(runTimeout)
	for js = jobs(); js[0].State != "needs_user_input"; js = jobs() {
		if time.Now().After(deadline) {
			t.Fatalf("job %+v", js[0])
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(js[0].NeedsUser, "sign in") {
		t.Fatalf("job %+v", js[0])
	}
	id := "webbrain-job-" + js[0].ID + "-wait"
	for deadline := time.Now().Add(10 * time.Second); !evalIn[bool](t, env.control, fmt.Sprintf(`chrome.notifications.getAll().then(n => %q in n)`, id), chromedp.EvalAwaitPromise); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no notification %s", id)
		}
	}
	// The panel's list says so.
	s.typeEnter("act", "/jobs", false)
	waitFor(t, s.panel, "the jobs list", runTimeout, `[...document.querySelectorAll('.jobs-list .job-needs')].some(e => e.textContent.includes('Waiting for you: The bank asks you to sign in'))`)
	// The question is the run's, in the tab's panel: the user answers it.
	waitFor(t, s.panel, "the question", runTimeout, `!!document.querySelector('.clarify-card .clarify-input:not([disabled])')`)
	if err := chromedp.Do(s.panel, chromedp.SendKeys(chromedp.CSS(`.clarify-card .clarify-input:not([disabled])`), "Signed in."),
		chromedp.Click(chromedp.CSS(`.clarify-card .clarify-submit:not([disabled])`))); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(runTimeout); ; time.Sleep(100 * time.Millisecond) {
		js = jobs()
		if js[0].State == "completed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %+v", js[0])
		}
	}
}
