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

// RecordingOfARun: a message ending in "/record --save-as <name>" runs
// without the suffix, and a WebM film of the tab during the run is saved
// in the downloads, the panel saying where (Chrome).
func RecordingOfARun(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return CallTool("scroll", map[string]any{"direction": "down"})
		}
		return Answer("The lanterns float at Pier 9.")
	})
	s := d.Open(t, "article.html", srv, OpenAIChat)
	s.Send("ask", "Where do the lanterns float? /record --save-as pier-film")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 || strings.Contains(reqs[0].Messages[len(reqs[0].Messages)-1].Content, "/record") {
		t.Errorf("the suffix reached the model: %+v", reqs)
	}
	WaitFor(t, s, "the recording's note", 40*time.Second, `[...document.querySelectorAll('#transcript .msg.notice')].some(n => /recording of the run/.test(n.textContent))`)
	notes := Eval[[]string](t, s, Panel, `[...document.querySelectorAll('#transcript .msg.notice')].map(n => n.textContent)`)
	if !strings.Contains(strings.Join(notes, "\n"), "Saved the recording of the run: ") {
		t.Fatalf("no saved-recording note among %q", notes)
	}
	var items []struct {
		Filename string `json:"filename"`
		State    string `json:"state"`
	}
	if err := s.Eval(Extension, extAPI+`.downloads.search({}).then(l => l.map(d => ({filename: d.filename, state: d.state})))`, &items); err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if filepath.Base(it.Filename) != "pier-film.webm" {
			continue
		}
		if filepath.Base(filepath.Dir(it.Filename)) != "WebBrain" {
			t.Errorf("saved as %s, want it in the WebBrain folder", it.Filename)
		}
		b, err := os.ReadFile(it.Filename)
		// A WebM file is an EBML document: it starts with the EBML header's id.
		if err != nil || !bytes.HasPrefix(b, []byte{0x1A, 0x45, 0xDF, 0xA3}) || !bytes.Contains(b[:min(len(b), 64)], []byte("webm")) || len(b) < 1000 {
			t.Errorf("pier-film.webm (%s): %d bytes, %v; want a WebM film", it.State, len(b), err)
		}
		return
	}
	t.Errorf("no download named pier-film.webm among %+v", items)
}

// RecordingNeedsChrome: where the browser cannot film a tab, a message
// ending in /record is not sent; the panel says why and what works.
func RecordingNeedsChrome(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn { return Answer("unused") })
	s := d.Open(t, "article.html", srv, OpenAIChat)
	s.Send("ask", "Where do the lanterns float? /record")
	WaitFor(t, s, "the refusal", 10*time.Second, `document.querySelector('#transcript').innerText.includes('needs Chrome')`)
	time.Sleep(500 * time.Millisecond)
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model was asked %d times", n)
	}
}
