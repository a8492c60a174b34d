// Package agent runs one user turn: it calls the model, dispatches the tool
// calls it asks for, feeds the results back and repeats until the model
// answers with text, the step limit is reached, or the run is stopped.
package agent

import (
	"context"
	"time"

	"github.com/webbrain/webbrain/wasm/adapters"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/planner"
	"github.com/webbrain/webbrain/wasm/skills"
	"github.com/webbrain/webbrain/wasm/tools"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Event is one update of a running turn.
type Event struct {
	Kind    string   `json:"kind"`
	Text    string   `json:"text,omitempty"`    // text_delta, final, error, loop_warning
	ID      string   `json:"id,omitempty"`      // tool_call, tool_result, clarify
	Name    string   `json:"name,omitempty"`    // tool_call, tool_result
	Args    string   `json:"args,omitempty"`    // tool_call: JSON arguments
	Result  string   `json:"result,omitempty"`  // tool_result
	IsError bool     `json:"isError,omitempty"` // tool_result
	Options []string `json:"options,omitempty"` // clarify
	Step    int      `json:"step,omitempty"`    // step
	Count   int      `json:"count,omitempty"`   // context_compacted
	Reason  string   `json:"reason,omitempty"`  // context_compacted; approval_resolved: user, timeout or stopped; final: step_limit
	// Approval is the card of an approval event.
	Approval *guard.Approval `json:"approval,omitempty"`
	// Decision answers an approval (approval_resolved) or a plan review
	// (plan_resolved).
	Decision string `json:"decision,omitempty"`
	// Outcome is how an Act run ended by its own account, checked by the
	// completion judge (final): success, partial or failed; "" for Ask.
	Outcome string `json:"outcome,omitempty"`
	// Plan is the card of a plan_review event.
	Plan *planner.Card `json:"plan,omitempty"`
	// Msg is Text as a catalog key and parameters, for the panel to show
	// in the interface language (approval, clarify, error, mode_changed,
	// capture, allowance, usage, plan, plan_review, a plan-only final);
	// OptionMsgs the same for a clarify event's options, index by index
	// (nil where an option is the model's or the page's words).
	Msg        *uitext.Msg   `json:"msg,omitempty"`
	OptionMsgs []*uitext.Msg `json:"optionMsgs,omitempty"`
}

// Executor runs one tool call against the run's tab and returns the text
// the model sees. An error is reported to the model as the tool's result.
type Executor interface {
	Execute(ctx context.Context, call llm.ToolCall) (string, error)
}

// OnceExecutor is an Executor whose page actions leave a receipt where
// they take effect, so a call a restart interrupted is sent again without
// doubling it (tools.Receipt, docs/decisions/exactly-once.md).
type OnceExecutor interface {
	Executor
	// Locate names where call would take effect; "" when it leaves no
	// receipt.
	Locate(ctx context.Context, call llm.ToolCall) (string, error)
	// ExecuteOnce runs call under the receipt.
	ExecuteOnce(ctx context.Context, call llm.ToolCall, r tools.Receipt) (string, error)
}

// StatusReader reads what the page says about the task (tools.PageStatus)
// for the completion judge; an Executor that is one gets its success
// claims checked.
// SkillExecutor sends the requests of skills' network tools
// (tools.Dispatcher.CallHTTP and DownloadJob).
type SkillExecutor interface {
	CallHTTP(ctx context.Context, c tools.HTTPCall) (string, error)
	DownloadJob(ctx context.Context, c tools.HTTPCall, maxWait time.Duration) (string, error)
}

type StatusReader interface {
	Status(ctx context.Context) (tools.PageStatus, error)
}

// Clarifier asks the user a question and waits for the answer.
type Clarifier interface {
	Ask(ctx context.Context, id, question string, options []string) (string, error)
}

// Options configure one turn.
type Options struct {
	Provider llm.Provider
	Mode     string // protocol.ModeAsk, protocol.ModeAct or protocol.ModeDev
	Tier     string // protocol.TierCompact, TierMid or TierFull
	Browser  string // "chrome" or "firefox": decides Chrome-only tools
	// Features are the opt-in settings that add tools (tools.Feature); the
	// Executor must have the same.
	Features []tools.Feature
	MaxSteps int // 0: DefaultMaxSteps
	// ContextWindow is the model's context in tokens (ContextWindow(cfg)
	// gives the default): when the last request used 75% of it the
	// conversation is compacted, and it decides the read window of the
	// tree tool. 0 leaves only the message-count and size triggers.
	ContextWindow int
	Executor      Executor
	// Boundary wraps the page text the agent adds itself (URL, title,
	// summaries) and is named in the system prompt; it must be the one
	// Executor wraps results with (tools.NewDispatcher).
	Boundary  tools.Boundary
	Clarifier Clarifier
	// Gate guards every tool call (package guard); nil: none.
	Gate Gate
	// Task is the user's request as typed, without the page details the
	// turn adds; Run uses its userText when it is empty.
	Task string
	// Plan is the approved plan (planner.Pinned), carried in the system
	// prompt so compaction never drops it; "" for none.
	Plan string
	// Memory is the user's memory block (memory.Store.Prompt), carried in
	// the system prompt; "" for none.
	Memory string
	// Page returns the tab's current URL and title for the user message.
	Page func(ctx context.Context) (url, title string)
	// SiteAdapter returns the site adapter for a page URL (adapters.Match)
	// or nil; its notes join the user message and, after a navigation to
	// another matched site, that tool's result. nil: site adapters are off.
	SiteAdapter func(pageURL string) *adapters.Adapter
	// SiteMatched, when set, hears of each adapter the run meets as the
	// tab moves to its site, and whether its notes were added then.
	SiteMatched func(a *adapters.Adapter, injected bool)
	// SiteJob is the adapter job the planner bound the task to (resolved
	// again on the live page), or nil: its steps join the system prompt and
	// the completion judge requires its terminal evidence (sitejob.go).
	SiteJob *adapters.Binding
	// Skills is the skill catalog of this mode and tier (skills.Catalog).
	// A non-empty catalog is listed in the system prompt and offers
	// load_skill; the Compact tier never gets one.
	Skills []skills.Skill
	// PlanSkills are the ids of catalog skills the approved plan chose
	// (planner.Plan.SkillIDs); they are loaded before the first request.
	PlanSkills []string
	// Screenshot captures the run's tab for a model that sees images (the
	// provider's vision setting); nil: no screenshots are sent.
	Screenshot func(ctx context.Context) (llm.Image, error)
	// RequestActionMode, when set, offers tools.RequestActionMode in an
	// automatically routed Ask turn: it decides whether the user's words
	// (evidence) ask for Act, and a nil error ends the turn with
	// ErrHandOff so the background starts the request again in Act.
	RequestActionMode func(ctx context.Context, evidence string) error
	// SummaryKind reads a short final answer with the done_summary
	// question: SummaryResult, SummaryClaim, SummaryPlan, or "" for no
	// answer. nil: answers are not read.
	SummaryKind func(ctx context.Context, request, summary string) string
	// StatusRead reads short page messages (page text) with the
	// status_message question at a success claim: StatusSuccess,
	// StatusError, StatusNeither or "" (no answer) for each text, in
	// order. nil: messages are sorted by structure alone.
	StatusRead func(ctx context.Context, texts []string) []string
	// Research, when set, offers tools.DelegateResearch in Ask: it asks the
	// user, then asks ChatGPT request and returns the answer as untrusted
	// evidence.
	Research func(ctx context.Context, request string) (string, error)
	// Schedule answers schedule_resume and schedule_task: the result, and
	// whether the run ends with it (a resume). nil: not available.
	Schedule func(ctx context.Context, call llm.ToolCall) (result string, ends bool, err error)
	// Beep, when set, offers tools.Beep (a /beep watch's check): it arms
	// the alert for eventKey and returns the tool's result.
	Beep func(ctx context.Context, eventKey, message string) (string, error)
	// OnlyTools, when not nil, narrows the run to these of its mode's
	// catalog tools and drops load_skill, delegate_research, beep,
	// request_action_mode and screenshots: a run grounded on the text the
	// user selected (docs/decisions/selection-toolbar.md). A call of any
	// other tool is refused without running.
	OnlyTools []string
	// Emit receives every event of the turn, in order.
	Emit func(Event)
	// Steering, when set, delivers the user's corrections.
	Steering Steering
	// Checkpoint, when set, makes the turn durable: it is called before
	// each model request, before each tool dispatch and after each
	// result, and must have stored the state when it returns. An error
	// stops the turn before anything else is sent.
	Checkpoint func(Checkpoint) error
}

// Outcome is what a turn leaves behind. Conversation is the history with
// this turn appended; it is filled even when Run returns an error, so a
// stopped or failed turn loses nothing.
type Outcome struct {
	Conversation []llm.Message
	Final        string
}
