package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/platform/platformtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func TestReadingKey(t *testing.T) {
	long := strings.Repeat("a", 599)
	for _, c := range []struct{ name, in, want string }{
		{"spaces collapse", "  You have\n\treached\u00a0your \u200b limit ", "You have reached your limit"},
		{"short stays", "Subscribe", "Subscribe"},
		{"cut at the limit", strings.Repeat("b", 700), strings.Repeat("b", 600)},
		{"a trailing space goes", long + " tail", long},
		{"half a surrogate pair goes", long + "😀 more", long},
		{"a whole pair fits", strings.Repeat("a", 598) + "😀 more", strings.Repeat("a", 598) + "😀"},
	} {
		if got := ReadingKey(c.in, ChunkLimit); got != c.want {
			t.Errorf("%s: ReadingKey = %q (%d), want %q", c.name, got, len(got), c.want)
		}
	}
}

func TestShape(t *testing.T) {
	for in, want := range map[string]string{
		"You have 3 free articles left":   "You have # free articles left",
		"You have 12 free articles left":  "You have # free articles left",
		"Offer ends in 10:59, 1 of 2":     "Offer ends in #:#, # of #",
		"No numbers here":                 "No numbers here",
		"Only ٣ Arabic-Indic digits stay": "Only ٣ Arabic-Indic digits stay",
	} {
		if got := Shape(in); got != want {
			t.Errorf("Shape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRecentReadingsAreBounded(t *testing.T) {
	r := NewReadings()
	for i := range 500 {
		r.Add(fmt.Sprintf("text %d", i), ReadingNoWall)
	}
	recent, _ := r.Recent()
	if len(recent) != RecentReadings || recent[0][0] != "text 100" || recent[len(recent)-1][0] != "text 499" {
		t.Fatalf("recent: %d, from %q to %q", len(recent), recent[0][0], recent[len(recent)-1][0])
	}
	if !r.Touch("text 3") {
		t.Fatal("a kept reading was not found")
	}
	recent, _ = r.Recent()
	if recent[len(recent)-1][0] != "text 3" {
		t.Errorf("a touched reading is not the most recent: %q", recent[len(recent)-1])
	}
	big := NewReadings()
	for i := range 200 {
		big.Add(fmt.Sprintf("%03d%s", i, strings.Repeat("x", 597)), ReadingNoWall)
	}
	recent, _ = big.Recent()
	chars := 0
	for _, x := range recent {
		chars += len(x[0])
	}
	if chars > RecentChars || len(recent) != RecentChars/600 {
		t.Errorf("recent carries %d readings, %d characters", len(recent), chars)
	}
}

func TestWallShapes(t *testing.T) {
	r := NewReadings()
	r.Add("You have 3 free articles left", ReadingWall)
	r.Add("You have 2 free articles left", ReadingWall)
	r.Add("Offer 1", ReadingWall)
	r.Add("Offer 2", ReadingNoWall) // a shape with another reading carries nothing
	_, shapes := r.Recent()
	if len(shapes) != 1 || shapes["You have # free articles left"] != 2 {
		t.Errorf("shapes = %v", shapes)
	}
}

// wallPage is a fake page for readWalled: it shows one candidate text per
// read (text(n) for the n-th read) and applies the readings as walls.mjs
// does: an exact reading, or a shape read only as a wall, which is still
// reported until two texts of it were read.
type wallPage struct {
	reads int
	text  func(n int) string
}

func (p *wallPage) reply(name string, args map[string]any) (json.RawMessage, error) {
	if name != "wb_read" {
		return okReply(name + " ok")
	}
	text := p.text(p.reads)
	p.reads++
	walls := args["walls"].(map[string]any)
	exact := map[string]string{}
	for _, r := range walls["readings"].([]any) {
		kv := r.([]any)
		exact[kv[0].(string)] = kv[1].(string)
	}
	shapes, _ := walls["shapes"].(map[string]any)
	res := wallRead{Text: "page text"}
	key := ReadingKey(text, ChunkLimit)
	a, ok := exact[key]
	n, _ := shapes[Shape(key)].(float64)
	switch {
	case ok && a == ReadingWall:
		res.Gate = &PageGate{Blocking: true, Kind: "overlay"}
	case ok:
	case n > 0:
		res.Gate = &PageGate{Blocking: true, Kind: "overlay"}
		if n < 2 {
			res.Needed = []string{key}
		}
	default:
		res.Needed = []string{key}
	}
	if res.Gate != nil {
		res.Text = "walled"
	}
	b, _ := json.Marshal(map[string]any{"ok": true, "result": res})
	return b, nil
}

type wallRig struct {
	d     *Dispatcher
	page  *wallPage
	clock *platformtest.Clock
	asked [][]string
}

func newWallRig(text func(n int) string, answer func(text string) string) *wallRig {
	w := &wallRig{page: &wallPage{text: text}, clock: platformtest.NewClock()}
	content := &fakeContent{reply: w.page.reply}
	p := platform.Platform{Tabs: newFakeTabs("https://news.example/a"), Content: content, Clock: w.clock}
	read := func(ctx context.Context, texts []string) []string {
		w.asked = append(w.asked, texts)
		out := make([]string, len(texts))
		for i, t := range texts {
			out[i] = answer(t)
		}
		return out
	}
	w.d = NewDispatcher(p, 7, protocol.ModeAsk, "mid", "chrome", tb).WithPageReader(read, NewReadings())
	return w
}

func (w *wallRig) read() (string, error) {
	return w.d.Execute(context.Background(), llm.ToolCall{ID: "c1", Name: protocol.ToolReadPage, Arguments: "{}"})
}

func TestReadWalledAppliesAWallReading(t *testing.T) {
	w := newWallRig(func(int) string { return "You have reached your limit. Subscribe." }, func(string) string { return ReadingWall })
	out, err := w.read()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "walled") || !w.d.PageGate().Blocking || w.page.reads != 2 || len(w.asked) != 1 {
		t.Fatalf("out %q, gate %+v, reads %d, asked %q", out, w.d.PageGate(), w.page.reads, w.asked)
	}
	// The next read uses the reading without asking.
	if out, err = w.read(); err != nil || !strings.Contains(out, "walled") || len(w.asked) != 1 {
		t.Fatalf("second read: %q %v, asked %q", out, err, w.asked)
	}
}

// A countdown wall stands between reads at the cost of one more reading:
// the second number is the wall at once and is read once more; from the
// third on nothing is asked.
func TestCountdownWallKeepsItsShape(t *testing.T) {
	w := newWallRig(func(n int) string { return fmt.Sprintf("Offer ends in %d seconds: subscribe", 60-n) }, func(string) string { return ReadingWall })
	for i := range 3 {
		out, err := w.read()
		if err != nil || !strings.Contains(out, "walled") || !w.d.PageGate().Blocking {
			t.Fatalf("read %d: %q %v", i, out, err)
		}
	}
	if len(w.asked) != 2 {
		t.Errorf("asked %q, want two readings of the shape", w.asked)
	}
}

// A quota that stops being a wall when its number changes reads as what
// it is once read.
func TestShapeWithAnotherReadingCarriesNothing(t *testing.T) {
	w := newWallRig(func(n int) string { return fmt.Sprintf("%d articles left", min(n, 1)*5) }, func(t string) string {
		if strings.HasPrefix(t, "0 ") {
			return ReadingWall
		}
		return ReadingNoWall
	})
	out, err := w.read()
	if err != nil {
		t.Fatal(err)
	}
	if w.d.PageGate().Blocking || strings.Contains(out, "walled") || len(w.asked) != 2 {
		t.Errorf("a no-wall text walled the page: %q, asked %q", out, w.asked)
	}
}

// A wall whose text changes on every read (not only its numbers) cannot be
// applied: the read fails rather than answer without it.
func TestWallThatKeepsChangingFailsTheRead(t *testing.T) {
	w := newWallRig(func(n int) string { return strings.Repeat("x", n+1) + " subscribe to read" }, func(string) string { return ReadingWall })
	_, err := w.read()
	if err == nil || !strings.Contains(err.Error(), "read as a wall") {
		t.Fatalf("err = %v", err)
	}
	if w.page.reads != 1+maxRereads || len(w.asked) != maxRereads {
		t.Errorf("reads %d, asked %d", w.page.reads, len(w.asked))
	}
}

// A text no model answered is no wall, so the page reads as it is, and it
// is not asked again for 30 seconds.
func TestUnansweredTextCoolsDown(t *testing.T) {
	w := newWallRig(func(int) string { return "Subscribe to read" }, func(string) string { return "" })
	out, err := w.read()
	if err != nil || strings.Contains(out, "walled") || w.d.PageGate().Blocking {
		t.Fatalf("out %q, err %v", out, err)
	}
	if _, err := w.read(); err != nil || len(w.asked) != 1 {
		t.Fatalf("asked again while cooling: %q %v", w.asked, err)
	}
	<-w.clock.After(NoAnswerCooling)
	if _, err := w.read(); err != nil || len(w.asked) != 2 {
		t.Fatalf("not asked after cooling: %q %v", w.asked, err)
	}
}
