//go:build js

package jsplatform

import (
	"context"
	"encoding/json"
	"syscall/js"

	"github.com/webbrain/webbrain/wasm/platform"
)

// tabs implements platform.Tabs over wbHost.tabs.
type tabs struct{ js js.Value }

func (t tabs) Get(ctx context.Context, tabID int) (platform.Tab, error) {
	v, err := call(ctx, t.js, "get", tabID)
	if err != nil {
		return platform.Tab{}, tabErr(err)
	}
	var tab platform.Tab
	err = json.Unmarshal(toJSON(v), &tab)
	return tab, err
}

func (t tabs) Navigate(ctx context.Context, tabID int, url string) error {
	_, err := call(ctx, t.js, "update", tabID, url)
	return tabErr(err)
}

func (t tabs) GoBack(ctx context.Context, tabID int) error {
	_, err := call(ctx, t.js, "goBack", tabID)
	return tabErr(err)
}

func (t tabs) GoForward(ctx context.Context, tabID int) error {
	_, err := call(ctx, t.js, "goForward", tabID)
	return tabErr(err)
}

// Capture implements platform.Capturer: host.js captures through the
// debugger (Chrome) or tabs.captureTab (Firefox).
func (t tabs) Capture(ctx context.Context, tabID int) (mediaType, data string, err error) {
	v, err := call(ctx, t.js, "capture", tabID)
	if err != nil {
		return "", "", tabErr(err)
	}
	return v.Get("mediaType").String(), v.Get("data").String(), nil
}

// tabErr maps host.js's "NoTab" errors to platform.ErrNoTab.
func tabErr(err error) error {
	if isName(err, "NoTab") {
		return platform.ErrNoTab
	}
	return err
}

// content implements platform.Content over wbHost.content, which injects
// the content scripts when the tab has none and retries once.
type content struct{ js js.Value }

func (c content) Send(ctx context.Context, tabID int, msg json.RawMessage) (json.RawMessage, error) {
	v, err := call(ctx, c.js, "send", tabID, fromJSON(msg))
	if err != nil {
		return nil, tabErr(err)
	}
	return toJSON(v), nil
}

// frames implements platform.Frames over wbHost.frames.
type frames struct{ js js.Value }

func (f frames) List(ctx context.Context, tabID int) ([]platform.Frame, error) {
	v, err := call(ctx, f.js, "list", tabID)
	if err != nil {
		return nil, tabErr(err)
	}
	var list []platform.Frame
	if err := json.Unmarshal(toJSON(v), &list); err != nil {
		return nil, err
	}
	return list, nil
}

func (f frames) Send(ctx context.Context, tabID, frameID int, msg json.RawMessage) (json.RawMessage, error) {
	v, err := call(ctx, f.js, "send", tabID, frameID, fromJSON(msg))
	if err != nil {
		return nil, tabErr(err)
	}
	return toJSON(v), nil
}

// windows implements platform.Windows over wbHost.windows.
type windows struct{ js js.Value }

func (w windows) OpenTab(ctx context.Context, tabID int, url string) (platform.Tab, error) {
	v, err := call(ctx, w.js, "openTab", tabID, url)
	if err != nil {
		return platform.Tab{}, tabErr(err)
	}
	var tab platform.Tab
	err = json.Unmarshal(toJSON(v), &tab)
	return tab, err
}

func (w windows) ListTabs(ctx context.Context) ([]platform.Tab, error) {
	v, err := call(ctx, w.js, "listTabs")
	if err != nil {
		return nil, err
	}
	var tabs []platform.Tab
	err = json.Unmarshal(toJSON(v), &tabs)
	return tabs, err
}

func (w windows) CloseTab(ctx context.Context, tabID int) error {
	_, err := call(ctx, w.js, "closeTab", tabID)
	return tabErr(err)
}

func (w windows) Resize(ctx context.Context, tabID, width, height int) (platform.Window, error) {
	v, err := call(ctx, w.js, "resize", tabID, width, height)
	if err != nil {
		return platform.Window{}, tabErr(err)
	}
	var win platform.Window
	err = json.Unmarshal(toJSON(v), &win)
	return win, err
}
