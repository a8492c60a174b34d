//go:build js

// Package jsplatform implements the interfaces of package platform over the
// globalThis.wbHost object that jsglue/host.js builds from the browser's
// extension APIs. It is the only package that imports syscall/js: values
// cross the boundary as JSON text (JSON.stringify / JSON.parse) or, for
// fetch bodies, as byte arrays.
package jsplatform

import (
	"context"
	"errors"
	"syscall/js"
)

// The constructors and namespaces the bridge uses on every call, looked up
// once: each lookup makes a new js.Value, and every js.Value carries a
// finalizer the runtime must register and later run.
var (
	jsPromise    = js.Global().Get("Promise")
	jsErrorClass = js.Global().Get("Error")
	jsJSON       = js.Global().Get("JSON")
	jsObject     = js.Global().Get("Object")
)

// Error is a JavaScript exception or promise rejection seen from Go.
type Error struct {
	Name    string // the JS error's name, e.g. "TypeError" or "AbortError"
	Message string
}

func (e *Error) Error() string {
	if e.Name == "" || e.Name == "Error" {
		return "jsplatform: " + e.Message
	}
	return "jsplatform: " + e.Name + ": " + e.Message
}

// jsError converts a rejection reason (usually an Error object) to *Error.
func jsError(v js.Value) *Error {
	if v.Type() == js.TypeObject && v.Get("message").Type() == js.TypeString {
		return &Error{Name: v.Get("name").String(), Message: v.Get("message").String()}
	}
	return &Error{Message: js.Global().Call("String", v).String()}
}

// Await waits until p settles or ctx ends. p may also be a plain value,
// which counts as already resolved. A rejection becomes an *Error.
// It must not run on the goroutine of a js.Func callback: the promise can
// only settle once that callback has returned to the event loop.
func Await(ctx context.Context, p js.Value) (js.Value, error) {
	type settled struct {
		v   js.Value
		err error
	}
	done := make(chan settled, 1)
	var onResolve, onReject js.Func
	// Both are released by whichever runs, even after ctx ended: a promise
	// that never settles keeps two small functions, nothing more.
	release := func() {
		onResolve.Release()
		onReject.Release()
	}
	onResolve = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		done <- settled{v: arg(args, 0)}
		return nil
	})
	onReject = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		done <- settled{err: jsError(arg(args, 0))}
		return nil
	})
	jsPromise.Call("resolve", p).Call("then", onResolve, onReject)
	select {
	case s := <-done:
		return s.v, s.err
	case <-ctx.Done():
		return js.Undefined(), ctx.Err()
	}
}

// NewPromise returns a JS promise settled by fn, which runs on its own
// goroutine (so it may Await). An error or a panic rejects the promise.
func NewPromise(fn func() (any, error)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			defer func() {
				if r := recover(); r != nil {
					reject.Invoke(newJSError(panicMessage(r)))
				}
			}()
			v, err := fn()
			if err != nil {
				reject.Invoke(newJSError(err.Error()))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	defer executor.Release() // the Promise constructor calls it synchronously
	return jsPromise.New(executor)
}

func newJSError(msg string) js.Value {
	return jsErrorClass.New(msg)
}

func panicMessage(r any) string {
	if err, ok := r.(error); ok {
		return "panic: " + err.Error()
	}
	if s, ok := r.(string); ok {
		return "panic: " + s
	}
	return "panic in the Go core"
}

func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// isName reports whether err is an *Error with the given JS name.
func isName(err error, name string) bool {
	var e *Error
	return errors.As(err, &e) && e.Name == name
}
