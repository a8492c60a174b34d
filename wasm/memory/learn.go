package memory

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/decide"
	"github.com/webbrain/webbrain/wasm/llm"
)

// Candidate is a record the learner proposes, with the user's words it
// rests on.
type Candidate struct {
	Text  string `json:"text"`
	Kind  string `json:"kind"`
	Quote string `json:"quote"`
}

// maxLearned bounds what one request can teach.
const maxLearned = 3

// LearnedConfidence is a learned record's confidence: below the user's own.
const LearnedConfidence = 0.7

// learnPrompt frames the learner; its first words let the fake model
// server of the tests tell its requests apart.
const learnPrompt = `You pick out what a user said about themselves that WebBrain, a browser agent, should remember for later requests: lasting preferences ("I prefer metric units", "answer in German"), hints about who they are or how they work ("I'm on the Platform team", "my usual airport is LHR") and workflow preferences ("always ask before buying"). ` +
	`Only what the user's own words state as lasting. Never facts about web pages, one-off details of this task, other people's data, passwords, codes, keys or card numbers. Most requests contain nothing to remember. ` +
	`Reply with one JSON object and nothing else: {"records": [{"text": the thing to remember, written as a short note about the user, "kind": "preference", "profile_hint" or "workflow_preference", "quote": the user's words it rests on, copied exactly}]}; an empty list when there is nothing.`

// Learn asks p what request, the user's own words, says that is worth
// remembering. Only candidates whose quote is a passage of request, whose
// text is new and holds no secret, are returned: a page can never teach
// memory anything, since the learner sees no page text at all.
func Learn(ctx context.Context, p llm.Provider, request string, s Store) ([]Candidate, error) {
	var known strings.Builder
	for _, r := range s.Active() {
		known.WriteString("- " + r.Text + "\n")
	}
	msg := "The user's message:\n<message>\n" + clip.Runes(request, 4000) + "\n</message>\n"
	if known.Len() > 0 {
		msg += "\nAlready remembered (do not repeat):\n" + clip.Runes(known.String(), 2000)
	}
	res, err := p.Chat(ctx, llm.Request{
		Messages:    []llm.Message{{Role: llm.RoleSystem, Content: learnPrompt}, {Role: llm.RoleUser, Content: msg}},
		Temperature: 0,
		MaxTokens:   400,
	})
	if err != nil {
		return nil, err
	}
	obj, ok := llm.FirstObject(res.Content)
	if !ok {
		return nil, errors.New("the learner's reply holds no JSON object")
	}
	var reply struct {
		Records []Candidate `json:"records"`
	}
	if err := json.Unmarshal([]byte(obj), &reply); err != nil {
		return nil, err
	}
	var out []Candidate
	probe := s // checks against the store and the candidates kept so far
	for _, c := range reply.Records {
		if len(out) == maxLearned {
			break
		}
		if c.Kind == "" {
			c.Kind = KindPreference
		}
		if !decide.Quotes(request, c.Quote) || probe.check("", c.Text, c.Kind) != nil {
			continue
		}
		probe.Records = append(probe.Records, Record{ID: "candidate", Text: c.Text})
		out = append(out, c)
	}
	return out, nil
}
