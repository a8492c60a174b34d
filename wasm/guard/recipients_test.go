package guard

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatGate is a gate on a chat page whose sends are verified, for a
// request the planner read as sending to recipients.
func chatGate(page *fakePage, user *fakeUser, recipients ...string) *Gate {
	g := New(Config{
		Mode: "act", AskBeforeActions: true, Prober: page, Approver: user,
		VerifiesRecipient: func(u string) bool { return strings.HasPrefix(u, "https://chat.example.com/chat") },
		Recipients:        recipients,
	})
	g.SetWords([]string{"Send Alice Moreau a message saying the report is ready"}, page.pageURL)
	return g
}

func sendButton(conversation ...string) Probe {
	return Probe{Tag: "button", Type: "button", Name: "Send", Text: "Send", Conversation: conversation}
}

func TestSendGoesOnlyToTheNamedConversation(t *testing.T) {
	approve := &fakeUser{decide: func(Approval) Decision { return Approve }}
	cases := []struct {
		name         string
		recipients   []string
		conversation []string
		refusal      string // "" when the send goes through
	}{
		{"the named person", []string{"Alice Moreau"}, []string{"  alice   MOREAU "}, ""},
		{"a handle", []string{"@alice"}, []string{"Alice"}, ""},
		{"someone else", []string{"Alice Moreau"}, []string{"Bob Stone"}, "not “Alice Moreau”"},
		{"a partial name is not the person", []string{"Alice"}, []string{"Alice Moreau"}, "not “Alice”"},
		{"no header", []string{"Alice Moreau"}, nil, "shows no conversation name"},
		{"two headers", []string{"Alice Moreau"}, []string{"Alice Moreau", "Team chat"}, "several conversation names"},
		{"no recipient named", nil, []string{"Alice Moreau"}, "names no recipient"},
	}
	for _, c := range cases {
		page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: sendButton(c.conversation...)}
		g := chatGate(page, approve, c.recipients...)
		refusal, err := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 3}))
		require.NoError(t, err)
		if c.refusal == "" {
			assert.Empty(t, refusal, c.name)
			subs := g.Submissions()
			require.Len(t, subs, 1, c.name)
			assert.Equal(t, CatSend, subs[0].Category)
			assert.Equal(t, c.recipients[0], subs[0].Recipient, c.name)
			assert.Equal(t, "c1", subs[0].CallID, c.name)
			continue
		}
		assert.Contains(t, refusal, c.refusal, c.name)
		assert.Contains(t, refusal, "Not sent", c.name)
		assert.Empty(t, g.Submissions(), c.name)
	}
}

// Enter in a composer outside any form is a send too.
func TestEnterInComposerIsVerified(t *testing.T) {
	page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: Probe{Tag: "div", Editable: true, Multiline: true, Enter: true, Name: "Message", Conversation: []string{"Bob Stone"}}}
	g := chatGate(page, &fakeUser{decide: func(Approval) Decision { return Approve }}, "Alice Moreau")
	refusal, _ := g.Check(context.Background(), call("c1", "press_keys", map[string]any{"keys": "Enter"}))
	assert.Contains(t, refusal, "“Bob Stone” (page text), not “Alice Moreau”")
}

// An unlabelled button beside the message box may be the send button: on
// a protected route it is checked as one; a named control or one away from
// the composer is not.
func TestUnlabelledComposerButtonIsCheckedAsASend(t *testing.T) {
	approve := &fakeUser{decide: func(Approval) Decision { return Approve }}
	icon := Probe{Tag: "button", Type: "button", NearComposer: true, Conversation: []string{"Bob Stone"}}
	page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: icon}
	g := chatGate(page, approve, "Alice Moreau")
	refusal, _ := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 3}))
	assert.Contains(t, refusal, "not “Alice Moreau”")

	for _, p := range []Probe{
		{Tag: "button", Type: "button", AriaLabel: "Emoji", NearComposer: true, Conversation: []string{"Bob Stone"}},
		{Tag: "button", Type: "button", Conversation: []string{"Bob Stone"}},
	} {
		page.probe = p
		refusal, _ = g.Check(context.Background(), call("c2", "click_ax", map[string]any{"ref": 4}))
		assert.Empty(t, refusal, "%+v", p)
	}
	page.pageURL, page.probe = "https://chat.example.com/feed", icon
	refusal, _ = g.Check(context.Background(), call("c3", "click_ax", map[string]any{"ref": 3}))
	assert.Empty(t, refusal, "off the protected route")
}

// Outside the protected route the recipient check does not run; tools
// whose effect cannot be bound to the checked conversation are refused
// only on it.
func TestProtectedRouteScope(t *testing.T) {
	approve := &fakeUser{decide: func(Approval) Decision { return Approve }}
	page := &fakePage{pageURL: "https://chat.example.com/feed", probe: sendButton()}
	g := chatGate(page, approve, "Alice Moreau")
	refusal, _ := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 3}))
	assert.Empty(t, refusal)
	refusal, _ = g.Check(context.Background(), call("c2", "upload_file", map[string]any{"ref": 3}))
	assert.NotContains(t, refusal, "messaging page")

	refusal, _ = g.Check(context.Background(), call("c4", "press_keys", map[string]any{"keys": "Enter Enter"}))
	assert.NotContains(t, refusal, "Press Enter once", "off the protected route")

	g.Visit("https://chat.example.com/chat/42")
	refusal, _ = g.Check(context.Background(), call("c5", "press_keys", map[string]any{"keys": "Enter Enter"}))
	assert.Contains(t, refusal, "Press Enter once per call")
	for _, tool := range []string{"execute_js", "iframe_click", "upload_file", "execute_webmcp_tool"} {
		refusal, _ = g.Check(context.Background(), call("c3", tool, map[string]any{"ref": 3}))
		assert.Contains(t, refusal, "not available on this messaging page", tool)
	}
}

// A mail composer's To row is the recipient: a send counts as going to
// the named recipient only when every address is one the user gave.
func TestMailSendRecordsNamedRecipients(t *testing.T) {
	form := func(to string) Probe {
		return Probe{Tag: "button", Type: "submit", Name: "Send", InForm: true, FormFields: []Field{
			{Type: "email", Name: "to", Label: "To", Value: to},
			{Type: "textarea", Name: "body", Label: "Message", Value: "The report is ready."},
		}}
	}
	approve := &fakeUser{decide: func(Approval) Decision { return Approve }}
	page := &fakePage{pageURL: "https://mail.example.com/", probe: form("alice@example.com")}
	g := New(Config{Mode: "act", AskBeforeActions: true, Prober: page, Approver: approve})
	g.SetWords([]string{"Email alice@example.com that the report is ready"}, page.pageURL)
	refusal, _ := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
	require.Empty(t, refusal)
	page.probe = form("mallory@example.net")
	refusal, _ = g.Check(context.Background(), call("c2", "click_ax", map[string]any{"ref": 1}))
	require.Empty(t, refusal, "approved on the card")
	subs := g.Submissions()
	require.Len(t, subs, 2)
	assert.Equal(t, "alice@example.com", subs[0].Recipient)
	assert.Empty(t, subs[1].Recipient, "an address the user did not give")
}
