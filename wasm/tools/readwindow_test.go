package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// treeMax returns the maxChars maximum get_accessibility_tree advertises.
func treeMax(t *testing.T, mode, tier string, window int) float64 {
	t.Helper()
	for _, s := range ForMode(mode, tier, "chrome", window) {
		if s.Name == "get_accessibility_tree" {
			var sc schema
			if err := json.Unmarshal(s.Parameters, &sc); err != nil {
				t.Fatal(err)
			}
			return *sc.Properties["maxChars"].Maximum
		}
	}
	t.Fatal("get_accessibility_tree not offered")
	return 0
}

func TestExpandedWindowOnlyForMidFullWithLargeContext(t *testing.T) {
	for _, c := range []struct {
		mode, tier string
		window     int
		want       float64
	}{
		{protocol.ModeAct, "mid", 65536, 12000},
		{protocol.ModeAct, "full", 200000, 12000},
		{protocol.ModeAsk, "full", 131072, 12000},
		{protocol.ModeAct, "", 131072, 12000}, // unknown tier is mid
		{protocol.ModeAct, "compact", 131072, 6000},
		{protocol.ModeAct, "mid", 65535, 6000},
		{protocol.ModeAct, "full", 0, 6000},
	} {
		if got := treeMax(t, c.mode, c.tier, c.window); got != c.want {
			t.Errorf("%s/%s/%d: maxChars up to %v, want %v", c.mode, c.tier, c.window, got, c.want)
		}
	}
	for _, s := range ForMode(protocol.ModeAct, "full", "chrome", 200000) {
		if s.Name == "read_page" && !strings.Contains(string(s.Parameters), `"maximum":6000`) {
			t.Errorf("read_page grew: %s", s.Parameters)
		}
	}
}

func TestExpandedTreeReadIsSentAndCapped(t *testing.T) {
	big := strings.Repeat("tree line\n", 2000) // 20,000 characters
	cases := []struct {
		window    int
		args      string
		wantPage  float64
		wantLimit int
	}{
		{131072, `{"filter":"all","maxChars":12000}`, 12000, 16000},
		{131072, `{"filter":"all","maxChars":"20000"}`, 12000, 16000},
		{131072, `{"filter":"interactive"}`, 6000, 8000}, // the default stays
		{0, `{"filter":"all","maxChars":12000}`, 6000, 8000},
	}
	for _, c := range cases {
		r := newRig(protocol.ModeAct, "mid")
		r.d.WithContextWindow(c.window)
		r.content.reply = func(name string, args map[string]any) (json.RawMessage, error) { return okReply(big) }
		out, err := r.run("get_accessibility_tree", c.args)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.content.msgs[0]["args"].(map[string]any)["maxChars"]; got != c.wantPage {
			t.Errorf("%d %s: maxChars sent %v, want %v", c.window, c.args, got, c.wantPage)
		}
		n := utf8.RuneCountInString(out)
		if n > c.wantLimit || n < c.wantLimit-200 || !strings.HasSuffix(out, tbClose) {
			t.Errorf("%d %s: result of %d characters, want about %d", c.window, c.args, n, c.wantLimit)
		}
		call := llm.ToolCall{Name: "get_accessibility_tree", Arguments: c.args}
		if got := ResultLimit(call, "mid", c.window); got != c.wantLimit {
			t.Errorf("%d %s: ResultLimit %d, want %d", c.window, c.args, got, c.wantLimit)
		}
	}
	// Other reads keep their page and cap whatever the window.
	r := newRig(protocol.ModeAct, "full")
	r.d.WithContextWindow(200000)
	r.content.reply = func(name string, args map[string]any) (json.RawMessage, error) { return okReply(big) }
	out, err := r.run("read_page", `{"maxChars":12000}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.content.msgs[0]["args"].(map[string]any)["maxChars"]; got != 6000.0 || utf8.RuneCountInString(out) > MaxResultChars {
		t.Errorf("read_page: maxChars %v, %d characters", got, utf8.RuneCountInString(out))
	}
	if got := ResultLimit(llm.ToolCall{Name: "read_page", Arguments: `{"maxChars":12000}`}, "full", 200000); got != MaxResultChars {
		t.Errorf("read_page ResultLimit %d", got)
	}
}
