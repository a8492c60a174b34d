package background

import (
	"context"
	"sync"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/decide"
)

// statusMessageQuestion is the specification's status_message: whether one
// short message a page shows says that a submission or an action
// succeeded, reports an error, or neither. The message is page data; no
// reading authorizes anything. The completion judge reads it at a success
// claim (agent.Options.StatusRead, docs/decisions/completion-judge.md).
var statusMessageQuestion = decide.Question{
	ID: "status_message",
	Text: "The page data block holds one short message a web page shows, after someone filled in a form, sent something or did another action there. " +
		"In whatever language it is, what does the message say about that action?",
	Choices: []decide.Choice{
		{Value: agent.StatusSuccess, Meaning: "it says the submission or action succeeded: sent, saved, paid, booked, published, received, thank you"},
		{Value: agent.StatusError, Meaning: "it reports an error or a failure: refused, declined, invalid or missing input, not sent, try again"},
		{Value: agent.StatusNeither, Meaning: "neither: still pending or in progress, a hint or information, a count, or it cannot be told"},
	},
}

// statusReadRunes: a message longer than this is not one message; the
// content script marks longer ones and the agent does not send them.
const statusReadRunes = 500

// statusReader reads page messages with status_message: the decision
// model first, the active model within activeReadWithin; a few at a time.
// Answers are kept per text by the decider, so a second claim in the run
// reads nothing again.
func statusReader(d *decide.Decider) func(ctx context.Context, texts []string) []string {
	return func(ctx context.Context, texts []string) []string {
		first := map[string]int{} // each text is asked once
		var mu sync.Mutex
		got := map[string]string{}
		var wg sync.WaitGroup
		slots := make(chan struct{}, 4)
		for i, t := range texts {
			if _, ok := first[t]; ok {
				continue
			}
			first[t] = i
			wg.Add(1)
			go func() {
				defer wg.Done()
				slots <- struct{}{}
				defer func() { <-slots }()
				a := d.AskPage(ctx, statusMessageQuestion, clip.Runes(t, statusReadRunes), activeReadWithin).Choice
				mu.Lock()
				got[t] = a
				mu.Unlock()
			}()
		}
		wg.Wait()
		out := make([]string, len(texts))
		for i, t := range texts {
			out[i] = got[t]
		}
		return out
	}
}
