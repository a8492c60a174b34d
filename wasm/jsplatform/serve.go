//go:build js

package jsplatform

import (
	"context"
	"encoding/json"
	"syscall/js"

	"github.com/webbrain/webbrain/wasm/jsonw"
)

// Handler answers one message; its reply is sent back as JSON.
type Handler func(ctx context.Context, msg, sender json.RawMessage) any

// Serve exports h and blocks forever: the Go program returning would be
// a crash to background.js.
func Serve(h Handler) {
	Export(h)
	select {}
}

// alarmHandler receives the names of the alarms the browser fires; set by
// HandleAlarms before Export.
var alarmHandler func(name string)

// HandleAlarms makes Export add wbGo.alarm(name) → Promise, which
// jsglue/background.js calls for every alarm that fires.
func HandleAlarms(f func(name string)) { alarmHandler = f }

// Export sets globalThis.wbGo.handle(msgJSON, senderJSON) →
// Promise<replyJSON> for jsglue/background.js and calls
// globalThis.wbGoReady to say that Go is ready.
func Export(h Handler) {
	// Never released: it serves for the life of the program.
	handle := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg, sender := arg(args, 0).String(), arg(args, 1).String()
		return NewPromise(func() (any, error) {
			reply, err := jsonw.Marshal(h(context.Background(), json.RawMessage(msg), json.RawMessage(sender)))
			return string(reply), err
		})
	})
	wbGo := jsObject.New()
	wbGo.Set("handle", handle)
	if alarmHandler != nil {
		wbGo.Set("alarm", js.FuncOf(func(_ js.Value, args []js.Value) any {
			name := arg(args, 0).String()
			return NewPromise(func() (any, error) {
				alarmHandler(name)
				return nil, nil
			})
		}))
	}
	js.Global().Set("wbGo", wbGo)
	if ready := js.Global().Get("wbGoReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
}

// MarkStartup records in globalThis.wbStartup when a step of the start
// ended (jsglue/background.js keeps the others), for test/bench/startup.
func MarkStartup(name string) {
	if s := js.Global().Get("wbStartup"); s.Truthy() {
		s.Set(name, js.Global().Get("performance").Call("now"))
	}
}
