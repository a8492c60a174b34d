//go:build js

package jsplatform

import (
	"encoding/json"
	"syscall/js"

	"github.com/webbrain/webbrain/wasm/jsonw"
)

// fromJSON turns JSON text into a JS value.
func fromJSON(b []byte) js.Value {
	return jsJSON.Call("parse", string(b))
}

// toJSON turns a JS value into JSON text; undefined becomes null.
func toJSON(v js.Value) json.RawMessage {
	if v.IsUndefined() {
		return json.RawMessage("null")
	}
	return json.RawMessage(jsJSON.Call("stringify", v).String())
}

// valueOf marshals v in Go and parses it in JS: the boundary speaks JSON.
func valueOf(v any) (js.Value, error) {
	b, err := jsonw.Marshal(v)
	if err != nil {
		return js.Undefined(), err
	}
	return fromJSON(b), nil
}

// stringArray builds a JS array of strings.
func stringArray(ss []string) js.Value {
	a := make([]any, len(ss))
	for i, s := range ss {
		a[i] = s
	}
	return js.ValueOf(a)
}
