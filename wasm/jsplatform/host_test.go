//go:build js

package jsplatform

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/platform"
)

// The platform knows the extension's own id and origin: the router answers
// only senders that match both.
func TestSelf(t *testing.T) {
	want := platform.Extension{ID: "fakeid", Origin: "chrome-extension://fakeid", Version: "1.2.3"}
	if got := New().Self; got != want {
		t.Fatalf("Self = %+v, want %+v", got, want)
	}
}

func TestTabs(t *testing.T) {
	ctx := context.Background()
	p := New()
	tab, err := p.Tabs.Get(ctx, 5)
	want := platform.Tab{ID: 5, URL: "https://example.com/", Title: "Example", Status: "complete"}
	if err != nil || tab != want {
		t.Fatalf("Get(5) = %+v, %v; want %+v", tab, err, want)
	}
	if _, err := p.Tabs.Get(ctx, 99); !errors.Is(err, platform.ErrNoTab) {
		t.Fatalf("Get(99) err = %v; want ErrNoTab", err)
	}
	if err := p.Tabs.Navigate(ctx, 5, "https://example.org/"); err != nil {
		t.Fatal(err)
	}
	if tab, _ := p.Tabs.Get(ctx, 5); tab.URL != "https://example.org/" {
		t.Fatalf("after Navigate URL = %q", tab.URL)
	}
	if err := p.Tabs.GoBack(ctx, 99); !errors.Is(err, platform.ErrNoTab) {
		t.Fatalf("GoBack(99) err = %v; want ErrNoTab", err)
	}
	if err := p.Tabs.GoForward(ctx, 5); err != nil {
		t.Fatal(err)
	}
}

func TestContentInjectsOnceThenRetries(t *testing.T) {
	ctx := context.Background()
	p := New()
	reply, err := p.Content.Send(ctx, 5, json.RawMessage(`{"wb":"tool","name":"read_page","args":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(reply) != `{"ok":true,"result":"read_page in frame 0"}` {
		t.Fatalf("reply = %s", reply)
	}
	injected := toJSON(fake().Get("injected"))
	if string(injected) != `["content/accessibility-tree.js","content/content.js"]` {
		t.Fatalf("injected %s; want the two content scripts in order", injected)
	}
	// The scripts are there now: no second injection.
	if _, err := p.Content.Send(ctx, 5, json.RawMessage(`{"wb":"tool","name":"scroll"}`)); err != nil {
		t.Fatal(err)
	}
	if n := fake().Get("injected").Length(); n != 2 {
		t.Fatalf("injected %d files after the second send; want 2", n)
	}
	if _, err := p.Content.Send(ctx, 99, json.RawMessage(`{}`)); !errors.Is(err, platform.ErrNoTab) {
		t.Fatalf("Send to a closed tab err = %v; want ErrNoTab", err)
	}
}

func TestFramesListAndSendToOne(t *testing.T) {
	ctx := context.Background()
	p := New()
	list, err := p.Frames.List(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[1].ID != 4 || !slices.Equal(list[1].Path, []int{1, 0}) || list[1].URL != "https://pay.example/" || list[1].Width != 300 {
		t.Fatalf("frames = %+v; want the top frame and frame 4 with the ids the browser gave", list)
	}
	reply, err := p.Frames.Send(ctx, 5, 4, json.RawMessage(`{"wb":"tool","name":"get_accessibility_tree","args":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(reply) != `{"ok":true,"result":"get_accessibility_tree in frame 4"}` {
		t.Fatalf("reply = %s", reply)
	}
	if got := string(toJSON(fake().Get("injected"))); !strings.Contains(got, `"4:content/accessibility-tree.js","4:content/content.js"`) {
		t.Fatalf("injected %s; want the two scripts in frame 4", got)
	}
	if _, err := p.Frames.List(ctx, 99); !errors.Is(err, platform.ErrNoTab) {
		t.Fatalf("List of a closed tab err = %v; want ErrNoTab", err)
	}
}

func TestStorageRoundTrip(t *testing.T) {
	ctx := context.Background()
	for name, s := range map[string]platform.Storage{"local": New().Local, "session": New().Session} {
		t.Run(name, func(t *testing.T) {
			items := map[string]json.RawMessage{
				"settings":    json.RawMessage(`{"maxSteps":30,"providers":[]}`),
				"agentConv:5": json.RawMessage(`[{"role":"user","content":"hi"}]`),
			}
			if err := s.Set(ctx, items); err != nil {
				t.Fatal(err)
			}
			got, err := s.Get(ctx, "settings", "missing")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || string(got["settings"]) != `{"maxSteps":30,"providers":[]}` {
				t.Fatalf("Get(settings, missing) = %s", got)
			}
			all, _ := s.Get(ctx)
			if len(all) != 2 {
				t.Fatalf("Get() returned %d keys; want 2", len(all))
			}
			keys, err := s.Keys(ctx)
			if slices.Sort(keys); err != nil || !slices.Equal(keys, []string{"agentConv:5", "settings"}) {
				t.Fatalf("Keys() = %v, %v; want [agentConv:5 settings]", keys, err)
			}
			if err := s.Remove(ctx, "agentConv:5"); err != nil {
				t.Fatal(err)
			}
			if all, _ := s.Get(ctx); len(all) != 1 {
				t.Fatalf("after Remove %d keys left; want 1", len(all))
			}
		})
	}
}

func TestDebuggerAttachesOnce(t *testing.T) {
	ctx := context.Background()
	d := New().Debugger
	if d == nil {
		t.Fatal("Debugger is nil although chrome.debugger exists")
	}
	for range 2 {
		res, err := d.Send(ctx, 5, "Input.dispatchMouseEvent", map[string]any{"type": "mousePressed", "x": 3})
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Method string         `json:"method"`
			Params map[string]any `json:"params"`
		}
		if err := json.Unmarshal(res, &got); err != nil || got.Method != "Input.dispatchMouseEvent" || got.Params["x"] != 3.0 {
			t.Fatalf("Send result = %s (%v)", res, err)
		}
	}
	if err := d.Detach(ctx, 5); err != nil {
		t.Fatal(err)
	}
	want := [][]any{{"attach", 5.0}, {"detach", 5.0}}
	if got := calls("attach", "detach"); !reflect.DeepEqual(got, want) {
		t.Fatalf("debugger calls = %v; want %v", got, want)
	}
}

func TestAlarmsAndBroadcast(t *testing.T) {
	p := New()
	if err := p.Alarms.Create("keepalive", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := p.Alarms.Clear("keepalive"); err != nil {
		t.Fatal(err)
	}
	// No panel listens: Broadcast must neither fail nor block, and the
	// host's promise settles as success, so no rejection goes unhandled.
	p.UI.Broadcast(map[string]any{"type": "agent_update", "seq": 1})
	if _, err := Await(context.Background(), js.Global().Get("wbHost").Call("broadcast", "probe")); err != nil {
		t.Fatalf("broadcast with no receiver rejected: %v", err)
	}
	want := [][]any{
		{"alarm", "keepalive", 0.5},
		{"clearAlarm", "keepalive"},
		{"broadcast", map[string]any{"type": "agent_update", "seq": 1.0}},
		{"broadcast", "probe"},
	}
	if got := calls("alarm", "clearAlarm", "broadcast"); !reflect.DeepEqual(got, want) {
		t.Fatalf("calls = %v; want %v", got, want)
	}
	if p.Browser != "chrome" {
		t.Fatalf("Browser = %q; want chrome", p.Browser)
	}
}

// calls returns the fake's recorded calls whose name is one of names.
func calls(names ...string) [][]any {
	var all [][]any
	if err := json.Unmarshal(toJSON(fake().Get("calls")), &all); err != nil {
		panic(err)
	}
	var out [][]any
	for _, c := range all {
		for _, n := range names {
			if c[0] == n {
				out = append(out, c)
			}
		}
	}
	return out
}

// A download is waited for until it completes, one that grows past the
// limit is cancelled, and Recent lists the newest first, each marked as
// WebBrain's by the browser's byExtensionId.
func TestDownloads(t *testing.T) {
	ctx := context.Background()
	p := New()
	it, err := p.Downloads.Download(ctx, "https://example.com/report.csv", 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := platform.Download{ID: 1, URL: "https://example.com/report.csv", Filename: "/dl/file1", Mime: "text/csv", State: "complete", Bytes: 42, Total: 42, Mine: true}
	if it != want {
		t.Fatalf("Download = %+v, want %+v", it, want)
	}
	if _, err := p.Downloads.Download(ctx, "http://big.invalid/huge.bin", 1000); err == nil || !strings.Contains(err.Error(), "larger than 1000 bytes") {
		t.Fatalf("a download past the limit: err = %v", err)
	}
	if got := calls("cancelDownload"); len(got) != 1 || got[0][1] != float64(2) {
		t.Errorf("cancelled %v, want download 2 only", got)
	}
	list, err := p.Downloads.Recent(ctx, 10)
	if err != nil || len(list) != 2 || list[0].ID != 2 || list[1].ID != 1 {
		t.Fatalf("Recent = %+v, %v; want downloads 2 and 1", list, err)
	}
	if got, err := p.Downloads.Get(ctx, 1); err != nil || got.State != "complete" {
		t.Fatalf("Get(1) = %+v, %v", got, err)
	}
	if _, err := p.Downloads.Get(ctx, 9); err == nil {
		t.Fatal("Get(9) found a download that does not exist")
	}
}
