package background

import (
	"context"
	"errors"
	"testing"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func TestClarifierWaitsForTheMatchingAnswer(t *testing.T) {
	ui := &broadcaster{}
	clock := newFakeClock()
	j := newJournal(platform.Platform{Session: newCountingStorage(), Clock: clock, UI: ui}, 1, "r", protocol.ModeAct)
	c := newClarifier(j, clock)

	got := make(chan string, 1)
	go func() {
		answer, err := c.Ask(context.Background(), "q1", "Which account?", []string{"Work", "Home"})
		if err != nil {
			answer = "error: " + err.Error()
		}
		got <- answer
	}()
	eventually(t, "the question", func() bool { return j.hasEvent(protocol.EventClarify, "q1") })
	if ups := ui.updates(); len(ups) != 1 || ups[0].Event.Text != "Which account?" || len(ups[0].Event.Options) != 2 {
		t.Fatalf("clarify broadcast %+v", ups)
	}
	if err := c.answer("q2", "Work"); !errors.Is(err, errNoQuestion) {
		t.Fatalf("answer to an unknown id: %v", err)
	}
	if err := c.answer("q1", "Home"); err != nil {
		t.Fatal(err)
	}
	if a := <-got; a != "Home" {
		t.Fatalf("answer %q", a)
	}
	if err := c.answer("q1", "again"); err == nil {
		t.Fatal("a question was answered twice")
	}
}

func TestClarifierDoesNotRepeatTheAgentsEvent(t *testing.T) {
	ui := &broadcaster{}
	clock := newFakeClock()
	j := newJournal(platform.Platform{Session: newCountingStorage(), Clock: clock, UI: ui}, 1, "r", protocol.ModeAct)
	c := newClarifier(j, clock)
	j.add(Entry{Event: agent.Event{Kind: protocol.EventClarify, ID: "q1", Text: "Sure?"}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Ask(ctx, "q1", "Sure?", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("a stopped run must end the wait: %v", err)
	}
	if n := len(ui.updates()); n != 1 {
		t.Fatalf("%d clarify broadcasts, want 1", n)
	}
}

func TestUnansweredQuestionTimesOutToTheSafeAnswer(t *testing.T) {
	clock := newFakeClock()
	j := newJournal(platform.Platform{Session: newCountingStorage(), Clock: clock, UI: &broadcaster{}}, 1, "r", protocol.ModeAct)
	c := newClarifier(j, clock)
	got := make(chan error, 1)
	go func() {
		_, err := c.Ask(context.Background(), "q1", "Delete both?", nil)
		got <- err
	}()
	eventually(t, "the wait", func() bool { return clock.Waiters() > 0 })
	clock.Advance(clarifyTimeout)
	if err := <-got; !errors.Is(err, errNoAnswer) {
		t.Fatalf("timeout: %v", err)
	}
	if err := c.answer("q1", "yes"); err == nil {
		t.Fatal("a late answer was taken")
	}
}
