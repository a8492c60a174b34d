//go:build browser

package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// rcpt is a message's receipt (docs/decisions/exactly-once.md).
type rcpt struct {
	ID  string `json:"id"`
	Doc string `json:"doc"`
}

// receiptReply is a reply with the page-changed flag.
type receiptReply struct {
	OK      bool            `json:"ok"`
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error"`
	Changed bool            `json:"changed"`
}

// text is the reply's result as text.
func (r receiptReply) text() string {
	var s string
	if json.Unmarshal(r.Result, &s) != nil {
		return string(r.Result)
	}
	return s
}

// send calls a tool with a receipt, as the background's message does.
func (p *page) send(name string, args any, rc rcpt) receiptReply {
	p.t.Helper()
	return evalJS[receiptReply](p, fmt.Sprintf("window.__wbRunTool(%q, %s, %s)", name, mustJSON(p.t, args), mustJSON(p.t, rc)))
}

// sendTwice sends the same message twice at once and returns both replies.
func (p *page) sendTwice(name string, args any, rc rcpt) [2]receiptReply {
	p.t.Helper()
	call := fmt.Sprintf("window.__wbRunTool(%q, %s, %s)", name, mustJSON(p.t, args), mustJSON(p.t, rc))
	return evalJS[[2]receiptReply](p, "Promise.all(["+call+", "+call+"])")
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docID is the page's document id (wb_doc).
func (p *page) docID() string {
	p.t.Helper()
	type info struct{ Doc, URL string }
	got := evalJS[struct {
		OK     bool `json:"ok"`
		Result info `json:"result"`
	}](p, `window.__wbRunTool("wb_doc", {})`)
	if !got.OK || got.Result.Doc == "" || !strings.HasSuffix(got.Result.URL, "/receipts.html") {
		p.t.Fatalf("wb_doc = %+v", got)
	}
	return got.Result.Doc
}

func sameReply(t *testing.T, what string, a, b receiptReply) {
	t.Helper()
	if a.OK != b.OK || a.Error != b.Error || a.Changed != b.Changed || !bytes.Equal(a.Result, b.Result) {
		t.Errorf("%s: reply %+v, want the first one %+v", what, b, a)
	}
}

// Each acting tool runs once per receipt: the same message again answers
// the stored reply, a concurrent duplicate awaits the first run, and a
// receipt for another document is refused without acting.
func TestReceiptRunsOnce(t *testing.T) {
	cases := []struct {
		tool   string
		setup  string // JS run before each call
		args   func(p *page) map[string]any
		effect string // the fixture's count of the tool's effect
	}{
		{"click_ax", "", func(p *page) map[string]any { return map[string]any{"ref": p.ref("#inc")} }, "click"},
		{"type_ax", "", func(p *page) map[string]any { return map[string]any{"ref": p.ref("#name"), "text": "Ada"} }, "key:A"},
		{"type_text", "document.getElementById('notes').focus()", func(p *page) map[string]any { return map[string]any{"text": "Z"} }, "key:Z"},
		{"set_field", "", func(p *page) map[string]any { return map[string]any{"ref": p.ref("#country"), "value": "Germany"} }, "change:country"},
		{"press_keys", "document.getElementById('name').focus()", func(p *page) map[string]any { return map[string]any{"keys": "q"} }, "key:q"},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			p := open(t, "/receipts.html")
			doc := p.docID()
			args := c.args(p)
			step := func() {
				if c.setup != "" {
					p.do(c.setup)
				}
			}

			step()
			first := p.send(c.tool, args, rcpt{"call-1", doc})
			if !first.OK {
				t.Fatalf("first call failed: %s", first.Error)
			}
			if n := p.count(c.effect); n != 1 {
				t.Fatalf("%s seen %d times after the first call, want 1", c.effect, n)
			}
			step()
			again := p.send(c.tool, args, rcpt{"call-1", doc})
			sameReply(t, "the same receipt again", first, again)
			if n := p.count(c.effect); n != 1 {
				t.Errorf("%s seen %d times after the repeated receipt, want 1", c.effect, n)
			}

			step()
			other := p.send(c.tool, args, rcpt{"call-2", "another-document"})
			if other.OK || !other.Changed {
				t.Errorf("receipt for another document: %+v, want changed", other)
			}
			contains(t, "changed error", other.Error, "page changed", "unknown", "Read the page")
			if n := p.count(c.effect); n != 1 {
				t.Errorf("%s seen %d times after a receipt for another document, want 1", c.effect, n)
			}

			// A new receipt runs again (the form is reset for set_field).
			p.do(`document.getElementById('country').value = ''`)
			step()
			both := p.sendTwice(c.tool, args, rcpt{"call-3", doc})
			if !both[0].OK {
				t.Fatalf("concurrent call failed: %s", both[0].Error)
			}
			sameReply(t, "the concurrent duplicate", both[0], both[1])
			if n := p.count(c.effect); n != 2 {
				t.Errorf("%s seen %d times after two concurrent sends of a new receipt, want 2", c.effect, n)
			}
		})
	}
}

// Without a receipt a message runs each time, as before receipts.
func TestNoReceiptRunsEachTime(t *testing.T) {
	p := open(t, "/receipts.html")
	ref := p.ref("#inc")
	p.ok("click_ax", map[string]any{"ref": ref})
	p.ok("click_ax", map[string]any{"ref": ref})
	if n := p.count("click"); n != 2 {
		t.Errorf("%d clicks, want 2", n)
	}
}

// A new document has a new id, so a receipt made for the old one is
// refused rather than run on a page it was not meant for.
func TestReceiptAfterReload(t *testing.T) {
	p := open(t, "/receipts.html")
	old := p.docID()
	if again := p.docID(); again != old {
		t.Fatalf("wb_doc changed within one document: %s, then %s", old, again)
	}
	if err := chromedp.Do(p.ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	p.do(suite.scripts)
	if p.docID() == old {
		t.Fatal("the reloaded document kept the old id")
	}
	r := p.send("click_ax", map[string]any{"ref": p.ref("#inc")}, rcpt{"call-1", old})
	if r.OK || !r.Changed {
		t.Fatalf("reply %+v, want changed", r)
	}
	if n := p.count("click"); n != 0 {
		t.Errorf("%d clicks, want none", n)
	}
}

// The page keeps the last 100 receipts: an older one is forgotten.
func TestReceiptsAreBounded(t *testing.T) {
	p := open(t, "/receipts.html")
	doc := p.docID()
	first := p.send("get_window_info", map[string]any{}, rcpt{"r0", doc})
	p.do(`document.title = 'Renamed'`)
	if again := p.send("get_window_info", map[string]any{}, rcpt{"r0", doc}); again.text() != first.text() {
		t.Fatalf("a kept receipt ran again: %q", again.text())
	}
	for i := 1; i <= 100; i++ {
		p.send("get_window_info", map[string]any{}, rcpt{fmt.Sprint("r", i), doc})
	}
	contains(t, "the forgotten receipt's fresh reply", p.send("get_window_info", map[string]any{}, rcpt{"r0", doc}).text(), "Title: Renamed")
	contains(t, "the newest receipt's stored reply", p.send("get_window_info", map[string]any{}, rcpt{"r100", doc}).text(), "Title: Renamed")
}

// Where crypto.randomUUID is missing (pages that are not a secure context),
// the document id comes from crypto.getRandomValues.
func TestDocIDWithoutRandomUUID(t *testing.T) {
	p := open(t, "/receipts.html")
	p.do(`delete Crypto.prototype.randomUUID`)
	if id := p.docID(); len(id) != 32 {
		t.Errorf("doc id %q, want 32 hex digits", id)
	}
}
