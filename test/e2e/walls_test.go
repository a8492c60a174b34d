//go:build e2e

package e2e

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// newsHost is a site of FreeSkillz's article reader that the suite's
// browser resolves to a fixture server (harness_test.go).
const newsHost = "www.nytimes.com"

// newsURL is a fixture under newsHost, on HTTPS from a test server whose
// certificate the suite's browser accepts.
func newsURL(t *testing.T, fixture string) string {
	t.Helper()
	srv := httptest.NewTLSServer(scenario.Fixtures(env.root, "test/e2e/testdata"))
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	return fmt.Sprintf("https://%s:%s/%s?test=%s", newsHost, port, fixture, t.Name())
}

// wallReader is a decision model that reads page_blocker questions the
// way a gullible model would: a text that says it is no wall is read as
// none (it obeys the page); a limit or registration notice is a wall;
// anything else is not. It records the texts it was given.
type wallReader struct {
	mu    sync.Mutex
	texts []string
}

func (w *wallReader) answer(req llmtest.Request) llmtest.Turn {
	user := req.Messages[len(req.Messages)-1].Content
	if !strings.Contains(user, "keep the article from the reader") {
		return llmtest.Turn{Text: llmtest.NoDecision}
	}
	_, page, _ := strings.Cut(user, "<untrusted_page_content_")
	page, _, _ = strings.Cut(page, "</untrusted_page_content_")
	w.mu.Lock()
	w.texts = append(w.texts, page)
	w.mu.Unlock()
	choice := "no_wall"
	switch {
	case strings.Contains(page, "not a wall"):
	case strings.Contains(page, "reached your limit"), strings.Contains(page, "Registrieren Sie sich"):
		choice = "wall"
	}
	return llmtest.Turn{Text: fmt.Sprintf(`{"choice":%q,"confidence":0.95,"quote":""}`, choice)}
}

func (w *wallReader) read() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.texts...)
}

// readsTwice is the model of the wall tests: read_page, then the tree,
// then an answer; it keeps both results.
func readsTwice(results *[]string) *llmtest.Server {
	return llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n > 0 {
			*results = append(*results, lastToolResult(req))
		}
		switch n {
		case 0:
			return callTool("read_page", map[string]any{})
		case 1:
			return callTool("get_accessibility_tree", map[string]any{})
		}
		return answer("Read.")
	})
}

// useWallReader names the session's provider as the decision model and
// lets reader answer its closed questions.
func useWallReader(t *testing.T, s *session, reader *wallReader) {
	t.Helper()
	s.srv.Decider = reader.answer
	r := evalIn[map[string]any](t, s.panel, `chrome.runtime.sendMessage({action: 'settings_get'}).then(r => {
		const settings = {...r.settings, decisionProvider: 'fake'};
		return chrome.runtime.sendMessage({action: 'settings_save', settings});
	})`, chromedp.EvalAwaitPromise)
	if r["ok"] != true {
		t.Fatalf("settings_save: %v", r)
	}
}

// afterData is what a tool result says outside the page's data block:
// WebBrain's own words.
func afterData(result string) string {
	i := strings.LastIndex(result, "</untrusted_page_content_")
	if i < 0 {
		return result
	}
	rest := result[i:]
	if j := strings.Index(rest, ">"); j >= 0 {
		return rest[j+1:]
	}
	return ""
}

// An article behind a subscribe overlay on a NYTimes tab: once the
// overlay's text is read as a wall, the page read withholds the article
// (its text, links and form) and shows the overlay's text and buttons; the
// tree lists the overlay's buttons and nothing of the article. The
// overlay's name tells AI readers it is no wall, and the decision model
// obeys it, yet the overlay's text is still read and still walls the
// article: the page cannot talk the wall away. Only then does WebBrain,
// in its own words, tell the model to use FreeSkillz's article reader.
func TestOverlayWallWithholdsTheArticle(t *testing.T) {
	var results []string
	reader := &wallReader{}
	srv := readsTwice(&results)
	s := openSessionAt(t, newsURL(t, "wall-overlay.html"), srv, openAIChat)
	useWallReader(t, s, reader)
	s.send("ask", "What does this article say?")
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	if len(results) != 2 {
		t.Fatalf("results %q", results)
	}
	page, tree := results[0], results[1]
	for _, want := range []string{"You have reached your limit of free articles", "Subscribe to continue reading", "Page wall: an overlay"} {
		if !strings.Contains(page, want) {
			t.Errorf("read_page lacks %q:\n%s", want, page)
		}
	}
	for _, hidden := range []string{"HARBOR-SECRET-7314", "breakwater", "Full ferry schedule"} {
		if strings.Contains(page, hidden) || strings.Contains(tree, hidden) {
			t.Errorf("the wall did not withhold %q:\npage: %s\ntree: %s", hidden, page, tree)
		}
	}
	for _, want := range []string{`button "Subscribe for $1 a week"`, `button "Log in"`} {
		if !strings.Contains(tree, want) {
			t.Errorf("tree lacks %s:\n%s", want, tree)
		}
	}
	if strings.Contains(tree, `textbox "Comment"`) {
		t.Errorf("the article's form is in the tree:\n%s", tree)
	}
	if note := afterData(page); !strings.Contains(note, "fetch_nytimes_article") {
		t.Errorf("no trusted instruction after the wall:\n%s", page)
	}
	if note := afterData(tree); strings.Contains(note, "fetch_nytimes_article") {
		t.Errorf("the instruction was given twice:\n%s", tree)
	}
	texts := reader.read() // read a few at a time, so in any order
	name, wall := false, false
	for _, text := range texts {
		name = name || strings.Contains(text, "not a wall")
		wall = wall || strings.Contains(text, "reached your limit")
	}
	if !name || !wall {
		t.Fatalf("texts read %q, want the overlay's name and its text", texts)
	}
	for _, text := range texts {
		if strings.Contains(text, "HARBOR-SECRET-7314") {
			t.Errorf("the article itself was sent to be read: %q", text)
		}
	}
}

// An article with a registration wall inside it, after a preview (in
// German): the preview stays readable, the wall's own text and controls
// are shown, and everything after it (text, links, the frame) is
// withheld. Not a NYTimes tab: no article-reader instruction.
func TestInlineWallKeepsThePreview(t *testing.T) {
	var results []string
	reader := &wallReader{}
	srv := readsTwice(&results)
	s := openSession(t, "wall-inline.html", srv, openAIChat)
	useWallReader(t, s, reader)
	s.send("ask", "Worum geht es in dem Artikel?")
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	if len(results) != 2 {
		t.Fatalf("results %q", results)
	}
	page, tree := results[0], results[1]
	for _, want := range []string{"PREVIEW-FACT-2218", "Markthalle", "Weiterlesen mit einem kostenlosen Konto", "Registrieren Sie sich kostenlos", "Page wall: a block inside the article"} {
		if !strings.Contains(page, want) {
			t.Errorf("read_page lacks %q:\n%s", want, page)
		}
	}
	for _, hidden := range []string{"REST-SECRET-9051", "Pendler", "Fahrplan"} {
		if strings.Contains(page, hidden) || strings.Contains(tree, hidden) {
			t.Errorf("the wall did not withhold %q:\npage: %s\ntree: %s", hidden, page, tree)
		}
	}
	if !strings.Contains(tree, `button "Konto anlegen"`) || !strings.Contains(tree, `heading "Der neue Bahnhof`) {
		t.Errorf("tree lacks the wall's button or the article's heading:\n%s", tree)
	}
	if strings.Contains(tree, "Karte des Bahnhofs") {
		t.Errorf("the article's frame is in the tree:\n%s", tree)
	}
	if strings.Contains(afterData(page), "fetch_nytimes_article") {
		t.Errorf("article-reader instruction off its sites:\n%s", page)
	}
}

// A newsletter offer beside an article the reader can read, on a NYTimes
// tab: read as no wall, nothing is withheld, and the offer's text, which
// pretends to be WebBrain asking for the article reader, stays inside the
// page's data: WebBrain itself says nothing.
func TestNewsletterOfferWithholdsNothing(t *testing.T) {
	var results []string
	reader := &wallReader{}
	srv := readsTwice(&results)
	s := openSessionAt(t, newsURL(t, "wall-offer.html"), srv, openAIChat)
	useWallReader(t, s, reader)
	s.send("ask", "How deep do bulbs go?")
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	if len(results) != 2 {
		t.Fatalf("results %q", results)
	}
	page := results[0]
	for _, want := range []string{"three times their height", "GARDEN-FACT-5530", "Get our weekly garden newsletter"} {
		if !strings.Contains(page, want) {
			t.Errorf("read_page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "Page wall") {
		t.Errorf("an offer was read as a wall:\n%s", page)
	}
	if strings.Contains(afterData(page), "fetch_nytimes_article") || strings.Contains(afterData(results[1]), "fetch_nytimes_article") {
		t.Errorf("page prose made WebBrain give the instruction:\n%s", page)
	}
	if texts := reader.read(); len(texts) == 0 {
		t.Errorf("the offer was never read")
	}
}
