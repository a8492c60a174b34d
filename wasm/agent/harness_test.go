package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/platform/nativefetch"
	"github.com/webbrain/webbrain/wasm/platform/platformtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/tools"
)

// fakeTabs is one tab; a navigation completes on the next Get.
type fakeTabs struct {
	mu  sync.Mutex
	tab platform.Tab
}

func (f *fakeTabs) Get(ctx context.Context, id int) (platform.Tab, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.tab
	f.tab.Status = "complete"
	return t, nil
}

func (f *fakeTabs) Navigate(ctx context.Context, id int, url string) error {
	f.load(url)
	return nil
}

func (f *fakeTabs) load(url string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tab = platform.Tab{ID: f.tab.ID, URL: url, Title: "Page " + url, Status: "loading"}
}

func (f *fakeTabs) GoBack(ctx context.Context, id int) error    { return nil }
func (f *fakeTabs) GoForward(ctx context.Context, id int) error { return nil }

func (f *fakeTabs) url() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tab.URL
}

// fakeContent answers page tools with reply (default: "<name> done").
type fakeContent struct {
	mu    sync.Mutex
	calls []string // tool names in arrival order, each action once
	reply func(ctx context.Context, name string, args map[string]any) (string, error)
	// The page's half of receipts: its document and the replies it keeps.
	doc      string
	receipts map[string]json.RawMessage
	errors   []string // what wb_status reports the page shows as errors
	// messages are wb_status's messages with their structure; nil reports
	// none, as an older content script did.
	messages []tools.StatusMessage
	// statusURL is the page wb_status reports; "" is https://example.com/.
	statusURL string
	// fields hold what type_ax and set_field put in them, by ref, as a
	// page keeps what is typed; wb_field reads them back. A test may
	// change one, as a page script that resets a field would.
	fields map[string]string
}

func (f *fakeContent) Send(ctx context.Context, tabID int, msg json.RawMessage) (json.RawMessage, error) {
	var m struct {
		Name    string         `json:"name"`
		Args    map[string]any `json:"args"`
		Receipt *struct{ ID, Doc string }
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, err
	}
	f.mu.Lock()
	if f.doc == "" {
		f.doc = "doc-1"
	}
	if m.Name == "wb_doc" {
		defer f.mu.Unlock()
		return json.Marshal(map[string]any{"ok": true, "result": map[string]string{"doc": f.doc, "url": "https://example.com/"}})
	}
	if m.Name == "wb_field" {
		defer f.mu.Unlock()
		ref, _ := m.Args["ref"].(string)
		v, ok := f.fields[ref]
		if !ok {
			return json.RawMessage(`{"ok":false,"error":"no element with this ref"}`), nil
		}
		return json.Marshal(map[string]any{"ok": true, "result": map[string]any{"type": "text", "label": "Field " + ref, "value": v}})
	}
	if (m.Name == "type_ax" || m.Name == "set_field") && m.Args != nil {
		if f.fields == nil {
			f.fields = map[string]string{}
		}
		ref, _ := m.Args["ref"].(string)
		text, _ := m.Args["text"].(string)
		if v, ok := m.Args["value"].(string); ok {
			text = v
		}
		f.fields[ref] += text
	}
	if m.Name == "wb_status" {
		defer f.mu.Unlock()
		u := f.statusURL
		if u == "" {
			u = "https://example.com/"
		}
		return json.Marshal(map[string]any{"ok": true, "result": map[string]any{"url": u, "errors": f.errors, "notices": []string{}, "messages": f.messages}})
	}
	if m.Receipt != nil {
		if r, ok := f.receipts[m.Receipt.ID]; ok {
			f.mu.Unlock()
			return r, nil
		}
		if m.Receipt.Doc != f.doc {
			f.mu.Unlock()
			return json.RawMessage(`{"ok":false,"changed":true,"error":"the page changed"}`), nil
		}
	}
	f.calls = append(f.calls, m.Name)
	f.mu.Unlock()
	out := m.Name + " done"
	if f.reply != nil {
		var err error
		if out, err = f.reply(ctx, m.Name, m.Args); err != nil {
			return nil, err
		}
	}
	reply, err := json.Marshal(map[string]any{"ok": true, "result": out})
	if err == nil && m.Receipt != nil {
		f.mu.Lock()
		if f.receipts == nil {
			f.receipts = map[string]json.RawMessage{}
		}
		f.receipts[m.Receipt.ID] = reply
		f.mu.Unlock()
	}
	return reply, err
}

func (f *fakeContent) names() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// clarifierFunc adapts a function to Clarifier.
type clarifierFunc func(ctx context.Context, id, q string, opts []string) (string, error)

func (f clarifierFunc) Ask(ctx context.Context, id, q string, opts []string) (string, error) {
	return f(ctx, id, q, opts)
}

// harness wires Run to a scripted model server and a fake tab through
// the real provider client and the real tool dispatcher.
type harness struct {
	t       *testing.T
	srv     *llmtest.Server
	tabs    *fakeTabs
	content *fakeContent
	opts    Options

	mu     sync.Mutex
	events []Event
}

func newHarness(t *testing.T, mode, tier string, script func(n int, req llmtest.Request) llmtest.Turn) *harness {
	t.Helper()
	h := &harness{t: t, srv: llmtest.New(script), content: &fakeContent{},
		tabs: &fakeTabs{tab: platform.Tab{ID: 3, URL: "https://shop.example/item", Title: "Blue mug", Status: "complete"}}}
	t.Cleanup(h.srv.Close)
	prov, err := llm.New(llm.Config{Kind: protocol.KindOpenAIChat, BaseURL: h.srv.URL + "/v1", Model: "test-model"}, nativefetch.Fetcher{})
	if err != nil {
		t.Fatal(err)
	}
	b := tools.NewBoundary()
	h.opts = Options{
		Provider: prov, Mode: mode, Tier: tier, Browser: "chrome", MaxSteps: 30, Boundary: b,
		Page: func(ctx context.Context) (string, string) {
			tab, _ := h.tabs.Get(ctx, 3)
			return tab.URL, tab.Title
		},
		Emit: func(ev Event) {
			h.mu.Lock()
			h.events = append(h.events, ev)
			h.mu.Unlock()
		},
	}
	h.opts.Executor = h.dispatcher()
	return h
}

// dispatcher is a Dispatcher on the harness's tab and page, in its mode.
func (h *harness) dispatcher() *tools.Dispatcher {
	p := platform.Platform{Tabs: h.tabs, Content: h.content, Clock: platformtest.NewClock()}
	return tools.NewDispatcher(p, 3, h.opts.Mode, h.opts.Tier, "chrome", h.opts.Boundary)
}

func (h *harness) run(ctx context.Context, history []llm.Message, text string) (Outcome, error) {
	return Run(ctx, h.opts, history, text)
}

func (h *harness) kinds() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if e.Kind != protocol.EventTextDelta {
			out = append(out, e.Kind)
		}
	}
	return out
}

func (h *harness) eventsOf(kind string) []Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Event
	for _, e := range h.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// call builds a scripted tool call.
func call(name string, args any) llm.ToolCall {
	b, _ := json.Marshal(args)
	return llm.ToolCall{Name: name, Arguments: string(b)}
}

// checkPairs fails unless every assistant tool call has exactly one tool
// result after it and every tool result answers an earlier call.
func checkPairs(t *testing.T, conv []llm.Message) {
	t.Helper()
	open := map[string]bool{}
	for i, m := range conv {
		for _, c := range m.ToolCalls {
			open[c.ID] = true
		}
		if m.Role == llm.RoleTool {
			if !open[m.ToolCallID] {
				t.Fatalf("message %d: tool result %q without its call", i, m.ToolCallID)
			}
			delete(open, m.ToolCallID)
		}
	}
	if len(open) > 0 {
		t.Fatalf("tool calls without results: %v", open)
	}
}

func toolMessages(msgs []llm.Message) []llm.Message {
	var out []llm.Message
	for _, m := range msgs {
		if m.Role == llm.RoleTool {
			out = append(out, m)
		}
	}
	return out
}

func hasTool(req llmtest.Request, name string) bool { return slices.Contains(req.Tools, name) }

func roles(msgs []llm.Message) string {
	s := ""
	for _, m := range msgs {
		s += fmt.Sprintf("%s ", m.Role)
	}
	return s
}
