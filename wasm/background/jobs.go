package background

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/netaddr"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/scheduler"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Scheduled jobs (docs/decisions/scheduler.md): the schedule_* tools
// create them, alarms fire them, and a due job runs in its tab through
// chat_start's machinery, its request id naming the job.

// jobRequestPrefix starts the request id of a job's run:
// "job:<job id>:<run number>".
const jobRequestPrefix = "job:"

// jobOf returns the id of the job a request runs, or "".
func jobOf(requestID string) string {
	rest, ok := strings.CutPrefix(requestID, jobRequestPrefix)
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, ":")
	return id
}

// withJobs runs f on the stored jobs under jobsMu and saves them when f
// reports a change.
func (r *Router) withJobs(ctx context.Context, f func(jobs []scheduler.Job) ([]scheduler.Job, bool, error)) ([]scheduler.Job, error) {
	r.jobsMu.Lock()
	defer r.jobsMu.Unlock()
	jobs, err := scheduler.Load(ctx, r.p.Local)
	if err != nil {
		return nil, err
	}
	jobs, changed, err := f(jobs)
	if err != nil {
		return jobs, err
	}
	if changed {
		if err := scheduler.Save(ctx, r.p.Local, jobs); err != nil {
			return jobs, fmt.Errorf("WebBrain could not save its scheduled jobs: %v", err)
		}
	}
	return jobs, nil
}

// arm sets the job's alarm for its next time; a time already passed
// fires at once.
func (r *Router) arm(j scheduler.Job) {
	at := time.UnixMilli(j.NextRunAt)
	if !at.After(r.p.Clock.Now()) {
		go r.fireJob(context.Background(), j.ID)
		return
	}
	_ = r.p.Alarms.At(j.Alarm(), at)
}

// Alarm handles an alarm the browser fired.
func (r *Router) Alarm(ctx context.Context, name string) {
	r.Resume(ctx)
	if id, ok := strings.CutPrefix(name, scheduler.AlarmPrefix); ok {
		r.fireJob(ctx, id)
	}
}

// resumeJobs runs at start: a job whose run a restart interrupted goes on
// with that run when the run resumes, else it is due again; every pending
// job gets its alarm again (browsers may drop alarms on restart), and a
// time missed while the browser was closed runs once now.
func (r *Router) resumeJobs(ctx context.Context) {
	jobs, err := r.withJobs(ctx, func(jobs []scheduler.Job) ([]scheduler.Job, bool, error) {
		changed := false
		for i := range jobs {
			j := &jobs[i]
			if j.State != scheduler.StateRunning && j.State != scheduler.StateNeedsUser {
				continue
			}
			if ru := r.active(jobTab(*j)); ru != nil && ru.requestID == j.RequestID {
				continue // its run was resumed
			}
			j.State, j.RequestID, j.NextRunAt = scheduler.StateQueued, "", r.p.Clock.Now().UnixMilli()
			changed = true
		}
		return jobs, changed, nil
	})
	if err != nil {
		return
	}
	for _, j := range jobs {
		if j.State == scheduler.StatePending || j.State == scheduler.StateQueued {
			r.arm(j)
		}
	}
}

// fireJob starts a due job's run, or defers it while its tab is busy.
func (r *Router) fireJob(ctx context.Context, id string) {
	// A run in the job's tab that has journaled its end (the job's own
	// previous run among them) is only saving what it left: wait for it
	// rather than defer the job.
	if jobs, err := scheduler.Load(ctx, r.p.Local); err == nil {
		if i := scheduler.Find(jobs, id); i >= 0 {
			r.settle(ctx, jobTab(jobs[i]))
		}
	}
	s, _ := settings.Load(ctx, r.p.Local)
	var start *scheduler.Job
	jobs, err := r.withJobs(ctx, func(jobs []scheduler.Job) ([]scheduler.Job, bool, error) {
		i := scheduler.Find(jobs, id)
		if i < 0 || !jobs[i].Due(r.p.Clock.Now()) {
			return jobs, false, nil
		}
		j := &jobs[i]
		now := r.p.Clock.Now()
		if !s.ScheduledTasks {
			j.Pause(scheduler.PausedBySettings, now)
			return jobs, true, nil
		}
		if j.OwnTab() {
			if problem := r.ownTab(ctx, j); problem != "" {
				if j.IsWatch() {
					j.WatchFinished(scheduler.OutcomeError, "", problem, now)
				} else {
					j.Finished(scheduler.OutcomeError, problem, now)
				}
				return jobs, true, nil
			}
		} else if problem := r.jobTabProblem(ctx, *j); problem != "" {
			j.Finished(scheduler.OutcomeError, problem, now)
			j.State = scheduler.StateFailed
			return jobs, true, nil
		}
		requestID := fmt.Sprintf("%s%s:%d", jobRequestPrefix, j.ID, j.Runs+1)
		if err := r.startJobRun(*j, requestID); err != nil {
			j.Defer(now) // its tab is busy: a queued job is armed again below
			return jobs, true, nil
		}
		j.State, j.RequestID, j.LastRunAt, j.UpdatedAt = scheduler.StateRunning, requestID, now.UnixMilli(), now.UnixMilli()
		start = j
		return jobs, true, nil
	})
	if err != nil || start != nil {
		return
	}
	if i := scheduler.Find(jobs, id); i >= 0 && (jobs[i].State == scheduler.StateQueued || jobs[i].IsWatch() && jobs[i].State == scheduler.StatePending) {
		r.arm(jobs[i])
	}
}

// ownTab makes sure a watch, or a task for an address, has a tab on its
// page. A task uses a tab already there as it is; otherwise, like a watch
// always, it opens a background tab of its own, kept for later runs. A
// tab of its own that went elsewhere is closed and a fresh one opened,
// never navigated back. It says why there can be none, or "".
func (r *Router) ownTab(ctx context.Context, j *scheduler.Job) string {
	if r.p.Windows == nil {
		return "this browser cannot open the job's tab"
	}
	if j.HelperTab > 0 {
		if t, err := r.p.Tabs.Get(ctx, j.HelperTab); err == nil && samePage(t.URL, j.Target.URL) {
			return ""
		}
		r.closeOwnTab(j)
	}
	if !j.IsWatch() {
		if tabs, err := r.p.Windows.ListTabs(ctx); err == nil {
			for _, t := range tabs {
				if samePage(t.URL, j.Target.URL) {
					j.HelperTab, j.Borrowed = t.ID, true
					return ""
				}
			}
		}
	}
	anchor := j.Target.TabID
	if _, err := r.p.Tabs.Get(ctx, anchor); err != nil {
		return "the tab it was started from was closed"
	}
	t, err := r.p.Windows.OpenTab(ctx, anchor, j.Target.URL)
	if err != nil {
		return "its tab could not be opened: " + err.Error()
	}
	j.HelperTab = t.ID
	// The tab loads before the check reads it: a page still loading is
	// read once it settles by the run's own tools.
	return ""
}

// closeOwnTab closes a job's background tab, leaving nothing of it in
// the session (or in the chat history). A tab of the user's the job
// borrowed is only let go.
func (r *Router) closeOwnTab(j *scheduler.Job) {
	if j.Borrowed {
		j.HelperTab, j.Borrowed = 0, false
		return
	}
	if j.HelperTab == 0 || r.p.Windows == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tab := j.HelperTab
	j.HelperTab = 0
	_ = r.p.Session.Remove(ctx, convKey(tab), chatKey(tab), journalKey(tab), metaKey(tab))
	_ = r.p.Windows.CloseTab(ctx, tab)
}

// jobTab is the tab a job's run runs in.
func jobTab(j scheduler.Job) int {
	if j.OwnTab() {
		return j.HelperTab
	}
	return j.Target.TabID
}

// samePage compares two addresses without their fragments.
func samePage(a, b string) bool {
	a, _, _ = strings.Cut(a, "#")
	b, _, _ = strings.Cut(b, "#")
	return a == b
}

// jobTabProblem says why a job's tab cannot run it, or "".
func (r *Router) jobTabProblem(ctx context.Context, j scheduler.Job) string {
	tab, err := r.p.Tabs.Get(ctx, j.Target.TabID)
	if err != nil {
		return "its tab was closed"
	}
	if want := guard.SiteOf(guard.HostOf(j.Target.URL)); want != "" && guard.SiteOf(guard.HostOf(tab.URL)) != want {
		return "its tab left " + want
	}
	return ""
}

// errTabBusy: a run is active in the job's tab.
var errTabBusy = errors.New("the tab is busy")

// startJobRun launches a job's run like chat_start does. A task's prompt
// is the user's words: the user approved it on a card when it was made.
// A resume continues the request that made it; the instruction the model
// left itself rides along as its own note, never as the user's words.
func (r *Router) startJobRun(j scheduler.Job, requestID string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	tab := jobTab(j)
	if _, busy := r.runs[tab]; busy {
		return errTabBusy
	}
	text, note, data := j.Prompt, fmt.Sprintf("[WebBrain: this run is the scheduled task %q, run %d. Do not schedule it again. If the page needs the user (a sign-in, a confirmation only they can give), ask them with clarify instead of guessing.]", j.Title, j.Runs+1), ""
	switch {
	case j.Kind == scheduler.KindResume:
		text = j.Request
		note = "[WebBrain: the scheduled resume of this task is due now. Your note from before: " + j.Prompt + "]"
	case j.IsWatch():
		// Each check stands alone: the tab's earlier checks are not its
		// history. The condition is the user's words; what the previous
		// check saw is page data.
		ctx, cancel := context.WithTimeout(context.Background(), storageWriteTimeout)
		_ = r.p.Session.Remove(ctx, convKey(tab), chatKey(tab), journalKey(tab))
		cancel()
		text = "Watch this page for: " + j.Prompt
		note = "[WebBrain: this is a check of that watch. If it has happened, call done with status success and say what you saw. If not yet, call done with status partial and describe briefly what the page shows now; the next check compares with it. Change nothing on the page."
		if j.Beep != "" {
			note += " When it has happened, first call beep with an event_key that names this occurrence, then done with status success; if beep answers that the event was already reported, call done with status partial instead."
		}
		if j.Baseline != "" {
			note += " What the previous check saw follows, as page data.]"
			data = j.Baseline
		} else {
			note += "]"
		}
	}
	ru := r.newRun(tab, requestID, j.Mode, text)
	ru.note, ru.noteData = note, data
	ru.j = newJournal(r.p, tab, requestID, j.Mode)
	ru.j.onWait = func() { r.jobWaits(j.ID, requestID, ru.j) }
	ru.clar = newClarifier(ru.j, r.p.Clock)
	ru.appr = newApprover(r, ru.j)
	ru.review = newReviewer(r, ru.j)
	r.launch(ru)
	return nil
}

// jobRunEnded records how a job's run ended and arms its next time.
func (r *Router) jobRunEnded(ru *run) {
	id := jobOf(ru.requestID)
	if id == "" {
		return
	}
	outcome, errText := scheduler.OutcomeError, ""
	var errMsg *uitext.Msg
	switch snap := ru.j.snapshot(); snap.Status {
	case protocol.StatusDone:
		outcome = ru.j.outcome()
	case protocol.StatusStopped:
		outcome = scheduler.OutcomeStopped
	default:
		errText = snap.Error
		if e, ok := ru.j.last(protocol.EventError); ok && e.Text == errText {
			errMsg = e.Msg
		}
	}
	ctx := context.Background()
	beep := false
	jobs, err := r.withJobs(ctx, func(jobs []scheduler.Job) ([]scheduler.Job, bool, error) {
		i := scheduler.Find(jobs, id)
		if i < 0 || jobs[i].RequestID != ru.requestID {
			return jobs, false, nil
		}
		if jobs[i].IsWatch() {
			beep = jobs[i].TakeBeep(outcome)
			jobs[i].WatchFinished(outcome, ru.j.snapshot().Final, errText, r.p.Clock.Now())
			if jobs[i].Terminal() {
				r.closeOwnTab(&jobs[i])
			}
			return jobs, true, nil
		}
		jobs[i].Finished(outcome, errText, r.p.Clock.Now())
		jobs[i].LastErrorMsg = errMsg
		if q := ru.j.expiredQuestion(); q != "" && outcome != scheduler.OutcomeStopped && outcome != "success" {
			jobs[i].Unanswered(q, r.p.Clock.Now())
		}
		if jobs[i].Terminal() {
			r.closeOwnTab(&jobs[i])
		}
		return jobs, true, nil
	})
	if err != nil {
		return
	}
	i := scheduler.Find(jobs, id)
	if i < 0 {
		return
	}
	r.notifyJob(jobs[i], ru.j.snapshot().Final)
	if beep {
		r.playBeep(ctx, jobs[i])
	}
	if jobs[i].State == scheduler.StatePending {
		r.arm(jobs[i])
	}
}

// beepTool answers a /beep watch check's beep call: it persists the
// event's key before the check goes on, or reports it a duplicate.
func (r *Router) beepTool(jobID string) func(ctx context.Context, key, message string) (string, error) {
	return func(ctx context.Context, key, _ string) (string, error) {
		_, err := r.withJobs(ctx, func(jobs []scheduler.Job) ([]scheduler.Job, bool, error) {
			i := scheduler.Find(jobs, jobID)
			if i < 0 {
				return jobs, false, errors.New("the watch was deleted")
			}
			if err := jobs[i].ArmBeep(key); err != nil {
				return jobs, false, err
			}
			return jobs, true, nil
		})
		switch {
		case errors.Is(err, scheduler.ErrDuplicate):
			return "Duplicate: this event was already reported. Do not act on it again; call done with status partial.", nil
		case err != nil:
			return "", err
		}
		return "Alert armed for this event. It sounds once you call done with status success.", nil
	}
}

// playBeep plays a /beep watch's tone after its verified event, when the
// notifySound setting allows, and records that it played or why not.
func (r *Router) playBeep(ctx context.Context, j scheduler.Job) {
	s, _ := settings.Load(ctx, r.p.Local)
	if !s.NotifySound || r.p.Sound == nil {
		return
	}
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	err := r.p.Sound.Play(pctx, j.Beep)
	cancel()
	_, _ = r.withJobs(ctx, func(jobs []scheduler.Job) ([]scheduler.Job, bool, error) {
		i := scheduler.Find(jobs, j.ID)
		if i < 0 {
			return jobs, false, nil
		}
		if err != nil {
			t := uitext.T("bg_job_tone_failed", "The alert tone could not play: $error$", "error", err.Error())
			jobs[i].Warning, jobs[i].WarningMsg = t.English, t.Msg
		} else {
			jobs[i].LastBeepAt = r.p.Clock.Now().UnixMilli()
		}
		return jobs, true, nil
	})
}

// jobWaits follows a job's run onto and off a question or card: the job
// shows needs_user_input meanwhile, and a question or plan card (an
// approval card notifies by itself) is a notification, since nobody
// watches a scheduled run.
func (r *Router) jobWaits(id, requestID string, j *journal) {
	what, kind := j.waitsOnUser()
	whatText := uitext.Text{English: what, Msg: j.waitingText()}
	ctx, cancel := context.WithTimeout(context.Background(), storageWriteTimeout)
	defer cancel()
	var title string
	entered := false
	_, _ = r.withJobs(ctx, func(jobs []scheduler.Job) ([]scheduler.Job, bool, error) {
		i := scheduler.Find(jobs, id)
		if i < 0 || jobs[i].RequestID != requestID {
			return jobs, false, nil
		}
		was := jobs[i].State
		if !jobs[i].WaitsOnUser(whatText, r.p.Clock.Now()) {
			return jobs, false, nil
		}
		title, entered = jobs[i].Title, was == scheduler.StateRunning
		return jobs, true, nil
	})
	if entered && (kind == protocol.EventClarify || kind == protocol.EventPlanReview) {
		r.notify("webbrain-job-"+id+"-wait", uitext.T("bg_notify_job_needs_you", "WebBrain: $job$ needs you", "job", title), clipText(whatText, 180))
	}
}

// notifyJob tells the user, who may not be watching, how a job's run
// ended: its answer's first line, or why it failed or paused.
func (r *Router) notifyJob(j scheduler.Job, final string) {
	lastError := uitext.Text{English: j.LastError, Msg: j.LastErrorMsg}
	if lastError.English == "" {
		lastError = uitext.Plain(final)
	}
	if lastError.English == "" {
		lastError = uitext.T("bg_notify_see_panel", "see the side panel")
	}
	var msg uitext.Text
	switch {
	case j.LastOutcome == scheduler.OutcomeStopped:
		return // the user stopped it: they know
	case j.IsWatch() && j.LastOutcome == "success":
		msg = uitext.T("bg_notify_watch_happened", "It happened: $answer$", "answer", clip.Line(firstNonEmpty(final, j.Prompt), 180))
	case j.IsWatch() && j.State == scheduler.StateFailed:
		msg = uitext.T("bg_notify_watch_stopped", "The watch stopped after three failed checks: $error$", "error", clipText(lastError, 160))
	case j.IsWatch():
		return // not yet: no news
	case j.State == scheduler.StatePaused && strings.HasPrefix(j.LastError, "It needed your answer"):
		msg = uitext.T("bg_notify_paused_because", "Paused: $reason$ Type /jobs in the side panel to resume it.", "reason", clipText(lastError, 150))
	case j.State == scheduler.StatePaused:
		msg = uitext.T("bg_notify_paused", "Paused after repeated failures. Type /jobs in the side panel to resume it.")
	case j.LastOutcome == scheduler.OutcomeError || j.LastOutcome == scheduler.OutcomeFailed:
		msg = uitext.T("bg_notify_not_completed", "Did not complete: $error$", "error", clipText(lastError, 180))
	case strings.TrimSpace(final) == "":
		msg = uitext.T("bg_notify_done", "Done.")
	default:
		msg = uitext.Plain(clip.Line(firstNonEmpty(final), 180)) // the answer, in the user's language already
	}
	r.notify("webbrain-job-"+j.ID, uitext.Plain("WebBrain: "+j.Title), msg)
}

// clipText is t cut to n characters; a text that had to be cut loses its
// key, so the cut English is what is shown.
func clipText(t uitext.Text, n int) uitext.Text {
	if c := clip.Line(t.English, n); c != t.English {
		return uitext.Plain(c)
	}
	return t
}

// notify shows a system notification, best effort.
func (r *Router) notify(id string, title, msg uitext.Text) {
	if r.p.Notify == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = r.p.Notify.Notify(ctx, id, title, msg)
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// scheduleTool answers schedule_resume and schedule_task for a run
// (agent.Options.Schedule). A task waits for the user's approval on a
// card: a page must never plant a job that runs later with the user's
// authority.
func (r *Router) scheduleTool(ru *run) func(ctx context.Context, call llm.ToolCall) (string, bool, error) {
	return func(ctx context.Context, call llm.ToolCall) (string, bool, error) {
		now := r.p.Clock.Now()
		tab, err := r.p.Tabs.Get(ctx, ru.tabID)
		if err != nil {
			return "", false, errors.New("the run's tab is gone")
		}
		spec, err := scheduleSpec(call, ru, tab.URL)
		if err != nil {
			return "", false, err
		}
		j, err := scheduler.New(spec, now)
		if err != nil {
			return "", false, err
		}
		if j.Kind == scheduler.KindResume {
			j.Request = ru.text
		} else if refusal, err := r.approveJob(ctx, ru, call, j); err != nil || refusal != "" {
			if err != nil {
				return "", false, err
			}
			return "", false, errors.New(refusal)
		}
		if _, err := r.withJobs(ctx, func(jobs []scheduler.Job) ([]scheduler.Job, bool, error) {
			active := 0
			for _, o := range jobs {
				if !o.Terminal() {
					active++
				}
			}
			if active >= scheduler.MaxJobs {
				return jobs, false, fmt.Errorf("there are already %d scheduled jobs; the user can delete some in the panel", scheduler.MaxJobs)
			}
			return append(jobs, j), true, nil
		}); err != nil {
			return "", false, err
		}
		r.arm(j)
		when := time.UnixMilli(j.NextRunAt).UTC().Format(time.RFC3339)
		if j.Kind == scheduler.KindResume {
			return "Scheduled: WebBrain will continue this task in this tab at " + when + ". This run ends now.", true, nil
		}
		msg := fmt.Sprintf("Scheduled task %q (%s), first run at %s", j.Title, j.ID, when)
		if j.Schedule.Kind == scheduler.Recurring {
			msg += fmt.Sprintf(", then every %d minutes (a fixed interval, not a calendar: it drifts against months)", j.Schedule.IntervalMinutes)
		}
		return msg + ". The user can pause, change or delete it in the panel.", false, nil
	}
}

// approveJob asks the user to approve a new task on a card.
func (r *Router) approveJob(ctx context.Context, ru *run, call llm.ToolCall, j scheduler.Job) (string, error) {
	when := time.UnixMilli(j.NextRunAt).UTC().Format("2006-01-02 15:04 UTC")
	where := uitext.T("bg_job_runs_here", "This tab")
	if j.Target.Kind == scheduler.TargetURL {
		where = uitext.T("bg_job_runs_at", "A background tab at $url$", "url", j.Target.URL)
	}
	details := []guard.Detail{
		guard.NewDetail(uitext.T("bg_label_task", "Task"), j.Title),
		guard.NewDetail(uitext.T("bg_label_prompt", "Prompt"), j.Prompt),
		guard.NewDetail(uitext.T("bg_label_mode", "Mode"), j.Mode),
		guard.NewDetailText(uitext.T("bg_label_runs_in", "Runs in"), where),
		guard.NewDetail(uitext.T("bg_label_first_run", "First run"), when),
	}
	if j.Schedule.Kind == scheduler.Recurring {
		details = append(details, guard.NewDetailText(uitext.T("bg_label_repeats", "Repeats"),
			uitext.T("bg_job_every_minutes", "every $minutes$ minutes", "minutes", strconv.Itoa(j.Schedule.IntervalMinutes))))
	}
	text := uitext.T("bg_approval_schedule", "Schedule a task that runs later in this tab with your authority: “$title$”.", "title", j.Title)
	reason := uitext.T("bg_reason_schedule", "A scheduled task runs without you watching, so WebBrain asks before creating one.")
	d, err := ru.appr.Approve(ctx, guard.Approval{
		ID: "appr_" + call.ID, Tool: call.Name, Category: protocol.CategorySchedule,
		Text: text.English, TextMsg: text.Msg,
		Site: guard.HostOf(j.Target.URL), URL: j.Target.URL, Details: details,
		Reasons: []string{reason.English}, ReasonMsgs: []*uitext.Msg{reason.Msg},
		Choices: []string{string(guard.Approve), string(guard.Decline)},
	})
	if err != nil {
		return "", err
	}
	if d != guard.Approve {
		return "The user declined to schedule this task. It was not created.", nil
	}
	return "", nil
}

// scheduleSpec reads a schedule_* call's arguments.
func scheduleSpec(call llm.ToolCall, ru *run, pageURL string) (scheduler.Spec, error) {
	var a struct {
		AfterSeconds      *int   `json:"after_seconds"`
		RunAt             string `json:"run_at"`
		Reason            string `json:"reason"`
		ResumeInstruction string `json:"resume_instruction"`
		Title             string `json:"title"`
		Prompt            string `json:"prompt"`
		Mode              string `json:"mode"`
		Schedule          struct {
			Kind            string `json:"kind"`
			AfterSeconds    *int   `json:"after_seconds"`
			RunAt           string `json:"run_at"`
			IntervalMinutes int    `json:"interval_minutes"`
		} `json:"schedule"`
		Target struct {
			Kind string `json:"kind"`
			URL  string `json:"url"`
		} `json:"target"`
	}
	if err := json.Unmarshal([]byte(orEmptyJSON(call.Arguments)), &a); err != nil {
		return scheduler.Spec{}, fmt.Errorf("the arguments are not valid JSON: %v", err)
	}
	target := scheduler.Target{Kind: scheduler.TargetCurrentTab, TabID: ru.tabID, URL: pageURL}
	if call.Name == protocol.ToolScheduleResume {
		return scheduler.Spec{Kind: scheduler.KindResume, Title: "Resume: " + clip.Line(ru.text, 60), Prompt: a.ResumeInstruction,
			Reason: a.Reason, Mode: ru.mode, Target: target, AfterSeconds: a.AfterSeconds, RunAt: a.RunAt}, nil
	}
	mode := a.Mode
	if mode == "" {
		mode = ru.mode
	}
	if a.Target.Kind == scheduler.TargetURL {
		u, err := url.Parse(strings.TrimSpace(a.Target.URL))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
			return scheduler.Spec{}, errors.New("target.url must be an absolute http(s) address")
		}
		if netaddr.Private(u.Hostname()) != "" && !strings.EqualFold(u.Hostname(), guard.HostOf(pageURL)) {
			return scheduler.Spec{}, errors.New("a scheduled task cannot open an address on this computer or a local network")
		}
		u.Fragment = ""
		// The task opens its own background tab there, beside this one.
		target = scheduler.Target{Kind: scheduler.TargetURL, TabID: ru.tabID, URL: u.String()}
	}
	return scheduler.Spec{Kind: scheduler.KindTask, Title: a.Title, Prompt: a.Prompt, Mode: mode, Target: target,
		AfterSeconds: a.Schedule.AfterSeconds, RunAt: a.Schedule.RunAt,
		Recurring: a.Schedule.Kind == scheduler.Recurring, IntervalMinutes: a.Schedule.IntervalMinutes}, nil
}

func orEmptyJSON(s string) string {
	if strings.TrimSpace(s) == "" {
		return "{}"
	}
	return s
}

// outcome is how the journal's run ended by its final event's account.
func (j *journal) outcome() string {
	if e, ok := j.last(protocol.EventFinal); ok {
		return e.Outcome
	}
	return ""
}

// jobsAction answers the jobs_* actions of the panel (docs/PROTOCOL.md).
func (r *Router) jobsAction(ctx context.Context, m message) reply {
	now := r.p.Clock.Now()
	var armed *scheduler.Job
	jobs, err := r.withJobs(ctx, func(jobs []scheduler.Job) ([]scheduler.Job, bool, error) {
		if m.Action == protocol.ActionJobsList {
			return jobs, false, nil
		}
		i := scheduler.Find(jobs, m.ID)
		if i < 0 {
			return jobs, false, errors.New("there is no scheduled job with this id")
		}
		j := &jobs[i]
		switch m.Action {
		case protocol.ActionJobPause:
			if j.State != scheduler.StatePending && j.State != scheduler.StateQueued {
				return jobs, false, errors.New("only a waiting job can be paused")
			}
			j.Pause(scheduler.PausedByUser, now)
			_ = r.p.Alarms.Clear(j.Alarm())
		case protocol.ActionJobResume:
			if j.State != scheduler.StatePaused {
				return jobs, false, errors.New("the job is not paused")
			}
			j.Resume(now)
			armed = j
		case protocol.ActionJobUpdate:
			if err := updateJob(j, m, now); err != nil {
				return jobs, false, err
			}
			if j.State == scheduler.StatePending {
				armed = j
			}
		case protocol.ActionJobDelete:
			if j.State == scheduler.StateRunning || j.State == scheduler.StateNeedsUser {
				if ru := r.active(jobTab(*j)); ru != nil && ru.requestID == j.RequestID {
					ru.stop()
				}
			}
			r.closeOwnTab(j)
			_ = r.p.Alarms.Clear(j.Alarm())
			jobs = append(jobs[:i], jobs[i+1:]...)
		}
		return jobs, true, nil
	})
	if err != nil {
		return sentenceError(err)
	}
	if armed != nil {
		r.arm(*armed)
	}
	if jobs == nil {
		jobs = []scheduler.Job{}
	}
	return okReply("jobs", jobs)
}

// updateJob applies the panel's edit: title, prompt, next time, interval.
// The user's own times are not held to the model's one-minute minimum.
func updateJob(j *scheduler.Job, m message, now time.Time) error {
	if j.Terminal() || j.State == scheduler.StateRunning || j.State == scheduler.StateNeedsUser {
		return errors.New("a job that is running or over cannot be changed")
	}
	if t := strings.TrimSpace(m.Title); t != "" {
		j.Title = clip.Line(t, scheduler.MaxTitle)
	}
	if p := strings.TrimSpace(m.Text); p != "" {
		if len([]rune(p)) > scheduler.MaxPrompt {
			return fmt.Errorf("the prompt is longer than %d characters", scheduler.MaxPrompt)
		}
		j.Prompt = p
	}
	if m.RunAt > 0 {
		if m.RunAt <= now.UnixMilli() {
			return errors.New("the next run must be in the future")
		}
		j.NextRunAt = m.RunAt
	}
	if m.IntervalMinutes != 0 {
		if j.Schedule.Kind != scheduler.Recurring || m.IntervalMinutes < scheduler.MinInterval || m.IntervalMinutes > scheduler.MaxInterval {
			return errors.New("only a recurring job has an interval, from 1 minute to a year")
		}
		j.Schedule.IntervalMinutes = m.IntervalMinutes
	}
	j.UpdatedAt = now.UnixMilli()
	return nil
}

// watchStart answers watch_start (/watch in the panel): the user's own
// words set the condition, so no card is shown; the first check runs now.
func (r *Router) watchStart(ctx context.Context, m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	tab, err := r.p.Tabs.Get(ctx, m.TabID)
	if err != nil {
		return failf("The tab is gone.")
	}
	j, err := scheduler.NewWatch(m.Text, tab.URL, m.TabID, time.Duration(m.IntervalSeconds)*time.Second, m.Keep, m.Beep, r.p.Clock.Now())
	if err != nil {
		return sentenceError(err)
	}
	if _, err := r.withJobs(ctx, func(jobs []scheduler.Job) ([]scheduler.Job, bool, error) {
		return append(jobs, j), true, nil
	}); err != nil {
		return errReply(err)
	}
	r.arm(j)
	return okReply("job", j)
}

// beepWatch reports whether job id is a watch started with /beep: only
// its checks are offered the beep tool.
func (r *Router) beepWatch(ctx context.Context, id string) bool {
	jobs, err := scheduler.Load(ctx, r.p.Local)
	if err != nil {
		return false
	}
	i := scheduler.Find(jobs, id)
	return i >= 0 && jobs[i].IsWatch() && jobs[i].Beep != ""
}
