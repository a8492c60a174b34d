package background

import (
	"context"
	"sync"
	"time"

	"github.com/webbrain/webbrain/wasm/decide"
	"github.com/webbrain/webbrain/wasm/tools"
)

// pageBlockerQuestion is the specification's page_blocker: whether a text
// of a page (an overlay over an article, or a block inside one offering a
// control) keeps the article from the reader. The text is page data; the
// reading authorizes nothing: a wall withholds the article from the page
// read, and no wall lets the page read as it is (docs/decisions/page-walls.md).
var pageBlockerQuestion = decide.Question{
	ID: "page_blocker",
	Text: "The page data block holds one text from a web page that shows an article: the text of a box over the article, or of a block inside it that offers a button, a field or a link. " +
		"Does this text, in any language, keep the article from the reader until they subscribe, register or sign in? An offer next to an article the reader can still read is not that.",
	Choices: []decide.Choice{
		{Value: tools.ReadingWall, Meaning: "it keeps the article from the reader until they subscribe, register, sign in or pay: a paywall, a registration or sign-in wall, a notice that the free articles are used up"},
		{Value: tools.ReadingNoWall, Meaning: "anything else: a newsletter or subscription offer, an ad or a cookie notice beside an article the reader can still read, navigation, or the article's own text"},
	},
}

// activeReadWithin is how long the active model has to read one text when
// the decision model gave no answer.
const activeReadWithin = 4 * time.Second

// pageBlocker reads page texts with page_blocker: the decision model first,
// the active model within activeReadWithin; a few at a time.
func pageBlocker(d *decide.Decider) tools.PageReader {
	return func(ctx context.Context, texts []string) []string {
		out := make([]string, len(texts))
		var wg sync.WaitGroup
		slots := make(chan struct{}, 4)
		for i, t := range texts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				slots <- struct{}{}
				defer func() { <-slots }()
				out[i] = d.AskPage(ctx, pageBlockerQuestion, t, activeReadWithin).Choice
			}()
		}
		wg.Wait()
		return out
	}
}

// readingsOf is the agent's store of page readings for a tab: its runs
// share it, so a wall read once is not read again on the next turn.
func (r *Router) readingsOf(tabID int) *tools.Readings {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.readings == nil {
		r.readings = map[int]*tools.Readings{}
	}
	s, ok := r.readings[tabID]
	if !ok {
		s = tools.NewReadings()
		r.readings[tabID] = s
	}
	return s
}

// forgetReadings drops a closed tab's readings.
func (r *Router) forgetReadings(tabID int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.readings, tabID)
}
