package cost

import (
	"encoding/json"

	"github.com/webbrain/webbrain/wasm/llm"
)

// Cost is what u costs at p in USD. Input neither read from nor written to
// a cache costs Input; cached and written input cost their own price when
// the model has one.
func (p Price) Cost(u llm.Usage) float64 {
	cached, written := u.CachedInputTokens, u.CacheWriteTokens
	plain := max(u.InputTokens-cached-written, 0)
	return (float64(plain)*p.Input + float64(cached)*orInput(p.Cached, p.Input) +
		float64(written)*orInput(p.Write, p.Input) + float64(u.OutputTokens)*p.Output) / 1e6
}

func orInput(v, input float64) float64 {
	if v == 0 {
		return input
	}
	return v
}

// Call is the usage of one model call: the tokens the provider reported
// and, when the model has a price, its cost.
type Call struct {
	Model             string  `json:"model,omitempty"`
	InputTokens       int     `json:"inputTokens"`
	CachedInputTokens int     `json:"cachedInputTokens,omitempty"`
	CacheWriteTokens  int     `json:"cacheWriteTokens,omitempty"`
	OutputTokens      int     `json:"outputTokens"`
	CostUSD           float64 `json:"costUsd"`
	Priced            bool    `json:"priced"` // false: the cost is unknown
}

// NewCall prices u for model; priced is false when the model has no price.
func NewCall(model string, u llm.Usage, p Price, priced bool) Call {
	c := Call{Model: model, InputTokens: u.InputTokens, CachedInputTokens: u.CachedInputTokens,
		CacheWriteTokens: u.CacheWriteTokens, OutputTokens: u.OutputTokens, Priced: priced}
	if priced {
		c.CostUSD = p.Cost(u)
	}
	return c
}

// Tally adds calls up: a run's or a day's usage. CostUSD is the cost of
// the priced calls; UnpricedCalls says how many calls it leaves out.
type Tally struct {
	Calls             int     `json:"calls"`
	InputTokens       int     `json:"inputTokens"`
	CachedInputTokens int     `json:"cachedInputTokens,omitempty"`
	CacheWriteTokens  int     `json:"cacheWriteTokens,omitempty"`
	OutputTokens      int     `json:"outputTokens"`
	CostUSD           float64 `json:"costUsd"`
	UnpricedCalls     int     `json:"unpricedCalls,omitempty"`
}

// Add counts c.
func (t *Tally) Add(c Call) {
	t.Calls++
	t.InputTokens += c.InputTokens
	t.CachedInputTokens += c.CachedInputTokens
	t.CacheWriteTokens += c.CacheWriteTokens
	t.OutputTokens += c.OutputTokens
	if c.Priced {
		t.CostUSD += c.CostUSD
	} else {
		t.UnpricedCalls++
	}
}

// Per-request sizes the estimate assumes.
const (
	// charsPerToken is the usual size of a token of English text and JSON.
	charsPerToken = 4
	// imageTokens is a high-side count for one screenshot (a large image
	// costs about 1,600 tokens on Anthropic, fewer on OpenAI).
	imageTokens = 1600
	// defaultOutput is the output budget assumed when a request sets none.
	defaultOutput = 4096
)

// EstimateInput is the input tokens req will likely cost: the
// conversation and the tools' schemas at four characters a token, and a
// high-side count per image. Providers bill their own tokenizer's count;
// this only has to be close enough to keep a call from going far past an
// allowance.
func EstimateInput(req llm.Request) int {
	chars := llm.ConversationChars(req.Messages)
	images := 0
	for _, m := range req.Messages {
		images += len(m.Images)
	}
	for _, t := range req.Tools {
		chars += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	return chars/charsPerToken + images*imageTokens
}

// Estimate is the most req may cost at p: its estimated input, all of it
// uncached, and its whole output budget.
func (p Price) Estimate(req llm.Request) float64 {
	out := req.MaxTokens
	if out <= 0 {
		out = defaultOutput
	}
	return p.Cost(llm.Usage{InputTokens: EstimateInput(req), OutputTokens: out})
}

// decode reads raw into v; an absent or damaged value leaves v as it was.
func decode(raw json.RawMessage, v any) bool {
	return len(raw) > 0 && json.Unmarshal(raw, v) == nil
}
