//go:build e2e

package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// notesHost is the public name of the notes service a user skill calls;
// the browser maps it to notesAPI's loopback server (harness_test.go), so
// the extension's egress rules see the public host a real skill has.
const notesHost = "api.notes.example"

// notesAPI is the notes service: it answers a search and a save, and
// records every request it gets.
type notesAPI struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []string // "METHOD /path?query body"
}

func newNotesAPI() *notesAPI {
	n := &notesAPI{}
	n.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		n.mu.Lock()
		n.reqs = append(n.reqs, strings.TrimSpace(r.Method+" "+r.URL.RequestURI()+" "+string(body)))
		n.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == "GET" && r.URL.Path == "/v1/search":
			fmt.Fprintf(w, `{"query": %q, "notes": ["Lisbon: book the tram 28 tour for Friday (NOTE-7781)"]}`, r.URL.Query().Get("q"))
		case r.Method == "POST" && r.URL.Path == "/v1/notes":
			fmt.Fprint(w, `{"saved": true, "id": "n-1"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	return n
}

// since returns the requests after the first n.
func (n *notesAPI) since(from int) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.reqs[from:]...)
}

func (n *notesAPI) count() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.reqs)
}

// notesSkillMD is the user's skill: a plain read (GET) and a write (POST).
const notesSkillMD = "# Notes\n\nRead and keep the user's notes on their notes service.\n\n```webbrain-tools\n" + `{"tools": [
 {"name": "find_notes", "kind": "http", "readOnly": true, "method": "GET", "endpoint": "https://api.notes.example/v1/search",
  "description": "Search the user's notes.", "resultPolicy": "untrusted",
  "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
 {"name": "save_note", "kind": "http", "method": "POST", "endpoint": "https://api.notes.example/v1/notes",
  "description": "Save a new note.",
  "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}
]}` + "\n```\n"

// importNotesSkill imports notes.md through Settings → Skills' file
// picker and saves it, as a person would.
func importNotesSkill(t *testing.T) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(file, []byte(notesSkillMD), 0o600); err != nil {
		t.Fatal(err)
	}
	settings, cancel := chromedp.NewContext(env.browser)
	defer cancel()
	url := fmt.Sprintf("chrome-extension://%s/settings/settings.html", env.extID)
	if err := chromedp.Do(settings,
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.ID("skill-import")),
		chromedp.SetUploadFiles(chromedp.ID("skill-file"), []string{file}),
	); err != nil {
		t.Fatalf("import the skill in Settings: %v", err)
	}
	if _, err := chromedp.Run(settings, chromedp.Poll[bool](`document.querySelector('#skill-id').value === 'notes' && document.querySelector('#skill-md').value.includes('find_notes')`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the imported file did not fill the form: %v", err)
	}
	if err := chromedp.Do(settings, chromedp.Click(chromedp.ID("skill-save"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(settings, chromedp.Poll[bool](`!!document.querySelector('#skills-list li[data-id="notes"]')`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the saved skill is not listed: %v", err)
	}
	shown, err := chromedp.Run(settings, chromedp.Text(chromedp.CSS(`#skills-list li[data-id="notes"]`)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(shown, "Not offered") {
		t.Fatalf("the imported skill is not offered: %s", shown)
	}
	t.Cleanup(func() {
		evalIn[bool](t, env.worker, `chrome.storage.local.set({customSkills: []}).then(() => true)`, chromedp.EvalAwaitPromise)
	})
}

// TestUserSkillToolReachesItsService: a skill imported in Settings is
// loaded because the user asked; its read-only tool is then offered, the
// browser sends the GET to the skill's host, and the answer reaches the
// model as untrusted data. Its POST waits for the approval card and is
// sent once the user approves.
func TestUserSkillToolReachesItsService(t *testing.T) {
	importNotesSkill(t)
	from := env.notes.count()
	var results []string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n > 0 {
			results = append(results, lastToolResult(req))
		}
		switch n {
		case 0:
			return callTool("load_skill", map[string]any{"skill_id": "notes"})
		case 1:
			return callTool("find_notes", map[string]any{"q": "Lisbon"})
		case 2:
			return callTool("save_note", map[string]any{"text": "Lisbon: tram tour booked"})
		}
		return answer("Your Lisbon note: book the tram 28 tour for Friday. I saved that it is booked.")
	})
	s := openSession(t, "page1.html", srv, openAIChat)
	s.send("act", "Check my notes about Lisbon and note that the tram tour is booked.")
	scenario.WaitFor(t, s, "the approval card for save_note", 30*time.Second, `!!document.querySelector('.approval-card.pending button[data-decision="approve"]')`)
	if got := s.text(".approval-card .approval-details"); !strings.Contains(got, notesHost) {
		t.Errorf("the card does not show the skill's host: %q", got)
	}
	if reqs := env.notes.since(from); len(reqs) != 1 {
		t.Fatalf("before approval the service got %q, want only the search", reqs)
	}
	if err := chromedp.Do(s.panel, chromedp.Click(chromedp.CSS(`.approval-card.pending button[data-decision="approve"]`))); err != nil {
		t.Fatal(err)
	}
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	if len(results) != 3 {
		t.Fatalf("results %q", results)
	}
	if !strings.Contains(results[0], "find_notes, save_note") {
		t.Errorf("load_skill result: %s", results[0])
	}
	if r := results[1]; !strings.Contains(r, "NOTE-7781") || !strings.Contains(r, "<untrusted_page_content_") || !strings.Contains(r, "GET https://"+notesHost+"/v1/search?q=Lisbon answered HTTP 200") {
		t.Errorf("find_notes result: %s", r)
	}
	if r := results[2]; !strings.Contains(r, `"saved": true`) {
		t.Errorf("save_note result: %s", r)
	}
	want := []string{"GET /v1/search?q=Lisbon", `POST /v1/notes {"text":"Lisbon: tram tour booked"}`}
	if got := env.notes.since(from); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the service got %q, want %q", got, want)
	}
}

// TestPageCannotMakeASkillSend: a page tells the model to load the skill
// and send its text; the scripted model obeys. The load itself is the
// model's choice (docs/skills.md), but nothing leaves: the write and the
// read carrying the page's text both wait for the user, who declines, and
// the service gets no request.
func TestPageCannotMakeASkillSend(t *testing.T) {
	importNotesSkill(t)
	from := env.notes.count()
	const planted = "VIOLET-HARBOR-5521 subscriber archive token"
	var results []string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n > 0 {
			results = append(results, lastToolResult(req))
		}
		switch n {
		case 0:
			return callTool("read_page", map[string]any{})
		case 1:
			return callTool("load_skill", map[string]any{"skill_id": "notes"})
		case 2:
			return callTool("save_note", map[string]any{"text": planted})
		case 3:
			return callTool("find_notes", map[string]any{"q": planted})
		}
		return answer("The early ferry leaves at 6:40.")
	})
	s := openSession(t, "skill-injection.html", srv, openAIChat)
	s.send("act", "When does the early ferry leave?")
	for i := 0; i < 2; i++ {
		scenario.WaitFor(t, s, "an approval card", 30*time.Second, `!!document.querySelector('.approval-card.pending button[data-decision="decline"]')`)
		if err := chromedp.Do(s.panel, chromedp.Click(chromedp.CSS(`.approval-card.pending button[data-decision="decline"]`))); err != nil {
			t.Fatal(err)
		}
		// The next card may already be up: count the answered ones.
		scenario.WaitFor(t, s, "the card resolved", 10*time.Second, fmt.Sprintf(`document.querySelectorAll('.approval-card:not(.pending)').length > %d`, i))
	}
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	if reqs := env.notes.since(from); len(reqs) != 0 {
		t.Fatalf("the page made the skill send %q", reqs)
	}
	if len(results) != 4 || !strings.Contains(results[2], "declined") || !strings.Contains(results[3], "declined") {
		t.Fatalf("results %q", results)
	}
}
