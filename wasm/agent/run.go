package agent

import (
	"context"
	"errors"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/tools"
)

// DefaultMaxSteps is used when Options.MaxSteps is 0 (the settings
// default).
const DefaultMaxSteps = 30

// maxTokens bounds every model reply (spec).
const maxTokens = 4096

// Tool results for calls that did not run to the end; every tool call in
// the conversation gets a result so the history stays valid.
const (
	resultStopped = "Stopped by the user."
	resultSkipped = "Not run: the run ended before this call."
)

// errEmptyReply is returned when the model answers with nothing at all.
var errEmptyReply = errors.New("the model returned an empty reply")

// run is the state of one turn.
type run struct {
	opts      Options
	conv      []llm.Message
	task      int // index of this turn's user message in conv
	tools     []llm.ToolSpec
	loops     *loopDetector
	lastInput int      // input tokens of the last model request
	called    []string // names of the tools called in this turn
}

// Run runs one user turn on top of history and returns the conversation
// with the turn appended. When ctx is cancelled (Stop) it returns ctx.Err()
// at the next wait, with a conversation in which every tool call has a
// result.
func Run(ctx context.Context, opts Options, history []llm.Message, userText string) (Outcome, error) {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	r := &run{opts: opts, tools: tools.ForMode(opts.Mode, opts.Tier, opts.Browser)}
	r.conv = withSystem(history, systemPrompt(opts.Mode, opts.Tier))
	pageURL, title := r.page(ctx)
	r.loops = newLoopDetector(pageURL)
	r.conv = append(r.conv, llm.Message{Role: llm.RoleUser, Content: userMessage(userText, pageURL, title)})
	r.task = len(r.conv) - 1

	for step := 1; step <= opts.MaxSteps; step++ {
		if needsCompaction(r.conv, r.lastInput, opts.ContextWindow) {
			r.conv, r.task = compact(r.conv, r.task)
			r.lastInput = 0
		}
		r.emit(Event{Kind: EventStep, Step: step})
		res, err := opts.Provider.Chat(ctx, llm.Request{
			Messages:    r.conv,
			Tools:       r.tools,
			Temperature: temperature(opts.Mode),
			MaxTokens:   maxTokens,
			OnText:      func(d string) { r.emit(Event{Kind: EventTextDelta, Text: d}) },
			OnRetry:     func() { r.emit(Event{Kind: EventTextReset}) },
		})
		if err != nil {
			return r.fail(ctx, err)
		}
		r.lastInput = res.Usage.InputTokens
		if len(res.ToolCalls) == 0 {
			if res.Content == "" {
				return r.fail(ctx, errEmptyReply)
			}
			r.conv = append(r.conv, llm.Message{Role: llm.RoleAssistant, Content: res.Content})
			return r.finish(res.Content), nil
		}
		final, done, err := r.runBatch(ctx, step, res)
		if err != nil {
			return r.outcome(""), err
		}
		if done {
			return r.finish(final), nil
		}
	}
	return r.handOff(ctx)
}

// withSystem returns a copy of history that starts with the system prompt
// of this turn's mode (the mode can change between turns).
func withSystem(history []llm.Message, prompt string) []llm.Message {
	sys := llm.Message{Role: llm.RoleSystem, Content: prompt}
	if len(history) > 0 && history[0].Role == llm.RoleSystem {
		history = history[1:]
	}
	return append([]llm.Message{sys}, history...)
}

func (r *run) page(ctx context.Context) (url, title string) {
	if r.opts.Page == nil {
		return "", ""
	}
	return r.opts.Page(ctx)
}

func (r *run) emit(ev Event) {
	if r.opts.Emit != nil {
		r.opts.Emit(ev)
	}
}

func (r *run) outcome(final string) Outcome {
	return Outcome{Conversation: r.conv, Final: final}
}

func (r *run) finish(final string) Outcome {
	r.emit(Event{Kind: EventFinal, Text: final})
	return r.outcome(final)
}

// fail ends the turn on a model error. A stop is not a failure: it
// returns ctx.Err() without an error event.
func (r *run) fail(ctx context.Context, err error) (Outcome, error) {
	if ctx.Err() != nil {
		return r.outcome(""), ctx.Err()
	}
	msg := err.Error()
	var le *llm.Error
	if errors.As(err, &le) {
		msg = le.Message // already plain language for the user
	}
	r.emit(Event{Kind: EventError, Text: "The model request failed: " + msg})
	return r.outcome(""), err
}
