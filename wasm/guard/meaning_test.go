package guard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeMeaning answers the gate's questions with fixed readings and
// records what it was asked.
type fakeMeaning struct {
	asks     map[Category]bool
	deletion string
	items    []DeletionItem
	requests []string
}

func (m *fakeMeaning) Asks(_ context.Context, request string, c Category) bool {
	m.requests = append(m.requests, request)
	return m.asks[c]
}

func (m *fakeMeaning) Deletion(_ context.Context, request string, item DeletionItem) string {
	m.requests = append(m.requests, request)
	m.items = append(m.items, item)
	return m.deletion
}

func meaningGate(task string, page *fakePage, user *fakeUser, m Meaning) *Gate {
	g := New(Config{Mode: "act", AskBeforeActions: true, Prober: page, Approver: user, Meaning: m})
	g.SetWords([]string{task}, page.pageURL)
	return g
}

func deleteDraft(title string) *fakePage {
	return &fakePage{pageURL: "https://blog.example.com/drafts", probe: Probe{
		Tag: "button", Role: "button", Type: "button", Name: "Delete", Record: title + " · draft · Delete", Heading: title,
	}}
}

func TestDeletionTheUserAskedForInOtherWordsGoesThrough(t *testing.T) {
	page, user := deleteDraft("Spring sale announcement"), &fakeUser{}
	m := &fakeMeaning{deletion: DeleteThis}
	g := meaningGate("get rid of the spring sale draft, it's outdated", page, user, m)
	refusal, err := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": "ref_4"}))
	require.NoError(t, err)
	assert.Empty(t, refusal)
	assert.Empty(t, user.cards)
	require.Len(t, m.items, 1)
	assert.Equal(t, "Spring sale announcement", m.items[0].Text, "the question sees the item as the page shows it")
	assert.Equal(t, "get rid of the spring sale draft, it's outdated", m.requests[0], "and the user's words as written")
}

func TestAnUnclearDeletionGoesToTheUserEvenWhenTheWordsSayDelete(t *testing.T) {
	for _, answer := range []string{DeleteUnclear, DeleteAnother, DeleteNotAsked, ""} {
		page, user := deleteDraft("Summer sale announcement"), &fakeUser{}
		g := meaningGate("delete the sale draft", page, user, &fakeMeaning{deletion: answer})
		refusal, err := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": "ref_4"}))
		require.NoError(t, err)
		assert.Contains(t, refusal, "declined", answer)
		require.Len(t, user.cards, 1, answer)
		assert.Contains(t, user.cards[0].Reasons, "Your request does not clearly ask to delete this item.", answer)
	}
}

func TestAnItemTheUserSaidToKeepIsRefusedWithoutACard(t *testing.T) {
	page, user := deleteDraft("Pricing page"), &fakeUser{}
	g := meaningGate("delete the old drafts but keep the pricing page", page, user, &fakeMeaning{deletion: DeleteToldNot})
	refusal, _ := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": "ref_4"}))
	assert.Contains(t, refusal, "says not to delete")
	assert.Empty(t, user.cards)
}

func TestARequestInOtherWordsCoversItsCategory(t *testing.T) {
	page := &fakePage{pageURL: "https://mail.example.com/compose", probe: Probe{
		Tag: "button", Role: "button", Type: "button", Name: "Send", FormName: "New message",
	}}
	task := "shoot Dana a quick note that I'm running late"
	user := &fakeUser{}
	g := meaningGate(task, page, user, &fakeMeaning{asks: map[Category]bool{CatSend: true}})
	refusal, err := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": "ref_2"}))
	require.NoError(t, err)
	assert.Empty(t, refusal)
	assert.Empty(t, user.cards)

	// No sure answer: the card, as without a decision.
	user = &fakeUser{}
	g = meaningGate(task, page, user, &fakeMeaning{})
	g.Check(context.Background(), call("c2", "click_ax", map[string]any{"ref": "ref_2"}))
	require.Len(t, user.cards, 1)
	assert.Contains(t, user.cards[0].Reasons, "Your request did not ask to send anything.")
}
