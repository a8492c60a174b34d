package background

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// approvalTimeout is how long a card waits; then the action is declined,
// the safe answer (docs/decisions/action-gate.md).
const approvalTimeout = 5 * time.Minute

// approver is a run's guard.Approver: the card is a journaled approval
// event, answered by approval_answer for the same request and id. A card a
// previous background showed is shown on (same id, same expiry), and one
// it saw answered is not asked again.
type approver struct {
	r *Router
	j *journal

	mu       sync.Mutex
	waiting  mailbox[guard.Decision] // buffered: the answer may come first
	answered map[string]bool
}

func newApprover(r *Router, j *journal) *approver {
	return &approver{r: r, j: j, waiting: mailbox[guard.Decision]{}, answered: map[string]bool{}}
}

func (a *approver) Approve(ctx context.Context, ap guard.Approval) (guard.Decision, error) {
	if e, ok := a.j.find(protocol.EventApprovalResolved, ap.ID); ok {
		return guard.Decision(e.Decision), nil
	}
	now := a.r.p.Clock.Now()
	if e, ok := a.j.find(protocol.EventApproval, ap.ID); ok && e.Approval != nil {
		ap.ExpiresAt = e.Approval.ExpiresAt
	} else {
		ap.ExpiresAt = now.Add(approvalTimeout).UnixMilli()
		a.j.add(Entry{Event: agent.Event{Kind: protocol.EventApproval, ID: ap.ID, Text: ap.Text, Msg: ap.TextMsg, Approval: &ap}})
		if jobOf(a.j.snapshot().RequestID) != "" {
			// A scheduled run has no one watching the panel.
			a.r.notify("webbrain-card-"+ap.ID, uitext.T("bg_notify_approval", "WebBrain needs your approval"), clipText(uitext.Text{English: ap.Text, Msg: ap.TextMsg}, 180))
		}
	}
	a.mu.Lock()
	ch := a.waiting.channel(ap.ID)
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.waiting, ap.ID)
		a.mu.Unlock()
	}()
	wait := time.UnixMilli(ap.ExpiresAt).Sub(now)
	select {
	case d := <-ch:
		return d, nil
	case <-a.r.p.Clock.After(max(wait, 0)):
		a.resolve(ap.ID, guard.Decline, protocol.ResolvedTimeout)
		a.j.expired(ap.Text)
		return guard.Decline, nil
	case <-ctx.Done():
		a.resolve(ap.ID, guard.Decline, protocol.ResolvedStopped)
		return "", ctx.Err()
	}
}

// resolve journals a card's outcome once.
func (a *approver) resolve(id string, d guard.Decision, reason string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.answered[id] {
		return false
	}
	a.answered[id] = true
	a.j.add(Entry{Event: agent.Event{Kind: protocol.EventApprovalResolved, ID: id, Decision: string(d), Reason: reason}})
	return true
}

var errNoCard = errors.New("No approval card with this id is waiting for an answer.")

// answer delivers the user's decision on card id: one that is showing or
// about to wait. Each card takes one answer.
func (a *approver) answer(id string, d guard.Decision) error {
	switch d {
	case guard.Approve, guard.ApproveSite, guard.Decline:
	default:
		return errors.New("The decision must be approve, approve_site or decline.")
	}
	if !a.j.hasEvent(protocol.EventApproval, id) {
		return errNoCard
	}
	if _, done := a.j.find(protocol.EventApprovalResolved, id); done {
		return errNoCard
	}
	if !a.resolve(id, d, protocol.ResolvedUser) {
		return errNoCard
	}
	a.mu.Lock()
	a.waiting.channel(id) <- d
	a.mu.Unlock()
	return nil
}
