//go:build js

package jsplatform

import (
	"context"
	"encoding/json"
	"errors"
	"syscall/js"

	"github.com/webbrain/webbrain/wasm/platform"
)

// New builds a platform.Platform over globalThis.wbHost (jsglue/host.js).
// Debugger is nil where the browser has none (Firefox), Resolve where it
// gives extensions no DNS API (Chrome).
func New() platform.Platform {
	host := js.Global().Get("wbHost")
	p := platform.Platform{
		Tabs:    tabs{host.Get("tabs")},
		Capture: tabs{host.Get("tabs")},
		Content: content{host.Get("content")},
		Frames:  frames{host.Get("frames")},
		Local:   storage{host.Get("local")},
		Session: storage{host.Get("session")},
		Fetch:   &Fetcher{host: host.Get("fetch")},
		Alarms:  alarms{host.Get("alarms")},
		Clock:   platform.RealClock{},
		UI:      broadcaster{host},
		Browser: host.Get("browser").String(),
		Self: platform.Extension{
			ID:     host.Get("self").Get("id").String(),
			Origin: host.Get("self").Get("origin").String(),
		},
	}
	if v := host.Get("self").Get("version"); v.Truthy() {
		p.Self.Version = v.String()
	}
	if d := host.Get("debugger"); d.Truthy() {
		p.Debugger = debugger{d}
	}
	if d := host.Get("downloads"); d.Truthy() {
		p.Downloads = downloads{d}
	}
	if d := host.Get("pdf"); d.Truthy() {
		p.PDF = pdf{d}
	}
	if w := host.Get("webmcp"); w.Truthy() {
		p.WebMCP = webmcp{w}
	}
	if w := host.Get("windows"); w.Truthy() {
		p.Windows = windows{w}
	}
	if d := host.Get("devCapture"); d.Truthy() {
		p.Dev = devCapture{d}
	}
	if c := host.Get("css"); c.Truthy() {
		p.CSS = styleSheets{c}
	}
	if n := host.Get("notify"); n.Truthy() {
		p.Notify = notifier{n}
	}
	if snd := host.Get("sound"); snd.Truthy() {
		p.Sound = sound{snd}
	}
	if rec := host.Get("recorder"); rec.Truthy() {
		p.Record = recorder{rec}
	}
	if d := host.Get("dns"); d.Truthy() {
		p.Resolve = resolver{d}
	}
	if t := host.Get("traces"); t.Truthy() {
		p.Traces = tracer{t}
	}
	return p
}

// call invokes obj[method](args...) and awaits the promise it returns.
// A synchronous throw is returned as an error like a rejection.
func call(ctx context.Context, obj js.Value, method string, args ...any) (v js.Value, err error) {
	p, err := invoke(obj, method, args...)
	if err != nil {
		return js.Undefined(), err
	}
	return Await(ctx, p)
}

func invoke(obj js.Value, method string, args ...any) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			var jsErr js.Error
			if e, ok := r.(error); ok && errors.As(e, &jsErr) {
				err = jsError(jsErr.Value)
				return
			}
			panic(r)
		}
	}()
	return obj.Call(method, args...), nil
}

// tracer is wbHost.traces: put(json) stores a run's trace in IndexedDB.
type tracer struct{ obj js.Value }

func (t tracer) Put(ctx context.Context, run json.RawMessage) error {
	_, err := call(ctx, t.obj, "put", string(run))
	return err
}
