package agent

import (
	"context"
	"errors"
	"slices"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/tools"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// DefaultMaxSteps is used when Options.MaxSteps is 0 (the settings
// default).
const DefaultMaxSteps = 130

// maxTokens bounds every model reply (spec).
const maxTokens = 4096

// Tool results for calls that did not run to the end; every tool call in
// the conversation gets a result so the history stays valid.
const (
	resultStopped = "Stopped by the user."
	resultSkipped = "Not run: the run ended before this call."
)

// ErrHandOff ends an automatically routed Ask turn whose model asked for
// Act with the user's words, and WebBrain agreed: the background runs the
// request again in Act, on the conversation from before this turn.
var ErrHandOff = errors.New("the request is handed over to Act mode")

// errEmptyReply is returned when the model answers with nothing at all.
var errEmptyReply = errors.New("the model returned an empty reply")

// run is the state of one turn.
type run struct {
	opts      Options
	conv      []llm.Message
	task      int // index of this turn's user message in conv
	tools     []llm.ToolSpec
	loops     *loopDetector
	lastInput int             // input tokens of the last model request
	called    []string        // names of the tools called in this turn
	applied   []string        // ids of the corrections in conv
	active    map[string]bool // skills loaded in this turn
	// skillTools are the network tools of the loaded skills, by name.
	skillTools map[string]skillTool
	preloaded  []preloaded // skills loaded before the first request (preactivate)
	// mediaFailed: download_public_media failed in this turn, so the
	// browser's download_social_media may be used (publicMediaGuard).
	mediaFailed bool
	site        string          // id of the adapter of the current page
	siteShown   map[string]bool // names of the sites whose notes this turn carries
	startURL    string          // the page the turn began on
	status      string          // done's status, as the completion judge left it
	judged      bool            // a success claim was sent back once already
	ledger      Ledger          // progress_update and scratchpad_write
	ledgerSet   bool            // a claim against open ledger items was sent back once
	// summaryRead: a final answer was read with the done_summary question.
	summaryRead  bool
	typed        []typedField // values typed into this page's fields (readback.go)
	readbackSent bool         // a claim against a field's read-back was sent back once
	jobSent      bool         // a claim without the site job's evidence was sent back once
	resumed      bool         // continued after a restart: the gate's record starts then

	// wallNoted: the trusted article-reader instruction was given this
	// turn (wallNote).
	wallNoted bool
}

// Run runs one user turn on top of history and returns the conversation
// with the turn appended. When ctx is cancelled (Stop) it returns ctx.Err()
// at the next wait, with a conversation in which every tool call has a
// result.
func Run(ctx context.Context, opts Options, history []llm.Message, userText string) (Outcome, error) {
	r := newRun(opts)
	pageURL, title := r.page(ctx)
	r.startURL = pageURL
	r.preactivate(pageURL)
	r.conv = withSystem(history, r.systemPrompt())
	if r.opts.Task == "" {
		r.opts.Task = userText
	}
	r.loops = newLoopDetector(pageURL)
	r.conv = append(r.conv, llm.Message{Role: llm.RoleUser, Content: userMessage(userText, pageURL, title, r.opts.Boundary) + r.siteNotesFor(pageURL)})
	r.task = len(r.conv) - 1
	r.authorize()
	r.attachFirstScreenshot(ctx)
	return r.loop(ctx, 1)
}

// Resume continues a turn from its last checkpoint after a restart. The
// interrupted batch is finished first: the call that was in flight runs
// again only when it is read-only, else it gets a result saying its
// effect is unknown. A model request that was in flight is sent again.
func Resume(ctx context.Context, opts Options, cp Checkpoint) (Outcome, error) {
	r := newRun(opts)
	r.startURL = cp.StartURL
	r.preactivate(cp.StartURL)
	// The new background has a new boundary: the prompt must name it.
	r.conv, r.task = withSystem(cp.Conversation, r.systemPrompt()), cp.Task
	r.applied, r.called = cp.Applied, cp.Called
	loaded := loadedSkills(r.conv[r.task:], r.opts.Skills)
	for _, s := range r.opts.Skills {
		if loaded[s.ID] && !r.active[s.ID] {
			r.activate(s)
		}
	}
	pageURL, _ := r.page(ctx)
	r.rehydrateGate(pageURL)
	r.resumed = true
	r.loops = restoreLoopDetector(cp.Loops, pageURL)
	if cp.Ledger != nil {
		r.ledger = *cp.Ledger
	}
	r.siteShown = shownSites(r.conv[r.task:])
	r.setSite(pageURL)
	step := max(cp.Step, 1)
	open := openCalls(r.conv)
	if len(open) == 0 {
		return r.loop(ctx, step)
	}
	var resumed *tools.Receipt
	if open[0].ID == cp.Dispatched && !tools.ReadOnly(open[0].Name) {
		if _, ok := r.opts.Executor.(OnceExecutor); ok && cp.Receipt != nil {
			// The page kept the receipt: sent again, it answers what it did
			// or runs the action now, once.
			resumed = &tools.Receipt{ID: cp.Receipt.ID, At: cp.Receipt.At, Resumed: true}
		} else {
			r.addResult(open[0], resultInterrupted, true)
			if err := r.save(step); err != nil {
				return r.persistFail(open[1:], err)
			}
			open = open[1:]
		}
	}
	final, done, err := r.runCalls(ctx, step, open, resumed)
	if err != nil {
		return r.outcome(""), err
	}
	if done {
		return r.finish(final), nil
	}
	r.screenshotAfter(ctx, open)
	return r.loop(ctx, step+1)
}

func newRun(opts Options) *run {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.Tier == protocol.TierCompact {
		opts.Skills = nil // Compact has no skill surface
	}
	specs := tools.ForMode(opts.Mode, opts.Tier, opts.Browser, opts.ContextWindow, opts.Features...)
	if opts.OnlyTools != nil {
		specs = slices.DeleteFunc(specs, func(s llm.ToolSpec) bool { return !slices.Contains(opts.OnlyTools, s.Name) })
		opts.Skills, opts.RequestActionMode, opts.Beep, opts.Research, opts.Screenshot = nil, nil, nil, nil, nil
	}
	if len(opts.Skills) > 0 {
		specs = append(specs, tools.LoadSkillSpec(skillIDs(opts.Skills)))
	}
	if opts.RequestActionMode != nil {
		specs = append(specs, tools.RequestActionModeSpec())
	}
	if opts.Beep != nil {
		specs = append(specs, tools.BeepSpec())
	}
	if opts.Research != nil && opts.Mode == protocol.ModeAsk {
		specs = append(specs, tools.DelegateResearchSpec())
	} else {
		opts.Research = nil
	}
	return &run{opts: opts, tools: specs, active: map[string]bool{}, skillTools: map[string]skillTool{}, siteShown: map[string]bool{}}
}

// loop makes model requests from step first on. Corrections are applied
// before each request; one that arrives during a request aborts it and
// the step is asked again with the correction.
func (r *run) loop(ctx context.Context, first int) (Outcome, error) {
	trimmed := false // the emergency trim was used for this request
	for step := first; step <= r.opts.MaxSteps; {
		applied := r.applyCorrections()
		// Pruned in place, so what is stored stays bounded too.
		r.conv = llm.PruneImages(r.conv, keepImages)
		if needsCompaction(r.conv, r.lastInput, r.opts.ContextWindow) {
			if err := r.compact(ctx); err != nil {
				return r.outcome(""), err
			}
		}
		if err := r.save(step); err != nil {
			return r.persistFail(nil, err)
		}
		for _, c := range applied {
			r.emit(Event{Kind: protocol.EventCorrection, ID: c.ID, Text: c.Text})
		}
		r.emit(Event{Kind: protocol.EventStep, Step: step})
		res, err, steered := r.chat(ctx, llm.Request{
			Messages:    r.conv,
			Tools:       r.tools,
			Temperature: temperature(r.opts.Mode),
			MaxTokens:   maxTokens,
			OnText:      func(d string) { r.emit(Event{Kind: protocol.EventTextDelta, Text: d}) },
			OnRetry:     func() { r.emit(Event{Kind: protocol.EventTextReset}) },
		})
		if steered {
			r.emit(Event{Kind: protocol.EventTextReset})
			continue
		}
		if isOverflow(err) && ctx.Err() == nil {
			if !trimmed && r.trimForOverflow() {
				trimmed = true
				continue
			}
			err = overflowError(err)
		}
		if err != nil {
			return r.fail(ctx, err)
		}
		trimmed = false
		r.lastInput = inputTokens(res.Usage, r.conv)
		if len(res.ToolCalls) == 0 {
			if res.Content == "" {
				return r.fail(ctx, errEmptyReply)
			}
			r.conv = append(r.conv, llm.Message{Role: llm.RoleAssistant, Content: res.Content})
			// A plain answer ends an Act run only past the completion judge,
			// like done: it is not a way around it.
			back, final := r.checkSummary(ctx, res.Content), res.Content
			if back == "" && protocol.Acting(r.opts.Mode) {
				back, final = r.checkClaim(ctx, res.Content)
			}
			if back == "" {
				return r.finish(final), nil
			}
			r.emit(Event{Kind: protocol.EventTextReset})
			r.conv = append(r.conv, llm.Message{Role: llm.RoleUser, Content: "[WebBrain] " + back})
			step++
			continue
		}
		final, done, err := r.runBatch(ctx, step, res)
		if err != nil {
			return r.outcome(""), err
		}
		if done {
			return r.finish(final), nil
		}
		r.screenshotAfter(ctx, res.ToolCalls)
		step++
	}
	return r.handOff(ctx)
}

// inputTokens is the size of the last request: the provider's count, or
// about four characters a token when it reported none.
func inputTokens(u llm.Usage, conv []llm.Message) int {
	if u.InputTokens > 0 {
		return u.InputTokens
	}
	return llm.ConversationChars(conv) / 4
}

// persistFail ends the turn because its checkpoint could not be saved:
// sending more without a record could repeat an action after a restart.
func (r *run) persistFail(unrun []llm.ToolCall, err error) (Outcome, error) {
	r.closeCalls(unrun, resultSkipped)
	r.emit(Event{Kind: protocol.EventError, Text: "WebBrain stopped because it could not save the run's progress: " + err.Error()})
	return r.outcome(""), err
}

func (r *run) systemPrompt() string {
	prompt := systemPrompt(r.opts.Mode, r.opts.Tier, r.opts.Boundary) + skillCatalog(r.opts.Skills) + preloadedPrompt(r.preloaded)
	if r.opts.Memory != "" {
		prompt += "\n\n" + r.opts.Memory
	}
	if r.opts.Plan != "" {
		prompt += "\n\n" + r.opts.Plan
	}
	if r.opts.SiteJob != nil {
		prompt += "\n\n" + jobContract(r.opts.SiteJob)
	}
	if r.opts.RequestActionMode != nil {
		prompt += "\n\n" + autoAskNote
	}
	if r.opts.Research != nil {
		prompt += "\n\n" + researchNote
	}
	return prompt
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

// finish ends the turn with the answer the user sees, cleaned by the gate
// (the conversation keeps the model's own words).
func (r *run) finish(final string) Outcome {
	final = r.cleanAnswer(final)
	r.emit(Event{Kind: protocol.EventFinal, Text: final, Outcome: r.status})
	return r.outcome(final)
}

// fail ends the turn on a model error. A stop is not a failure: it
// returns ctx.Err() without an error event.
func (r *run) fail(ctx context.Context, err error) (Outcome, error) {
	if ctx.Err() != nil {
		return r.outcome(""), ctx.Err()
	}
	msg := uitext.Plain(err.Error())
	var le *llm.Error
	if errors.As(err, &le) {
		msg, _ = le.UIText() // already plain language for the user
	}
	t := uitext.T("bg_err_model_failed", "The model request failed: $error$", "error", msg)
	r.emit(Event{Kind: protocol.EventError, Text: t.English, Msg: t.Msg})
	return r.outcome(""), err
}
