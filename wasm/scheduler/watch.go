package scheduler

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// Watches (/watch): a condition checked on a page every 30 to 120
// seconds in a background tab of its own, each check seeing the previous
// observation, until the condition is met (docs/decisions/scheduler.md).

// SourceWatch marks a task job that is a watch.
const SourceWatch = "watch"

// Bounds of a watch.
const (
	WatchDefault  = 60 * time.Second
	WatchMin      = 30 * time.Second
	WatchMax      = 120 * time.Second
	MaxBaseline   = 2000 // runes of the observation a check passes on
	watchFailures = 3
)

// NewWatch returns a watch of condition on pageURL, opened from tab, its
// first check due now.
func NewWatch(condition, pageURL string, tab int, every time.Duration, keep bool, beep string, now time.Time) (Job, error) {
	condition = strings.TrimSpace(condition)
	switch {
	case condition == "":
		return Job{}, errors.New("say what to watch for, e.g. /watch the price drops below 50 €")
	case utf8.RuneCountInString(condition) > MaxPrompt:
		return Job{}, fmt.Errorf("the condition is longer than %d characters", MaxPrompt)
	case !strings.HasPrefix(pageURL, "https://") && !strings.HasPrefix(pageURL, "http://"):
		return Job{}, errors.New("a watch needs a web page in the tab")
	}
	if !validTone(beep) {
		return Job{}, errors.New("/beep takes short or long, or nothing for the default tone")
	}
	if every == 0 {
		every = WatchDefault
	}
	if every < WatchMin || every > WatchMax {
		return Job{}, fmt.Errorf("a watch checks every %d to %d seconds", int(WatchMin.Seconds()), int(WatchMax.Seconds()))
	}
	ms := now.UnixMilli()
	return Job{
		ID: newID(), Kind: KindTask, Source: SourceWatch, Title: "Watch: " + firstWords(condition, 8), Prompt: condition,
		Mode: protocol.ModeAsk, Target: Target{Kind: TargetURL, TabID: tab, URL: pageURL},
		Schedule: Schedule{Kind: Recurring, IntervalSeconds: int(every.Seconds())}, Keep: keep, Beep: beep,
		State: StatePending, NextRunAt: ms, CreatedAt: ms, UpdatedAt: ms,
	}, nil
}

// IsWatch reports whether j is a watch.
func (j Job) IsWatch() bool { return j.Source == SourceWatch }

// WatchFinished applies a check's end: success is the event (a --keep
// watch records it and goes on, else it completes); partial is "not yet"
// and its answer the next baseline; anything else is a failed check,
// which keeps the baseline, and three in a row stop the watch.
func (j *Job) WatchFinished(outcome, answer, errText string, now time.Time) {
	ms := now.UnixMilli()
	j.LastRunAt, j.UpdatedAt, j.LastOutcome, j.LastError, j.RequestID, j.NeedsUser = ms, ms, outcome, errText, "", ""
	j.LastErrorMsg, j.NeedsUserMsg = nil, nil
	j.Runs++
	j.Deferrals = 0
	next := now.Add(time.Duration(j.Schedule.IntervalSeconds) * time.Second).UnixMilli()
	switch outcome {
	case "success":
		j.Failures = 0
		if !j.Keep {
			j.State = StateCompleted
			return
		}
		j.Baseline = clipRunes(answer, MaxBaseline)
	case "partial":
		j.Failures = 0
		j.Baseline = clipRunes(answer, MaxBaseline)
	case OutcomeStopped:
		j.State, j.PausedBy = StatePaused, PausedByUser
		return
	default:
		j.Failures++
		if j.Failures >= watchFailures {
			j.State = StateFailed
			return
		}
	}
	j.State, j.NextRunAt = StatePending, next
}

func clipRunes(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
