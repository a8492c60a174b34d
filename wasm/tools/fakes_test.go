package tools

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/webbrain/webbrain/wasm/platform"
)

// fakeTabs is one tab whose loads take loadGets Get calls to complete.
type fakeTabs struct {
	mu       sync.Mutex
	tab      platform.Tab
	history  []string
	pos      int
	loadGets int // Get calls a load stays "loading"
	pending  int
	navs     []string
	redirect map[string]string // where a navigation to a URL ends instead
}

func newFakeTabs(url string) *fakeTabs {
	return &fakeTabs{tab: platform.Tab{ID: 7, URL: url, Title: "Start", Status: "complete"}, history: []string{url}, loadGets: 2}
}

func (f *fakeTabs) Get(ctx context.Context, tabID int) (platform.Tab, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if tabID != f.tab.ID {
		return platform.Tab{}, platform.ErrNoTab
	}
	if f.pending > 0 {
		f.pending--
		if f.pending == 0 {
			f.tab.Status = "complete"
			f.tab.Title = "Title of " + f.tab.URL
		}
	}
	return f.tab, nil
}

// load starts loading url, as a navigation or a link click would.
func (f *fakeTabs) load(url string) {
	f.tab.URL, f.tab.Status, f.pending = url, "loading", f.loadGets
	if f.loadGets == 0 {
		f.tab.Status = "complete"
	}
}

func (f *fakeTabs) Navigate(ctx context.Context, tabID int, url string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.navs = append(f.navs, url)
	if to, ok := f.redirect[url]; ok {
		url = to
	}
	f.history = append(f.history[:f.pos+1], url)
	f.pos++
	f.load(url)
	return nil
}

func (f *fakeTabs) GoBack(ctx context.Context, tabID int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pos > 0 {
		f.pos--
		f.load(f.history[f.pos])
	}
	return nil
}

func (f *fakeTabs) GoForward(ctx context.Context, tabID int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pos+1 < len(f.history) {
		f.pos++
		f.load(f.history[f.pos])
	}
	return nil
}

// fakeContent answers tool messages with reply and records them.
type fakeContent struct {
	mu    sync.Mutex
	msgs  []map[string]any
	reply func(name string, args map[string]any) (json.RawMessage, error)
}

func (f *fakeContent) Send(ctx context.Context, tabID int, msg json.RawMessage) (json.RawMessage, error) {
	var m map[string]any
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.msgs = append(f.msgs, m)
	f.mu.Unlock()
	args, _ := m["args"].(map[string]any)
	return f.reply(m["name"].(string), args)
}

func okReply(result string) (json.RawMessage, error) {
	b, _ := json.Marshal(map[string]any{"ok": true, "result": result})
	return b, nil
}
