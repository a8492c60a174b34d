package tools

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Read windows of get_accessibility_tree (spec 003, "adaptive read
// windows"): a page of the tree and the cap of the result around it.
const (
	pageBudget     = 6000  // default page, inside MaxResultChars
	expandedPage   = 12000 // largest page a big-context provider may ask for
	expandedResult = 16000 // cap of a tree result whose page is larger than pageBudget
	// expandedMinContext is the smallest context window, in tokens, that
	// gets the expanded pair.
	expandedMinContext = 65536
)

// ReadWindow is how large one get_accessibility_tree read may be: Page
// is the largest maxChars offered, Result the cap of a result that used
// a page larger than the default.
type ReadWindow struct {
	Page   int
	Result int
}

// WindowFor returns the read window of a provider: Mid and Full providers
// (an unknown tier is Mid) whose context window is at least 65,536 tokens
// get 12,000/16,000; Compact providers and smaller windows 6,000/8,000.
func WindowFor(tier string, contextWindow int) ReadWindow {
	if tier == protocol.TierCompact || contextWindow < expandedMinContext {
		return ReadWindow{Page: pageBudget, Result: MaxResultChars}
	}
	return ReadWindow{Page: expandedPage, Result: expandedResult}
}

// treeParams is the schema of get_accessibility_tree with maxChars up to
// page; the catalog holds the default one, which parseArgs checks against. The default stays pageBudget whatever the window: the larger page
// is for complete-thread and whole-document reads only.
func treeParams(page int) string {
	// strconv, not fmt: the catalog calls this at package init, on every
	// wake of the worker.
	sizeDesc := "size of one page of the tree (default " + strconv.Itoa(pageBudget) + ")"
	if page > pageBudget {
		sizeDesc = "size of one page of the tree (default " + strconv.Itoa(pageBudget) + "; up to " + strconv.Itoa(page) +
			" only to read a whole document or a complete thread, not for ordinary visible or interactive reads)"
	}
	return `{"type":"object","properties":{` +
		`"filter":{"type":"string","enum":["all","visible","interactive"],"description":"which elements to include (default interactive)"},` +
		`"refId":{"type":"string","description":"ref of the subtree root, e.g. ref_12; omit for the whole page"},` +
		`"maxDepth":{"type":"integer","minimum":1,"description":"deepest level to include"},` +
		`"maxChars":{"type":"integer","minimum":500,"maximum":` + strconv.Itoa(page) + `,"description":` + strconv.Quote(sizeDesc) + `},` +
		`"continuation":{"type":"string","description":"the continuation value from the previous, truncated result"}}}`
}

// pageSize returns the maxChars to send for a tree or text read: the
// default when none was asked for, else what parseArgs accepted, except
// that a tree read may ask beyond the catalog's 6,000 up to the window's
// page. raw is the call's arguments as the model sent them.
func (w ReadWindow) pageSize(name string, args map[string]any, raw string) float64 {
	page, ok := args["maxChars"].(float64)
	if !ok {
		return pageBudget
	}
	if asked, ok := askedMaxChars(raw); ok && name == protocol.ToolGetAccessibilityTree && asked > page {
		return min(math.Round(asked), float64(w.Page))
	}
	return page
}

// resultCap is the cap of a tool result: the expanded cap only for a tree
// read whose page is larger than the default.
func (w ReadWindow) resultCap(name string, page float64) int {
	if name == protocol.ToolGetAccessibilityTree && page > pageBudget {
		return w.Result
	}
	return MaxResultChars
}

// askedMaxChars reads maxChars from raw arguments, as a number or a
// numeric string.
func askedMaxChars(raw string) (float64, bool) {
	var a struct {
		MaxChars json.Number `json:"maxChars"`
	}
	if json.Unmarshal([]byte(raw), &a) != nil {
		return 0, false
	}
	f, err := a.MaxChars.Float64()
	return f, err == nil
}

// ResultLimit is the cap the agent loop applies to the result of call for
// a provider with this tier and context window: MaxResultChars, or the
// expanded cap for a larger tree page the window allows.
func ResultLimit(call llm.ToolCall, tier string, contextWindow int) int {
	asked, ok := askedMaxChars(call.Arguments)
	if call.Name != protocol.ToolGetAccessibilityTree || !ok {
		return MaxResultChars
	}
	w := WindowFor(tier, contextWindow)
	return w.resultCap(call.Name, min(asked, float64(w.Page)))
}
