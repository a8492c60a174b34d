//go:build js

// Command webbrain is the Go core of the extension, compiled to one
// WebAssembly module that jsglue/background.js runs in the Chrome service
// worker or the Firefox background page.
package main

import (
	"context"
	"encoding/json"

	"github.com/tidwall/gjson"

	"github.com/webbrain/webbrain/wasm/background"
	"github.com/webbrain/webbrain/wasm/jsonw"
	"github.com/webbrain/webbrain/wasm/jsplatform"
)

// sender is the message sender as background.js describes it.
type sender struct {
	ID    string `json:"id"`
	URL   string `json:"url"`
	TabID int    `json:"tabId"`
	Frame int    `json:"frameId"`
}

// readSender reads the sender background.js writes without reflection
// (package jsonw); false leaves it to json.Unmarshal.
func readSender(raw []byte) (sender, bool) {
	var s sender
	ok := jsonw.Members(raw, func(key string, v gjson.Result) bool {
		var ok bool
		switch key {
		case "id":
			s.ID, ok = jsonw.String(v)
		case "url":
			s.URL, ok = jsonw.String(v)
		case "tabId":
			s.TabID, ok = jsonwInt(v)
		case "frameId":
			s.Frame, ok = jsonwInt(v)
		}
		return ok
	})
	return s, ok
}

func jsonwInt(v gjson.Result) (int, bool) {
	n, ok := jsonw.Int(v)
	return int(n), ok
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
		s, ok := readSender(from)
		if !ok && json.Unmarshal(from, &s) != nil {
			return map[string]any{"ok": false, "error": "unreadable message sender"}
		}
		return router.Handle(ctx, msg, background.Sender{ID: s.ID, URL: s.URL, TabID: s.TabID, FrameID: s.Frame})
	})
}
