package agent

import (
	"context"
	"strings"

	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/tools"
)

// Gate is the runtime guard of a turn (package guard): it sees every tool
// call before it is sent and may ask the user, learns what pages said, and
// cleans the final answer. It holds when the model is fooled: nothing the
// model or a page writes reaches its notion of what the user asked.
type Gate interface {
	// SetWords gives the user's own words: the request, corrections and
	// answers to questions.
	// startURL is the page the turn began on.
	SetWords(words []string, startURL string)
	// Check decides before call is sent; a refusal is the call's error.
	// err means the run was stopped while the user was asked.
	Check(ctx context.Context, call llm.ToolCall) (refusal string, err error)
	// CheckSkill decides on a call of a loaded skill's network tool.
	CheckSkill(ctx context.Context, call llm.ToolCall, sc guard.SkillCall) (refusal string, err error)
	// Observe records a tool result the model saw.
	Observe(result string)
	// Visit records the tab's page after an allowed action.
	Visit(pageURL string)
	// CleanAnswer makes the final answer safe to show.
	CleanAnswer(text string) string
}

// Prefixes of the user's words inside the conversation.
const (
	correctionPrefix = "Correction from the user (it takes precedence over the earlier request): "
	answerPrefix     = "The user answered: "
)

// authorize hands the gate the user's words of this turn.
func (r *run) authorize() {
	if r.opts.Gate == nil {
		return
	}
	words := []string{r.opts.Task}
	for _, m := range r.conv[min(r.task+1, len(r.conv)):] {
		switch {
		case m.Role == llm.RoleUser && strings.HasPrefix(m.Content, correctionPrefix):
			words = append(words, strings.TrimPrefix(m.Content, correctionPrefix))
		case m.Role == llm.RoleTool && m.Name == protocol.ToolClarify && strings.HasPrefix(m.Content, answerPrefix):
			words = append(words, strings.TrimPrefix(m.Content, answerPrefix))
		}
	}
	r.opts.Gate.SetWords(words, r.startURL)
}

// rehydrateGate gives a resumed turn's gate what the turn had read.
func (r *run) rehydrateGate(pageURL string) {
	if r.opts.Gate == nil {
		return
	}
	r.authorize()
	for _, m := range r.conv[r.task:] {
		if m.Role == llm.RoleTool {
			r.opts.Gate.Observe(m.Content)
		}
	}
	if pageURL != "" {
		r.opts.Gate.Visit(pageURL)
	}
}

// gateCheck asks the gate about call; without a gate everything passes.
func (r *run) gateCheck(ctx context.Context, call llm.ToolCall) (string, error) {
	if st, ok := r.skillTools[call.Name]; ok {
		return r.gateSkill(ctx, call, st)
	}
	if r.opts.Gate == nil || tools.NotOffered(r.opts.Mode, r.opts.Tier, r.opts.Browser, call.Name, r.opts.Features...) != nil {
		// A call this mode does not offer is refused when it runs; the user
		// is never asked about an action that cannot happen.
		return "", nil
	}
	return r.opts.Gate.Check(ctx, call)
}

func (r *run) cleanAnswer(text string) string {
	if r.opts.Gate == nil {
		return text
	}
	return r.opts.Gate.CleanAnswer(text)
}
