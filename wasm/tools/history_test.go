package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/platform/platformtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// cdpHistory answers the CDP history commands from the fake tab's history;
// entry ids are the positions plus 100, so an index is never mistaken for
// an id.
func (f *fakeTabs) cdpHistory(method string, params map[string]any) json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch method {
	case "Page.getNavigationHistory":
		type entry struct {
			ID  int    `json:"id"`
			URL string `json:"url"`
		}
		h := struct {
			CurrentIndex int     `json:"currentIndex"`
			Entries      []entry `json:"entries"`
		}{CurrentIndex: f.pos}
		for i, u := range f.history {
			h.Entries = append(h.Entries, entry{i + 100, u})
		}
		b, _ := json.Marshal(h)
		return b
	case "Page.navigateToHistoryEntry":
		f.pos = int(params["entryId"].(float64)) - 100
		f.load(f.history[f.pos])
	}
	return json.RawMessage(`{}`)
}

// chromeRig is a Chrome dispatcher whose debugger knows the tab's history.
func chromeRig() (*rig, *fakeDebugger) {
	r := newRig(protocol.ModeAct, "full")
	dbg := &fakeDebugger{tabs: r.tabs}
	p := platform.Platform{Tabs: r.tabs, Content: r.content, Debugger: dbg, Clock: platformtest.NewClock()}
	r.d = NewDispatcher(p, 7, protocol.ModeAct, "full", "chrome", tb)
	return r, dbg
}

func (f *fakeDebugger) methods() string {
	var out []string
	for _, c := range f.calls {
		out = append(out, c.method)
	}
	return strings.Join(out, " ")
}

func TestChromeHistoryUsesCDPEntries(t *testing.T) {
	r, dbg := chromeRig()
	if _, err := r.run("navigate", `{"url":"https://shop.example/cart"}`); err != nil {
		t.Fatal(err)
	}
	out, err := r.run("go_back", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if r.tabs.tab.URL != "https://shop.example/" || !strings.Contains(out, "URL: https://shop.example/\n") {
		t.Errorf("after go_back tab %+v, result %q", r.tabs.tab, out)
	}
	if got := dbg.methods(); got != "Page.getNavigationHistory Page.navigateToHistoryEntry" {
		t.Errorf("CDP calls %q", got)
	}
	if id := dbg.calls[1].params["entryId"]; id != 100.0 {
		t.Errorf("went to entry %v, want 100 (the first page)", id)
	}
	if _, err := r.run("go_forward", `{}`); err != nil {
		t.Fatal(err)
	}
	if r.tabs.tab.URL != "https://shop.example/cart" {
		t.Errorf("after go_forward tab %+v", r.tabs.tab)
	}
}

func TestChromeHistoryEndsAreClearErrors(t *testing.T) {
	r, dbg := chromeRig()
	if _, err := r.run("go_back", `{}`); err == nil || !strings.Contains(err.Error(), "no earlier page") {
		t.Errorf("go_back at the start: err = %v", err)
	}
	if _, err := r.run("go_forward", `{}`); err == nil || !strings.Contains(err.Error(), "no later page") {
		t.Errorf("go_forward at the end: err = %v", err)
	}
	if strings.Contains(dbg.methods(), "navigateToHistoryEntry") {
		t.Errorf("navigated although there was nowhere to go: %s", dbg.methods())
	}
}

func TestHistoryFallsBackToTabsWithoutDebugger(t *testing.T) {
	r, dbg := chromeRig()
	if _, err := r.run("navigate", `{"url":"https://shop.example/cart"}`); err != nil {
		t.Fatal(err)
	}
	dbg.failAt = 1 // cannot attach, as on a chrome:// page
	if _, err := r.run("go_back", `{}`); err != nil {
		t.Fatal(err)
	}
	if r.tabs.tab.URL != "https://shop.example/" {
		t.Errorf("after go_back tab %+v", r.tabs.tab)
	}
}
