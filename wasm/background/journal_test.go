package background

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func storedJournal(t *testing.T, st platform.Storage, tabID int) (Journal, bool) {
	t.Helper()
	got, err := st.Get(context.Background(), journalKey(tabID))
	if err != nil {
		t.Fatal(err)
	}
	raw, ok := got[journalKey(tabID)]
	if !ok {
		return Journal{}, false
	}
	var j Journal
	if err := json.Unmarshal(raw, &j); err != nil {
		t.Fatal(err)
	}
	return j, true
}

// eventually polls cond for up to 5 s.
// eventually waits for cond; the limit is generous because a loaded
// machine may run the background's goroutines late.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestJournalCoalescesTextDeltas(t *testing.T) {
	session, clock, ui := newCountingStorage(), newFakeClock(), &broadcaster{}
	j := newJournal(platform.Platform{Session: session, Clock: clock, UI: ui}, 7, "r1", protocol.ModeAsk)
	key := journalKey(7)

	for _, d := range []string{"Hel", "lo ", "world"} {
		j.add(Entry{Event: agent.Event{Kind: protocol.EventTextDelta, Text: d}})
	}
	if n := len(ui.updates()); n != 3 {
		t.Fatalf("every delta must be broadcast at once; got %d broadcasts", n)
	}
	if n := session.Writes(key); n != 0 {
		t.Fatalf("deltas written before the timer: %d writes", n)
	}
	if n := clock.Waiters(); n != 1 {
		t.Fatalf("want one trailing timer for the burst, got %d", n)
	}
	// Only the timer writes deltas, and it has not fired.
	clock.Advance(199 * time.Millisecond)
	if n := session.Writes(key); n != 0 {
		t.Fatalf("written before 200 ms: %d writes", n)
	}
	clock.Advance(time.Millisecond)
	eventually(t, "the coalesced write", func() bool { return session.Writes(key) == 1 })
	if js, _ := storedJournal(t, session, 7); js.Text != "Hello world" || js.Seq != 3 || len(js.Events) != 3 {
		t.Fatalf("coalesced snapshot: %+v", js)
	}

	// A non-delta event writes at once and cancels the pending timer.
	j.add(Entry{Event: agent.Event{Kind: protocol.EventTextDelta, Text: "!"}})
	j.add(Entry{Event: agent.Event{Kind: protocol.EventToolCall, ID: "c1", Name: "read_page", Args: "{}"}})
	if n := session.Writes(key); n != 2 {
		t.Fatalf("tool_call must flush immediately: %d writes", n)
	}
	js, _ := storedJournal(t, session, 7)
	if js.Text != "Hello world!" || js.Seq != 5 {
		t.Fatalf("snapshot after tool_call: %+v", js)
	}
	// The cancelled timer's goroutine writes only while its timer is the
	// pending one, which it no longer is.
	clock.Advance(time.Second)
	if n := session.Writes(key); n != 2 {
		t.Fatalf("cancelled timer still wrote: %d writes", n)
	}

	// A new model step starts a new turn's text; final ends the run.
	j.add(Entry{Event: agent.Event{Kind: protocol.EventStep, Step: 2}})
	j.add(Entry{Event: agent.Event{Kind: protocol.EventFinal, Text: "Done."}})
	js, _ = storedJournal(t, session, 7)
	if js.Text != "" || js.Status != protocol.StatusDone || js.Final != "Done." || js.RequestID != "r1" || js.Mode != protocol.ModeAsk {
		t.Fatalf("final snapshot: %+v", js)
	}
}

func TestJournalWindowAndTextBound(t *testing.T) {
	session, ui := newCountingStorage(), &broadcaster{}
	j := newJournal(platform.Platform{Session: session, Clock: newFakeClock(), UI: ui}, 3, "r", protocol.ModeAct)
	word := strings.Repeat("é", 200) // 400 bytes of two-byte characters
	const n = 300
	for i := 0; i < n; i++ {
		j.add(Entry{Event: agent.Event{Kind: protocol.EventTextDelta, Text: word}})
	}
	j.add(Entry{Event: agent.Event{Kind: protocol.EventError, Text: "boom"}})

	js, ok := storedJournal(t, session, 3)
	if !ok {
		t.Fatal("no journal written")
	}
	if len(js.Events) != journalEvents || js.Seq != n+1 || js.Events[0].Seq != n+2-journalEvents || js.Events[journalEvents-1].Seq != n+1 {
		t.Fatalf("window: %d events, seq %d, first %d", len(js.Events), js.Seq, js.Events[0].Seq)
	}
	if len(js.Text) > journalTextMax || len(js.Text) < journalTextMax-1 || !js.TextTruncated || !strings.HasPrefix(js.Text, word) {
		t.Fatalf("text bound: %d bytes, truncated %v", len(js.Text), js.TextTruncated)
	}
	if !strings.HasSuffix(js.Text, "é") {
		t.Fatal("text cut inside a character")
	}
	if js.Status != protocol.StatusError || js.Error != "boom" {
		t.Fatalf("status %q error %q", js.Status, js.Error)
	}
	ups := ui.updates()
	if len(ups) != n+1 {
		t.Fatalf("%d broadcasts, want %d", len(ups), n+1)
	}
	for i, u := range ups {
		if u.Seq != i+1 || u.Event.Seq != i+1 || u.Type != "agent_update" || u.TabID != 3 || u.RequestID != "r" {
			t.Fatalf("broadcast %d: %+v", i, u)
		}
	}
}

func TestJournalDropStopsWrites(t *testing.T) {
	session := newCountingStorage()
	j := newJournal(platform.Platform{Session: session, Clock: newFakeClock(), UI: &broadcaster{}}, 1, "r", protocol.ModeAsk)
	j.add(Entry{Event: agent.Event{Kind: protocol.EventRunStarted, Text: "hi"}, Mode: protocol.ModeAsk})
	j.drop()
	j.add(Entry{Event: agent.Event{Kind: protocol.EventStopped}})
	if n := session.Writes(journalKey(1)); n != 1 {
		t.Fatalf("%d writes after drop, want 1 (before it)", n)
	}
}
