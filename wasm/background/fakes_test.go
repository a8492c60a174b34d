package background

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/platform/platformtest"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// fakeClock is a platform.Clock that moves only when the test says so.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []clockWaiter
}

type clockWaiter struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.waiters = append(c.waiters, clockWaiter{at: c.now.Add(d), ch: ch})
	return ch
}

// Advance moves time on and fires the timers that are due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if !w.at.After(c.now) {
			w.ch <- c.now
		} else {
			kept = append(kept, w)
		}
	}
	c.waiters = kept
}

// Waiters counts the timers not yet fired.
func (c *fakeClock) Waiters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// broadcaster records every broadcast message as JSON.
type broadcaster struct {
	mu   sync.Mutex
	msgs []json.RawMessage
}

func (b *broadcaster) Broadcast(msg any) {
	raw, err := json.Marshal(msg)
	if err != nil {
		panic(err)
	}
	b.mu.Lock()
	b.msgs = append(b.msgs, raw)
	b.mu.Unlock()
}

// update is a decoded agent_update broadcast.
type update struct {
	Type      string `json:"type"`
	TabID     int    `json:"tabId"`
	RequestID string `json:"requestId"`
	Seq       int    `json:"seq"`
	Event     Entry  `json:"event"`
}

func (b *broadcaster) updates() []update {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]update, len(b.msgs))
	for i, m := range b.msgs {
		if err := json.Unmarshal(m, &out[i]); err != nil {
			panic(err)
		}
	}
	return out
}

// countingStorage counts writes per key over an in-memory storage.
type countingStorage struct {
	*platformtest.Storage
	mu     sync.Mutex
	writes map[string]int
}

func newCountingStorage() *countingStorage {
	return &countingStorage{Storage: platformtest.NewStorage(), writes: map[string]int{}}
}

func (s *countingStorage) Set(ctx context.Context, items map[string]json.RawMessage) error {
	s.mu.Lock()
	for k := range items {
		s.writes[k]++
	}
	s.mu.Unlock()
	return s.Storage.Set(ctx, items)
}

func (s *countingStorage) Writes(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes[key]
}

// fakeTabs is a tab that stays on one page.
type fakeTabs struct{}

func (fakeTabs) Get(_ context.Context, id int) (platform.Tab, error) {
	return platform.Tab{ID: id, URL: "https://example.com/", Title: "Example", Status: "complete"}, nil
}
func (fakeTabs) Navigate(context.Context, int, string) error { return nil }
func (fakeTabs) GoBack(context.Context, int) error           { return nil }
func (fakeTabs) GoForward(context.Context, int) error        { return nil }

// fakeContent answers every page tool with a fixed text, after calling
// onSend (set before the run starts) if there is one.
type fakeContent struct{ onSend func() }

func (c *fakeContent) Send(context.Context, int, json.RawMessage) (json.RawMessage, error) {
	if c.onSend != nil {
		c.onSend()
	}
	return json.RawMessage(`{"ok":true,"result":"page text"}`), nil
}

// alarms records the keepalive alarm's state and the one-time alarms.
type alarms struct {
	mu      sync.Mutex
	active  map[string]time.Duration
	created int
	at      map[string]time.Time
}

func (a *alarms) At(name string, when time.Time) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.at == nil {
		a.at = map[string]time.Time{}
	}
	a.at[name] = when
	return nil
}

// when returns the time of the one-time alarm name.
func (a *alarms) when(name string) (time.Time, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	t, ok := a.at[name]
	return t, ok
}

func (a *alarms) Create(name string, period time.Duration) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.active == nil {
		a.active = map[string]time.Duration{}
	}
	a.active[name] = period
	a.created++
	return nil
}

func (a *alarms) Clear(name string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.active, name)
	delete(a.at, name)
	return nil
}

func (a *alarms) state() (active map[string]time.Duration, created int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[string]time.Duration{}
	for k, v := range a.active {
		out[k] = v
	}
	return out, a.created
}

// panicTabs fails the way a bug would.
type panicTabs struct{ fakeTabs }

func (panicTabs) Get(context.Context, int) (platform.Tab, error) { panic("tab lookup bug") }

// notifier records the system notifications.
type notifier struct {
	mu    sync.Mutex
	shown []string // "title: message"
	// keys are the notifications' keys, "titleKey: messageKey" ("" for none).
	keys []string
}

func (n *notifier) Notify(_ context.Context, _ string, title, message uitext.Text) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.shown = append(n.shown, title.English+": "+message.English)
	key := func(t uitext.Text) string {
		if t.Msg == nil {
			return ""
		}
		return t.Msg.Key
	}
	n.keys = append(n.keys, key(title)+": "+key(message))
	return nil
}

func (n *notifier) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.shown...)
}

func (n *notifier) allKeys() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.keys...)
}
