package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/tools"
)

// handOff ends a turn that used every step without a terminal answer: one
// context-only model request, with done as the only tool and success not
// allowed. Anything but a valid done falls back to a deterministic
// summary. The hand-off prompt is not kept in the conversation; the final
// answer is.
func (r *run) handOff(ctx context.Context) (Outcome, error) {
	msgs := append(append([]llm.Message(nil), r.conv...), llm.Message{
		Role: llm.RoleUser,
		Content: fmt.Sprintf("[WebBrain] The step limit of %d steps is reached and the browser tools are closed. "+
			"Call done now: status partial if part of the task is done, failed if none of it is, and a summary of what was done, what you found and what remains.", r.opts.MaxSteps),
	})
	res, err := r.opts.Provider.Chat(ctx, llm.Request{
		Messages:    msgs,
		Tools:       []llm.ToolSpec{tools.Terminal()},
		Temperature: temperature(r.opts.Mode),
		MaxTokens:   maxTokens,
	})
	if ctx.Err() != nil {
		return r.outcome(""), ctx.Err()
	}
	summary := ""
	if err == nil {
		summary = terminalSummary(res)
	}
	if summary == "" {
		summary = r.stepLimitSummary()
	}
	r.conv = append(r.conv, llm.Message{Role: llm.RoleAssistant, Content: summary})
	// The reason lets the panel offer Continue: the task may be unfinished.
	final := r.cleanAnswer(summary)
	r.emit(Event{Kind: protocol.EventFinal, Text: final, Outcome: r.status, Reason: protocol.FinalStepLimit})
	return r.outcome(final), nil
}

// terminalSummary returns the summary of a valid hand-off answer: exactly
// a done call with status partial or failed and a summary.
func terminalSummary(res llm.Result) string {
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Name != protocol.ToolDone {
		return ""
	}
	var a struct{ Summary, Status string }
	if json.Unmarshal([]byte(res.ToolCalls[0].Arguments), &a) != nil {
		return ""
	}
	if a.Status != "partial" && a.Status != "failed" {
		return ""
	}
	return strings.TrimSpace(a.Summary)
}

// stepLimitSummary is the deterministic fallback: the limit and what the
// run did.
func (r *run) stepLimitSummary() string {
	s := fmt.Sprintf("I reached the step limit of %d steps before finishing the task.", r.opts.MaxSteps)
	if len(r.called) > 0 {
		counts := map[string]int{}
		for _, n := range r.called {
			counts[n]++
		}
		s += " Tools used: " + toolCounts(counts) + "."
	}
	return s + " The task may be only partly done: check the page, then ask me to continue or raise the step limit in Settings."
}
