// Package trace builds the optional, privacy-safe record of a run
// (docs/decisions/traces.md): model requests with their provenance
// (counts and policy revisions, never prompt text, tool schemas or tool
// names), tool calls with argument names and result sizes, the decisions
// of the run (routing, plan, approvals), timings and errors. The
// background hands each run's record to platform.Tracer, which keeps it in
// IndexedDB; the Traces page lists and exports them as webbrain-trace/1.
package trace

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/secrets"
)

// Policy revisions declared in every model request's provenance. Bump
// PromptPolicyRevision when the controlled prompt templates change and
// ToolPolicyRevision when the rules of which tools a mode and tier offer
// change; what a user writes never changes them.
const (
	PromptPolicyRevision = "prompt-2026.12.1"
	ToolPolicyRevision   = "tools-2026.12.1"
)

// errorRunes bounds an error text in a trace.
const errorRunes = 300

// Run is one run's trace, the element of webbrain-trace/1's runs.
type Run struct {
	ID                        string   `json:"id"` // the request id
	TabID                     int      `json:"tabId"`
	Site                      string   `json:"site"`
	Mode                      string   `json:"mode"`      // as requested: auto, ask, act
	FinalMode                 string   `json:"finalMode"` // the mode the run ended in
	Status                    string   `json:"status"`
	Outcome                   string   `json:"outcome,omitempty"`
	StartedAt                 string   `json:"startedAt"`
	EndedAt                   string   `json:"endedAt,omitempty"`
	DurationMs                int64    `json:"durationMs"`
	RecordedByWebBrainVersion string   `json:"recordedByWebBrainVersion"`
	Provider                  Provider `json:"provider"`
	Events                    []Event  `json:"events"`
}

// Provider names the kind of endpoint, not its address or key.
type Provider struct {
	Kind   string `json:"kind"`
	Tier   string `json:"tier"`
	Vision bool   `json:"vision"`
}

// Event is one thing that happened in the run; At is ms since its start.
type Event struct {
	At   int64  `json:"at"`
	Type string `json:"type"` // llm_request, tool, decision, note, end

	// llm_request
	Phase        string      `json:"phase,omitempty"` // agent (tools offered) or auxiliary
	Provenance   *Provenance `json:"provenance,omitempty"`
	FinishReason string      `json:"finishReason,omitempty"`
	InputTokens  int         `json:"inputTokens,omitempty"`
	OutputTokens int         `json:"outputTokens,omitempty"`
	ToolCalls    int         `json:"toolCalls,omitempty"`
	OutputChars  int         `json:"outputChars,omitempty"`

	// tool
	Tool        string   `json:"tool,omitempty"`
	ArgNames    []string `json:"argNames,omitempty"`
	ResultChars int      `json:"resultChars,omitempty"`
	IsError     bool     `json:"isError,omitempty"`

	// decision and note
	Decision string `json:"decision,omitempty"` // the event kind decided on
	Category string `json:"category,omitempty"`
	Site     string `json:"site,omitempty"`
	Choice   string `json:"choice,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Mode     string `json:"mode,omitempty"`
	Steps    int    `json:"steps,omitempty"`
	Note     string `json:"note,omitempty"`
	Count    int    `json:"count,omitempty"`

	// adapter_match and site_job notes: WebBrain's own identifiers
	Adapter       string `json:"adapter,omitempty"`
	Revision      int    `json:"revision,omitempty"`
	NotesInjected bool   `json:"notesInjected,omitempty"`
	Job           string `json:"job,omitempty"`

	// end
	Status      string `json:"status,omitempty"`
	Outcome     string `json:"outcome,omitempty"`
	AnswerChars int    `json:"answerChars,omitempty"`

	DurationMs int64  `json:"durationMs,omitempty"`
	Error      string `json:"error,omitempty"`

	started time.Time // tool: when the call began
	id      string    // tool: the call's id
}

// Provenance describes a model request without its content.
type Provenance struct {
	PromptVariant        string         `json:"promptVariant"` // mode/tier
	SystemPromptChars    int            `json:"systemPromptChars"`
	MessageChars         int            `json:"messageChars"`
	Roles                map[string]int `json:"roles"`
	Images               int            `json:"images"`
	ToolsOffered         int            `json:"toolsOffered"`
	PromptPolicyRevision string         `json:"promptPolicyRevision"`
	ToolPolicyRevision   string         `json:"toolPolicyRevision"`
	Checks               Checks         `json:"checks"`
}

// Checks compare what the request carried with the run's effective mode.
type Checks struct {
	// ReadOnlyToolsInAsk: an Ask request offered no tool that changes a
	// page or navigates (always true outside Ask).
	ReadOnlyToolsInAsk bool `json:"readOnlyToolsInAsk"`
	// SystemPromptPresent: the request began with a system prompt.
	SystemPromptPresent bool `json:"systemPromptPresent"`
}

// actionTools change the page or the tab: never offered in Ask.
var actionTools = []string{
	protocol.ToolClickAX, protocol.ToolTypeAX, protocol.ToolSetField, protocol.ToolClick, protocol.ToolTypeText,
	protocol.ToolPressKeys, protocol.ToolNavigate, protocol.ToolGoBack, protocol.ToolGoForward,
}

// Recorder accumulates one run's trace and hands it to the sink.
type Recorder struct {
	clock platform.Clock
	sink  platform.Tracer
	start time.Time

	mu  sync.Mutex
	run Run
}

// Start begins the trace of a run.
func Start(clock platform.Clock, sink platform.Tracer, run Run) *Recorder {
	now := clock.Now()
	run.StartedAt = now.UTC().Format(time.RFC3339Nano)
	run.Status = protocol.StatusRunning
	run.Site = siteOf(run.Site)
	if run.Events == nil {
		run.Events = []Event{}
	}
	return &Recorder{clock: clock, sink: sink, start: now, run: run}
}

func (r *Recorder) since(t time.Time) int64 { return t.Sub(r.start).Milliseconds() }

func (r *Recorder) add(ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.run.Events = append(r.run.Events, ev)
}

// Snapshot returns the trace as recorded so far.
func (r *Recorder) Snapshot() Run {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.run
	out.Events = slices.Clone(r.run.Events)
	return out
}

// Flush hands the trace to the sink; a failure loses only the trace.
func (r *Recorder) Flush() {
	raw, err := json.Marshal(r.Snapshot())
	if err != nil || r.sink == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = r.sink.Put(ctx, raw)
}

// End records how the run ended and flushes.
func (r *Recorder) End(status, mode string) {
	now := r.clock.Now()
	r.mu.Lock()
	r.run.Status, r.run.FinalMode = status, mode
	r.run.EndedAt = now.UTC().Format(time.RFC3339Nano)
	r.run.DurationMs = r.since(now)
	r.mu.Unlock()
	r.Flush()
}

// AdapterMatch notes that the run met a page of a packaged site adapter:
// its id and revision, and whether its notes went to the model then.
func (r *Recorder) AdapterMatch(id string, revision int, injected bool) {
	if r == nil {
		return
	}
	r.add(Event{At: r.since(r.clock.Now()), Type: "note", Note: "adapter_match", Adapter: id, Revision: revision, NotesInjected: injected})
}

// SiteJob notes the adapter job the run's plan is bound to.
func (r *Recorder) SiteJob(adapter string, revision int, job string) {
	if r == nil {
		return
	}
	r.add(Event{At: r.since(r.clock.Now()), Type: "note", Note: "site_job", Adapter: adapter, Revision: revision, Job: job})
}

// Observe records what a journaled event says about the run. Text
// deltas, page text, answers and the model's words are left out.
func (r *Recorder) Observe(ev agent.Event, mode string) {
	now := r.clock.Now()
	at := r.since(now)
	switch ev.Kind {
	case protocol.EventToolCall:
		r.add(Event{At: at, Type: "tool", Tool: ev.Name, ArgNames: argNames(ev.Args), started: now, id: ev.ID})
	case protocol.EventToolResult:
		r.mu.Lock()
		for i := len(r.run.Events) - 1; i >= 0; i-- {
			e := &r.run.Events[i]
			if e.Type == "tool" && e.id == ev.ID && e.DurationMs == 0 && !e.started.IsZero() {
				e.ResultChars, e.IsError = len([]rune(ev.Result)), ev.IsError
				e.DurationMs = now.Sub(e.started).Milliseconds()
				break
			}
		}
		r.mu.Unlock()
	case protocol.EventApproval:
		e := Event{At: at, Type: "decision", Decision: ev.Kind}
		if ev.Approval != nil {
			e.Tool, e.Category = ev.Approval.Tool, ev.Approval.Category
			e.Site = siteOf(ev.Approval.URL)
			if e.Site == "" {
				e.Site = ev.Approval.Site
			}
		}
		r.add(e)
	case protocol.EventApprovalResolved, protocol.EventPlanResolved:
		r.add(Event{At: at, Type: "decision", Decision: ev.Kind, Choice: ev.Decision, Reason: ev.Reason})
	case protocol.EventPlanReview, protocol.EventPlan:
		e := Event{At: at, Type: "decision", Decision: ev.Kind}
		if ev.Plan != nil {
			e.Steps = len(ev.Plan.Plan.Steps)
		}
		r.add(e)
	case protocol.EventRunMode, protocol.EventModeChanged:
		r.add(Event{At: at, Type: "decision", Decision: ev.Kind, Mode: mode, Reason: ev.Reason})
	case protocol.EventClarify:
		r.add(Event{At: at, Type: "decision", Decision: ev.Kind, Count: len(ev.Options)})
	case protocol.EventLoopWarning, protocol.EventResumed, protocol.EventSteer, protocol.EventCorrection:
		r.add(Event{At: at, Type: "note", Note: ev.Kind})
	case protocol.EventContextCompacted:
		r.add(Event{At: at, Type: "note", Note: ev.Kind, Count: ev.Count, Reason: ev.Reason})
	case protocol.EventFinal:
		r.mu.Lock()
		r.run.Outcome = ev.Outcome
		r.mu.Unlock()
		r.add(Event{At: at, Type: "end", Status: protocol.StatusDone, Outcome: ev.Outcome, AnswerChars: len([]rune(ev.Text))})
	case protocol.EventError:
		r.add(Event{At: at, Type: "end", Status: protocol.StatusError, Error: cleanError(ev.Text)})
	case protocol.EventStopped:
		r.add(Event{At: at, Type: "end", Status: protocol.StatusStopped})
	}
}

func cleanError(s string) string { return clip.Line(secrets.Mask(s, nil), errorRunes) }

// argNames lists a tool call's argument names, never their values.
func argNames(raw string) []string {
	var args map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &args) != nil {
		return []string{}
	}
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Provider wraps p so each request is traced. mode reports the run's
// effective mode at the time of the request.
func (r *Recorder) Provider(p llm.Provider, tier string, mode func() string) llm.Provider {
	return &traced{inner: p, rec: r, tier: tier, mode: mode}
}

type traced struct {
	inner llm.Provider
	rec   *Recorder
	tier  string
	mode  func() string
}

func (t *traced) Test(ctx context.Context) (string, error) { return t.inner.Test(ctx) }

func (t *traced) Chat(ctx context.Context, req llm.Request) (llm.Result, error) {
	started := t.rec.clock.Now()
	ev := Event{At: t.rec.since(started), Type: "llm_request", Phase: "auxiliary", Provenance: provenance(req, t.mode(), t.tier)}
	if len(req.Tools) > 0 {
		ev.Phase = "agent"
	}
	res, err := t.inner.Chat(ctx, req)
	ev.DurationMs = t.rec.clock.Now().Sub(started).Milliseconds()
	if err != nil {
		ev.Error = cleanError(err.Error())
	} else {
		ev.FinishReason, ev.ToolCalls = res.FinishReason, len(res.ToolCalls)
		ev.InputTokens, ev.OutputTokens = res.Usage.InputTokens, res.Usage.OutputTokens
		ev.OutputChars = len([]rune(res.Content))
	}
	t.rec.add(ev)
	t.rec.Flush()
	return res, err
}

// Provenance counts what a request carries; it copies no text.
func provenance(req llm.Request, mode, tier string) *Provenance {
	p := &Provenance{
		PromptVariant: mode + "/" + tier, Roles: map[string]int{}, ToolsOffered: len(req.Tools),
		PromptPolicyRevision: PromptPolicyRevision, ToolPolicyRevision: ToolPolicyRevision,
	}
	for i, m := range req.Messages {
		n := len([]rune(m.Content))
		if m.Role == llm.RoleSystem {
			p.SystemPromptChars += n
			p.Checks.SystemPromptPresent = p.Checks.SystemPromptPresent || i == 0
		} else {
			p.MessageChars += n
		}
		p.Roles[m.Role]++
		p.Images += len(m.Images)
	}
	p.Checks.ReadOnlyToolsInAsk = true
	if mode == protocol.ModeAsk {
		for _, tool := range req.Tools {
			if slices.Contains(actionTools, tool.Name) {
				p.Checks.ReadOnlyToolsInAsk = false
			}
		}
	}
	return p
}
