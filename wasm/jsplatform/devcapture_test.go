//go:build js

package jsplatform

import (
	"context"
	"strings"
	"testing"
)

func fireEvent(tabID int, method string, params map[string]any) {
	fake().Call("fireDebuggerEvent", tabID, method, params)
}

// TestDevCaptureIsBoundedAndRedacted: the capture enables its domains,
// keeps console entries and requests with sensitive header values
// redacted and no bodies, and forgets everything when stopped.
func TestDevCaptureIsBoundedAndRedacted(t *testing.T) {
	ctx := context.Background()
	recorded := fake().Get("calls").Length()
	t.Cleanup(func() { fake().Get("calls").Set("length", recorded) })
	p := New()
	if p.Dev == nil || p.CSS == nil {
		t.Fatal("Chrome's host has no Dev capture or CSS bridge")
	}
	fireEvent(5, "Runtime.consoleAPICalled", map[string]any{"type": "log", "args": []any{map[string]any{"type": "string", "value": "before"}}})
	if err := p.Dev.StartCapture(ctx, 5); err != nil {
		t.Fatal(err)
	}
	var enabled []string
	for _, c := range calls("cdp") {
		if m := c[2].(string); strings.HasSuffix(m, ".enable") {
			enabled = append(enabled, m)
		}
	}
	if strings.Join(enabled, ",") != "Page.enable,Runtime.enable,Log.enable,Network.enable" {
		t.Errorf("enabled %v", enabled)
	}
	fireEvent(5, "Runtime.consoleAPICalled", map[string]any{"type": "warning", "args": []any{
		map[string]any{"type": "string", "value": "slow"}, map[string]any{"type": "number", "value": 3}},
		"stackTrace": map[string]any{"callFrames": []any{map[string]any{"url": "https://a.example/app.js", "lineNumber": 9}}}})
	fireEvent(5, "Runtime.exceptionThrown", map[string]any{"exceptionDetails": map[string]any{"text": "Uncaught", "exception": map[string]any{"description": "TypeError: x is undefined"}}})
	fireEvent(5, "Network.requestWillBeSent", map[string]any{"requestId": "r1", "type": "Fetch",
		"request": map[string]any{"method": "POST", "url": "https://a.example/api", "postData": "secret body",
			"headers": map[string]any{"Authorization": "Bearer abc", "X-Api-Key": "k1", "Cookie": "s=1", "Accept": "*/*"}}})
	fireEvent(5, "Network.responseReceived", map[string]any{"requestId": "r1", "response": map[string]any{"status": 201, "statusText": "Created",
		"mimeType": "application/json", "headers": map[string]any{"Set-Cookie": "s=2", "Content-Type": "application/json"}}})
	fireEvent(5, "Network.requestWillBeSent", map[string]any{"requestId": "r2", "type": "XHR", "request": map[string]any{"method": "GET", "url": "https://a.example/b"}})
	fireEvent(5, "Network.loadingFailed", map[string]any{"requestId": "r2", "errorText": "net::ERR_FAILED"})
	fireEvent(6, "Runtime.consoleAPICalled", map[string]any{"type": "log", "args": []any{map[string]any{"type": "string", "value": "other tab"}}})

	c, err := p.Dev.Captured(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Capturing || len(c.Console) != 2 || c.Console[0].Text != "slow 3" || c.Console[0].Level != "warning" || c.Console[0].Line != 10 ||
		c.Console[1].Level != "error" || c.Console[1].Text != "TypeError: x is undefined" {
		t.Errorf("console %+v", c.Console)
	}
	if len(c.Network) != 2 {
		t.Fatalf("network %+v", c.Network)
	}
	n := c.Network[0]
	if n.Status != 201 || n.RequestHeaders["authorization"] != "[redacted]" || n.RequestHeaders["x-api-key"] != "[redacted]" ||
		n.RequestHeaders["cookie"] != "[redacted]" || n.RequestHeaders["accept"] != "*/*" || n.ResponseHeaders["set-cookie"] != "[redacted]" {
		t.Errorf("request %+v", n)
	}
	if c.Network[1].Failed != "net::ERR_FAILED" {
		t.Errorf("failed request %+v", c.Network[1])
	}

	if err := p.Dev.StopCapture(ctx, 5); err != nil {
		t.Fatal(err)
	}
	if c, _ := p.Dev.Captured(ctx, 5); c.Capturing || len(c.Console)+len(c.Network) != 0 {
		t.Errorf("after stop: %+v", c)
	}
	var disabled int
	for _, c := range calls("cdp") {
		if strings.HasSuffix(c[2].(string), ".disable") {
			disabled++
		}
	}
	if disabled != 3 {
		t.Errorf("%d domains disabled, want 3", disabled)
	}

	const css = "/* webbrain-patch css_1 */\na{color:red}"
	if err := p.CSS.InsertCSS(ctx, 5, css); err != nil {
		t.Fatal(err)
	}
	if err := p.CSS.RemoveCSS(ctx, 5, css); err != nil {
		t.Fatal(err)
	}
	got := calls("insertCSS", "removeCSS")
	if len(got) != 2 || got[0][1].(map[string]any)["css"] != css || got[1][1].(map[string]any)["css"] != css {
		t.Errorf("scripting calls %v", got)
	}
	_ = p.Debugger.Detach(ctx, 5)
}
