package scheduler

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

func secs(n int) *int { return &n }

func task(s Spec) Spec {
	if s.Kind == "" {
		s.Kind = KindTask
	}
	if s.Prompt == "" {
		s.Prompt = "Check the build status and tell me if it is red"
	}
	if s.Mode == "" {
		s.Mode = "ask"
	}
	if s.Target.Kind == "" {
		s.Target = Target{Kind: TargetCurrentTab, TabID: 4, URL: "https://ci.example.com/builds"}
	}
	return s
}

func TestNewBoundsWhatTheModelAsksFor(t *testing.T) {
	for name, tc := range map[string]struct {
		spec Spec
		want string // "" = valid
	}{
		"now":               {task(Spec{AfterSeconds: secs(0)}), ""},
		"in an hour":        {task(Spec{AfterSeconds: secs(3600)}), ""},
		"too soon":          {task(Spec{AfterSeconds: secs(20)}), "after_seconds must be 0"},
		"too late":          {task(Spec{AfterSeconds: secs(400 * 86400)}), "after_seconds must be 0"},
		"no time":           {task(Spec{}), "give after_seconds or run_at"},
		"both times":        {task(Spec{AfterSeconds: secs(60), RunAt: "2026-12-03T09:00:00Z"}), "not both"},
		"run_at":            {task(Spec{RunAt: "2026-12-03T09:00:00+01:00"}), ""},
		"run_at past":       {task(Spec{RunAt: "2026-12-01T09:00:00Z"}), "at least a minute"},
		"bad run_at":        {task(Spec{RunAt: "tomorrow 9am"}), "a date and time"},
		"no prompt":         {task(Spec{Prompt: " ", AfterSeconds: secs(60)}), "needs a prompt"},
		"dev mode":          {task(Spec{Mode: "dev", AfterSeconds: secs(60)}), "mode must be"},
		"recurring":         {task(Spec{AfterSeconds: secs(0), Recurring: true, IntervalMinutes: 60}), ""},
		"recurring no gap":  {task(Spec{AfterSeconds: secs(0), Recurring: true}), "interval_minutes"},
		"recurring resume":  {task(Spec{Kind: KindResume, AfterSeconds: secs(60), Recurring: true, IntervalMinutes: 5}), "a resume runs once"},
		"url target":        {task(Spec{AfterSeconds: secs(60), Target: Target{Kind: TargetURL, URL: "javascript:alert(1)"}}), "http(s)"},
		"tab target no tab": {task(Spec{AfterSeconds: secs(60), Target: Target{Kind: TargetCurrentTab}}), "current_tab needs"},
	} {
		j, err := New(tc.spec, t0)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", name, err, tc.want)
		case err == nil && (j.State != StatePending || !strings.HasPrefix(j.ID, "job_") || j.Title == ""):
			t.Errorf("%s: %+v", name, j)
		}
	}
}

func TestOnceJobEndsByItsOutcome(t *testing.T) {
	for outcome, want := range map[string]string{
		"success": StateCompleted, "partial": StateCompleted, "": StateCompleted,
		OutcomeFailed: StateFailed, OutcomeError: StateFailed, OutcomeStopped: StateCancelled,
	} {
		j, _ := New(task(Spec{AfterSeconds: secs(0)}), t0)
		j.Finished(outcome, "", t0.Add(time.Minute))
		if j.State != want || j.Runs != 1 {
			t.Errorf("%q: state %s, want %s", outcome, j.State, want)
		}
	}
}

func TestRecurringJobPausesAfterThreeFailuresInARow(t *testing.T) {
	j, _ := New(task(Spec{AfterSeconds: secs(0), Recurring: true, IntervalMinutes: 30}), t0)
	now := t0
	for i, outcome := range []string{OutcomeFailed, OutcomeError, "", "partial", OutcomeFailed, OutcomeFailed} {
		now = now.Add(30 * time.Minute)
		j.Finished(outcome, "", now)
		if j.State != StatePending || j.NextRunAt != now.Add(30*time.Minute).UnixMilli() {
			t.Fatalf("run %d (%q): %s next %d", i, outcome, j.State, j.NextRunAt)
		}
	}
	j.Finished(OutcomeFailed, "", now.Add(time.Hour))
	if j.State != StatePaused || j.PausedBy != PausedByScheduler {
		t.Fatalf("after three failures in a row: %s by %s", j.State, j.PausedBy)
	}
	later := now.Add(5 * time.Hour)
	j.Resume(later)
	if j.State != StatePending || j.Failures != 0 || j.NextRunAt != later.Add(30*time.Minute).UnixMilli() {
		t.Fatalf("resumed: %+v", j)
	}
}

func TestUserPausedJobKeepsItsTimeOrRunsAMinuteAfterResume(t *testing.T) {
	j, _ := New(task(Spec{AfterSeconds: secs(7200)}), t0)
	j.Pause(PausedByUser, t0)
	j.Resume(t0.Add(time.Hour))
	if j.NextRunAt != t0.Add(2*time.Hour).UnixMilli() {
		t.Fatalf("next run %v", time.UnixMilli(j.NextRunAt))
	}
	j.Pause(PausedByUser, t0)
	j.Resume(t0.Add(3 * time.Hour))
	if j.NextRunAt != t0.Add(3*time.Hour+time.Minute).UnixMilli() {
		t.Fatalf("next run %v", time.UnixMilli(j.NextRunAt))
	}
}

func TestABusyTabDefersThenFails(t *testing.T) {
	j, _ := New(task(Spec{AfterSeconds: secs(0)}), t0)
	for i := 0; i < MaxDeferrals; i++ {
		if !j.Defer(t0) || j.State != StateQueued {
			t.Fatalf("deferral %d: %s", i, j.State)
		}
	}
	if j.Defer(t0) || j.State != StateFailed {
		t.Fatalf("after %d deferrals: %s", MaxDeferrals+1, j.State)
	}
}

func TestWatchChecksUntilTheEventThenCompletes(t *testing.T) {
	if _, err := NewWatch("price below 50", "https://shop.example/item", 4, 10*time.Second, false, "", t0); err == nil {
		t.Fatal("a 10 s interval was accepted")
	}
	if _, err := NewWatch("  ", "https://shop.example/item", 4, 0, false, "", t0); err == nil {
		t.Fatal("an empty condition was accepted")
	}
	j, err := NewWatch("price below 50", "https://shop.example/item", 4, 0, false, "", t0)
	if err != nil || !j.IsWatch() || j.NextRunAt != t0.UnixMilli() || j.Schedule.IntervalSeconds != 60 || j.Mode != "ask" {
		t.Fatalf("%+v %v", j, err)
	}
	j.WatchFinished("partial", "The price is 64 €.", "", t0.Add(time.Second))
	if j.State != StatePending || j.Baseline != "The price is 64 €." || j.NextRunAt != t0.Add(61*time.Second).UnixMilli() {
		t.Fatalf("after a partial check %+v", j)
	}
	j.WatchFinished(OutcomeError, "", "the page did not load", t0.Add(time.Minute))
	if j.State != StatePending || j.Baseline != "The price is 64 €." {
		t.Fatalf("a failed check changed the baseline: %+v", j)
	}
	j.WatchFinished("success", "Now 48 €.", "", t0.Add(2*time.Minute))
	if j.State != StateCompleted {
		t.Fatalf("after the event %+v", j)
	}
}

func TestWatchStopsAfterThreeFailedChecksAndKeepGoesOn(t *testing.T) {
	j, _ := NewWatch("new comment", "https://forum.example/t/1", 4, 0, true, "", t0)
	j.WatchFinished("success", "A new comment by Bo.", "", t0)
	if j.State != StatePending || j.Baseline != "A new comment by Bo." {
		t.Fatalf("a --keep watch after an event %+v", j)
	}
	for i := 0; i < 3; i++ {
		j.WatchFinished(OutcomeError, "", "offline", t0)
	}
	if j.State != StateFailed {
		t.Fatalf("after three failed checks %s", j.State)
	}
}

func TestBeepArmsOncePerEvent(t *testing.T) {
	if _, err := NewWatch("price below 50", "https://shop.example/item", 4, 0, false, "loud", t0); err == nil {
		t.Fatal("an unknown tone was accepted")
	}
	j, err := NewWatch("price below 50", "https://shop.example/item", 4, 0, true, "short", t0)
	if err != nil || j.Beep != "short" {
		t.Fatalf("%+v %v", j, err)
	}
	if err := j.ArmBeep("  "); !errors.Is(err, ErrBeepKey) {
		t.Fatalf("empty key: %v", err)
	}
	if err := j.ArmBeep("Price 45 EUR"); err != nil {
		t.Fatal(err)
	}
	if !j.TakeBeep("success") || j.ArmedBeep != "" || j.Warning != "" {
		t.Fatalf("an armed success did not beep: %+v", j)
	}
	// The same event seen again, in other spacing and case, is a duplicate.
	if err := j.ArmBeep("price  45 eur"); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate: %v", err)
	}
	if j.TakeBeep("success") {
		t.Fatal("a success without a fresh key beeped")
	}
	if j.Warning == "" || j.WarningMsg == nil || j.WarningMsg.Key != "bg_job_no_beep" {
		t.Fatalf("a success without beep left no warning with its key: %q %+v", j.Warning, j.WarningMsg)
	}
	// An armed key whose check did not succeed stays reported, silent.
	if err := j.ArmBeep("price 40 eur"); err != nil {
		t.Fatal(err)
	}
	if j.TakeBeep("partial") || j.Warning != "" {
		t.Fatalf("a partial check beeped or warned: %+v", j)
	}
	if err := j.ArmBeep("price 40 eur"); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("a key armed by a failed check was forgotten: %v", err)
	}
	for i := 0; i < MaxBeepKeys+5; i++ {
		_ = j.ArmBeep(fmt.Sprintf("event %d", i))
	}
	if len(j.BeepKeys) != MaxBeepKeys || j.BeepKeys[len(j.BeepKeys)-1] != fmt.Sprintf("event %d", MaxBeepKeys+4) {
		t.Fatalf("keys %d, last %q", len(j.BeepKeys), j.BeepKeys[len(j.BeepKeys)-1])
	}
	plain, _ := NewWatch("x", "https://a.example/", 4, 0, false, "", t0)
	if err := plain.ArmBeep("k"); !errors.Is(err, ErrNoBeep) || plain.TakeBeep("success") || plain.Warning != "" {
		t.Fatalf("a watch without /beep: %v %+v", err, plain)
	}
}
