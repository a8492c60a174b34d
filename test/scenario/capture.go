package scenario

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// ScreenshotsAroundARun: a message ending in "/screenshot --save-as
// <name>" runs without the suffix, and the tab is saved as a JPEG in the
// downloads before the run and after it, the panel saying where.
func ScreenshotsAroundARun(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return CallTool("read_page", map[string]any{})
		}
		return Answer("The lanterns float at Pier 9.")
	})
	s := d.Open(t, "article.html", srv, OpenAIChat)
	s.Send("ask", "Where do the lanterns float? /screenshot --save-as pier-check")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 || strings.Contains(reqs[0].Messages[len(reqs[0].Messages)-1].Content, "/screenshot") {
		t.Errorf("the suffix reached the model: %+v", reqs)
	}
	if got := Text(t, s, "#transcript .msg.user"); got != "Where do the lanterns float?" {
		t.Errorf("the message shows as %q, want it without the suffix", got)
	}
	WaitFor(t, s, "the after note", 15*time.Second, `[...document.querySelectorAll('#transcript .msg.notice')].some(n => n.textContent.includes('after the run'))`)
	notes := Eval[[]string](t, s, Panel, `[...document.querySelectorAll('#transcript .msg.notice')].map(n => n.textContent)`)
	for _, when := range []string{"before", "after"} {
		want := "Saved the screenshot " + when + " the run: "
		if !strings.Contains(strings.Join(notes, "\n"), want) {
			t.Errorf("no %q note among %q", want, notes)
		}
	}
	if RunStatus(t, s) != "done" {
		t.Errorf("a note after the end changed the run's status to %q", RunStatus(t, s))
	}
	var items []struct {
		Filename string `json:"filename"`
		State    string `json:"state"`
	}
	if err := s.Eval(Extension, extAPI+`.downloads.search({}).then(l => l.map(d => ({filename: d.filename, state: d.state})))`, &items); err != nil {
		t.Fatal(err)
	}
	for _, when := range []string{"before", "after"} {
		name := "pier-check-" + when + ".jpg"
		found := false
		for _, it := range items {
			if filepath.Base(it.Filename) != name {
				continue
			}
			found = true
			if filepath.Base(filepath.Dir(it.Filename)) != "WebBrain" {
				t.Errorf("%s saved as %s, want it in the WebBrain folder", name, it.Filename)
			}
			b, err := os.ReadFile(it.Filename)
			if err != nil || !bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}) || len(b) < 1000 {
				t.Errorf("%s (%s): %d bytes, %v; want a JPEG", name, it.State, len(b), err)
			}
		}
		if !found {
			t.Errorf("no download named %s among %+v", name, items)
		}
	}
}
