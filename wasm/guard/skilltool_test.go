package guard

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webbrain/webbrain/wasm/protocol"
)

func TestSkillToolPlainReadPassesAndOthersAskTheUser(t *testing.T) {
	page := &fakePage{pageURL: "https://news.example.com/story"}
	user := &fakeUser{decide: func(Approval) Decision { return Approve }}
	g := newGate(protocol.ModeAct, "What will the weather be in Lisbon tomorrow?", page.pageURL, page, user)
	ctx := context.Background()

	read := SkillCall{Skill: "Weather", Method: "GET", URL: "https://api.weather.example/v1/forecast/Lisbon?days=1", Values: []string{"1", "Lisbon"}, PlainRead: true}
	refusal, err := g.CheckSkill(ctx, call("c1", "get_forecast", nil), read)
	require.NoError(t, err)
	assert.Empty(t, refusal)
	assert.Empty(t, user.cards, "a plain read asked the user")

	post := SkillCall{Skill: "Notes", Method: "POST", URL: "https://api.notes.example/v1/notes", Values: []string{"Lisbon trip"}}
	refusal, err = g.CheckSkill(ctx, call("c2", "save_note", map[string]any{"text": "Lisbon trip"}), post)
	require.NoError(t, err)
	assert.Empty(t, refusal, "approved")
	require.Len(t, user.cards, 1)
	card := user.cards[0]
	assert.Equal(t, protocol.CategorySend, card.Category)
	assert.Equal(t, "save_note", card.Tool)
	assert.Contains(t, card.Text, "api.notes.example")
	assert.Contains(t, strings.Join(card.Reasons, " "), "not mark this request as a plain read")

	user.decide = func(Approval) Decision { return Decline }
	refusal, err = g.CheckSkill(ctx, call("c3", "save_note", map[string]any{"text": "other"}), SkillCall{Skill: "Notes", Method: "POST", URL: "https://api.notes.example/v1/notes", Values: []string{"other"}})
	require.NoError(t, err)
	assert.Contains(t, refusal, "declined")

	// A read that carries a secret the user did not give waits too.
	g.Observe("Your one-time code is 483920. API key ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789")
	leak := SkillCall{Skill: "Weather", Method: "GET", URL: "https://api.weather.example/v1/forecast/x?k=ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", PlainRead: true}
	n := len(user.cards)
	refusal, err = g.CheckSkill(ctx, call("c4", "get_forecast", nil), leak)
	require.NoError(t, err)
	assert.NotEmpty(t, refusal)
	require.Len(t, user.cards, n+1)
	assert.Contains(t, strings.Join(user.cards[n].Reasons, " "), "secret")
}

func TestSkillToolInAskSendsOnlyPlainReads(t *testing.T) {
	page := &fakePage{pageURL: "https://news.example.com/story"}
	user := &fakeUser{decide: func(Approval) Decision { return Approve }}
	g := newGate(protocol.ModeAsk, "Will it rain in Lisbon?", page.pageURL, page, user)
	refusal, err := g.CheckSkill(context.Background(), call("c1", "save_note", nil), SkillCall{Skill: "Notes", Method: "POST", URL: "https://api.notes.example/v1/notes"})
	require.NoError(t, err)
	assert.Contains(t, refusal, "Ask mode sends nothing")
	refusal, err = g.CheckSkill(context.Background(), call("c2", "get_forecast", nil), SkillCall{Skill: "Weather", Method: "GET", URL: "https://api.weather.example/v1/forecast/Lisbon", PlainRead: true})
	require.NoError(t, err)
	assert.Empty(t, refusal)
	assert.Empty(t, user.cards, "Ask showed a card")
}

// A download job is asked about every time: no approval covers the next.
func TestSkillDownloadJobIsAskedEveryTime(t *testing.T) {
	page := &fakePage{pageURL: "https://video.example.com/v/1"}
	user := &fakeUser{decide: func(Approval) Decision { return ApproveSite }}
	g := newGate(protocol.ModeAct, "Download this video", page.pageURL, page, user)
	job := SkillCall{Skill: "Media", Method: "POST", URL: "https://media.example/v1/jobs", Download: true}
	for i, id := range []string{"c1", "c2"} {
		refusal, err := g.CheckSkill(context.Background(), call(id, "download_public_media", nil), job)
		require.NoError(t, err)
		assert.Empty(t, refusal)
		require.Len(t, user.cards, i+1)
		assert.Equal(t, protocol.CategoryDownload, user.cards[i].Category)
		assert.NotContains(t, user.cards[i].Choices, string(ApproveSite))
	}
}
