package background

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/webbrain/webbrain/wasm/adapters"
	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/planner"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/skills"
	"github.com/webbrain/webbrain/wasm/tools"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// planReviewTimeout is how long a plan review waits; then the plan is
// approved as it was proposed (spec), so an unattended run goes on.
const planReviewTimeout = 2 * time.Minute

// maxPlanRounds bounds how often one turn is planned again: after a
// question the planner asked or a correction that superseded a review.
const maxPlanRounds = 4

// planned is what the planner step leaves for the run.
type planned struct {
	pinned   string   // the approved plan for the system prompt; "" none
	skills   []string // ids of the catalog skills the approved plan chose
	readOnly bool     // planning failed under Try: the turn goes on in Ask
	answer   string   // the turn's whole answer: nothing runs (a plan to show)
	// answerMsg is a plan-only answer's Risks heading as a catalog key.
	answerMsg *uitext.Msg
	// job is the site job the plan is bound to; recipients the people the
	// request sends a message to (planner.Plan.Recipients).
	job        *adapters.Binding
	recipients []string
	// here: the request sends into the conversation on screen without
	// naming anyone (planner.Plan.ActiveConversation).
	here bool
}

// verifiesRecipient reports whether the site adapter of pageURL requires a
// send there to reach the recipient the request named. It holds whether or
// not adapter notes are shown: it is a safety rule, not guidance.
func verifiesRecipient(pageURL string) bool {
	return adapters.Match(pageURL).VerifiesRecipient(pageURL)
}

// siteJobs are the jobs of the adapter of pageURL that can start there,
// as the planner is offered them.
func siteJobs(s settings.Settings, pageURL string) (*adapters.Adapter, []planner.JobOption) {
	if !s.SiteAdapters {
		return nil, nil
	}
	a := adapters.Match(pageURL)
	var out []planner.JobOption
	for _, j := range a.JobsAt(pageURL) {
		out = append(out, planner.JobOption{ID: j.ID, Description: j.Description})
	}
	return a, out
}

// bindJob resolves the planner's site_job again against the adapter of the
// tab's live page: it binds only when that is the adapter whose jobs the
// planner was offered and the job can start on that page.
func (r *Router) bindJob(ctx context.Context, ru *run, offered *adapters.Adapter, id string) *adapters.Binding {
	if offered == nil || id == "" {
		return nil
	}
	live, _ := r.tabPage(ctx, ru.tabID)
	a := adapters.Match(live)
	if a == nil || a.ID != offered.ID || a.Revision != offered.Revision {
		return nil
	}
	return adapters.Bind(a, id, live)
}

// errPlanRejected ends a run whose plan the user rejected: no page action.
var errPlanRejected = errors.New("the plan was rejected")

// plan runs the planner step of an Act turn (docs/decisions/planner.md):
// the planner's request, a question it asks, the review card and its
// answer. A run resumed after a restart finds what it decided in its
// record and journal instead of asking the model again.
func (r *Router) plan(ctx context.Context, ru *run, s settings.Settings, prov llm.Provider, b tools.Boundary, history []llm.Message) (planned, error) {
	if ru.plan != "" {
		return planned{pinned: ru.plan, skills: ru.planSkills}, nil
	}
	// Approved just before a restart, before the record could say so.
	if e, ok := ru.j.last(protocol.EventPlanResolved); ok && (e.Decision == protocol.PlanApprove || e.Decision == protocol.PlanEdit) {
		return planned{pinned: planner.Pinned(e.Text, true)}, nil
	}
	level := s.PlannerLevel()
	if level == protocol.PlannerTry && ru.direct {
		level = protocol.PlannerOff // the intent check still runs
	}
	task := ru.text
	var catalog []skills.Skill
	if cfg, err := s.Active(); err == nil {
		catalog = r.skillCatalog(ctx, ru.mode, cfg.Tier)
	}
	for round := 1; ; round++ {
		var p planner.Plan
		var site *adapters.Adapter // the adapter whose jobs the planner was offered
		var open *Entry            // a review the previous background left open
		if e, ok := ru.j.last(protocol.EventPlanReview); ok && e.Plan != nil && !ru.j.hasEvent(protocol.EventPlanResolved, e.ID) {
			p, open = e.Plan.Plan, &e
		} else {
			pageURL, title := r.tabPage(ctx, ru.tabID)
			var jobs []planner.JobOption
			site, jobs = siteJobs(s, pageURL)
			var err error
			p, err = planner.Make(ctx, prov, planner.Input{
				Level: level, Task: withCorrections(task, ru.steer.Pending()), URL: pageURL, Title: title,
				History: ownWords(history), Boundary: b, Skills: catalog, Jobs: jobs,
			})
			var pe *planner.Error
			switch {
			case errors.As(err, &pe) && level != protocol.PlannerStrict:
				t := uitext.T("bg_plan_unreadable", "The planner's reply could not be read as a plan ($reason$), so this request goes on read-only: nothing on the page will be changed.", "reason", pe.Reason)
				ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventModeChanged, Text: t.English, Msg: t.Msg}, Mode: protocol.ModeAsk})
				return planned{readOnly: true}, nil
			case errors.As(err, &pe):
				return planned{}, uitext.Errorf("bg_plan_failed_strict", "Planning failed: $reason$. With the planner on Strict, nothing is done on the page without a plan.", "reason", pe.Reason)
			case err != nil:
				return planned{}, err
			}
		}
		switch p.Action {
		case planner.PlanOnly:
			text := p.MarkdownText(true)
			return planned{answer: text.English, answerMsg: text.Msg}, nil
		case planner.Clarify:
			q := p.Question
			if p.Localized != nil && p.Localized.Question != "" {
				q = p.Localized.Question
			}
			if round >= maxPlanRounds {
				return planned{answer: q}, nil
			}
			answer, err := ru.clar.Ask(ctx, "plan-q"+strconv.Itoa(round), q, nil)
			if err != nil {
				return planned{}, err
			}
			task += "\n\nThe planner asked: " + q + "\nThe user answered: " + answer
			continue
		}
		if open != nil { // planned by the previous background, on this page
			pageURL, _ := r.tabPage(ctx, ru.tabID)
			site, _ = siteJobs(s, pageURL)
		}
		job, recipients, here := r.bindJob(ctx, ru, site, p.SiteJob), p.Recipients, p.ActiveConversation
		if level == protocol.PlannerOff {
			// The intent check has no plan to follow.
			return planned{job: job, recipients: recipients, here: here}, nil
		}
		if !s.ReviewsPlan(level) {
			text := p.MarkdownText(true)
			ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventPlan, Text: text.English, Msg: text.Msg}})
			return planned{pinned: planner.Pinned(p.Markdown(false), false), skills: p.SkillIDs, job: job, recipients: recipients, here: here}, nil
		}
		pinned, err := ru.review.ask(ctx, ru, p, open)
		switch {
		case errors.Is(err, errSuperseded) && round < maxPlanRounds:
			continue // planned again with the correction
		case errors.Is(err, errSuperseded):
			return planned{}, uitext.Errorf("bg_plan_corrected_too_often", "The plan was corrected too many times in a row; send the request again.")
		case err != nil:
			return planned{}, err
		}
		if e, ok := ru.j.last(protocol.EventPlanResolved); ok && e.Decision == protocol.PlanEdit {
			job = nil // the user's edit of the plan text discards the hidden binding
		}
		return planned{pinned: pinned, skills: p.SkillIDs, job: job, recipients: recipients, here: here}, nil
	}
}

// ownWords is history with each user message cut to what the user typed:
// the page details earlier turns added are page text.
func ownWords(history []llm.Message) []llm.Message {
	out := make([]llm.Message, len(history))
	for i, m := range history {
		if m.Role == llm.RoleUser {
			m.Content = agent.UserWords(m.Content)
		}
		out[i] = m
	}
	return out
}

// withCorrections is the task with the corrections the user sent so far.
func withCorrections(task string, cs []agent.Correction) string {
	for _, c := range cs {
		task += "\n\nCorrection from the user: " + c.Text
	}
	return task
}

// tabPage is the tab's address and title, or nothing when the tab is gone.
func (r *Router) tabPage(ctx context.Context, tabID int) (string, string) {
	tab, err := r.p.Tabs.Get(ctx, tabID)
	if err != nil {
		return "", ""
	}
	return tab.URL, tab.Title
}

// errSuperseded: a correction arrived while the review card waited.
var errSuperseded = errors.New("a correction superseded the plan")

// reviewer is a run's plan review: the card is a journaled plan_review
// event, answered by plan_answer for the same request and id.
type reviewer struct {
	r *Router
	j *journal

	mu      sync.Mutex
	waiting mailbox[planAnswer] // buffered: the answer may come first
	done    map[string]bool
}

type planAnswer struct{ decision, text string }

func newReviewer(r *Router, j *journal) *reviewer {
	return &reviewer{r: r, j: j, waiting: mailbox[planAnswer]{}, done: map[string]bool{}}
}

// ask shows p for review, or shows on the card a previous background
// opened, and returns the plan to pin. Rejection and Stop end the run;
// the timeout approves; a correction supersedes the card.
func (v *reviewer) ask(ctx context.Context, ru *run, p planner.Plan, open *Entry) (string, error) {
	now := v.r.p.Clock.Now()
	var id string
	var expires int64
	if open != nil {
		id, expires = open.ID, open.Plan.ExpiresAt
	} else {
		id = "plan-" + strconv.Itoa(v.j.count(protocol.EventPlanReview)+1)
		expires = now.Add(planReviewTimeout).UnixMilli()
		card := &planner.Card{Plan: p, ExpiresAt: expires}
		text := p.MarkdownText(true) // the edit box starts from it
		v.j.add(Entry{Event: agent.Event{Kind: protocol.EventPlanReview, ID: id, Text: text.English, Msg: text.Msg, Plan: card}})
	}
	v.mu.Lock()
	ch := v.waiting.channel(id)
	v.mu.Unlock()
	defer func() {
		v.mu.Lock()
		delete(v.waiting, id)
		v.mu.Unlock()
	}()
	english := p.Markdown(false)
	decided := func(a planAnswer) (string, error) {
		switch a.decision {
		case protocol.PlanReject:
			ru.aborted.Store(true) // the run ends stopped, before any page action
			return "", errPlanRejected
		case protocol.PlanEdit:
			return planner.Pinned(a.text, true), nil
		}
		return planner.Pinned(english, true), nil
	}
	select {
	case a := <-ch:
		return decided(a)
	case <-v.r.p.Clock.After(max(time.UnixMilli(expires).Sub(now), 0)):
		if v.resolve(id, protocol.PlanApprove, protocol.ResolvedTimeout, english) {
			return planner.Pinned(english, true), nil
		}
		return decided(<-ch) // the user's answer came first
	case <-ru.steer.Arrived():
		if v.resolve(id, protocol.PlanSuperseded, protocol.ResolvedCorrection, "") {
			return "", errSuperseded
		}
		return decided(<-ch)
	case <-ctx.Done():
		v.resolve(id, protocol.PlanReject, protocol.ResolvedStopped, "")
		return "", ctx.Err()
	}
}

// resolve journals a card's outcome once.
func (v *reviewer) resolve(id, decision, reason, text string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.done[id] {
		return false
	}
	v.done[id] = true
	v.j.add(Entry{Event: agent.Event{Kind: protocol.EventPlanResolved, ID: id, Decision: decision, Reason: reason, Text: text}})
	return true
}

var errNoPlanCard = errors.New("No plan is waiting for review with this id.")

// answer delivers the user's decision on plan card id. Each card takes one
// answer; an edit must leave a plan to follow.
func (v *reviewer) answer(id, decision, text string) error {
	switch decision {
	case protocol.PlanApprove, protocol.PlanReject:
		text = ""
	case protocol.PlanEdit:
		if strings.TrimSpace(text) == "" {
			return errors.New("The edited plan is empty: write the plan to follow, or reject it.")
		}
	default:
		return errors.New("The decision must be approve, edit or reject.")
	}
	if !v.j.hasEvent(protocol.EventPlanReview, id) || v.j.hasEvent(protocol.EventPlanResolved, id) {
		return errNoPlanCard
	}
	followed := text // the plan the run follows, as plan_resolved reports it
	if e, ok := v.j.find(protocol.EventPlanReview, id); ok && e.Plan != nil && decision == protocol.PlanApprove {
		followed = e.Plan.Plan.Markdown(false)
	}
	if !v.resolve(id, decision, protocol.ResolvedUser, followed) {
		return errNoPlanCard
	}
	v.mu.Lock()
	v.waiting.channel(id) <- planAnswer{decision: decision, text: text}
	v.mu.Unlock()
	return nil
}
