// Package planner asks the model, once and before any page action of an
// Act run, what the user's task needs: a plan to follow, a question to ask
// first, or only a plan to show. Off asks the short intent question; Try
// and Strict ask for the whole plan. The reply is JSON, read strictly and
// bounded field by field: it is model output, so nothing in it authorises
// an action (the action gate still checks every one).
package planner

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/skills"
	"github.com/webbrain/webbrain/wasm/tools"
)

// What a plan asks the run to do.
const (
	Execute  = "execute"   // go on with the tools, following the plan
	Clarify  = "clarify"   // ask the user Question first
	PlanOnly = "plan_only" // the user asked only for a plan: show it, act on nothing
)

// Bounds on what the planner may write; longer fields are cut.
const (
	maxSummary  = 300
	maxStep     = 200
	maxSteps    = 12
	maxRisks    = 6
	maxQuestion = 400
	maxPeople   = 8
)

// Localized is the plan's text in the user's language, for display only:
// execution follows the English plan.
type Localized struct {
	Summary  string   `json:"summary,omitempty"`
	Steps    []string `json:"steps,omitempty"`
	Risks    []string `json:"risks,omitempty"`
	Question string   `json:"question,omitempty"`
}

// Plan is the planner's reply after normalisation.
type Plan struct {
	Action   string   `json:"action"`
	Summary  string   `json:"summary,omitempty"`
	Steps    []string `json:"steps,omitempty"`
	Risks    []string `json:"risks,omitempty"`
	Question string   `json:"question,omitempty"`
	// Recipients are the people the task sends a message to, as the
	// user's words name them.
	Recipients []string `json:"recipients,omitempty"`
	// ActiveConversation: the task sends into the conversation on screen
	// without naming anyone ("reply here", "answer this chat").
	ActiveConversation bool       `json:"active_conversation,omitempty"`
	Localized          *Localized `json:"localized,omitempty"`
	// SkillIDs are the catalog skills the task needs, loaded before the
	// execution model's first request once the plan is approved; Make
	// keeps only ids of Input.Skills.
	SkillIDs []string `json:"skill_ids,omitempty"`
	// SiteJob is the id of the active site adapter's job the task is, or
	// "": only an id the planner was offered is kept, and the run binds it
	// again against the adapter of the live page (adapters.Bind).
	SiteJob string `json:"site_job,omitempty"`
}

// JobOption is a site job the planner may choose: the adapter's own id
// and description, never page text.
type JobOption struct {
	ID          string
	Description string
}

// Card is what a plan review shows: the plan and when it is approved
// unanswered (ms since the epoch).
type Card struct {
	Plan      Plan  `json:"plan"`
	ExpiresAt int64 `json:"expiresAt"`
}

// Input is what the planner sees: the user's task, the page's sanitised
// address and title (wrapped as untrusted), and a digest of the
// conversation before this turn.
type Input struct {
	Level    string // protocol.PlannerOff, PlannerTry or PlannerStrict
	Task     string
	URL      string
	Title    string
	History  []llm.Message
	Boundary tools.Boundary
	// Skills is the run's skill catalog (ids, names, summaries, intents),
	// the same the execution model gets.
	Skills []skills.Skill
	// Jobs are the active site adapter's jobs that can start on the page.
	Jobs []JobOption
}

// Error is a planner failure: the model's reply could not be read as a
// plan even after one repair. Provider errors are returned as they are.
type Error struct{ Reason string }

func (e *Error) Error() string { return "the planner's reply was not a usable plan (" + e.Reason + ")" }

// Make asks prov for the plan of in. A reply that is not valid JSON is
// sent back once with the reason; a second bad reply is an *Error.
func Make(ctx context.Context, prov llm.Provider, in Input) (Plan, error) {
	msgs := []llm.Message{
		{Role: llm.RoleSystem, Content: systemPrompt(in.Level) + "\n\n" + securityNote(in.Boundary)},
		{Role: llm.RoleUser, Content: userPrompt(in)},
	}
	var last error
	for attempt := 0; attempt < 2; attempt++ {
		res, err := prov.Chat(ctx, llm.Request{Messages: msgs, Temperature: 0, MaxTokens: maxTokens})
		if err != nil {
			return Plan{}, err
		}
		p, perr := Parse(res.Content, in.Level)
		if perr == nil {
			p.SkillIDs = catalogIDs(p.SkillIDs, in.Skills)
			p.SiteJob = offered(p.SiteJob, in.Jobs)
			return p, nil
		}
		last = perr
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, Content: res.Content},
			llm.Message{Role: llm.RoleUser, Content: "That reply could not be used: " + perr.Error() + ". Answer again with only the JSON object the instructions describe, nothing before or after it."})
	}
	return Plan{}, &Error{Reason: last.Error()}
}

// offered is id when it names one of the jobs, else "".
func offered(id string, jobs []JobOption) string {
	id = strings.TrimSpace(id)
	for _, j := range jobs {
		if j.ID == id {
			return id
		}
	}
	return ""
}

// maxTokens keeps the planner quick: its latency grows with what it writes.
const maxTokens = 1200

// Parse reads a planner reply: the first JSON object in text (models
// often wrap it in a code fence), checked and bounded.
func Parse(text, level string) (Plan, error) {
	obj, ok := llm.FirstObject(text)
	if !ok {
		return Plan{}, errors.New("no JSON object in the reply")
	}
	var p Plan
	if err := json.Unmarshal([]byte(obj), &p); err != nil {
		return Plan{}, errors.New("the JSON object does not match the schema: " + err.Error())
	}
	p.Action = strings.ToLower(strings.TrimSpace(p.Action))
	switch p.Action {
	case Execute, Clarify:
	case PlanOnly:
		if level == protocol.PlannerOff {
			p.Action = Execute // the intent check has no plan to show
		}
	default:
		return Plan{}, errors.New(`"action" must be "execute", "clarify" or "plan_only"`)
	}
	p.normalize(level)
	if p.Action == Clarify && p.Question == "" {
		if p.Summary == "" {
			return Plan{}, errors.New(`a "clarify" reply needs a "question"`)
		}
		p.Question = p.Summary
	}
	if p.Action == PlanOnly && len(p.Steps) == 0 {
		return Plan{}, errors.New(`a "plan_only" reply needs "steps"`)
	}
	return p, nil
}

// normalize bounds every field and drops empty entries. The intent check
// (Off) writes no steps for a plan it executes.
func (p *Plan) normalize(level string) {
	p.Summary = clip.Line(p.Summary, maxSummary)
	p.Question = clip.Line(p.Question, maxQuestion)
	p.Steps = clipList(p.Steps, maxSteps, maxStep)
	p.Risks = clipList(p.Risks, maxRisks, maxStep)
	p.Recipients = clipList(p.Recipients, maxPeople, 120)
	if level == protocol.PlannerOff {
		p.Steps, p.Risks, p.Localized, p.SkillIDs = nil, nil, nil, nil
	}
	if l := p.Localized; l != nil {
		l.Summary = clip.Line(l.Summary, maxSummary)
		l.Question = clip.Line(l.Question, maxQuestion)
		l.Steps = clipList(l.Steps, maxSteps, maxStep)
		l.Risks = clipList(l.Risks, maxRisks, maxStep)
		// A copy that leaves out a step or a risk would show the user a
		// different plan from the one that runs: the English one is shown.
		if len(l.Steps) != len(p.Steps) || len(l.Risks) != len(p.Risks) || l.Summary == "" {
			p.Localized = nil
		}
	}
}

// catalogIDs keeps the ids of ids that are in the catalog, each once: the
// planner cannot load a skill that is turned off or not for this mode.
func catalogIDs(ids []string, catalog []skills.Skill) []string {
	var out []string
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if !slices.Contains(out, id) && slices.ContainsFunc(catalog, func(s skills.Skill) bool { return s.ID == id }) {
			out = append(out, id)
		}
	}
	return out
}

func clipList(list []string, most, each int) []string {
	var out []string
	for _, s := range list {
		if s = clip.Line(s, each); s != "" && len(out) < most {
			out = append(out, s)
		}
	}
	return out
}
