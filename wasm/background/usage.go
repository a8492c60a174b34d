package background

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/cost"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// RunUsage is a run's model usage so far (the journal's usage) and what
// the user added to the run's allowance.
type RunUsage struct {
	cost.Tally
	RaisedUSD float64 `json:"raisedUsd,omitempty"`
}

// AllowanceCard is an allowance event's card: the limit the next model
// call may pass, that call's estimate and the raise the card offers. An
// allowance_resolved event carries it too, so the run's raise is
// journaled with the answer.
type AllowanceCard struct {
	cost.Limit
	EstimateUSD float64 `json:"estimateUsd"`
	RaiseUSD    float64 `json:"raiseUsd"`
}

// meter is the llm.Provider of a run's model calls: before each call the
// cost allowance, after it the usage, counted in the run's journal and
// the day's totals. Every model call of a run goes through one: agent
// turns, planner, decisions, compaction, the completion judge, learning.
type meter struct {
	llm.Provider
	r      *Router
	ru     *run
	model  string
	price  cost.Price
	priced bool
	allow  cost.Allowance
}

// metered wraps prov, the provider cfg describes, for run ru.
func (r *Router) metered(ru *run, s settings.Settings, cfg llm.Config, prov llm.Provider) llm.Provider {
	model := cfg.Model
	if model == "" {
		model = cfg.Deployment
	}
	price, _, ok := cost.Lookup(cost.Model{BaseURL: cfg.BaseURL, ID: model}, s.Prices)
	return &meter{Provider: prov, r: r, ru: ru, model: model, price: price, priced: ok, allow: s.Allowance()}
}

func (m *meter) Chat(ctx context.Context, req llm.Request) (llm.Result, error) {
	if err := m.admit(ctx, req); err != nil {
		return llm.Result{}, err
	}
	res, err := m.Provider.Chat(ctx, req)
	if err == nil || res.Usage != (llm.Usage{}) {
		m.record(res.Usage)
	}
	return res, err
}

// record counts one call's usage. The call that reaches an allowance
// keeps its answer; its usage event says so, and the next call pauses.
func (m *meter) record(u llm.Usage) {
	call := cost.NewCall(m.model, u, m.price, m.priced)
	ctx, cancel := context.WithTimeout(context.Background(), storageWriteTimeout)
	defer cancel()
	day, err := m.r.usage.Add(ctx, call)
	if m.ru.j.terminal() {
		return // learning after the run: the day counts it, the run has ended
	}
	var notice uitext.Text
	if err == nil && call.CostUSD > 0 {
		run := m.ru.j.usage()
		after := run.Tally
		after.Add(call)
		before := day
		before.CostUSD -= call.CostUSD
		if l, reached := m.allow.Reached(day, after, run.RaisedUSD); reached {
			if _, was := m.allow.Reached(before, run.Tally, run.RaisedUSD); !was {
				notice = uitext.T("bg_allowance_reached", "This answer reached the cost allowance. $limit$ The answer is kept; WebBrain will ask before the next model call.",
					"limit", l.Text())
			}
		}
	}
	m.ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventUsage, Text: notice.English, Msg: notice.Msg}, Usage: &call})
}

// admit lets the call go when it fits the allowance, and otherwise pauses
// the run with a card until the user raises the allowance (then checks
// again) or stops the run. A model without a price is never held: its
// cost is unknown.
func (m *meter) admit(ctx context.Context, req llm.Request) error {
	if !m.priced || m.allow == (cost.Allowance{}) {
		return nil
	}
	est := m.price.Estimate(req)
	for {
		day, err := m.r.usage.Today(ctx)
		if err != nil {
			return fmt.Errorf("WebBrain could not read today's usage to check the cost allowance: %w", err)
		}
		run := m.ru.j.usage()
		l, over := m.allow.Check(day, run.Tally, run.RaisedUSD, est)
		if !over {
			return nil
		}
		if m.ru.j.terminal() {
			// The learner after the run: nobody waits on a card, and the
			// spec skips it silently when the allowance is spent.
			return errAllowanceSpent
		}
		if err := m.ru.allow.wait(ctx, m.r, m.ru, allowanceCard(l, est, m.allow), day.Date); err != nil {
			return err
		}
	}
}

// allowanceCard offers to raise the limit by the allowance itself, or by
// what the call needs when that is more, in whole cents.
func allowanceCard(l cost.Limit, est float64, a cost.Allowance) AllowanceCard {
	base := a.DayUSD
	if l.Scope == cost.ScopeRun {
		base = a.RunUSD
	}
	need := l.SpentUSD + est - l.LimitUSD
	return AllowanceCard{Limit: l, EstimateUSD: est, RaiseUSD: math.Ceil(max(base, need)*100) / 100}
}

// allowanceBox is a run's cost allowance pause: the card it shows and
// the one answer it takes. Its zero value is ready.
type allowanceBox struct {
	mu      sync.Mutex
	waiting mailbox[string]
}

func (b *allowanceBox) channel(id string) chan string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.waiting == nil {
		b.waiting = mailbox[string]{}
	}
	return b.waiting.channel(id)
}

// wait shows card (once: a card a previous background showed is waited
// on again) and waits for its answer. A raise returns nil; stop and the
// end of the run return an error.
func (b *allowanceBox) wait(ctx context.Context, r *Router, ru *run, card AllowanceCard, date string) error {
	id := fmt.Sprintf("allowance-%s-%d", card.Scope, int64(math.Round(card.LimitUSD*100)))
	if card.Scope == cost.ScopeDay {
		id = fmt.Sprintf("allowance-day-%s-%d", date, int64(math.Round(card.LimitUSD*100)))
	}
	if e, ok := ru.j.find(protocol.EventAllowanceResolved, id); ok {
		return decisionError(e.Decision)
	}
	if !ru.j.hasEvent(protocol.EventAllowance, id) {
		text := uitext.T("bg_allowance_paused", "Paused before the next model call, which may cost up to $estimate$. $limit$ Raise the allowance by $raise$ to go on, or stop the run.",
			"estimate", cost.USD(card.EstimateUSD), "limit", card.Text(), "raise", cost.USD(card.RaiseUSD))
		ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventAllowance, ID: id, Text: text.English, Msg: text.Msg}, Allowance: &card})
		if jobOf(ru.requestID) != "" {
			r.notify("webbrain-card-"+id, uitext.T("bg_notify_allowance", "WebBrain paused at the cost allowance"), clipText(text, 180))
		}
	}
	select {
	case d := <-b.channel(id):
		return decisionError(d)
	case <-ctx.Done():
		return ctx.Err()
	}
}

var (
	errAllowanceStop  = errors.New("Stopped at the cost allowance.")
	errAllowanceSpent = errors.New("The cost allowance is spent.")
)

func decisionError(d string) error {
	if d == protocol.AllowanceRaise {
		return nil
	}
	return errAllowanceStop
}

var errNoAllowanceCard = errors.New("No cost allowance card with this id is waiting for an answer.")

// answer applies the user's decision on card id: a raise is stored (the
// day's in the usage book, the run's in the journal) before the waiting
// call is woken, so its check sees it; stop ends the run.
func (b *allowanceBox) answer(ctx context.Context, r *Router, ru *run, id, decision string) error {
	if decision != protocol.AllowanceRaise && decision != protocol.AllowanceStop {
		return errors.New("The decision must be raise or stop.")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := ru.j.find(protocol.EventAllowance, id)
	if !ok || e.Allowance == nil {
		return errNoAllowanceCard
	}
	if _, done := ru.j.find(protocol.EventAllowanceResolved, id); done {
		return errNoAllowanceCard
	}
	card := *e.Allowance
	if decision == protocol.AllowanceRaise && card.Scope == cost.ScopeDay {
		if _, err := r.usage.Raise(ctx, card.RaiseUSD); err != nil {
			return fmt.Errorf("WebBrain could not save the raised allowance: %w", err)
		}
	}
	ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventAllowanceResolved, ID: id, Decision: decision}, Allowance: &card})
	if decision == protocol.AllowanceStop {
		ru.stop() // first, so the run ends as stopped rather than failed
	}
	if b.waiting == nil {
		b.waiting = mailbox[string]{}
	}
	b.waiting.channel(id) <- decision
	return nil
}

func (r *Router) allowanceAnswer(ctx context.Context, m message) reply {
	return r.answerRun(m, "card", func(ru *run) error { return ru.allow.answer(ctx, r, ru, m.ID, m.Decision) })
}

// usageDays is how many days usage_get lists without days.
const usageDays = 7

// usageGet lists the usage of the last days, today first.
func (r *Router) usageGet(ctx context.Context, m message) reply {
	n := m.Days
	if n == 0 {
		n = usageDays
	}
	if n < 1 || n > cost.KeepDays {
		return failf("days must be between 1 and %d.", cost.KeepDays)
	}
	days, err := r.usage.Days(ctx, n)
	if err != nil {
		return errReply(err)
	}
	s, _ := settings.Load(ctx, r.p.Local)
	return okReply("days", days, "pricesTaken", cost.PricesTaken(),
		"allowance", map[string]float64{"dailyUsd": s.DailyAllowanceUSD, "runUsd": s.RunAllowanceUSD})
}
