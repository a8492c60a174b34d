package agent

import (
	"errors"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// isOverflow reports whether the provider rejected the request as too
// long for the model's context window.
func isOverflow(err error) bool {
	var le *llm.Error
	return errors.As(err, &le) && le.Kind == llm.KindContextOverflow
}

// trimForOverflow is the emergency trim: it keeps the system prompt, the
// original task, the current turn's task and only the last keepOnOverflow
// messages (more when a tool batch starts earlier: a call is never split
// from its results). It reports false when there is nothing to drop.
func (r *run) trimForOverflow() bool {
	first, start, ok := split(r.conv, keepOnOverflow)
	if !ok {
		return false
	}
	dropped := r.conv[first+1 : start]
	r.conv, r.task = replaceDropped(r.conv, r.task, first, start, compactionNote(dropped)+r.ledgerNote())
	r.lastInput = 0
	r.emit(Event{Kind: protocol.EventContextCompacted, Count: len(dropped), Reason: protocol.CompactedOverflow})
	return true
}

// overflowError is the error of a request that is still too long after
// the emergency trim.
func overflowError(err error) error {
	t := uitext.T("bg_err_context_still_too_long", "The conversation is too long for this model's context window, even after WebBrain kept only the task and the most recent messages. Clear the chat to start afresh, ask for a smaller part of the task, or choose a model with a larger context window in Settings.")
	return &llm.Error{Kind: llm.KindContextOverflow, Err: err, Message: t.English, UI: t.Msg}
}
