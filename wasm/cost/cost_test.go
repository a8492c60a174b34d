package cost

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform/platformtest"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestLookup(t *testing.T) {
	gpt4o := Price{Input: 2.5, Cached: 1.25, Output: 10}
	cases := []struct {
		base, model string
		want        Price
		source      string
		ok          bool
	}{
		{"https://api.openai.com/v1", "gpt-4o", gpt4o, SourceTable, true},
		{"https://api.openai.com/v1", "gpt-4o-2024-08-06", gpt4o, SourceTable, true},
		// A snapshot the table lists itself keeps its own price.
		{"https://api.openai.com/v1", "gpt-4o-2024-05-13", Price{Input: 5, Cached: 5, Output: 15}, SourceTable, true},
		{"https://api.openai.com/v1", "gpt-4o-mini", Price{Input: 0.15, Cached: 0.075, Output: 0.6}, SourceTable, true},
		{"https://api.anthropic.com", "claude-sonnet-4-20250514", Price{Input: 3, Cached: 0.3, Write: 3.75, Output: 15}, SourceTable, true},
		{"https://api.anthropic.com", "claude-3-5-haiku-latest", Price{Input: 0.8, Cached: 0.08, Write: 1, Output: 4}, SourceTable, true},
		{"https://generativelanguage.googleapis.com/v1beta/openai", "models/gemini-2.5-flash", Price{Input: 0.3, Cached: 0.03, Output: 2.5}, SourceTable, true},
		{"https://api.deepseek.com/v1", "deepseek-chat", Price{Input: 0.28, Cached: 0.028, Output: 0.42}, SourceTable, true},
		{"https://api.groq.com/openai/v1", "llama-3.3-70b-versatile", Price{Input: 0.59, Cached: 0.59, Output: 0.79}, SourceTable, true},
		{"https://api.mistral.ai/v1", "mistral-large-latest", Price{Input: 2, Cached: 2, Output: 6}, SourceTable, true},
		// OpenRouter passes the vendor's list price through.
		{"https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4.5", Price{Input: 3, Cached: 0.3, Write: 3.75, Output: 15}, SourceTable, true},
		{"https://openrouter.ai/api/v1", "openai/gpt-4o", gpt4o, SourceTable, true},
		// Open models have many hosts on OpenRouter, each with its price.
		{"https://openrouter.ai/api/v1", "meta-llama/llama-3.3-70b-instruct", Price{}, "", false},
		{"https://openrouter.ai/api/v1", "gpt-4o", Price{}, "", false},
		// Local servers are free, whatever the model is called.
		{"http://127.0.0.1:11434/v1", "llama3.2", Price{}, SourceLocal, true},
		{"http://localhost:1234/v1", "gpt-4o", Price{}, SourceLocal, true},
		{"http://192.168.1.20:8080/v1", "qwen", Price{}, SourceLocal, true},
		// Unknown: never guessed.
		{"https://api.openai.com/v1", "gpt-7", Price{}, "", false},
		{"https://api.together.xyz/v1", "gpt-4o", Price{}, "", false},
		{"https://x.openai.azure.com", "gpt-4o", Price{}, "", false},
		{"", "gpt-4o", Price{}, "", false},
	}
	for _, c := range cases {
		p, source, ok := Lookup(Model{BaseURL: c.base, ID: c.model}, nil)
		if p != c.want || source != c.source || ok != c.ok {
			t.Errorf("%s %s: %+v %q %v, want %+v %q %v", c.base, c.model, p, source, ok, c.want, c.source, c.ok)
		}
	}
	own := Price{Input: 1, Output: 2}
	if p, source, ok := Lookup(Model{BaseURL: "http://127.0.0.1:9/v1", ID: "my-gateway"}, map[string]Price{"my-gateway": own}); p != own || source != SourceOverride || !ok {
		t.Fatalf("override: %+v %q %v", p, source, ok)
	}
	if PricesTaken() == "" {
		t.Fatal("the table has no date")
	}
}

// Every table entry is a usable price.
func TestTableIsSane(t *testing.T) {
	for vendor, models := range prices().Models {
		for id, p := range models {
			if !p.Valid() || p.Input <= 0 || p.Output <= 0 || p.Cached > p.Input {
				t.Errorf("%s %s: %+v", vendor, id, p)
			}
		}
	}
	for host, vendor := range prices().Hosts {
		if vendor != "openrouter" && prices().Models[vendor] == nil {
			t.Errorf("host %s names vendor %s without prices", host, vendor)
		}
	}
}

func TestCostMath(t *testing.T) {
	claude := Price{Input: 3, Cached: 0.3, Write: 3.75, Output: 15}
	// 10,000 input of which 6,000 cached and 3,000 written, 1,000 output.
	u := llm.Usage{InputTokens: 10000, CachedInputTokens: 6000, CacheWriteTokens: 3000, OutputTokens: 1000}
	want := (1000*3 + 6000*0.3 + 3000*3.75 + 1000*15) / 1e6
	if got := claude.Cost(u); !near(got, want) {
		t.Fatalf("cost %v want %v", got, want)
	}
	// No cache price: cached input costs as much as other input.
	flat := Price{Input: 2, Output: 6}
	if got := flat.Cost(llm.Usage{InputTokens: 1000, CachedInputTokens: 500, OutputTokens: 100}); !near(got, (1000*2+100*6)/1e6) {
		t.Fatalf("flat %v", got)
	}
	if got := (Price{}).Cost(u); got != 0 {
		t.Fatalf("free %v", got)
	}
	c := NewCall("m", u, claude, true)
	if !near(c.CostUSD, want) || !c.Priced || c.CachedInputTokens != 6000 {
		t.Fatalf("call %+v", c)
	}
	unknown := NewCall("m", u, Price{}, false)
	var tl Tally
	tl.Add(c)
	tl.Add(unknown)
	if tl.Calls != 2 || tl.InputTokens != 20000 || tl.OutputTokens != 2000 || !near(tl.CostUSD, want) || tl.UnpricedCalls != 1 {
		t.Fatalf("tally %+v", tl)
	}
	for v, s := range map[float64]string{0: "$0", 1.5: "$1.50", 0.0421: "$0.042", 0.2: "$0.20", 0.000123: "$0.00012"} {
		if USD(v) != s {
			t.Errorf("USD(%v) = %s want %s", v, USD(v), s)
		}
	}
}

func TestEstimate(t *testing.T) {
	req := llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: strings.Repeat("a", 4000),
			Images: []llm.Image{{MediaType: "image/png", Data: "x"}}}},
		Tools:     []llm.ToolSpec{{Name: "click", Description: strings.Repeat("d", 395), Parameters: json.RawMessage(`{}`)}},
		MaxTokens: 500,
	}
	if got := EstimateInput(req); got != 1000+100+imageTokens {
		t.Fatalf("input estimate %d", got)
	}
	p := Price{Input: 1, Output: 10}
	if got, want := p.Estimate(req), (float64(1100+imageTokens)*1+500*10)/1e6; !near(got, want) {
		t.Fatalf("estimate %v want %v", got, want)
	}
	req.MaxTokens = 0 // no budget: the default one
	if got, want := p.Estimate(req), (float64(1100+imageTokens)*1+defaultOutput*10)/1e6; !near(got, want) {
		t.Fatalf("default budget %v want %v", got, want)
	}
}

// at moves clock to t (the fake clock only moves forward).
func at(t *testing.T, c *platformtest.Clock, when time.Time) {
	t.Helper()
	d := when.Sub(c.Now())
	if d < 0 {
		t.Fatalf("clock at %v cannot go back to %v", c.Now(), when)
	}
	<-c.After(d)
}

func TestDailyRollOverAndPrune(t *testing.T) {
	ctx := context.Background()
	store, clock := platformtest.NewStorage(), platformtest.NewClock()
	b := NewBook(store, clock)
	call := Call{InputTokens: 100, OutputTokens: 10, CostUSD: 0.5, Priced: true}

	at(t, clock, time.Date(2026, 3, 1, 23, 58, 0, 0, time.Local))
	if _, err := b.Add(ctx, call); err != nil {
		t.Fatal(err)
	}
	if d, _ := b.Raise(ctx, 2); d.RaisedUSD != 2 || d.Calls != 1 {
		t.Fatalf("raised %+v", d)
	}
	at(t, clock, time.Date(2026, 3, 2, 0, 1, 0, 0, time.Local)) // past midnight: a new day
	if d, _ := b.Today(ctx); d.Date != "2026-03-02" || d.Calls != 0 || d.RaisedUSD != 0 {
		t.Fatalf("new day %+v", d)
	}
	b.Add(ctx, call)
	b.Add(ctx, Call{InputTokens: 5, OutputTokens: 1, Priced: false})

	// A new book on the same storage (a restarted background) reads it on.
	b = NewBook(store, clock)
	days, err := b.Days(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if days[0].Date != "2026-03-02" || days[0].Calls != 2 || !near(days[0].CostUSD, 0.5) || days[0].UnpricedCalls != 1 ||
		days[1].Date != "2026-03-01" || days[1].Calls != 1 || days[1].RaisedUSD != 2 ||
		days[2].Date != "2026-02-28" || days[2].Calls != 0 {
		t.Fatalf("days %+v", days)
	}

	// 90 days on, 1 March has gone and 2 March is the oldest kept day.
	at(t, clock, time.Date(2026, 5, 30, 12, 0, 0, 0, time.Local))
	b.Add(ctx, call)
	raw, _ := store.Get(ctx, DailyKey)
	var d daily
	json.Unmarshal(raw[DailyKey], &d)
	if _, ok := d.Days["2026-03-01"]; ok || len(d.Days) != 2 {
		t.Fatalf("kept %v", d.Days)
	}
	if _, ok := d.Days["2026-03-02"]; !ok {
		t.Fatalf("dropped a day within %d: %v", KeepDays, d.Days)
	}

	// A damaged record starts again rather than failing every call.
	store.Set(ctx, map[string]json.RawMessage{DailyKey: json.RawMessage(`{"days":`)})
	if d, err := b.Add(ctx, call); err != nil || d.Calls != 1 {
		t.Fatalf("after damage %+v %v", d, err)
	}
}

func TestAllowance(t *testing.T) {
	a := Allowance{DayUSD: 1, RunUSD: 0.2}
	day := Day{Tally: Tally{CostUSD: 0.9}}
	if _, over := a.Check(day, Tally{CostUSD: 0.05}, 0, 0.05); over {
		t.Fatal("a call that fits was refused")
	}
	if l, over := a.Check(day, Tally{}, 0, 0.15); !over || l.Scope != ScopeDay || l.LimitUSD != 1 || l.SpentUSD != 0.9 {
		t.Fatalf("day %+v %v", l, over)
	}
	// Today's raise makes room.
	day.RaisedUSD = 1
	if _, over := a.Check(day, Tally{}, 0, 0.15); over {
		t.Fatal("the raise was ignored")
	}
	if l, over := a.Check(day, Tally{CostUSD: 0.1}, 0, 0.15); !over || l.Scope != ScopeRun {
		t.Fatalf("run %+v %v", l, over)
	}
	if _, over := a.Check(day, Tally{CostUSD: 0.1}, 0.2, 0.15); over {
		t.Fatal("the run's raise was ignored")
	}
	if l, ok := a.Reached(Day{Tally: Tally{CostUSD: 1}}, Tally{}, 0); !ok || l.Scope != ScopeDay {
		t.Fatalf("reached %+v %v", l, ok)
	}
	if _, ok := a.Reached(Day{Tally: Tally{CostUSD: 0.99}}, Tally{}, 0); ok {
		t.Fatal("reached below the limit")
	}
	if _, over := (Allowance{}).Check(Day{Tally: Tally{CostUSD: 100}}, Tally{}, 0, 100); over {
		t.Fatal("an allowance that is off refused a call")
	}
	if m := (Limit{ScopeDay, 1, 1.02}).Message(); m != "Today's cost allowance is $1.00 and $1.02 has been spent." {
		t.Fatal(m)
	}
	if m := (Limit{ScopeRun, 0.5, 0.5}).Text(); m.English != "This run's cost allowance is $0.50 and $0.50 has been spent." ||
		m.Msg.Key != "bg_allowance_run_spent" || m.Msg.Params["limit"] != "$0.50" || m.Msg.Params["spent"] != "$0.50" {
		t.Fatalf("%+v", m)
	}
}

func TestWithoutSnapshot(t *testing.T) {
	for in, want := range map[string]string{"gpt-4o-2024-08-06": "gpt-4o", "claude-sonnet-4-20250514": "claude-sonnet-4", "x-latest": "x",
		"gpt-4o-2024-8-06": "gpt-4o-2024-8-06", "m-2025051": "m-2025051", "20250514": "20250514", "a-2024-08-06x": "a-2024-08-06x", "o3": "o3"} {
		if got := withoutSnapshot(in); got != want {
			t.Errorf("withoutSnapshot(%q) = %q, want %q", in, got, want)
		}
	}
}
