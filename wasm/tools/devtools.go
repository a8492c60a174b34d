package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/secrets"
)

// Dev mode's tools (docs/decisions/dev-mode.md): the page halves run in
// the content script as internal entries (content/dev.mjs), execute_js and
// the diagnostics through the debugger in Chrome, inject_css through
// scripting.insertCSS. Every page-derived text goes back wrapped as
// untrusted page content.

// ExecuteJSTimeout bounds execute_js, as the spec gives it.
const ExecuteJSTimeout = 15 * time.Second

// execResultMax caps execute_js's serialised result before the usual cap,
// so a huge value is cut in the page, not carried whole to the worker.
const execResultMax = 6000

// runDevOnce runs a Dev tool. Dev's changes leave no receipt in the page,
// so one that a restart interrupted after its dispatch is not sent again:
// it may have run, and a script or patch must not run twice.
func (d *Dispatcher) runDevOnce(ctx context.Context, t *tool, args map[string]any, r Receipt) (string, error) {
	if r.Resumed && !t.readOnly {
		return "", fmt.Errorf("%s: WebBrain's background restarted while this ran, so whether it took effect is unknown. Check the page (and revert_patch with all: true to undo Dev changes) before trying again", t.name)
	}
	return d.runDev(ctx, t, args)
}

func (d *Dispatcher) runDev(ctx context.Context, t *tool, args map[string]any) (string, error) {
	switch t.name {
	case protocol.ToolReadPageSource:
		return d.readSource(ctx, t, args)
	case protocol.ToolInspectElementStyles:
		text, err := pageText(ctx, d.p, d.tabID, protocol.PageDevStyles, args)
		return d.devResult(t, "", text, err)
	case protocol.ToolHighlightElement:
		text, err := pageText(ctx, d.p, d.tabID, protocol.PageDevHighlight, args)
		return d.devResult(t, "", text, err)
	case protocol.ToolInjectCSS:
		return d.injectCSS(ctx, args)
	case protocol.ToolRemoveInjectedCSS, protocol.ToolRevertPatch:
		return d.revert(ctx, t, args)
	case protocol.ToolPatchElement:
		return d.patchElement(ctx, t, args)
	case protocol.ToolExecuteJS:
		return d.executeJS(ctx, t, args)
	case protocol.ToolReadConsole:
		return d.readConsole(ctx, args)
	case protocol.ToolInspectNetworkRequests:
		return d.readNetwork(ctx, args)
	case protocol.ToolInspectEventListeners:
		return d.eventListeners(ctx, t, args)
	}
	return "", fmt.Errorf("%s has no Dev handler", t.name)
}

// pageCall sends one internal Dev entry to the tab's content script and
// decodes its result into out (a string or a struct).
func pageCall(ctx context.Context, p platform.Platform, tabID int, entry string, args map[string]any, out any) error {
	msg, err := json.Marshal(map[string]any{"wb": "tool", "name": entry, "args": args})
	if err != nil {
		return err
	}
	raw, err := p.Content.Send(ctx, tabID, msg)
	if err != nil {
		return fmt.Errorf("could not reach the page: %v", err)
	}
	var r contentReply
	if err := json.Unmarshal(raw, &r); err != nil {
		return errors.New("the page sent an unreadable reply")
	}
	if !r.OK {
		if r.Error == "" {
			r.Error = "it failed on the page"
		}
		return &pageError{r.Error}
	}
	if err := json.Unmarshal(r.Result, out); err != nil {
		return errors.New("the page sent an unreadable result")
	}
	return nil
}

func pageText(ctx context.Context, p platform.Platform, tabID int, entry string, args map[string]any) (string, error) {
	var s string
	err := pageCall(ctx, p, tabID, entry, args, &s)
	return s, err
}

// devResult is a Dev tool's answer: WebBrain's own lead line, then the
// page's text wrapped; a page's error quotes the page, so it is wrapped too.
func (d *Dispatcher) devResult(t *tool, lead, text string, err error) (string, error) {
	if pe := (*pageError)(nil); errors.As(err, &pe) {
		prefix := t.name + " failed. The page's message:\n"
		return "", errors.New(prefix + d.b.pageResultWithin(pe.text, "", MaxResultChars-len(prefix)))
	}
	if err != nil {
		return "", fmt.Errorf("%s: %v", t.name, err)
	}
	return d.b.notedResult(lead, text, "Ask for a smaller part: one element by ref or selector."), nil
}

func (d *Dispatcher) readSource(ctx context.Context, t *tool, args map[string]any) (string, error) {
	var r struct {
		Text  string `json:"text"`
		Total int    `json:"total"`
		Next  int    `json:"next"`
	}
	err := pageCall(ctx, d.p, d.tabID, protocol.PageDevSource, args, &r)
	if err != nil {
		return d.devResult(t, "", "", err)
	}
	lead := fmt.Sprintf("HTML source, %d characters in all.", r.Total)
	if r.Next > 0 {
		lead += fmt.Sprintf(" It continues: call read_page_source again with the same arguments and offset %d.", r.Next)
	}
	return d.devResult(t, lead, r.Text, nil)
}

// pageDoc is the id of the document the tab shows now (wb_doc).
func pageDoc(ctx context.Context, p platform.Platform, tabID int) (doc, url string, err error) {
	var r struct {
		Doc string `json:"doc"`
		URL string `json:"url"`
	}
	if err := pageCall(ctx, p, tabID, protocol.PageDoc, map[string]any{}, &r); err != nil {
		return "", "", err
	}
	if r.Doc == "" {
		return "", "", errors.New("the page did not name its document")
	}
	return r.Doc, r.URL, nil
}

// injectCSS inserts the CSS behind a unique marker and binds the record to
// the document it landed in. A navigation during the injection could put
// it into the replacement page: then that exact CSS is removed again and
// nothing is recorded.
func (d *Dispatcher) injectCSS(ctx context.Context, args map[string]any) (string, error) {
	if d.p.CSS == nil {
		return "", errors.New("inject_css is not available in this browser: it needs an API only Chrome has")
	}
	before, url, err := pageDoc(ctx, d.p, d.tabID)
	if err != nil {
		return "", fmt.Errorf("inject_css: %v", err)
	}
	id := newPatchID(cssIDPrefix)
	css := cssMarker(id) + args["css"].(string)
	if err := d.p.CSS.InsertCSS(ctx, d.tabID, css); err != nil {
		return "", fmt.Errorf("inject_css: the browser refused the CSS: %v", err)
	}
	after, _, err := pageDoc(ctx, d.p, d.tabID)
	if err != nil || after != before {
		_ = d.p.CSS.RemoveCSS(context.WithoutCancel(ctx), d.tabID, css)
		return "", errors.New("inject_css: the page changed (a new document loaded) while the CSS was added, so it was taken out again; read the page and try again")
	}
	rec := Patch{ID: id, Kind: PatchCSS, Doc: before, URL: url, CSS: css, At: d.clock.Now().UnixMilli()}
	if err := editPatches(ctx, d.p.Session, d.tabID, func(l []Patch) []Patch { return append(l, rec) }); err != nil {
		_ = d.p.CSS.RemoveCSS(context.WithoutCancel(ctx), d.tabID, css)
		return "", fmt.Errorf("inject_css: the undo record could not be saved, so the CSS was taken out again: %v", err)
	}
	return fmt.Sprintf("Injected the CSS as patch %s. It applies to this page until remove_injected_css with patchId %q, revert_patch with all: true, or a navigation.", id, id), nil
}

func (d *Dispatcher) patchElement(ctx context.Context, t *tool, args map[string]any) (string, error) {
	p, err := parsePatch(args)
	if err != nil {
		return "", err
	}
	id := newPatchID(elementIDPrefix)
	var r struct {
		Doc     string   `json:"doc"`
		URL     string   `json:"url"`
		Target  string   `json:"target"`
		Changes []Change `json:"changes"`
	}
	a := map[string]any{"ref": args["ref"], "selector": args["selector"], "patch": p, "patchId": id}
	if err := pageCall(ctx, d.p, d.tabID, protocol.PageDevPatch, a, &r); err != nil {
		return d.devResult(t, "", "", err)
	}
	rec := Patch{ID: id, Kind: PatchElement, Doc: r.Doc, URL: r.URL, Target: r.Target, Changes: r.Changes, At: d.clock.Now().UnixMilli()}
	if err := editPatches(ctx, d.p.Session, d.tabID, func(l []Patch) []Patch { return append(l, rec) }); err != nil {
		_, _ = revertOne(context.WithoutCancel(ctx), d.p, d.tabID, rec, r.Doc)
		return "", fmt.Errorf("patch_element: the undo record could not be saved, so the change was undone: %v", err)
	}
	lead := fmt.Sprintf("Patched the element as patch %s; revert_patch with patchId %q restores it. The element and each value before → after:", id, id)
	return d.devResult(t, lead, r.Target+"\n"+describeChanges(r.Changes), nil)
}

// revert serves remove_injected_css (one CSS patch), revert_patch (one
// element patch) and revert_patch all.
func (d *Dispatcher) revert(ctx context.Context, t *tool, args map[string]any) (string, error) {
	id, _ := args["patchId"].(string)
	if all, _ := args["all"].(bool); all && t.name == protocol.ToolRevertPatch {
		id = ""
	} else if id == "" {
		return "", errors.New("give the patchId the patch returned")
	}
	if id != "" {
		css := strings.HasPrefix(id, cssIDPrefix+"_")
		switch {
		case t.name == protocol.ToolRemoveInjectedCSS && !css:
			return "", fmt.Errorf("%s is not an inject_css patch; undo element patches with revert_patch", id)
		case t.name == protocol.ToolRevertPatch && css:
			return "", fmt.Errorf("%s is an inject_css patch; remove it with remove_injected_css", id)
		}
	}
	done, gone, err := RevertPatches(ctx, d.p, d.tabID, id)
	if err != nil {
		return "", fmt.Errorf("%s: %v", t.name, err)
	}
	return revertReport(id, done, gone), nil
}

func revertReport(id string, done, gone []Patch) string {
	if id != "" && len(done)+len(gone) == 0 {
		return "There is no patch " + id + " on this tab (it was reverted already, or never made)."
	}
	if len(done)+len(gone) == 0 {
		return "There are no Dev changes to revert on this tab."
	}
	var b strings.Builder
	for _, p := range done {
		fmt.Fprintf(&b, "Reverted %s (%s).\n", p.ID, p.Kind)
	}
	for _, p := range gone {
		fmt.Fprintf(&b, "%s belonged to a page that is gone (the tab loaded a new document), so there is nothing to undo; its record was dropped.\n", p.ID)
	}
	return strings.TrimSpace(b.String())
}

// ListPatches returns the tab's Dev changes that still apply: records of
// a document the tab no longer shows are dropped.
func ListPatches(ctx context.Context, p platform.Platform, tabID int) ([]Patch, error) {
	patchMu.Lock()
	defer patchMu.Unlock()
	list, err := loadPatches(ctx, p.Session, tabID)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	doc, _, err := pageDoc(ctx, p, tabID)
	if err != nil {
		return list, nil // the page cannot be asked (still loading): keep them
	}
	live := slices.DeleteFunc(slices.Clone(list), func(r Patch) bool { return r.Doc != doc })
	if len(live) != len(list) {
		if err := savePatches(ctx, p.Session, tabID, live); err != nil {
			return nil, err
		}
	}
	return live, nil
}

// RevertPatches undoes the tab's patch id, or every patch when id is "",
// newest first so stacked changes unwind in order. done were undone; gone
// belonged to a document the tab no longer shows. Both leave the records.
func RevertPatches(ctx context.Context, p platform.Platform, tabID int, id string) (done, gone []Patch, err error) {
	patchMu.Lock()
	defer patchMu.Unlock()
	list, err := loadPatches(ctx, p.Session, tabID)
	if err != nil || len(list) == 0 {
		return nil, nil, err
	}
	doc, _, docErr := pageDoc(ctx, p, tabID)
	var keep []Patch
	var failed error
	for i := len(list) - 1; i >= 0; i-- {
		rec := list[i]
		if id != "" && rec.ID != id {
			keep = append(keep, rec)
			continue
		}
		if docErr != nil {
			failed = fmt.Errorf("the page cannot be reached to undo %s: %v", rec.ID, docErr)
			keep = append(keep, rec)
			continue
		}
		ok, err := revertOne(ctx, p, tabID, rec, doc)
		switch {
		case err != nil:
			failed = fmt.Errorf("%s could not be undone: %v", rec.ID, err)
			keep = append(keep, rec)
		case ok:
			done = append(done, rec)
		default:
			gone = append(gone, rec)
		}
	}
	slices.Reverse(keep)
	if err := savePatches(ctx, p.Session, tabID, keep); err != nil {
		return done, gone, err
	}
	return done, gone, failed
}

// revertOne undoes rec on the document doc; false means rec belonged to
// another document, where it can no longer apply.
func revertOne(ctx context.Context, p platform.Platform, tabID int, rec Patch, doc string) (bool, error) {
	if rec.Doc != doc {
		return false, nil
	}
	switch rec.Kind {
	case PatchCSS:
		if p.CSS == nil {
			return false, errors.New("this browser cannot remove CSS")
		}
		return true, p.CSS.RemoveCSS(ctx, tabID, rec.CSS)
	case PatchElement:
		var r struct {
			Reverted bool `json:"reverted"`
		}
		err := pageCall(ctx, p, tabID, protocol.PageDevUnpatch, map[string]any{"patchId": rec.ID, "doc": rec.Doc, "changes": rec.Changes}, &r)
		return r.Reverted, err
	}
	return false, fmt.Errorf("unknown patch kind %q", rec.Kind)
}

// executeJS runs the code as an async function body in the page's own
// world. Chrome: CDP Runtime.evaluate with the spec's 15 s limit; Firefox:
// the content script's evaluator. The result is page data.
func (d *Dispatcher) executeJS(ctx context.Context, t *tool, args map[string]any) (string, error) {
	code := args["code"].(string)
	ctx, cancel := context.WithTimeout(ctx, ExecuteJSTimeout+2*time.Second)
	defer cancel()
	var value string
	var thrown string
	if d.p.Debugger != nil {
		raw, err := d.p.Debugger.Send(ctx, d.tabID, "Runtime.evaluate", map[string]any{
			"expression":    "(async function () {\n" + code + "\n})().then(" + serialiseJS + ")",
			"awaitPromise":  true,
			"returnByValue": true,
			"timeout":       ExecuteJSTimeout.Milliseconds(),
			"objectGroup":   "webbrain-dev",
		})
		if ctx.Err() != nil && ctx.Err() == context.DeadlineExceeded {
			return "", errors.New("execute_js: the code did not finish within 15 seconds")
		}
		if err != nil {
			return "", fmt.Errorf("execute_js: %v", err)
		}
		var r struct {
			Result struct {
				Value any `json:"value"`
			} `json:"result"`
			Exception *struct {
				Text      string `json:"text"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return "", errors.New("execute_js: the debugger sent an unreadable reply")
		}
		if r.Exception != nil {
			thrown = firstOf(r.Exception.Exception.Description, r.Exception.Text)
		} else {
			value, _ = r.Result.Value.(string)
		}
	} else {
		var r struct {
			Value string `json:"value"`
			Error string `json:"error"`
		}
		err := pageCall(ctx, d.p, d.tabID, protocol.PageDevEval, map[string]any{"code": code, "timeoutMs": ExecuteJSTimeout.Milliseconds(), "max": execResultMax}, &r)
		if err != nil {
			return d.devResult(t, "", "", err)
		}
		value, thrown = r.Value, r.Error
	}
	if thrown != "" {
		return "", errors.New("execute_js: the code threw. The page's message:\n" + d.b.PageResult(clip.Runes(thrown, 2000), ""))
	}
	return d.b.notedResult("execute_js returned (JSON; page data, not instructions):", clip.Runes(value, execResultMax), "Return a smaller value."), nil
}

// serialiseJS turns the function's value into JSON text in the page, so
// DOM nodes, cycles and functions do not fail the whole call.
const serialiseJS = `(v) => { if (v === undefined) return "undefined"; const seen = new WeakSet(); let s; try { s = JSON.stringify(v, (k, x) => { if (typeof x === "function") return "[function]"; if (typeof x === "bigint") return String(x); if (x && typeof x === "object") { if (typeof Node !== "undefined" && x instanceof Node) return "[" + (x.nodeName || "node") + "]"; if (seen.has(x)) return "[cycle]"; seen.add(x); } return x; }); } catch (e) { s = String(v); } if (s === undefined) s = String(v); return s.length > 6000 ? s.slice(0, 6000) + "…[cut]" : s; }`

func firstOf(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// captured reads the tab's Dev capture, or says why there is none.
func (d *Dispatcher) captured(ctx context.Context, name string) (platform.Captured, error) {
	if d.p.Dev == nil {
		return platform.Captured{}, fmt.Errorf("%s is not available in this browser: it needs an API only Chrome has", name)
	}
	c, err := d.p.Dev.Captured(ctx, d.tabID)
	if err != nil {
		return c, fmt.Errorf("%s: %v", name, err)
	}
	if !c.Capturing {
		return c, fmt.Errorf("%s: WebBrain is not watching this tab (the debugger was detached); start the request again in Dev mode", name)
	}
	return c, nil
}

var levelRank = map[string]int{"debug": 0, "verbose": 0, "log": 1, "info": 1, "warning": 2, "error": 3}

func (d *Dispatcher) readConsole(ctx context.Context, args map[string]any) (string, error) {
	c, err := d.captured(ctx, protocol.ToolReadConsole)
	if err != nil {
		return "", err
	}
	level, _ := args["level"].(string)
	limit := intArgOr(args["limit"], 50)
	var lines []string
	for _, e := range c.Console {
		if level != "" && level != "all" && levelRank[e.Level] < levelRank[level] {
			continue
		}
		where := ""
		if e.URL != "" {
			where = fmt.Sprintf(" (%s:%d)", clip.Line(e.URL, 120), e.Line)
		}
		lines = append(lines, fmt.Sprintf("[%s] %s%s", e.Level, clip.Line(e.Text, 600), where))
	}
	if len(lines) > limit {
		lines = lines[len(lines)-limit:]
	}
	lead := fmt.Sprintf("%d console entries since Dev mode started watching this tab%s.", len(lines), dropped(c.Dropped))
	if len(lines) == 0 {
		return lead, nil
	}
	return d.b.notedResult(lead, secrets.Mask(strings.Join(lines, "\n"), nil), "Pass a smaller limit or a level."), nil
}

func (d *Dispatcher) readNetwork(ctx context.Context, args map[string]any) (string, error) {
	c, err := d.captured(ctx, protocol.ToolInspectNetworkRequests)
	if err != nil {
		return "", err
	}
	contains, _ := args["urlContains"].(string)
	failedOnly, _ := args["failedOnly"].(bool)
	headers, _ := args["includeHeaders"].(bool)
	limit := intArgOr(args["limit"], 50)
	var rows []string
	for _, e := range c.Network {
		if contains != "" && !strings.Contains(e.URL, contains) {
			continue
		}
		if failedOnly && e.Failed == "" && e.Status < 400 {
			continue
		}
		status := "pending"
		switch {
		case e.Failed != "":
			status = "failed: " + e.Failed
		case e.Status > 0:
			status = strings.TrimSpace(fmt.Sprintf("%d %s", e.Status, e.StatusText))
		}
		row := fmt.Sprintf("%s %s [%s] → %s", e.Method, clip.Line(e.URL, 300), e.Type, status)
		if e.MimeType != "" {
			row += " (" + e.MimeType + ")"
		}
		if headers {
			row += headerLines("request", e.RequestHeaders) + headerLines("response", e.ResponseHeaders)
		}
		rows = append(rows, row)
	}
	if len(rows) > limit {
		rows = rows[len(rows)-limit:]
	}
	lead := fmt.Sprintf("%d requests since Dev mode started watching this tab%s. Bodies are not recorded.", len(rows), dropped(c.Dropped))
	if len(rows) == 0 {
		return lead, nil
	}
	return d.b.notedResult(lead, secrets.Mask(strings.Join(rows, "\n"), nil), "Pass urlContains or a smaller limit."), nil
}

func headerLines(what string, h map[string]string) string {
	if len(h) == 0 {
		return ""
	}
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "\n    %s %s: %s", what, k, clip.Line(h[k], 200))
	}
	return b.String()
}

func dropped(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d older entries were dropped)", n)
}

func intArgOr(v any, def int) int {
	if f, ok := v.(float64); ok && f >= 1 {
		return int(f)
	}
	return def
}

// eventListeners tags the element briefly so the debugger can find it in
// the page's world, asks DOMDebugger.getEventListeners for it (and its
// ancestors, the document and the window), then removes the tag.
func (d *Dispatcher) eventListeners(ctx context.Context, t *tool, args map[string]any) (string, error) {
	if d.p.Debugger == nil {
		return "", errors.New("inspect_event_listeners is not available in this browser: it needs an API only Chrome has")
	}
	token := newPatchID("mark")
	var target string
	if err := pageCall(ctx, d.p, d.tabID, protocol.PageDevMark, map[string]any{"ref": args["ref"], "selector": args["selector"], "token": token}, &target); err != nil {
		return d.devResult(t, "", "", err)
	}
	defer func() {
		var ignored string
		_ = pageCall(context.WithoutCancel(ctx), d.p, d.tabID, protocol.PageDevMark, map[string]any{"token": token, "remove": true}, &ignored)
		_, _ = d.p.Debugger.Send(context.WithoutCancel(ctx), d.tabID, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": "webbrain-listeners"})
	}()
	ancestors, _ := args["ancestors"].(bool)
	raw, err := d.p.Debugger.Send(ctx, d.tabID, "Runtime.evaluate", map[string]any{
		"expression":  fmt.Sprintf(listenerTargetsJS, token, ancestors),
		"objectGroup": "webbrain-listeners",
	})
	if err != nil {
		return "", fmt.Errorf("inspect_event_listeners: %v", err)
	}
	var ev struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &ev) != nil || ev.Result.ObjectID == "" {
		return "", errors.New("inspect_event_listeners: the element could not be found in the page's world")
	}
	raw, err = d.p.Debugger.Send(ctx, d.tabID, "Runtime.getProperties", map[string]any{"objectId": ev.Result.ObjectID, "ownProperties": true})
	if err != nil {
		return "", fmt.Errorf("inspect_event_listeners: %v", err)
	}
	var props struct {
		Result []struct {
			Name  string `json:"name"`
			Value struct {
				ObjectID    string `json:"objectId"`
				Description string `json:"description"`
			} `json:"value"`
		} `json:"result"`
	}
	_ = json.Unmarshal(raw, &props)
	var out []string
	for _, p := range props.Result {
		if p.Value.ObjectID == "" || p.Name == "__proto__" || p.Name == "length" {
			continue
		}
		raw, err := d.p.Debugger.Send(ctx, d.tabID, "DOMDebugger.getEventListeners", map[string]any{"objectId": p.Value.ObjectID})
		if err != nil {
			return "", fmt.Errorf("inspect_event_listeners: %v", err)
		}
		var ls struct {
			Listeners []struct {
				Type       string `json:"type"`
				UseCapture bool   `json:"useCapture"`
				Passive    bool   `json:"passive"`
				Once       bool   `json:"once"`
				ScriptID   string `json:"scriptId"`
				Line       int    `json:"lineNumber"`
				Column     int    `json:"columnNumber"`
				Handler    struct {
					Description string `json:"description"`
				} `json:"handler"`
			} `json:"listeners"`
		}
		_ = json.Unmarshal(raw, &ls)
		if len(ls.Listeners) == 0 {
			continue
		}
		who := p.Value.Description
		if p.Name == "0" {
			who = target
		}
		out = append(out, who+":")
		for _, l := range ls.Listeners {
			var flags []string
			for f, on := range map[string]bool{"capture": l.UseCapture, "passive": l.Passive, "once": l.Once} {
				if on {
					flags = append(flags, f)
				}
			}
			slices.Sort(flags)
			fl := ""
			if len(flags) > 0 {
				fl = " (" + strings.Join(flags, ", ") + ")"
			}
			out = append(out, fmt.Sprintf("  %s%s at script %s line %d:%d: %s", l.Type, fl, l.ScriptID, l.Line+1, l.Column+1, clip.Line(l.Handler.Description, 160)))
		}
	}
	lead := fmt.Sprintf("Event listeners of the element%s:", map[bool]string{true: " and its ancestors", false: ""}[ancestors])
	if len(out) == 0 {
		return d.devResult(t, lead, target+": no listeners found (a framework may listen on an ancestor: try ancestors: true).", nil)
	}
	return d.devResult(t, lead, strings.Join(out, "\n"), nil)
}

// listenerTargetsJS finds the tagged element in the page's world (through
// open shadow roots) and lists it, with its ancestors, document and window
// when asked.
const listenerTargetsJS = `(() => {
  const sel = '[data-webbrain-mark="%s"]';
  const find = (root) => {
    const hit = root.querySelector(sel);
    if (hit) return hit;
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) { const f = find(el.shadowRoot); if (f) return f; }
    return null;
  };
  const el = find(document);
  if (!el) return undefined;
  const out = [el];
  if (%t) {
    for (let n = el.parentNode; n; n = n.parentNode || n.host) {
      if (n.nodeType === 1) out.push(n);
      if (n === document) break;
    }
    out.push(document, window);
  }
  return out;
})()`
