// Package tools is the browser-agent tool registry: the JSON-schema specs
// the model sees, which of them each mode and tier offers
// (spec 003, "modes x tiers"), and the Dispatcher that runs a call against
// the run's tab.
package tools

import (
	"fmt"
	"slices"
	"sync"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// Where a tool runs.
const (
	inContent    = iota // content script of the tab's top frame
	inTabs              // background, through platform.Tabs
	inAgent             // the agent loop itself (done, clarify)
	inBackground        // the background alone (fetch_url, PDFs, downloads)
	inFrame             // the frames of the tab (frames.go)
	inDev               // Dev mode's handlers (devtools.go)
)

// Columns of the spec's tool table.
const (
	colAsk = 1 << iota
	colCompact
	colMid
	colFull
	colDev // the Dev-mode add-on column

	colActAll = colCompact | colMid | colFull
	colAll    = colAsk | colActAll
)

// tool is one catalog entry.
type tool struct {
	name   string
	desc   string
	params string // JSON Schema of the arguments object
	cols   int    // table columns that offer it
	runs   int    // inContent, inTabs or inAgent
	// readOnly tools never change the page or the tab's location; only
	// these may ever be offered in Ask.
	readOnly bool
	// mayNavigate marks page actions after which the tab may be loading a
	// new document; the dispatcher then waits for the load.
	mayNavigate bool
	// chromeOnly tools need an API only Chrome has (the debugger, the
	// WebMCP domain); Firefox never offers them (the table's "C").
	chromeOnly bool
	// page is the content-script tool an iframe_* tool runs in its frame.
	page string
	// feature names the setting that must be on for the tool to be
	// offered at all ("" for none).
	feature Feature
	// check enforces argument rules a flat schema cannot express.
	check func(args map[string]any) error
}

// Feature is an opt-in setting that adds tools to the table.
type Feature string

// FeatureWebMCP is the setting "Experimental WebMCP" (off by default):
// list_webmcp_tools and execute_webmcp_tool exist only while it is on.
const FeatureWebMCP Feature = "webmcp"

// byName indexes catalog; built on first use, like the other tables of
// the package, so that a wake of the worker does not pay for it.
var byName = sync.OnceValue(func() map[string]*tool {
	m := make(map[string]*tool, len(catalog))
	for i := range catalog {
		m[catalog[i].name] = &catalog[i]
	}
	return m
})

// column maps a mode and tier to the table columns it offers. Any mode
// other than Act and Dev gets the read-only Ask column, so an unknown mode
// fails closed; an unknown tier is Mid, the spec's default for local
// providers. Dev is the tier's Act column plus the Dev add-ons; a Compact
// provider never gets them (the background refuses Compact Dev runs
// before this matters).
func column(mode, tier string) int {
	if !protocol.Acting(mode) {
		return colAsk
	}
	col := colMid
	switch tier {
	case protocol.TierCompact:
		return colCompact
	case protocol.TierFull:
		col = colFull
	}
	if mode == protocol.ModeDev {
		col |= colDev
	}
	return col
}

// Offered reports whether the tool is offered to the model in this mode
// and tier on this browser ("chrome" or "firefox") with the features the
// user turned on.
func Offered(mode, tier, browser, name string, on ...Feature) bool {
	t, ok := byName()[name]
	if !ok {
		return false
	}
	if t.chromeOnly && browser != protocol.BrowserChrome {
		return false
	}
	if t.feature != "" && !slices.Contains(on, t.feature) {
		return false
	}
	col := column(mode, tier)
	if col == colAsk && !t.readOnly {
		return false
	}
	return t.cols&col != 0
}

// NotOffered explains why a tool cannot run in this mode and tier, or
// returns nil when it is offered. The text is what the model is told.
func NotOffered(mode, tier, browser, name string, on ...Feature) error {
	if Offered(mode, tier, browser, name, on...) {
		return nil
	}
	if _, ok := byName()[name]; !ok {
		return fmt.Errorf("there is no tool named %q; use only the tools you were given", name)
	}
	if t := byName()[name]; t.chromeOnly && browser != protocol.BrowserChrome {
		return fmt.Errorf("%s is not available in this browser: it needs an API only Chrome has", name)
	}
	if t := byName()[name]; t.feature == FeatureWebMCP && !slices.Contains(on, t.feature) {
		return fmt.Errorf("%s is not available: the setting Experimental WebMCP is off; use the page's own controls", name)
	}
	if column(mode, tier) == colAsk {
		return fmt.Errorf("%s is not allowed in Ask mode: Ask is read-only and cannot change the page; answer from what you can read", name)
	}
	if t := byName()[name]; t.cols&(colDev|colActAll) == colDev && mode != protocol.ModeDev {
		return fmt.Errorf("%s is a Dev mode tool; it is not available in this mode", name)
	}
	return fmt.Errorf("%s is not available for this model; use only the tools you were given", name)
}

// ReadOnly reports whether the named tool leaves the page and the tab's
// location unchanged.
func ReadOnly(name string) bool {
	if name == protocol.ToolLoadSkill {
		return true
	}
	t, ok := byName()[name]
	return ok && t.readOnly
}
