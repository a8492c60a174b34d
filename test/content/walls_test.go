//go:build browser

package content

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/webbrain/webbrain/wasm/tools"
)

type wallReply struct {
	OK     bool `json:"ok"`
	Result struct {
		Text   string          `json:"text"`
		Gate   *tools.PageGate `json:"pageGate"`
		Needed []string        `json:"pageTextsNeeded"`
	} `json:"result"`
	Error string `json:"error"`
}

func (p *page) wallRead(readings [][2]string) wallReply {
	p.t.Helper()
	args := map[string]any{"tool": "read_page", "args": map[string]any{}, "walls": map[string]any{"readings": readings, "shapes": map[string]int{}}}
	r := evalJS[wallReply](p, fmt.Sprintf("window.__wbRunTool('wb_read', %s)", mustJSON(p.t, args)))
	if !r.OK {
		p.t.Fatalf("wb_read: %s", r.Error)
	}
	return r
}

// The blocks of an article that offer a control are read in chunks of at
// most 600 characters, a heading starting a new one, a long inline text
// in pieces that never split a surrogate pair, at most 30 per block;
// each text is keyed as the agent keys it (tools.ReadingKey).
// With a wall reading for one chunk, what follows the block is withheld
// and the preview before it stays.
func TestWallChunksAndKeys(t *testing.T) {
	p := open(t, "/walls.html")
	r := p.wallRead(nil)
	needed := r.Result.Needed
	if r.Result.Gate != nil || len(needed) != 4+tools.MaxChunks {
		t.Fatalf("gate %+v, %d texts needed", r.Result.Gate, len(needed))
	}
	for _, s := range needed {
		if n := len(utf16.Encode([]rune(s))); n > tools.ChunkLimit {
			t.Errorf("a text of %d units: %.60q", n, s)
		}
		if k := tools.ReadingKey(s, tools.ChunkLimit); k != s {
			t.Errorf("keyed apart:\npage %q\nagent %q", s, k)
		}
	}
	if !strings.HasPrefix(needed[0], "Keep reading alpha0") || !strings.Contains(needed[0], "beta29") {
		t.Errorf("the heading and the paragraphs after it are not one chunk: %.80q", needed[0])
	}
	if needed[1] != strings.Repeat("x", 599) || !strings.HasPrefix(needed[2], "\U0001F600 gamma") {
		t.Errorf("a long text is not read in pieces: %.40q / %.40q", needed[1], needed[2])
	}
	sub := -1
	for i, s := range needed {
		if strings.HasPrefix(s, "Already a subscriber?") {
			sub = i
		}
	}
	if sub < 0 || needed[sub] != "Already a subscriber? Log in" {
		t.Errorf("a heading does not start a chunk: %q", needed)
	}
	sections := 0
	for _, s := range needed[sub+1:] {
		if strings.HasPrefix(s, "Section ") {
			sections++
		}
	}
	if sections != tools.MaxChunks || needed[len(needed)-1] != "Section 29 of the long list" {
		t.Errorf("%d section chunks, want %d", sections, tools.MaxChunks)
	}

	r = p.wallRead([][2]string{{needed[0], tools.ReadingWall}})
	if r.Result.Gate == nil || !r.Result.Gate.Blocking || r.Result.Gate.Label != "Keep reading" {
		t.Fatalf("gate %+v", r.Result.Gate)
	}
	text := r.Result.Text
	if !strings.Contains(text, "first paragraph") || !strings.Contains(text, "Keep reading") || strings.Contains(text, "second paragraph") || strings.Contains(text, "Section 3") {
		t.Errorf("withheld wrongly:\n%s", text)
	}
	// A read without the readings withholds nothing.
	if out := p.ok("read_page", map[string]any{}); !strings.Contains(out, "second paragraph") {
		t.Errorf("a plain read after a walled one:\n%s", out)
	}
}

// A wall inside a short article, in the same wrapper as the article's
// paragraphs: the preview before it stays, the wall's text and button are
// shown, and the paragraphs after it in the wrapper are withheld.
func TestShortArticleWallWithholdsWhatFollows(t *testing.T) {
	p := open(t, "/walls-short.html")
	r := p.wallRead(nil)
	var wall string
	for _, s := range r.Result.Needed {
		if strings.Contains(s, "Create a free account") {
			wall = s
		}
	}
	if wall == "" {
		t.Fatalf("the wall was not reported: %q", r.Result.Needed)
	}
	readings := [][2]string{}
	for _, s := range r.Result.Needed {
		a := tools.ReadingNoWall
		if s == wall {
			a = tools.ReadingWall
		}
		readings = append(readings, [2]string{s, a})
	}
	r = p.wallRead(readings)
	text := r.Result.Text
	if r.Result.Gate == nil || !strings.Contains(text, "SHORT-PREVIEW") || !strings.Contains(text, "Create a free account") || strings.Contains(text, "SHORT-REST") {
		t.Errorf("gate %+v, read:\n%s", r.Result.Gate, text)
	}
}

// An overlay inside an app's fixed frame that also holds the article is
// found, and once read as a wall withholds the article.
func TestOverlayInsideAnAppFrame(t *testing.T) {
	p := open(t, "/walls-app.html")
	r := p.wallRead(nil)
	if len(r.Result.Needed) != 1 || r.Result.Needed[0] != "Subscribe to read the whole story. Subscribe" {
		t.Fatalf("needed %q", r.Result.Needed)
	}
	r = p.wallRead([][2]string{{r.Result.Needed[0], tools.ReadingWall}})
	if r.Result.Gate == nil || r.Result.Gate.Kind != "overlay" || strings.Contains(r.Result.Text, "APP-ARTICLE") || !strings.Contains(r.Result.Text, "Subscribe to read") {
		t.Errorf("gate %+v, read:\n%s", r.Result.Gate, r.Result.Text)
	}
}
