//go:build js

package jsplatform

import (
	"context"
	"encoding/json"
	"syscall/js"

	"github.com/webbrain/webbrain/wasm/jsonw"
)

// storage implements platform.Storage over wbHost.local or wbHost.session.
type storage struct{ js js.Value }

func (s storage) Get(ctx context.Context, keys ...string) (map[string]json.RawMessage, error) {
	v, err := call(ctx, s.js, "get", stringArray(keys))
	if err != nil {
		return nil, err
	}
	raw := toJSON(v)
	if out, ok := jsonw.RawObject(raw); ok {
		return out, nil
	}
	out := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out, nil
}

func (s storage) Set(ctx context.Context, items map[string]json.RawMessage) error {
	v, err := valueOf(items)
	if err != nil {
		return err
	}
	_, err = call(ctx, s.js, "set", v)
	return err
}

func (s storage) Remove(ctx context.Context, keys ...string) error {
	_, err := call(ctx, s.js, "remove", stringArray(keys))
	return err
}

func (s storage) Keys(ctx context.Context) ([]string, error) {
	v, err := call(ctx, s.js, "keys")
	if err != nil {
		return nil, err
	}
	raw := toJSON(v)
	if keys, ok := jsonw.Strings(raw); ok {
		return keys, nil
	}
	var keys []string
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, err
	}
	return keys, nil
}
