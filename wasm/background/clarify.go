package background

import (
	"context"
	"errors"
	"sync"

	"github.com/webbrain/webbrain/wasm/agent"
)

// clarifier is a run's agent.Clarifier: Ask waits until the panel answers
// with clarify_answer for the same request and question id.
type clarifier struct {
	j *journal

	mu       sync.Mutex
	waiting  map[string]chan string // buffered: an answer may arrive before Ask waits
	answered map[string]bool
}

func newClarifier(j *journal) *clarifier {
	return &clarifier{j: j, waiting: map[string]chan string{}, answered: map[string]bool{}}
}

// Ask journals the question unless the agent already emitted it, then
// waits for the answer or the end of the run.
func (c *clarifier) Ask(ctx context.Context, id, question string, options []string) (string, error) {
	c.mu.Lock()
	ch := c.channel(id)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.waiting, id)
		c.mu.Unlock()
	}()
	if !c.j.hasEvent(agent.EventClarify, id) {
		c.j.add(Entry{Event: agent.Event{Kind: agent.EventClarify, ID: id, Text: question, Options: options}})
	}
	select {
	case answer := <-ch:
		return answer, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// channel returns the answer channel of question id; the caller holds mu.
func (c *clarifier) channel(id string) chan string {
	ch, ok := c.waiting[id]
	if !ok {
		ch = make(chan string, 1)
		c.waiting[id] = ch
	}
	return ch
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
	if _, ok := c.waiting[id]; !ok && !c.j.hasEvent(agent.EventClarify, id) {
		return errNoQuestion
	}
	c.answered[id] = true
	c.channel(id) <- text
	return nil
}
