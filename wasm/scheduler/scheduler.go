// Package scheduler holds WebBrain's scheduled jobs: a conversation to
// resume later (schedule_resume) and standalone tasks, once or recurring
// (schedule_task). Jobs live in storage.local under wb_scheduled_jobs and
// fire from the browser's alarms; the background runs a due job through
// the same run machinery as a typed message (docs/decisions/scheduler.md).
// This package is the jobs' data and rules, without the browser.
package scheduler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Kinds of job.
const (
	KindResume = "resume" // schedule_resume: the conversation goes on in its tab
	KindTask   = "task"   // schedule_task: a stored prompt runs on its own
)

// States of a job (the spec's lifecycle).
const (
	StatePending   = "pending"          // the alarm is set
	StateQueued    = "queued"           // due, but its tab was busy: retried every QueueRetry
	StateRunning   = "running"          // a run executes it
	StateNeedsUser = "needs_user_input" // its run waits on a card for the user
	StatePaused    = "paused"           // no alarm; the user, the settings or the scheduler paused it
	StateCancelled = "cancelled"
	StateFailed    = "failed"
	StateCompleted = "completed"
)

// Targets of a job.
const (
	TargetCurrentTab = "current_tab" // the tab it was created in
	TargetURL        = "url"         // a tab on that address, opened when none is
)

// Schedules.
const (
	Once      = "once"
	Recurring = "recurring"
)

// Bounds and timings.
const (
	MaxJobs         = 50
	MaxPrompt       = 4000
	MaxTitle        = 100
	MinDelay        = 60 * time.Second // a delay the model sets, unless it is 0 (now)
	MaxDelay        = 366 * 24 * time.Hour
	MinInterval     = 1
	MaxInterval     = 525600 // minutes: a year
	QueueRetry      = 30 * time.Second
	MaxDeferrals    = 120
	MaxFailedInARow = 3
)

// AlarmPrefix names a job's alarm: AlarmPrefix + id.
const AlarmPrefix = "wb_job:"

// Job is one scheduled job as stored. Times are ms since the epoch.
type Job struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Title  string `json:"title"`
	Prompt string `json:"prompt"` // the task's prompt, or the resume's instruction
	// Request is the user's request a resume continues: the words its run
	// acts on, as the original run did.
	Request string `json:"request,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Mode    string `json:"mode"`

	Target   Target   `json:"target"`
	Schedule Schedule `json:"schedule"`

	State     string `json:"state"`
	PausedBy  string `json:"pausedBy,omitempty"` // user, settings or scheduler
	NextRunAt int64  `json:"nextRunAt"`
	CreatedAt int64  `json:"createdAt"`
	UpdatedAt int64  `json:"updatedAt"`
	LastRunAt int64  `json:"lastRunAt,omitempty"`
	// LastOutcome is how the last run ended: success, partial, failed,
	// error, stopped or "" (an answer without an outcome).
	LastOutcome string `json:"lastOutcome,omitempty"`
	LastError   string `json:"lastError,omitempty"`
	Failures    int    `json:"failures,omitempty"`  // failed runs in a row
	Deferrals   int    `json:"deferrals,omitempty"` // retries of this firing while the tab was busy
	Runs        int    `json:"runs,omitempty"`
	// RequestID is the run executing the job, while it is running.
	RequestID string `json:"requestId,omitempty"`

	// A watch (watch.go): its source, what the last check saw, whether it
	// goes on after the event, and the background tab it checks in.
	Source    string `json:"source,omitempty"`
	Baseline  string `json:"baseline,omitempty"`
	Keep      bool   `json:"keep,omitempty"`
	HelperTab int    `json:"helperTab,omitempty"`
	// Borrowed: HelperTab is a tab of the user's that was already on the
	// task's address, used as it is: never navigated, never closed.
	Borrowed bool `json:"borrowedTab,omitempty"`

	// A /beep watch (beep.go): its tone, the event keys its checks
	// reported (so an event is never alerted twice), the key armed by the
	// check now running, and when the tone last played.
	Beep       string   `json:"beep,omitempty"`
	BeepKeys   []string `json:"beepKeys,omitempty"`
	ArmedBeep  string   `json:"armedBeep,omitempty"`
	LastBeepAt int64    `json:"lastBeepAt,omitempty"`
	// NeedsUser is what the running job waits on the user for (its state
	// is needs_user_input): a question or a card of its run.
	NeedsUser string `json:"needsUser,omitempty"`
	// Warning is a problem of the last run that did not fail it (a
	// verified event without its beep, a tone the browser kept silent).
	Warning string `json:"warning,omitempty"`
	// NeedsUserMsg, WarningMsg and LastErrorMsg are those texts as
	// catalog keys, for the panel to show in the interface language (it
	// shows the English text when a key's English differs from it).
	NeedsUserMsg *uitext.Msg `json:"needsUserMsg,omitempty"`
	WarningMsg   *uitext.Msg `json:"warningMsg,omitempty"`
	LastErrorMsg *uitext.Msg `json:"lastErrorMsg,omitempty"`
}

// Target is where a job runs.
type Target struct {
	Kind  string `json:"kind"`
	TabID int    `json:"tabId,omitempty"` // current_tab
	URL   string `json:"url,omitempty"`   // the page it was created on (current_tab) or the address to open (url)
}

// Schedule is when a job runs.
type Schedule struct {
	Kind            string `json:"kind"`
	IntervalMinutes int    `json:"intervalMinutes,omitempty"`
	IntervalSeconds int    `json:"intervalSeconds,omitempty"` // a watch's
}

// Terminal reports whether the job is over.
func (j Job) Terminal() bool {
	return j.State == StateCancelled || j.State == StateFailed || j.State == StateCompleted
}

// OwnTab reports whether the job runs in a background tab of its own (a
// watch, or a task for an address) rather than the tab it was made in.
func (j Job) OwnTab() bool { return j.IsWatch() || j.Target.Kind == TargetURL }

// Alarm is the job's alarm name.
func (j Job) Alarm() string { return AlarmPrefix + j.ID }

// Load reads the jobs; none stored is an empty list.
func Load(ctx context.Context, st platform.Storage) ([]Job, error) {
	got, err := st.Get(ctx, protocol.KeyScheduledJobs)
	if err != nil {
		return nil, err
	}
	raw, ok := got[protocol.KeyScheduledJobs]
	if !ok {
		return nil, nil
	}
	var jobs []Job
	if err := json.Unmarshal(raw, &jobs); err != nil {
		return nil, fmt.Errorf("the stored scheduled jobs are not readable: %v", err)
	}
	return jobs, nil
}

// Save writes the jobs.
func Save(ctx context.Context, st platform.Storage, jobs []Job) error {
	if jobs == nil {
		jobs = []Job{}
	}
	raw, err := json.Marshal(jobs)
	if err != nil {
		return err
	}
	return st.Set(ctx, map[string]json.RawMessage{protocol.KeyScheduledJobs: raw})
}

// Find returns the index of job id, or -1.
func Find(jobs []Job, id string) int {
	for i, j := range jobs {
		if j.ID == id {
			return i
		}
	}
	return -1
}

// Spec is what a tool call or the panel asks for.
type Spec struct {
	Kind            string
	Title           string
	Prompt          string
	Reason          string
	Mode            string
	Target          Target
	AfterSeconds    *int   // relative start; 0 is now
	RunAt           string // absolute start, RFC 3339
	Recurring       bool
	IntervalMinutes int
}

// New validates s and returns the job, pending at its first time (which
// may be now). The model's delays are bounded: at least MinDelay unless
// 0, at most MaxDelay.
func New(s Spec, now time.Time) (Job, error) {
	s.Title, s.Prompt = strings.TrimSpace(s.Title), strings.TrimSpace(s.Prompt)
	switch {
	case s.Kind != KindTask && s.Kind != KindResume:
		return Job{}, fmt.Errorf("unknown job kind %q", s.Kind)
	case s.Prompt == "":
		return Job{}, errors.New("the job needs a prompt: what to do when it runs")
	case utf8.RuneCountInString(s.Prompt) > MaxPrompt:
		return Job{}, fmt.Errorf("the prompt is longer than %d characters", MaxPrompt)
	case utf8.RuneCountInString(s.Title) > MaxTitle:
		return Job{}, fmt.Errorf("the title is longer than %d characters", MaxTitle)
	case s.Mode != protocol.ModeAsk && s.Mode != protocol.ModeAct:
		return Job{}, fmt.Errorf("mode must be %q or %q", protocol.ModeAsk, protocol.ModeAct)
	}
	if s.Title == "" {
		s.Title = firstWords(s.Prompt, 8)
	}
	switch s.Target.Kind {
	case TargetCurrentTab:
		if s.Target.TabID <= 0 {
			return Job{}, errors.New("current_tab needs the tab the job was created in")
		}
	case TargetURL:
		if !strings.HasPrefix(s.Target.URL, "https://") && !strings.HasPrefix(s.Target.URL, "http://") {
			return Job{}, errors.New("a url target needs an http(s) address")
		}
	default:
		return Job{}, fmt.Errorf("target must be %q or %q", TargetCurrentTab, TargetURL)
	}
	at, err := firstRun(s, now)
	if err != nil {
		return Job{}, err
	}
	sched := Schedule{Kind: Once}
	if s.Recurring {
		if s.Kind == KindResume {
			return Job{}, errors.New("a resume runs once")
		}
		if s.IntervalMinutes < MinInterval || s.IntervalMinutes > MaxInterval {
			return Job{}, fmt.Errorf("interval_minutes must be between %d and %d", MinInterval, MaxInterval)
		}
		sched = Schedule{Kind: Recurring, IntervalMinutes: s.IntervalMinutes}
	}
	ms := now.UnixMilli()
	return Job{
		ID: newID(), Kind: s.Kind, Title: s.Title, Prompt: s.Prompt, Reason: strings.TrimSpace(s.Reason), Mode: s.Mode,
		Target: s.Target, Schedule: sched, State: StatePending, NextRunAt: at.UnixMilli(), CreatedAt: ms, UpdatedAt: ms,
	}, nil
}

// firstRun is when a new job first runs.
func firstRun(s Spec, now time.Time) (time.Time, error) {
	switch {
	case s.AfterSeconds != nil && s.RunAt != "":
		return time.Time{}, errors.New("give after_seconds or run_at, not both")
	case s.AfterSeconds != nil:
		d := time.Duration(*s.AfterSeconds) * time.Second
		if d != 0 && (d < MinDelay || d > MaxDelay) {
			return time.Time{}, fmt.Errorf("after_seconds must be 0 (now) or between %d and %d", int(MinDelay.Seconds()), int(MaxDelay.Seconds()))
		}
		return now.Add(d), nil
	case s.RunAt != "":
		at, err := time.Parse(time.RFC3339, s.RunAt)
		if err != nil {
			return time.Time{}, errors.New("run_at must be a date and time like 2026-12-24T09:00:00+01:00")
		}
		if d := at.Sub(now); d < MinDelay || d > MaxDelay {
			return time.Time{}, errors.New("run_at must be at least a minute and at most a year from now")
		}
		return at, nil
	}
	return time.Time{}, errors.New("give after_seconds or run_at")
}

// Finished applies the end of a run of j: outcome is the run's (success,
// partial, failed, "" for an answer without one), or OutcomeError /
// OutcomeStopped. A once job ends; a recurring job is due again an
// interval from now, or pauses after MaxFailedInARow failed runs with no
// success or partial run between them.
func (j *Job) Finished(outcome, errText string, now time.Time) {
	ms := now.UnixMilli()
	j.LastRunAt, j.UpdatedAt, j.LastOutcome, j.LastError, j.RequestID, j.NeedsUser = ms, ms, outcome, errText, "", ""
	j.LastErrorMsg, j.NeedsUserMsg = nil, nil
	j.Runs++
	j.Deferrals = 0
	failed := outcome == OutcomeFailed || outcome == OutcomeError
	switch {
	case failed:
		j.Failures++
	case outcome == "success" || outcome == "partial":
		j.Failures = 0
	}
	if j.Schedule.Kind != Recurring {
		switch {
		case outcome == OutcomeStopped:
			j.State = StateCancelled
		case failed:
			j.State = StateFailed
		default:
			j.State = StateCompleted
		}
		return
	}
	if outcome == OutcomeStopped {
		j.State, j.PausedBy = StatePaused, PausedByUser
		return
	}
	if j.Failures >= MaxFailedInARow {
		j.State, j.PausedBy = StatePaused, PausedByScheduler
		return
	}
	j.State = StatePending
	j.NextRunAt = now.Add(time.Duration(j.Schedule.IntervalMinutes) * time.Minute).UnixMilli()
}

// WaitsOnUser moves a running job to needs_user_input while its run
// waits for the user's answer to what (a question or a card), and back to
// running once nothing is waited on (what is ""). It reports a change.
func (j *Job) WaitsOnUser(what uitext.Text, now time.Time) bool {
	switch {
	case what.English != "" && j.State == StateRunning:
		j.State, j.NeedsUser = StateNeedsUser, clipRunes(what.English, 300)
	case what.English == "" && j.State == StateNeedsUser:
		j.State, j.NeedsUser = StateRunning, ""
	case what.English != "" && j.State == StateNeedsUser && j.NeedsUser != clipRunes(what.English, 300):
		j.NeedsUser = clipRunes(what.English, 300)
	default:
		return false
	}
	j.NeedsUserMsg = nil
	if j.NeedsUser != "" {
		j.NeedsUserMsg = what.Msg
	}
	j.UpdatedAt = now.UnixMilli()
	return true
}

// Unanswered applies the end of a run that asked the user something and
// got no answer in time: it needs the user, so a recurring job pauses
// (it would only ask again), and a once job fails saying so.
func (j *Job) Unanswered(question string, now time.Time) {
	j.NeedsUser, j.NeedsUserMsg = "", nil
	t := uitext.T("bg_job_no_answer", "It needed your answer and got none: $question$", "question", clipRunes(question, 200))
	j.LastError, j.LastErrorMsg = t.English, t.Msg
	if j.Schedule.Kind == Recurring && !j.IsWatch() {
		j.State, j.PausedBy, j.UpdatedAt = StatePaused, PausedByScheduler, now.UnixMilli()
		return
	}
	if !j.IsWatch() {
		j.State, j.LastOutcome, j.UpdatedAt = StateFailed, OutcomeFailed, now.UnixMilli()
	}
}

// Outcomes beyond a run's own.
const (
	OutcomeFailed  = "failed"
	OutcomeError   = "error"   // the run ended on an error
	OutcomeStopped = "stopped" // the user stopped the run
)

// Who paused a job.
const (
	PausedByUser      = "user"
	PausedBySettings  = "settings"
	PausedByScheduler = "scheduler"
)

// Defer records that j was due while its tab was busy; it reports false
// when j has waited MaxDeferrals times and failed instead.
func (j *Job) Defer(now time.Time) bool {
	j.Deferrals++
	j.UpdatedAt = now.UnixMilli()
	if j.Deferrals > MaxDeferrals {
		j.State, j.LastOutcome, j.LastError = StateFailed, OutcomeError, "its tab stayed busy for an hour"
		return false
	}
	j.State = StateQueued
	j.NextRunAt = now.Add(QueueRetry).UnixMilli()
	return true
}

// Resume un-pauses j: a job the scheduler paused restarts its interval
// now; one the user or the settings paused keeps its next time, or runs a
// minute from now when that has passed. The failure count starts over.
func (j *Job) Resume(now time.Time) {
	j.Failures, j.Deferrals = 0, 0
	next := time.UnixMilli(j.NextRunAt)
	switch {
	case j.PausedBy == PausedByScheduler && j.Schedule.Kind == Recurring:
		next = now.Add(time.Duration(j.Schedule.IntervalMinutes) * time.Minute)
	case !next.After(now):
		next = now.Add(time.Minute)
	}
	j.State, j.PausedBy, j.NextRunAt, j.UpdatedAt = StatePending, "", next.UnixMilli(), now.UnixMilli()
}

// Pause stops j's alarms until it is resumed.
func (j *Job) Pause(by string, now time.Time) {
	j.State, j.PausedBy, j.UpdatedAt = StatePaused, by, now.UnixMilli()
}

// Due reports whether j should start now.
func (j Job) Due(now time.Time) bool {
	return (j.State == StatePending || j.State == StateQueued) && j.NextRunAt <= now.UnixMilli()
}

// firstWords is the job's title when none was given.
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		return strings.Join(f[:n], " ") + "…"
	}
	return strings.Join(f, " ")
}

func newID() string { return fmt.Sprintf("job_%016x", rand.Uint64()) }
