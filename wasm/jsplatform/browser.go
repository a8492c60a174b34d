//go:build js

package jsplatform

import (
	"context"
	"encoding/json"
	"fmt"
	"syscall/js"
	"time"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// debugger implements platform.Debugger over wbHost.debugger (Chrome only),
// which attaches to the tab on first use and then answers its dialogs.
type debugger struct{ js js.Value }

func (d debugger) Send(ctx context.Context, tabID int, method string, params any) (json.RawMessage, error) {
	p, err := valueOf(params)
	if err != nil {
		return nil, err
	}
	v, err := call(ctx, d.js, "sendCommand", tabID, method, p)
	if err != nil {
		return nil, tabErr(err)
	}
	return toJSON(v), nil
}

func (d debugger) Detach(ctx context.Context, tabID int) error {
	_, err := call(ctx, d.js, "detach", tabID)
	return tabErr(err)
}

func (d debugger) ArmDialogs(ctx context.Context, tabID int, leaveFrom string) error {
	_, err := call(ctx, d.js, "armDialogs", tabID, leaveFrom)
	return tabErr(err)
}

func (d debugger) Dialogs(ctx context.Context, tabID int) ([]platform.Dialog, error) {
	v, err := call(ctx, d.js, "takeDialogs", tabID)
	if err != nil {
		return nil, tabErr(err)
	}
	var out []platform.Dialog
	if err := json.Unmarshal(toJSON(v), &out); err != nil {
		return nil, fmt.Errorf("debugger: unreadable dialog record: %v", err)
	}
	return out, nil
}

// webmcp implements platform.WebMCP over wbHost.webmcp (Chrome only).
type webmcp struct{ js js.Value }

// webmcpCancelTimeout bounds the cancel sent after Stop: the run's own
// context has ended, and the command is local.
const webmcpCancelTimeout = 5 * time.Second

func (w webmcp) Tools(ctx context.Context, tabID int) ([]platform.WebMCPTool, error) {
	v, err := call(ctx, w.js, "tools", tabID)
	if err != nil {
		return nil, tabErr(err)
	}
	var out []platform.WebMCPTool
	if err := json.Unmarshal(toJSON(v), &out); err != nil {
		return nil, fmt.Errorf("webmcp: unreadable tool list: %v", err)
	}
	return out, nil
}

func (w webmcp) Invoke(ctx context.Context, tabID int, frameID, name string, input json.RawMessage) (platform.WebMCPResult, error) {
	v, err := call(ctx, w.js, "invoke", tabID, frameID, name, fromJSON(input))
	if ctx.Err() != nil {
		// Stop: the page's tool must not go on running for nobody.
		cctx, cancel := context.WithTimeout(context.Background(), webmcpCancelTimeout)
		defer cancel()
		_, _ = call(cctx, w.js, "cancel", tabID)
		return platform.WebMCPResult{}, ctx.Err()
	}
	if err != nil {
		return platform.WebMCPResult{}, tabErr(err)
	}
	var out platform.WebMCPResult
	if err := json.Unmarshal(toJSON(v), &out); err != nil {
		return out, fmt.Errorf("webmcp: unreadable answer: %v", err)
	}
	return out, nil
}

// resolver implements platform.Resolver over wbHost.dns (Firefox only).
type resolver struct{ js js.Value }

func (r resolver) Resolve(ctx context.Context, host string) ([]string, error) {
	v, err := call(ctx, r.js, "resolve", host)
	if err != nil {
		return nil, err
	}
	var addrs []string
	if err := json.Unmarshal(toJSON(v), &addrs); err != nil {
		return nil, fmt.Errorf("dns: unreadable answer: %v", err)
	}
	return addrs, nil
}

// alarms implements platform.Alarms over wbHost.alarms.
type alarms struct{ js js.Value }

// alarmTimeout bounds the wait for the browser to register or clear an
// alarm: the interface has no context and the call is local.
const alarmTimeout = 5 * time.Second

func (a alarms) Create(name string, period time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), alarmTimeout)
	defer cancel()
	_, err := call(ctx, a.js, "create", name, period.Minutes())
	return err
}

func (a alarms) At(name string, when time.Time) error {
	ctx, cancel := context.WithTimeout(context.Background(), alarmTimeout)
	defer cancel()
	_, err := call(ctx, a.js, "at", name, float64(when.UnixMilli()))
	return err
}

func (a alarms) Clear(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), alarmTimeout)
	defer cancel()
	_, err := call(ctx, a.js, "clear", name)
	return err
}

// notifier implements platform.Notifier over wbHost.notify.
type notifier struct{ js js.Value }

func (n notifier) Notify(ctx context.Context, id string, title, message uitext.Text) error {
	_, err := call(ctx, n.js, "create", id, title.English, message.English, msgJSON(title.Msg), msgJSON(message.Msg))
	return err
}

// msgJSON is a text's key and parameters as JSON, "" when it has none.
func msgJSON(m *uitext.Msg) string {
	if m == nil {
		return ""
	}
	b, err := json.Marshal(m)
	if err != nil {
		return ""
	}
	return string(b)
}

// sound implements platform.Sound over wbHost.sound: the promise ends
// once the tone has played, and fails when it could not.
type sound struct{ js js.Value }

func (s sound) Play(ctx context.Context, tone string) error {
	_, err := call(ctx, s.js, "play", tone)
	return err
}

// recorder implements platform.Recorder over wbHost.recorder (Chrome).
type recorder struct{ js js.Value }

func (r recorder) Start(ctx context.Context, tabID int) error {
	_, err := call(ctx, r.js, "start", tabID)
	return tabErr(err)
}

func (r recorder) Stop(ctx context.Context, tabID int, filename string) (platform.Download, error) {
	v, err := call(ctx, r.js, "stop", tabID, filename)
	if err != nil {
		return platform.Download{}, tabErr(err)
	}
	return decodeDownload(v)
}

// broadcaster implements platform.Broadcaster over wbHost.broadcast, which
// swallows "no receiver" itself.
type broadcaster struct{ host js.Value }

func (b broadcaster) Broadcast(msg any) {
	v, err := valueOf(msg)
	if err != nil {
		js.Global().Get("console").Call("error", "webbrain: broadcast: "+err.Error())
		return
	}
	if _, err := invoke(b.host, "broadcast", v); err != nil {
		js.Global().Get("console").Call("error", "webbrain: broadcast: "+err.Error())
	}
}

// devCapture implements platform.DevCapture over wbHost.devCapture
// (Chrome only).
type devCapture struct{ js js.Value }

func (d devCapture) StartCapture(ctx context.Context, tabID int) error {
	_, err := call(ctx, d.js, "startCapture", tabID)
	return tabErr(err)
}

func (d devCapture) StopCapture(ctx context.Context, tabID int) error {
	_, err := call(ctx, d.js, "stopCapture", tabID)
	return tabErr(err)
}

func (d devCapture) Captured(ctx context.Context, tabID int) (platform.Captured, error) {
	var out platform.Captured
	v, err := call(ctx, d.js, "captured", tabID)
	if err != nil {
		return out, tabErr(err)
	}
	if err := json.Unmarshal(toJSON(v), &out); err != nil {
		return out, fmt.Errorf("debugger: unreadable capture: %v", err)
	}
	return out, nil
}

// styleSheets implements platform.StyleSheets over wbHost.css (Chrome's
// scripting API).
type styleSheets struct{ js js.Value }

func (s styleSheets) InsertCSS(ctx context.Context, tabID int, css string) error {
	_, err := call(ctx, s.js, "insert", tabID, css)
	return tabErr(err)
}

func (s styleSheets) RemoveCSS(ctx context.Context, tabID int, css string) error {
	_, err := call(ctx, s.js, "remove", tabID, css)
	return tabErr(err)
}
