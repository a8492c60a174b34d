package background

import (
	"context"
	"encoding/json"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/cost"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Journal limits and timing (docs/decisions/run-journal.md).
const (
	journalEvents  = 256      // replay window
	journalTextMax = 64 << 10 // accumulated text of the current model turn
	coalesceDelay  = 200 * time.Millisecond
)

// Entry is one journaled event: the agent's event fields plus its sequence
// number and, for run_started, the mode.
type Entry struct {
	Seq int `json:"seq"`
	agent.Event
	Mode        string   `json:"mode,omitempty"`
	Corrections []string `json:"corrections,omitempty"` // steer_returned
	// Usage is a usage event's model call; Allowance the card of an
	// allowance or allowance_resolved event.
	Usage     *cost.Call     `json:"usage,omitempty"`
	Allowance *AllowanceCard `json:"allowance,omitempty"`
	// Total is the run's usage with this call: a panel shows it whatever
	// events it has seen.
	Total *RunUsage `json:"total,omitempty"`
}

// Journal is the runUi:<tabId> snapshot a reopened panel replays.
type Journal struct {
	RequestID     string  `json:"requestId"`
	Mode          string  `json:"mode"`
	Status        string  `json:"status"`
	Seq           int     `json:"seq"`
	Events        []Entry `json:"events"`
	Text          string  `json:"text"`
	TextTruncated bool    `json:"textTruncated,omitempty"`
	Final         string  `json:"final"`
	Error         string  `json:"error"`
	UpdatedAt     string  `json:"updatedAt"`
	// Usage is the run's model usage so far; it survives a restart with
	// the journal, which the events (the last 256) alone would not.
	Usage RunUsage `json:"usage"`
}

func journalKey(tabID int) string { return protocol.TabKey(protocol.KeyRunUI, tabID) }

// journal records one run's events, broadcasts each at once and persists
// the snapshot: text_delta events on a trailing 200 ms timer, every other
// event immediately.
type journal struct {
	p     platform.Platform
	tabID int

	mu      sync.Mutex
	state   Journal
	pending chan struct{} // closed to cancel the scheduled delta write
	discard bool          // the conversation was cleared: write nothing more

	writeMu sync.Mutex // keeps writes in order: a later snapshot always wins

	observe func(Entry) // the run's trace recorder; nil when traces are off

	// waitingOn is the question or card the run waits on the user for
	// ("" when none): set by a clarify, approval, plan or allowance event,
	// cleared by the next event of another kind. onWait, when set (a
	// scheduled job's run), is called in a goroutine after each change.
	waitingOn, waitingKind string
	waitingMsg             *uitext.Msg
	onWait                 func()
	// unanswered is the last question or card that expired without the
	// user's answer ("" when none).
	unanswered string
}

// expired records that what the run asked the user expired unanswered.
func (j *journal) expired(what string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.unanswered = firstNonEmpty(what, "a question")
}

// expiredQuestion is what expired unanswered in this run, or "".
func (j *journal) expiredQuestion() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.unanswered
}

// waitingText is the key of what the run waits on the user for, or nil.
func (j *journal) waitingText() *uitext.Msg {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.waitingMsg
}

// waitsOnUser reports what the run waits on the user for and the event's
// kind, or "".
func (j *journal) waitsOnUser() (what, kind string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.waitingOn, j.waitingKind
}

// waitKinds are the events that leave a run waiting on the user.
var waitKinds = map[string]bool{
	protocol.EventClarify: true, protocol.EventApproval: true, protocol.EventPlanReview: true, protocol.EventAllowance: true,
}

func newJournal(p platform.Platform, tabID int, requestID, mode string) *journal {
	return &journal{p: p, tabID: tabID, state: Journal{
		RequestID: requestID, Mode: mode, Status: protocol.StatusRunning, Events: []Entry{},
	}}
}

// observeWith has every later event handed to fn as well.
func (j *journal) observeWith(fn func(Entry)) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.observe = fn
}

// resumeSeqGap is how far a resumed journal's seq jumps: the old
// background may have broadcast text deltas of its last 200 ms that it
// never stored, and a panel must not take new events for those. The gap
// makes the panel resync from run_state instead.
const resumeSeqGap = 1024

// resumedJournal continues a stored journal after a restart: its events
// go on under the same request, past any seq the old background used.
func resumedJournal(p platform.Platform, tabID int, stored Journal) *journal {
	if stored.Events == nil {
		stored.Events = []Entry{}
	}
	stored.Seq += resumeSeqGap
	j := &journal{p: p, tabID: tabID, state: stored}
	// A run that waited on the user when the worker stopped still does.
	for k := len(stored.Events) - 1; k >= 0; k-- {
		ev := stored.Events[k]
		if ev.Kind == protocol.EventUsage || ev.Kind == protocol.EventTextDelta {
			continue
		}
		if waitKinds[ev.Kind] {
			j.waitingOn, j.waitingKind = firstNonEmpty(ev.Text, ev.Kind), ev.Kind
			if ev.Text != "" {
				j.waitingMsg = ev.Msg
			}
		}
		break
	}
	return j
}

// add journals ev, broadcasts it and schedules or performs the write.
func (j *journal) add(ev Entry) {
	j.mu.Lock()
	s := &j.state
	s.Seq++
	ev.Seq = s.Seq
	if ev.Kind == protocol.EventUsage && ev.Usage != nil {
		s.Usage.Add(*ev.Usage)
		total := s.Usage
		ev.Total = &total
	}
	s.Events = append(s.Events, ev)
	if n := len(s.Events) - journalEvents; n > 0 {
		s.Events = s.Events[n:]
	}
	switch ev.Kind {
	case protocol.EventTextDelta:
		j.appendText(ev.Text)
	case protocol.EventStep, protocol.EventTextReset:
		s.Text, s.TextTruncated = "", false
	case protocol.EventFinal:
		s.Status, s.Final = protocol.StatusDone, ev.Text
	case protocol.EventError:
		s.Status, s.Error = protocol.StatusError, ev.Text
	case protocol.EventStopped:
		s.Status = protocol.StatusStopped
	case protocol.EventModeChanged, protocol.EventRunMode:
		s.Mode = ev.Mode
	case protocol.EventAllowanceResolved:
		if a := ev.Allowance; a != nil && a.Scope == cost.ScopeRun && ev.Decision == protocol.AllowanceRaise {
			s.Usage.RaisedUSD += a.RaiseUSD
		}
	}
	s.UpdatedAt = j.p.Clock.Now().UTC().Format(time.RFC3339Nano)
	if was := j.waitingOn; waitKinds[ev.Kind] || (was != "" && ev.Kind != protocol.EventUsage && ev.Kind != protocol.EventTextDelta) {
		j.waitingOn, j.waitingKind, j.waitingMsg = "", "", nil
		if waitKinds[ev.Kind] {
			j.waitingOn, j.waitingKind = firstNonEmpty(ev.Text, ev.Kind), ev.Kind
			if ev.Text != "" {
				j.waitingMsg = ev.Msg
			}
		}
		if j.onWait != nil && j.waitingOn != was {
			go j.onWait()
		}
	}
	if j.observe != nil {
		j.observe(ev)
	}
	// Broadcast under the lock so panels see events in seq order.
	j.p.UI.Broadcast(map[string]any{
		"type": protocol.MessageAgentUpdate, "tabId": j.tabID, "requestId": s.RequestID, "seq": ev.Seq, "event": ev,
	})
	if ev.Kind == protocol.EventTextDelta {
		if j.pending == nil {
			// The timer is set here, not in the goroutine, so it exists
			// once add returns.
			j.pending = make(chan struct{})
			go j.flushAfter(j.pending, j.p.Clock.After(coalesceDelay))
		}
		j.mu.Unlock()
		return
	}
	j.cancelPending()
	j.mu.Unlock()
	j.flush()
}

// appendText keeps the first journalTextMax bytes of the turn's text, cut
// at a character boundary; the final event carries the whole answer.
func (j *journal) appendText(delta string) {
	s := &j.state
	room := journalTextMax - len(s.Text)
	if len(delta) > room {
		for room > 0 && !utf8.RuneStart(delta[room]) {
			room--
		}
		delta, s.TextTruncated = delta[:room], true
	}
	s.Text += delta
}

func (j *journal) flushAfter(cancel chan struct{}, fire <-chan time.Time) {
	select {
	case <-fire:
	case <-cancel:
		return
	}
	j.mu.Lock()
	if j.pending != cancel {
		j.mu.Unlock()
		return
	}
	j.pending = nil
	j.mu.Unlock()
	j.flush()
}

// cancelPending drops the scheduled delta write; the caller holds mu.
func (j *journal) cancelPending() {
	if j.pending != nil {
		close(j.pending)
		j.pending = nil
	}
}

// flush writes the current snapshot. It uses its own context: a stopped
// run must still record that it stopped.
func (j *journal) flush() {
	j.writeMu.Lock()
	defer j.writeMu.Unlock()
	j.mu.Lock()
	if j.discard {
		j.mu.Unlock()
		return
	}
	raw, err := json.Marshal(j.state)
	j.mu.Unlock()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storageWriteTimeout)
	defer cancel()
	// Best effort: a failed write loses only replay state, never the run.
	_ = j.p.Session.Set(ctx, map[string]json.RawMessage{journalKey(j.tabID): raw})
}

// snapshot returns a copy of the live journal.
func (j *journal) snapshot() Journal {
	j.mu.Lock()
	defer j.mu.Unlock()
	s := j.state
	s.Events = append([]Entry(nil), s.Events...)
	return s
}

// hasEvent reports whether an event of kind (and, if not empty, id) was
// journaled and is still in the window.
func (j *journal) hasEvent(kind, id string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range j.state.Events {
		if e.Kind == kind && (id == "" || e.ID == id) {
			return true
		}
	}
	return false
}

// find returns the last journaled event of kind with id.
func (j *journal) find(kind, id string) (Entry, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for i := len(j.state.Events) - 1; i >= 0; i-- {
		if e := j.state.Events[i]; e.Kind == kind && e.ID == id {
			return e, true
		}
	}
	return Entry{}, false
}

// last returns the latest event of kind.
func (j *journal) last(kind string) (Entry, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for i := len(j.state.Events) - 1; i >= 0; i-- {
		if e := j.state.Events[i]; e.Kind == kind {
			return e, true
		}
	}
	return Entry{}, false
}

// count is how many events of kind the journal holds.
func (j *journal) count(kind string) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := 0
	for _, e := range j.state.Events {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// usage is the run's usage so far.
func (j *journal) usage() RunUsage {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.state.Usage
}

func (j *journal) status() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.state.Status
}

// terminal reports whether the run has reached a final state.
func (j *journal) terminal() bool { return j.status() != protocol.StatusRunning }

// drop stops all further writes (the conversation is being cleared). It
// takes writeMu first so a write already in progress finishes before the
// caller removes the key.
func (j *journal) drop() {
	j.writeMu.Lock()
	defer j.writeMu.Unlock()
	j.mu.Lock()
	defer j.mu.Unlock()
	j.discard = true
	j.cancelPending()
}
