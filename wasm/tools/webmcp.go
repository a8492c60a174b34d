package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// WebMCP: the tools a page registered through Chrome's experimental
// WebMCP domain (docs/decisions/webmcp.md). The model never names a tool
// by the page's words: list_webmcp_tools gives each registration an
// opaque id (wmcp_1, …) for this run, and execute_webmcp_tool takes only
// such an id. Names, descriptions, schemas, annotations and outputs are
// the page's, so they reach the model as untrusted content.

// Bounds of the catalog the model sees.
const (
	webmcpMaxTools = 200 // registrations read (host.js keeps no more)
	webmcpPage     = 25  // entries per list_webmcp_tools result
	webmcpText     = 400 // characters of a description or schema
)

// errNoWebMCP is the answer of a browser without the domain.
var errNoWebMCP = errors.New("this browser does not expose WebMCP (its DevTools protocol has no WebMCP domain), so the page's WebMCP tools cannot be listed or run; use the page's own controls instead")

// webmcpEntry is a registration the run gave an id.
type webmcpEntry struct {
	id   string
	tool platform.WebMCPTool
}

// webmcpKey identifies a registration: its frame and its name.
func webmcpKey(t platform.WebMCPTool) string { return t.FrameID + "\n" + t.Name }

// webmcpTools reads the tab's registrations and gives new ones ids.
func (d *Dispatcher) webmcpTools(ctx context.Context) ([]*webmcpEntry, error) {
	if d.p.WebMCP == nil {
		return nil, errNoWebMCP
	}
	list, err := d.p.WebMCP.Tools(ctx, d.tabID)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if unknownMethod(err) {
			return nil, errNoWebMCP
		}
		return nil, fmt.Errorf("the browser refused WebMCP: %v", err)
	}
	if d.webmcp == nil {
		d.webmcp = map[string]*webmcpEntry{}
	}
	var out []*webmcpEntry
	for _, t := range list[:min(len(list), webmcpMaxTools)] {
		e, ok := d.webmcp[webmcpKey(t)]
		if !ok {
			e = &webmcpEntry{id: fmt.Sprintf("wmcp_%d", len(d.webmcp)+1)}
			d.webmcp[webmcpKey(t)] = e
		}
		e.tool = t
		out = append(out, e)
	}
	return out, nil
}

// listWebMCP lists one page of the catalog.
func (d *Dispatcher) listWebMCP(ctx context.Context, args map[string]any) (string, error) {
	entries, err := d.webmcpTools(ctx)
	if err != nil {
		return "", err
	}
	if len(entries) == 0 {
		return "The page has registered no WebMCP tools. Use its own controls.", nil
	}
	page := 1
	if v, ok := args["page"].(float64); ok {
		page = int(v)
	}
	from := (page - 1) * webmcpPage
	if from >= len(entries) {
		return "", fmt.Errorf("list_webmcp_tools: there are %d tools, so page %d is empty", len(entries), page)
	}
	to := min(from+webmcpPage, len(entries))
	var b strings.Builder
	for _, e := range entries[from:to] {
		t := e.tool
		fmt.Fprintf(&b, "%s: %q from %s\n", e.id, clip.Line(t.Name, 80), originLabel(t))
		if t.Description != "" {
			fmt.Fprintf(&b, "  description: %s\n", clip.Line(t.Description, webmcpText))
		}
		if len(t.InputSchema) > 0 && string(t.InputSchema) != "null" {
			fmt.Fprintf(&b, "  input schema: %s\n", clip.Line(string(t.InputSchema), webmcpText))
		}
		var hints []string
		for _, h := range []string{"readOnly", "consequential", "untrustedContent"} {
			if t.Annotations[h] {
				hints = append(hints, h)
			}
		}
		if len(hints) > 0 {
			fmt.Fprintf(&b, "  the page says: %s\n", strings.Join(hints, ", "))
		}
	}
	head := fmt.Sprintf("WebMCP tools %d–%d of %d. Call execute_webmcp_tool with an id; the user approves every call.", from+1, to, len(entries))
	if to < len(entries) {
		head += fmt.Sprintf(" For more, call list_webmcp_tools with page %d.", page+1)
	}
	return head + "\n" + d.b.PageResult(strings.TrimSuffix(b.String(), "\n"), ""), nil
}

// originLabel is a registration's frame origin as a card or list shows it.
func originLabel(t platform.WebMCPTool) string {
	if t.FrameOrigin == "" || t.FrameOrigin == "null" || t.FrameOrigin == "://" {
		return "a frame without an origin"
	}
	return t.FrameOrigin
}

// webmcpTarget finds id's registration in a fresh read of the catalog and
// checks that its frame still has the origin it had when listed and that
// the origin is a web one: a navigation or a sandboxed frame fails closed.
func (d *Dispatcher) webmcpTarget(ctx context.Context, id string) (*webmcpEntry, error) {
	var before *webmcpEntry
	for _, e := range d.webmcp {
		if e.id == id {
			c := *e
			before = &c
		}
	}
	if before == nil {
		return nil, fmt.Errorf("execute_webmcp_tool: %q is not an id list_webmcp_tools gave in this task; list the tools first", clip.Line(id, 40))
	}
	entries, err := d.webmcpTools(ctx)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.id != id {
			continue
		}
		u, err := url.Parse(e.tool.FrameOrigin)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, fmt.Errorf("execute_webmcp_tool: %s was registered by %s, not a web page's origin, so it is not run", id, originLabel(e.tool))
		}
		if e.tool.FrameOrigin != before.tool.FrameOrigin {
			return nil, fmt.Errorf("execute_webmcp_tool: the frame of %s now shows %s, not %s as when it was listed; list the tools again", id, e.tool.FrameOrigin, before.tool.FrameOrigin)
		}
		return e, nil
	}
	return nil, fmt.Errorf("execute_webmcp_tool: the page no longer offers %s; list the tools again", id)
}

// executeWebMCP runs the tool the user approved.
func (d *Dispatcher) executeWebMCP(ctx context.Context, args map[string]any) (string, error) {
	id, _ := args["toolId"].(string)
	e, err := d.webmcpTarget(ctx, id)
	if err != nil {
		return "", err
	}
	input := json.RawMessage(`{}`)
	if in, ok := args["input"]; ok && in != nil {
		if input, err = json.Marshal(in); err != nil {
			return "", err
		}
	}
	res, err := d.p.WebMCP.Invoke(ctx, d.tabID, e.tool.FrameID, e.tool.Name, input)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("execute_webmcp_tool: %v", err)
	}
	switch res.Status {
	case "Completed":
		return fmt.Sprintf("%s answered. Its output:\n%s", id, d.b.PageResult(string(res.Output), "")), nil
	case "Canceled":
		return "", fmt.Errorf("execute_webmcp_tool: %s was cancelled", id)
	}
	return "", errors.New("execute_webmcp_tool failed. The page's message:\n" + d.b.PageResult(firstText(res.ErrorText, "no message"), ""))
}

// Preflight implements guard.Preflighter: a solve without a solver key,
// or a WebMCP call that cannot reach its tool, is refused before the user
// is asked; a WebMCP call that can gets its tool and origin on the card.
func (d *Dispatcher) Preflight(ctx context.Context, name string, args map[string]any) (guard.Preflight, error) {
	var pf guard.Preflight
	if err := NotOffered(d.mode, d.tier, d.browser, name, d.features...); err != nil {
		return pf, err
	}
	switch name {
	case protocol.ToolSolveCaptcha:
		if d.captchaKey == "" {
			return pf, errNoSolver
		}
	case protocol.ToolExecuteWebMCPTool:
		id, _ := args["toolId"].(string)
		e, err := d.webmcpTarget(ctx, id)
		if err != nil {
			return pf, err
		}
		pf.Site = e.tool.FrameOrigin
		pf.Details = []guard.Detail{
			guard.NewDetail(uitext.T("bg_label_webmcp_name", "Tool (the page's name)"), clip.Line(e.tool.Name, 80)),
			guard.NewDetail(uitext.T("bg_label_registered_by", "Registered by"), e.tool.FrameOrigin),
		}
		if e.tool.Description != "" {
			pf.Details = append(pf.Details, guard.NewDetail(uitext.T("bg_label_page_describes", "The page describes it as"), clip.Line(e.tool.Description, 200)))
		}
	}
	return pf, nil
}

func firstText(s, alt string) string {
	if strings.TrimSpace(s) == "" {
		return alt
	}
	return s
}

// unknownMethod reports whether a CDP error says the method does not
// exist ("'WebMCP.enable' wasn't found", code -32601).
func unknownMethod(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "wasn't found") || strings.Contains(s, "-32601")
}
