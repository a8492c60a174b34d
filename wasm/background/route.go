package background

import (
	"context"
	"errors"
	"strings"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/decide"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/tools"
)

// runModeQuestion asks which mode a message needs (docs/decisions/mode-routing.md).
// "act" is authorizing: it lets the run change the page.
var runModeQuestion = decide.Question{
	ID:   "run_mode",
	Text: "Does the request ask WebBrain to do something in the browser, or only to read the page and answer?",
	Choices: []decide.Choice{
		{Value: protocol.ModeAsk, Meaning: "a question, or a request to read, find, explain, summarise, compare, translate or check something; nothing needs to change"},
		{Value: protocol.ModeAct, Meaning: "a request to do something on the page or in the browser: click, type, fill in, select, submit, send, post, buy, book, delete, change a setting, or open a page to act there", Authorizing: true},
		{Value: protocol.ModeDev, Meaning: "a request to inspect, debug or patch the page's own code or styles: its HTML source, CSS, console errors, network requests, event listeners, or to try a CSS or script change on it", Authorizing: true},
	},
}

// decider builds the run's closed-question answerer: the decision model
// when settings name one (its calls counted for ru like the active
// model's), and the active model.
func (r *Router) decider(ru *run, s settings.Settings, active llm.Provider, b tools.Boundary) *decide.Decider {
	var dp llm.Provider
	if cfg, ok := s.Decision(); ok {
		if p, err := llm.New(cfg, r.p.Fetch); err == nil {
			dp = r.metered(ru, s, cfg, p)
		}
	}
	return decide.New(dp, active, b)
}

// planNeedQuestion is the spec's plan_need, asked with the routing
// question: whether an action request is one direct step that needs no
// full plan. No answer is "plan".
var planNeedQuestion = decide.Question{
	ID:   "plan_need",
	Text: "Is the request one direct, simple action, or a task with several steps that deserves a plan first?",
	Choices: []decide.Choice{
		{Value: planDirect, Meaning: "one direct action with everything it needs said (click this, type that, open this page)"},
		{Value: "plan", Meaning: "several steps, several items or sites, or choices to make along the way"},
		{Value: "unclear", Meaning: "it cannot be told from the words"},
	},
}

// planDirect is plan_need's answer that lets Try skip the full plan.
const planDirect = "direct"

// route picks the mode of an automatic message from the user's words
// alone, never from the page: only the decision model's sure "act" or
// "dev" starts an action mode (Dev becomes Act for a Compact provider);
// anything else starts Ask, which may hand itself over.
func (r *Router) route(ctx context.Context, ru *run, s settings.Settings, tier string, d *decide.Decider, history []llm.Message) {
	mode, reason := protocol.ModeAsk, protocol.RouteDefault
	if _, ok := s.Decision(); ok {
		a := d.AskDecisionModel(ctx, runModeQuestion, decide.Input{Request: ru.text, Context: earlierTask(history)})
		if a.Choice != "" {
			mode, reason = actionMode(a.Choice, tier), protocol.RouteDecisionModel
		}
		if mode != protocol.ModeAsk {
			in := decide.Input{Request: ru.text, Context: earlierTask(history)}
			ru.direct = d.AskDecisionModel(ctx, planNeedQuestion, in).Choice == planDirect
		}
	}
	ru.mode = mode
	ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventRunMode, Reason: reason}, Mode: mode})
}

// earlierTask tells the decision what came before: the previous request.
func earlierTask(history []llm.Message) string {
	for i := len(history) - 1; i >= 0; i-- {
		if m := history[i]; m.Role == llm.RoleUser && strings.TrimSpace(m.Content) != "" {
			return "The user's previous request was: " + clip.Line(agent.UserWords(m.Content), 600)
		}
	}
	return "This is the first request of the conversation."
}

// actionMode is the mode a sure routing answer starts: Compact providers
// cannot run Dev, so their Dev answer is Act.
func actionMode(choice, tier string) string {
	if choice == protocol.ModeDev && tier == protocol.TierCompact {
		return protocol.ModeAct
	}
	return choice
}

// handOff decides an automatic Ask turn's request for Act: the evidence
// must be the user's own words, and the run_mode question, asked again
// about the request and its corrections without any page text, must
// answer act or dev; its answer, never the page, picks which.
func (r *Router) handOff(ru *run, tier string, d *decide.Decider) func(ctx context.Context, evidence string) error {
	return func(ctx context.Context, evidence string) error {
		words := withCorrections(ru.text, ru.steer.Pending())
		if !decide.Quotes(words, evidence) {
			return errors.New("the evidence is not the user's own words")
		}
		a := d.Ask(ctx, runModeQuestion, decide.Input{
			Request: words,
			Context: "An assistant that read the page asks to act, because the user wrote: \"" + clip.Line(evidence, 600) + "\"",
		})
		if !protocol.Acting(a.Choice) {
			return errors.New("the request does not read as asking for something to be done")
		}
		ru.handOffMode = actionMode(a.Choice, tier)
		return nil
	}
}
