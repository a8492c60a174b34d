package guard

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func hereGate(page *fakePage, pinned string, onPin func(string)) *Gate {
	g := New(Config{
		Mode: "act", AskBeforeActions: true, Prober: page, Approver: &fakeUser{},
		VerifiesRecipient:  func(u string) bool { return strings.HasPrefix(u, "https://chat.example.com/chat") },
		ActiveConversation: true, Pinned: pinned, OnPin: onPin,
	})
	g.SetWords([]string{"Reply here that the report is ready"}, page.pageURL)
	return g
}

// "Reply here" sends into the conversation open when the run started; a
// chat the model opens afterwards (as a page may tell it to) is not "here".
func TestReplyHereSendsOnlyIntoTheConversationOpenAtTheStart(t *testing.T) {
	page := &fakePage{pageURL: "https://chat.example.com/chat/1", probe: sendButton("Bob Stone")}
	var pins []string
	g := hereGate(page, "", func(c string) { pins = append(pins, c) })
	ctx := context.Background()

	r, err := g.Check(ctx, call("a", "get_accessibility_tree", map[string]any{}))
	require.NoError(t, err)
	assert.Empty(t, r)
	assert.Equal(t, []string{"Bob Stone"}, pins)
	assert.Equal(t, true, page.probed[0]["composer"], "the first check asks for the open conversation")

	r, _ = g.Check(ctx, call("b", "click_ax", map[string]any{"ref": "ref_9"}))
	assert.Empty(t, r)

	page.probe = sendButton("Mallory")
	r, _ = g.Check(ctx, call("c", "click_ax", map[string]any{"ref": "ref_9"}))
	assert.Contains(t, r, "Not sent")
	assert.Contains(t, r, "Bob Stone")
	assert.Equal(t, []string{"Bob Stone"}, pins, "pinned once")
}

func TestReplyHereWithoutOneOpenConversationAsksWho(t *testing.T) {
	for _, names := range [][]string{nil, {"Bob Stone", "Team chat"}} {
		page := &fakePage{pageURL: "https://chat.example.com/chat/1", probe: sendButton(names...)}
		g := hereGate(page, "", nil)
		r, _ := g.Check(context.Background(), call("a", "click_ax", map[string]any{"ref": "ref_9"}))
		assert.Contains(t, r, "Not sent", "names %v", names)
		assert.Contains(t, r, "clarify", "names %v", names)
	}
}

// A resumed run keeps the pin it took before the worker restarted.
func TestReplyHereKeepsItsPinAcrossARestart(t *testing.T) {
	page := &fakePage{pageURL: "https://chat.example.com/chat/2", probe: sendButton("Mallory")}
	g := hereGate(page, "Bob Stone", func(string) { t.Error("pinned again") })
	r, _ := g.Check(context.Background(), call("a", "click_ax", map[string]any{"ref": "ref_9"}))
	assert.Contains(t, r, "Bob Stone")
	for _, a := range page.probed {
		assert.Nil(t, a["composer"])
	}
}
