package background

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// clarifier is a run's agent.Clarifier: Ask waits until the panel answers
// with clarify_answer for the same request and question id.
type clarifier struct {
	j     *journal
	clock platform.Clock

	mu       sync.Mutex
	waiting  mailbox[string] // buffered: an answer may arrive before Ask waits
	answered map[string]bool
}

func newClarifier(j *journal, clock platform.Clock) *clarifier {
	return &clarifier{j: j, clock: clock, waiting: mailbox[string]{}, answered: map[string]bool{}}
}

// clarifyTimeout bounds the wait for an answer: a run never waits forever.
// The model then hears that nobody answered and is told to play it safe.
const clarifyTimeout = 10 * time.Minute

// errNoAnswer is the model's result when a question timed out.
var errNoAnswer = errors.New("the user did not answer within 10 minutes. Do nothing the user did not clearly ask for (no deleting, paying, sending, publishing or sharing on a guess); finish what the request itself asks, or call done and say what is left for the user to decide")

// Ask journals the question unless the agent already emitted it, then
// waits for the answer or the end of the run.
func (c *clarifier) Ask(ctx context.Context, id, question string, options []string) (string, error) {
	opts := make([]uitext.Text, len(options))
	for i, o := range options {
		opts[i] = uitext.Plain(o)
	}
	return c.AskText(ctx, id, uitext.Plain(question), opts)
}

// AskText is Ask for a question WebBrain words itself: the event carries
// the question's and options' keys, so the panel shows them in the
// interface language. The answer is an option's English text.
func (c *clarifier) AskText(ctx context.Context, id string, q uitext.Text, options []uitext.Text) (string, error) {
	question := q.English
	var opts []string
	var optMsgs []*uitext.Msg
	keyed := false
	for _, o := range options {
		opts = append(opts, o.English)
		optMsgs = append(optMsgs, o.Msg)
		keyed = keyed || o.Msg != nil
	}
	if !keyed {
		optMsgs = nil
	}
	c.mu.Lock()
	ch := c.waiting.channel(id)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.waiting, id)
		c.mu.Unlock()
	}()
	if !c.j.hasEvent(protocol.EventClarify, id) {
		c.j.add(Entry{Event: agent.Event{Kind: protocol.EventClarify, ID: id, Text: question, Options: opts, Msg: q.Msg, OptionMsgs: optMsgs}})
	}
	select {
	case answer := <-ch:
		return answer, nil
	case <-c.clock.After(clarifyTimeout):
		c.mu.Lock()
		c.answered[id] = true // a late answer is refused, not queued
		c.mu.Unlock()
		c.j.expired(question)
		return "", errNoAnswer
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

var errNoQuestion = errors.New("No question with this id is waiting for an answer.")

// answer delivers the user's answer to question id: one that is waiting,
// or one the panel has already been shown (the event is broadcast just
// before the agent starts waiting). Each question takes one answer.
func (c *clarifier) answer(id, text string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.answered[id] {
		return errNoQuestion
	}
	if _, ok := c.waiting[id]; !ok && !c.j.hasEvent(protocol.EventClarify, id) {
		return errNoQuestion
	}
	c.answered[id] = true
	c.waiting.channel(id) <- text
	return nil
}

// mailbox holds, per question or card id, the channel its one answer goes
// through. Buffered, so an answer may arrive before anyone waits; the
// owner's mutex guards it.
type mailbox[T any] map[string]chan T

// channel returns the answer channel of id, made on first use.
func (m mailbox[T]) channel(id string) chan T {
	ch, ok := m[id]
	if !ok {
		ch = make(chan T, 1)
		m[id] = ch
	}
	return ch
}
