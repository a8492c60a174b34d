package tools

import (
	"errors"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// The Dev column's tools join the catalog after the others, so the model
// sees them after the tier's Act tools; byName is built on first use,
// after this.
func init() { catalog = append(catalog, devCatalog...) }

// targetParams are the two ways a Dev tool names an element.
const targetParams = `"ref":{"type":"string","description":"element ref from get_accessibility_tree, e.g. ref_12"},` +
	`"selector":{"type":"string","description":"CSS selector; the first match is used"}`

// devCatalog is the spec's Dev column (docs/decisions/dev-mode.md).
var devCatalog = []tool{
	{
		name: protocol.ToolReadPageSource,
		desc: "Read the page's HTML source as the browser has it now (the live DOM serialised), or only one element's outerHTML. " +
			"A long source is cut into parts: when the result says it continues, call again with the offset it gives.",
		params: `{"type":"object","properties":{` + targetParams + `,` +
			`"maxChars":{"type":"integer","minimum":500,"maximum":6000,"description":"size of one part (default 6000)"},` +
			`"offset":{"type":"integer","minimum":0,"description":"where the part starts, from the previous result"}}}`,
		cols: colDev, runs: inDev, readOnly: true,
	},
	{
		name: protocol.ToolInspectElementStyles,
		desc: "Inspect an element's styles: its computed values (the properties you name, or a useful default set), its inline style, classes, box size and position, and the stylesheet rules that match it.",
		params: `{"type":"object","properties":{` + targetParams + `,` +
			`"properties":{"type":"array","items":{"type":"string"},"maxItems":40,"description":"CSS properties to report, e.g. [\"color\",\"display\"]"}}}`,
		cols: colDev, runs: inDev, readOnly: true,
		check: requireOne("ref", "selector"),
	},
	{
		name: protocol.ToolInjectCSS,
		desc: "Add a temporary stylesheet to the page, to test a style fix. Returns a patchId; remove_injected_css with it takes the CSS away again. The CSS is gone when the page navigates.",
		params: `{"type":"object","properties":{` +
			`"css":{"type":"string","description":"CSS rules, e.g. \".banner { display: none }\""}},"required":["css"]}`,
		cols: colDev, runs: inDev, chromeOnly: true,
		check: checkCSS,
	},
	{
		name:   protocol.ToolRemoveInjectedCSS,
		desc:   "Remove CSS that inject_css added, by the patchId it returned.",
		params: `{"type":"object","properties":{"patchId":{"type":"string"}},"required":["patchId"]}`,
		cols:   colDev, runs: inDev, chromeOnly: true,
	},
	{
		name: protocol.ToolPatchElement,
		desc: "Change one element for testing: inline style properties, classes and attributes. Returns a patchId and each value before and after; revert_patch with the patchId restores them exactly. " +
			"style and attributes map names to new values; null removes one.",
		params: `{"type":"object","properties":{` + targetParams + `,` +
			`"style":{"type":"object","additionalProperties":{"type":["string","null"]},"description":"inline style properties, e.g. {\"color\":\"red\",\"display\":null}"},` +
			`"addClass":{"type":"array","items":{"type":"string"}},` +
			`"removeClass":{"type":"array","items":{"type":"string"}},` +
			`"attributes":{"type":"object","additionalProperties":{"type":["string","null"]},"description":"attributes to set, or null to remove"}}}`,
		cols: colDev, runs: inDev, chromeOnly: true,
		check: checkPatch,
	},
	{
		name: protocol.ToolRevertPatch,
		desc: "Undo a patch_element change by its patchId, restoring the values from before it. all: true undoes every Dev change on this page (element patches and injected CSS).",
		params: `{"type":"object","properties":{` +
			`"patchId":{"type":"string"},` +
			`"all":{"type":"boolean","description":"undo every Dev change on this page"}}}`,
		cols: colDev, runs: inDev, chromeOnly: true,
		check: requireOne("patchId", "all"),
	},
	{
		name: protocol.ToolExecuteJS,
		desc: "Run JavaScript in the page (its own scripts' world) as the body of an async function, and return what it returns (JSON). " +
			"Use return to give a value; it stops after 15 seconds. WebBrain may ask the user before it runs.",
		params: `{"type":"object","properties":{` +
			`"code":{"type":"string","description":"the function body, e.g. \"return document.title\""}},"required":["code"]}`,
		cols: colDev, runs: inDev,
		check: func(args map[string]any) error {
			if s, _ := args["code"].(string); s == "" {
				return errors.New("code is empty")
			}
			return nil
		},
	},
	{
		name: protocol.ToolReadConsole,
		desc: "Read the page's console since Dev mode started watching this tab: console messages, uncaught errors and browser warnings, oldest first.",
		params: `{"type":"object","properties":{` +
			`"level":{"type":"string","enum":["all","error","warning","info","log","debug"],"description":"only this level and worse (default all)"},` +
			`"limit":{"type":"integer","minimum":1,"maximum":200,"description":"most recent entries to return (default 50)"}}}`,
		cols: colDev, runs: inDev, readOnly: true, chromeOnly: true,
	},
	{
		name: protocol.ToolInspectNetworkRequests,
		desc: "List the network requests the page made since Dev mode started watching this tab: method, URL, type, status and failures. Headers only with includeHeaders (secrets are redacted); bodies are never shown.",
		params: `{"type":"object","properties":{` +
			`"urlContains":{"type":"string","description":"only requests whose URL contains this"},` +
			`"failedOnly":{"type":"boolean","description":"only failed requests and HTTP errors"},` +
			`"includeHeaders":{"type":"boolean","description":"add request and response headers"},` +
			`"limit":{"type":"integer","minimum":1,"maximum":200,"description":"most recent requests to return (default 50)"}}}`,
		cols: colDev, runs: inDev, readOnly: true, chromeOnly: true,
	},
	{
		name: protocol.ToolInspectEventListeners,
		desc: "List the event listeners on an element (and with ancestors: true on its ancestors, the document and the window, where delegated handlers live): event type, capture, passive, once, the script and line, and the start of the handler.",
		params: `{"type":"object","properties":{` + targetParams + `,` +
			`"ancestors":{"type":"boolean","description":"also the ancestors, document and window"}}}`,
		cols: colDev, runs: inDev, readOnly: true, chromeOnly: true,
		check: requireOne("ref", "selector"),
	},
	{
		name: protocol.ToolHighlightElement,
		desc: "Outline an element on the page for the user for a few seconds, with an optional label. It does not change the element.",
		params: `{"type":"object","properties":{` + targetParams + `,` +
			`"label":{"type":"string"},` +
			`"durationMs":{"type":"integer","minimum":500,"maximum":10000,"description":"how long (default 3000)"}}}`,
		cols: colDev, runs: inDev, chromeOnly: true,
		check: requireOne("ref", "selector"),
	},
}
