//go:build js

package jsplatform

import (
	"context"
	"encoding/json"
	"testing"
)

func TestExportAnswersThroughWbGo(t *testing.T) {
	eval(`globalThis.readyCalls = 0; globalThis.wbGoReady = () => { globalThis.readyCalls++; };`)
	Export(func(_ context.Context, msg, sender json.RawMessage) any {
		var m struct{ Action string }
		var s struct{ TabID int }
		if json.Unmarshal(msg, &m) != nil || json.Unmarshal(sender, &s) != nil {
			panic("unreadable message")
		}
		return map[string]any{"ok": true, "action": m.Action, "tab": s.TabID}
	})
	if n := eval(`readyCalls`).Int(); n != 1 {
		t.Fatalf("wbGoReady called %d times; want 1", n)
	}
	reply, err := Await(context.Background(), eval(`wbGo.handle('{"action":"run_state"}', '{"tabId":7}')`))
	if err != nil {
		t.Fatal(err)
	}
	if reply.String() != `{"action":"run_state","ok":true,"tab":7}` {
		t.Fatalf("reply = %s", reply.String())
	}
	// A panicking handler rejects that one call; the program goes on.
	_, err = Await(context.Background(), eval(`wbGo.handle('not json', '{}')`))
	if err == nil || err.(*Error).Message != "panic: unreadable message" {
		t.Fatalf("err = %v; want the handler's panic", err)
	}
}
