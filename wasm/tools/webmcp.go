package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// WebMCP is Chrome's experimental DevTools domain through which a page's
// registered tools are listed and invoked (spec: WebMCP.enable keeps a
// live catalog, WebMCP.invokeTool runs one). WebBrain asks the browser
// for the domain; the catalog arrives as DevTools events, which its
// debugger bridge does not collect, so both tools fail closed with the
// reason (docs/decisions/webmcp.md).

// errNoWebMCP is the answer of a browser without the domain.
var errNoWebMCP = errors.New("this browser does not expose WebMCP (its DevTools protocol has no WebMCP domain), so the page's WebMCP tools cannot be listed or run; use the page's own controls instead")

// webmcpUnavailable says why the page's WebMCP tools cannot be reached.
func (d *Dispatcher) webmcpUnavailable(ctx context.Context) error {
	if d.p.Debugger == nil {
		return errNoWebMCP
	}
	if _, err := d.p.Debugger.Send(ctx, d.tabID, "WebMCP.enable", map[string]any{}); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if unknownMethod(err) {
			return errNoWebMCP
		}
		return fmt.Errorf("the browser refused WebMCP: %v", err)
	}
	_, _ = d.p.Debugger.Send(ctx, d.tabID, "WebMCP.disable", map[string]any{})
	return errors.New("this browser has a WebMCP domain, but this version of WebBrain cannot read its tool catalog, so the page's WebMCP tools cannot be listed or run; use the page's own controls instead")
}

func (d *Dispatcher) listWebMCP(ctx context.Context) (string, error) {
	return "", d.webmcpUnavailable(ctx)
}

func (d *Dispatcher) executeWebMCP(ctx context.Context) (string, error) {
	return "", d.webmcpUnavailable(ctx)
}

// unknownMethod reports whether a CDP error says the method does not
// exist ("'WebMCP.enable' wasn't found", code -32601).
func unknownMethod(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "wasn't found") || strings.Contains(s, "-32601")
}
