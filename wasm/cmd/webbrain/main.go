//go:build js

// Command webbrain is the Go core of the extension, compiled to one
// WebAssembly module that jsglue/background.js runs in the Chrome service
// worker or the Firefox background page.
package main

import (
	"context"
	"encoding/json"

	"github.com/webbrain/webbrain/wasm/background"
	"github.com/webbrain/webbrain/wasm/jsplatform"
)

// sender is the message sender as background.js describes it.
type sender struct {
	ID    string `json:"id"`
	URL   string `json:"url"`
	TabID int    `json:"tabId"`
	Frame int    `json:"frameId"`
}

func main() {
	// Every package's init has run by now.
	jsplatform.MarkStartup("goMain")
	router := background.New(jsplatform.New())
	// Runs a stopped worker left unfinished go on without waiting for a
	// message (the keepalive alarm may be what woke it).
	go router.Resume(context.Background())
	jsplatform.HandleAlarms(func(name string) { router.Alarm(context.Background(), name) })
	jsplatform.Serve(func(ctx context.Context, msg, from json.RawMessage) any {
		var s sender
		if err := json.Unmarshal(from, &s); err != nil {
			return map[string]any{"ok": false, "error": "unreadable message sender"}
		}
		return router.Handle(ctx, msg, background.Sender{ID: s.ID, URL: s.URL, TabID: s.TabID, FrameID: s.Frame})
	})
}
