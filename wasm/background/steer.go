package background

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func steerKey(tabID int) string { return protocol.TabKey(protocol.KeyAgentSteer, tabID) }

// steerRecord is agentSteer:<tabId>: the corrections accepted for one
// request. Which of them are applied is the run checkpoint's business.
type steerRecord struct {
	RequestID   string             `json:"requestId"`
	Corrections []agent.Correction `json:"corrections"`
}

// errRunEnded refuses a correction for a run that is over or ending.
var errRunEnded = errors.New("the run has ended")

// steerBox is a run's agent.Steering: the corrections accepted for it,
// journaled in storage.session before they are acknowledged.
type steerBox struct {
	p         platform.Platform
	tabID     int
	requestID string

	mu      sync.Mutex
	items   []agent.Correction
	applied map[string]bool
	closed  bool // handed back: the run takes no more
	arrived chan struct{}
}

func newSteerBox(p platform.Platform, tabID int, requestID string) *steerBox {
	return &steerBox{p: p, tabID: tabID, requestID: requestID, applied: map[string]bool{}, arrived: make(chan struct{}, 1)}
}

func (s *steerBox) Pending() []agent.Correction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.items)
}

func (s *steerBox) Arrived() <-chan struct{} { return s.arrived }

// add journals a correction and, once it is stored, calls accepted and
// wakes the agent. The lock keeps the stored list in order.
func (s *steerBox) add(ctx context.Context, text string, accepted func(agent.Correction)) (agent.Correction, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return agent.Correction{}, errRunEnded
	}
	c := agent.Correction{ID: fmt.Sprintf("c%d", len(s.items)+1), Text: text}
	raw, err := json.Marshal(steerRecord{RequestID: s.requestID, Corrections: append(slices.Clone(s.items), c)})
	if err == nil {
		wctx, cancel := context.WithTimeout(ctx, storageWriteTimeout)
		err = s.p.Session.Set(wctx, map[string]json.RawMessage{steerKey(s.tabID): raw})
		cancel()
	}
	if err != nil {
		s.mu.Unlock()
		return agent.Correction{}, err
	}
	s.items = append(s.items, c)
	accepted(c)
	s.mu.Unlock()
	select {
	case s.arrived <- struct{}{}:
	default:
	}
	return c, nil
}

func (s *steerBox) markApplied(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		s.applied[id] = true
	}
}

// close ends the box and returns the texts of the corrections the run
// did not apply, in order. Later calls return nothing.
func (s *steerBox) close() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	var out []string
	for _, c := range s.items {
		if !s.applied[c.ID] {
			out = append(out, c.Text)
		}
	}
	return out
}

// restore loads the stored corrections of the same request after a
// restart; applied lists those the checkpoint's conversation holds.
func (s *steerBox) restore(raw json.RawMessage, applied []string) {
	var rec steerRecord
	if raw == nil || json.Unmarshal(raw, &rec) != nil || rec.RequestID != s.requestID {
		return
	}
	s.items = rec.Corrections
	s.markApplied(applied...)
}

// steer accepts a correction from the panel for the tab's active run.
func (r *Router) steer(ctx context.Context, m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	text := strings.TrimSpace(m.Text)
	if text == "" {
		return failf("The correction is empty.")
	}
	ru := r.active(m.TabID)
	if ru == nil || ru.requestID != m.RequestID {
		return reply{"ok": false, "ended": true, "error": "The run has ended; the correction stays in the queue."}
	}
	c, err := ru.steer.add(ctx, text, func(c agent.Correction) {
		ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventSteer, ID: c.ID, Text: c.Text}})
	})
	if errors.Is(err, errRunEnded) {
		return reply{"ok": false, "ended": true, "error": "The run has ended; the correction stays in the queue."}
	}
	if err != nil {
		return failf("The correction could not be saved: %v", err)
	}
	return okReply("id", c.ID)
}

// handBack closes the run's steering and journals the corrections it did
// not apply so the panel queues them again.
func (r *Router) handBack(ru *run) {
	if texts := ru.steer.close(); len(texts) > 0 {
		ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventSteerReturned}, Corrections: texts})
	}
}
