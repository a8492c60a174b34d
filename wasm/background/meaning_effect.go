package background

import (
	"context"
	"strings"
	"sync"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/decide"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/settings"
)

// controlEffectQuestion is the spec's control_effect: what clicking a
// control does, read from its captions (page data) and the question of the
// dialog it sits in. No reading authorizes anything: a consequential one
// makes the gate treat the control as that kind of action, and every
// other reading leaves the control to the word lists
// (docs/decisions/semantic-decisions.md, "control_effect").
var controlEffectQuestion = decide.Question{
	ID: "control_effect",
	Text: "The page data block holds the captions of one control on a web page (its text, accessible name, title or value) and, when it sits in a dialog, the dialog's text. " +
		"In whatever language they are, what happens when this control is clicked?",
	Choices: []decide.Choice{
		{Value: guard.EffectSends, Meaning: "it sends a message, an email, an invitation or a reply to someone"},
		{Value: guard.EffectPublishes, Meaning: "it publishes or posts something for others to see: a post, comment, reply, review, story or listing"},
		{Value: guard.EffectPays, Meaning: "it pays, transfers or moves money, checks out or places a paid order"},
		{Value: guard.EffectBuys, Meaning: "it buys, orders, books, subscribes or adds something to a cart or basket"},
		{Value: guard.EffectShares, Meaning: "it shares something with someone, gives someone access or a role, or makes something public"},
		{Value: guard.EffectAccount, Meaning: "it changes the account's security or identity: password, sign-in methods, two-factor, recovery, closing the account"},
		{Value: guard.EffectDeletesOne, Meaning: "it deletes, removes or cancels one saved item: a post, message, file, record, subscription"},
		{Value: guard.EffectDeletesSeveral, Meaning: "it deletes or removes several items, all of them, or the selected ones"},
		{Value: guard.EffectCommits, Meaning: "it submits, saves, applies or confirms changes"},
		{Value: guard.EffectNextStep, Meaning: "it moves a form or a wizard to its next step"},
		{Value: guard.EffectEditsDraft, Meaning: "it only edits the form or the draft being written: formatting, emoji, attaching to the draft, adding a row, clearing a field"},
		{Value: guard.EffectView, Meaning: "it only changes the view: opens or closes something (a menu, a dialog, an editor, a reply box, a page), cancels, goes back, shows or hides, expands, filters, sorts or searches"},
		{Value: guard.EffectUnclear, Meaning: "it cannot be told from the captions"},
	},
}

// hasDecisionModel: settings name a decision model, so captions may be
// read ahead without spending the active model.
func hasDecisionModel(s settings.Settings) bool {
	_, ok := s.Decision()
	return ok
}

// effectPage is the page data of one control_effect question.
func effectPage(c guard.EffectControl) string {
	var b strings.Builder
	b.WriteString("The control's captions: " + clip.Runes(strings.Join(c.Captions, " / "), 300))
	if strings.TrimSpace(c.Dialog) != "" {
		b.WriteString("\nThe dialog it sits in: " + clip.Runes(c.Dialog, 400))
	}
	return b.String()
}

// effects answers control_effect for one run's gate (guard.EffectReader
// and guard.EffectPreReader). A click's reading asks the decision model
// first, the active model within activeReadWithin (decide.AskPage, which
// keeps each answer per caption). When settings name a decision model,
// the captions of the buttons and menu items a page read showed are read
// ahead by it alone, in the background and cancelled with the run, so a
// click usually finds its caption read; the active model is never spent
// on a caption nobody clicked.
type effects struct {
	d     *decide.Decider
	run   context.Context // the run: read-aheads end with it
	ahead bool            // a decision model is configured

	mu      sync.Mutex
	read    map[string]string        // caption → the decision model's read-ahead
	pending map[string]chan struct{} // captions being read ahead
	queue   []string
	queued  int // captions queued in the run, at most maxReadAhead
	working bool
}

// maxReadAhead bounds the captions one run reads ahead (the gate sends at
// most 30 per page read).
const maxReadAhead = 300

func newEffects(run context.Context, d *decide.Decider, ahead bool) *effects {
	return &effects{d: d, run: run, ahead: ahead, read: map[string]string{}, pending: map[string]chan struct{}{}}
}

// ControlEffect reads one control (guard.EffectReader). A control alone
// (no dialog) whose caption is being read ahead waits for that reading
// instead of asking the same question again.
func (e *effects) ControlEffect(ctx context.Context, c guard.EffectControl) string {
	if c.Dialog == "" && len(c.Captions) == 1 {
		key := c.Captions[0]
		e.mu.Lock()
		done, inFlight := e.pending[key]
		e.mu.Unlock()
		if inFlight {
			select {
			case <-done:
			case <-ctx.Done():
				return ""
			}
		}
		e.mu.Lock()
		r := e.read[key]
		e.mu.Unlock()
		if r != "" {
			return r
		}
	}
	return e.d.AskPage(ctx, controlEffectQuestion, effectPage(c), activeReadWithin).Choice
}

// PreReadEffects queues captions to be read ahead by the decision model
// alone (guard.EffectPreReader); each caption is read once per run.
func (e *effects) PreReadEffects(captions []string) {
	if !e.ahead || e.run.Err() != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range captions {
		if _, ok := e.read[c]; ok {
			continue
		}
		if _, ok := e.pending[c]; ok {
			continue
		}
		if e.queued >= maxReadAhead {
			break
		}
		e.queued++
		e.pending[c] = make(chan struct{})
		e.queue = append(e.queue, c)
	}
	if !e.working && len(e.queue) > 0 {
		e.working = true
		go e.work()
	}
}

// work reads the queue one caption at a time until it is empty or the run
// ends; a caption the decision model could not read stays unread, for a
// click to ask again with the active model.
func (e *effects) work() {
	for {
		e.mu.Lock()
		if len(e.queue) == 0 || e.run.Err() != nil {
			for _, c := range e.queue {
				close(e.pending[c])
				delete(e.pending, c)
			}
			e.queue, e.working = nil, false
			e.mu.Unlock()
			return
		}
		c := e.queue[0]
		e.queue = e.queue[1:]
		e.mu.Unlock()
		page := effectPage(guard.EffectControl{Captions: []string{c}})
		a := e.d.AskDecisionModel(e.run, controlEffectQuestion, decide.Input{Page: page})
		e.mu.Lock()
		if a.Choice != "" {
			e.read[c] = a.Choice
		}
		close(e.pending[c])
		delete(e.pending, c)
		e.mu.Unlock()
	}
}
