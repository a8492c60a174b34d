package cost

import (
	"fmt"
	"strings"

	"github.com/webbrain/webbrain/wasm/uitext"
)

// Scopes of an allowance.
const (
	ScopeDay = "day"
	ScopeRun = "run"
)

// Allowance is what the user lets WebBrain spend on priced model calls,
// in USD: per day and per run; 0 turns a limit off.
type Allowance struct {
	DayUSD float64
	RunUSD float64
}

// Limit is an allowance a call would go past: its scope, how much it
// allows (raises included) and how much was spent already.
type Limit struct {
	Scope    string  `json:"scope"`
	LimitUSD float64 `json:"limitUsd"`
	SpentUSD float64 `json:"spentUsd"`
}

// limits are the allowances that are on, with what was spent against
// each: today's (with the day's raises) and the run's (with its own).
func (a Allowance) limits(day Day, run Tally, runRaised float64) []Limit {
	var out []Limit
	if a.DayUSD > 0 {
		out = append(out, Limit{ScopeDay, a.DayUSD + day.RaisedUSD, day.CostUSD})
	}
	if a.RunUSD > 0 {
		out = append(out, Limit{ScopeRun, a.RunUSD + runRaised, run.CostUSD})
	}
	return out
}

// Check returns the limit a call estimated at est USD may go past, given
// today's usage and the run's; ok is false when the call fits both.
func (a Allowance) Check(day Day, run Tally, runRaised, est float64) (Limit, bool) {
	for _, l := range a.limits(day, run, runRaised) {
		if l.SpentUSD+est > l.LimitUSD {
			return l, true
		}
	}
	return Limit{}, false
}

// Reached returns the limit that spending has reached, after a call was
// made; ok is false when both are still below their limit.
func (a Allowance) Reached(day Day, run Tally, runRaised float64) (Limit, bool) {
	for _, l := range a.limits(day, run, runRaised) {
		if l.SpentUSD >= l.LimitUSD {
			return l, true
		}
	}
	return Limit{}, false
}

// Message is the sentence the panel shows for l.
func (l Limit) Message() string { return l.Text().English }

// Text is Message with its catalog key; the amounts are data.
func (l Limit) Text() uitext.Text {
	if l.Scope == ScopeRun {
		return uitext.T("bg_allowance_run_spent", "This run's cost allowance is $limit$ and $spent$ has been spent.",
			"limit", USD(l.LimitUSD), "spent", USD(l.SpentUSD))
	}
	return uitext.T("bg_allowance_day_spent", "Today's cost allowance is $limit$ and $spent$ has been spent.",
		"limit", USD(l.LimitUSD), "spent", USD(l.SpentUSD))
}

// USD writes an amount for people: cents for a dollar or more, a tenth
// of a cent more below a dollar (unless it is whole cents) and five
// decimals below a cent, so small calls do not all read $0.00.
func USD(v float64) string {
	switch {
	case v == 0:
		return "$0"
	case v >= 1:
		return fmt.Sprintf("$%.2f", v)
	case v >= 0.01:
		s := fmt.Sprintf("$%.3f", v)
		return strings.TrimSuffix(s, "0")
	}
	return fmt.Sprintf("$%.5f", v)
}
