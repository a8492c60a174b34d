package agent

import (
	"context"
	"slices"
	"sync"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/tools"
)

// Results of calls that steering or a restart kept from running normally.
const (
	resultSteered     = "Not run: the user sent a correction before this call."
	resultInterrupted = "Interrupted: WebBrain's background restarted while this action was running, so its effect is unknown. Read the page again before acting on it."
)

// Correction is a message the user sent to steer the running turn.
type Correction struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// Steering delivers the user's corrections to a running turn.
type Steering interface {
	// Pending lists the turn's corrections, oldest first, applied or
	// not: the agent skips the ones it already applied.
	Pending() []Correction
	// Arrived receives a value when a correction is accepted.
	Arrived() <-chan struct{}
}

// Checkpoint is the durable state of a turn, enough to resume it in a new
// background after a restart: the conversation (the pending tool batch is
// the last assistant message's calls without a result), the step, the
// call sent to the browser whose result is not in yet with its receipt,
// the corrections already in the conversation and the loop detector.
type Checkpoint struct {
	Conversation []llm.Message `json:"conversation"`
	Task         int           `json:"task"`
	Step         int           `json:"step"`
	Dispatched   string        `json:"dispatched,omitempty"`
	// Receipt is the dispatched call's, when it left one in the page.
	Receipt *tools.Receipt `json:"receipt,omitempty"`
	Applied []string       `json:"applied,omitempty"`
	Called  []string       `json:"called,omitempty"`
	// StartURL is the page the turn began on: the site the user works on.
	StartURL string     `json:"startUrl,omitempty"`
	Loops    *LoopState `json:"loops,omitempty"`
	Ledger   *Ledger    `json:"ledger,omitempty"`
}

// save hands the turn's state to Options.Checkpoint. An error means the
// run could not be made durable.
func (r *run) save(step int) error { return r.saveDispatch(step, "", tools.Receipt{}) }

// saveDispatch saves the state with dispatched, the call about to be
// sent, under receipt rc.
func (r *run) saveDispatch(step int, dispatched string, rc tools.Receipt) error {
	if r.opts.Checkpoint == nil {
		return nil
	}
	cp := Checkpoint{
		Conversation: slices.Clone(r.conv), Task: r.task, Step: step, Dispatched: dispatched,
		Applied: slices.Clone(r.applied), Called: slices.Clone(r.called), StartURL: r.startURL,
	}
	if rc.ID != "" {
		cp.Receipt = &rc
	}
	if r.loops != nil {
		cp.Loops = r.loops.state()
	}
	if !r.ledger.empty() {
		l := Ledger{Rows: slices.Clone(r.ledger.Rows), Scratchpad: r.ledger.Scratchpad}
		cp.Ledger = &l
	}
	return r.opts.Checkpoint(cp)
}

// newCorrections lists the accepted corrections not yet applied.
func (r *run) newCorrections() []Correction {
	if r.opts.Steering == nil {
		return nil
	}
	var out []Correction
	for _, c := range r.opts.Steering.Pending() {
		if !slices.Contains(r.applied, c.ID) {
			out = append(out, c)
		}
	}
	return out
}

// applyCorrections adds the new corrections to the conversation as user
// messages, in the order they were sent.
func (r *run) applyCorrections() []Correction {
	cs := r.newCorrections()
	for _, c := range cs {
		r.conv = append(r.conv, llm.Message{Role: llm.RoleUser, Content: correctionPrefix + c.Text})
		r.applied = append(r.applied, c.ID)
	}
	if len(cs) > 0 {
		r.authorize()
	}
	return cs
}

// chat makes the model request. steered reports that a correction arrived
// while it was in flight: the request was aborted and its reply is void.
func (r *run) chat(ctx context.Context, req llm.Request) (res llm.Result, err error, steered bool) {
	if r.opts.Steering == nil {
		res, err = r.opts.Provider.Chat(ctx, req)
		return res, err, false
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-r.opts.Steering.Arrived():
				if len(r.newCorrections()) > 0 {
					steered = true
					cancel()
					return
				}
			case <-stop:
				return
			}
		}
	}()
	res, err = r.opts.Provider.Chat(cctx, req)
	close(stop)
	wg.Wait()
	if steered && ctx.Err() == nil {
		return llm.Result{}, nil, true
	}
	return res, err, false
}

// openCalls returns the calls of the last assistant message that have no
// result yet: the batch a restart interrupted.
func openCalls(conv []llm.Message) []llm.ToolCall {
	last := -1
	for i := len(conv) - 1; i >= 0; i-- {
		if conv[i].Role == llm.RoleAssistant {
			last = i
			break
		}
	}
	if last < 0 {
		return nil
	}
	done := map[string]bool{}
	for _, m := range conv[last+1:] {
		if m.Role == llm.RoleTool {
			done[m.ToolCallID] = true
		}
	}
	var open []llm.ToolCall
	for _, c := range conv[last].ToolCalls {
		if !done[c.ID] {
			open = append(open, c)
		}
	}
	return open
}
