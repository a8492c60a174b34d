// Package cost prices model calls: a table of list prices per model
// (prices.json, embedded), the usage of a call and of a run or a day, the
// estimate of a call not yet made, and the per-day totals kept in storage.
// A model it does not know has no price: its tokens are counted and its
// cost is unknown, never guessed (docs/decisions/cost.md).
package cost

import (
	_ "embed"
	"encoding/json"
	"math"
	"net/url"
	"strings"
	"sync"

	"github.com/webbrain/webbrain/wasm/ascii"
	"github.com/webbrain/webbrain/wasm/netaddr"
)

// Price is what a model costs, in USD per million tokens. Cached is the
// price of input read from the provider's prompt cache and Write of input
// written to it; 0 means the provider has no such price and the tokens
// cost as much as other input.
type Price struct {
	Input  float64 `json:"in"`
	Cached float64 `json:"cached,omitempty"`
	Write  float64 `json:"write,omitempty"`
	Output float64 `json:"out"`
}

// Valid reports whether every price is a valid amount.
func (p Price) Valid() bool {
	return ValidAmount(p.Input) && ValidAmount(p.Cached) && ValidAmount(p.Write) && ValidAmount(p.Output)
}

// ValidAmount reports whether v is a finite amount, not negative.
func ValidAmount(v float64) bool { return v >= 0 && !math.IsNaN(v) && !math.IsInf(v, 0) }

// Where a price came from.
const (
	SourceTable    = "table"    // the embedded list prices
	SourceLocal    = "local"    // a server on this computer or network: free
	SourceOverride = "settings" // the user's own price for the model
)

//go:embed prices.json
var pricesJSON []byte

// table is prices.json.
type table struct {
	Taken      string                      `json:"taken"`
	Hosts      map[string]string           `json:"hosts"`
	OpenRouter map[string]string           `json:"openrouter"`
	Models     map[string]map[string]Price `json:"models"`
}

// prices is parsed on first use: decoding it at start-up (reflection's
// first use included) was most of the module's package initialisation.
var prices = sync.OnceValue(func() table {
	var t table
	if err := json.Unmarshal(pricesJSON, &t); err != nil {
		panic("cost: prices.json: " + err.Error()) // a build error: the file is embedded
	}
	return t
})

// PricesTaken is the date the table's prices were read from the
// providers' pricing pages.
func PricesTaken() string { return prices().Taken }

// Model names what a call is priced by: the provider's base URL and the
// model id the user configured.
type Model struct {
	BaseURL string
	ID      string
}

// Lookup returns the price of m and where it came from. overrides (the
// user's prices by model id) win; a server on this computer or the local
// network is free; otherwise the table is asked by the host's vendor
// (OpenRouter's "vendor/model" ids by that vendor, whose list price it
// passes through). ok is false when nothing names a price.
func Lookup(m Model, overrides map[string]Price) (p Price, source string, ok bool) {
	id := strings.TrimSpace(m.ID)
	if p, ok := overrides[id]; ok {
		return p, SourceOverride, true
	}
	u, err := url.Parse(strings.TrimSpace(m.BaseURL))
	if err != nil || u.Hostname() == "" {
		return Price{}, "", false
	}
	host := netaddr.Canonical(u.Hostname())
	if netaddr.Private(host) != "" {
		return Price{}, SourceLocal, true
	}
	vendor := prices().Hosts[host]
	if vendor == "openrouter" {
		v, rest, found := strings.Cut(id, "/")
		if vendor, id = prices().OpenRouter[v], rest; !found {
			vendor = ""
		}
	}
	models := prices().Models[vendor]
	if models == nil {
		return Price{}, "", false
	}
	id = strings.ToLower(strings.TrimPrefix(id, "models/")) // Gemini's own ids
	if vendor == "anthropic" {
		id = strings.ReplaceAll(id, ".", "-") // OpenRouter writes claude-sonnet-4.5
	}
	if p, ok := models[id]; ok {
		return p, SourceTable, true
	}
	// A dated snapshot or alias of a listed model costs what it does,
	// unless the table lists the snapshot itself (above).
	if p, ok := models[withoutSnapshot(id)]; ok {
		return p, SourceTable, true
	}
	return Price{}, "", false
}

// withoutSnapshot drops a dated model id's date (-2024-08-06, -20250514)
// or Anthropic's -latest alias.
func withoutSnapshot(id string) string {
	if base, ok := strings.CutSuffix(id, "-latest"); ok {
		return base
	}
	if n := len(id) - 9; n >= 0 && id[n] == '-' && ascii.Run(id[n+1:], ascii.Digit, 8, 8) {
		return id[:n]
	}
	if n := len(id) - 11; n >= 0 && id[n] == '-' && id[n+5] == '-' && id[n+8] == '-' &&
		ascii.Run(id[n+1:n+5], ascii.Digit, 4, 4) && ascii.Run(id[n+6:n+8], ascii.Digit, 2, 2) && ascii.Run(id[n+9:], ascii.Digit, 2, 2) {
		return id[:n]
	}
	return id
}
