package guard

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// enterInChat is Enter in the composer of the chat with who, holding body,
// below msgs.
func enterInChat(who, body string, msgs ...ChatMessage) Probe {
	return Probe{Tag: "div", Role: "textbox", Editable: true, Multiline: true, Enter: true, Name: "Написать сообщение",
		Conversation: []string{who}, Body: body, Messages: msgs}
}

func enter(id string) (string, map[string]any) { return id, map[string]any{"keys": "Enter"} }

func check(t *testing.T, g *Gate, id string) string {
	t.Helper()
	i, args := enter(id)
	refusal, err := g.Check(context.Background(), call(i, "press_keys", args))
	require.NoError(t, err)
	return refusal
}

// A message whose label reads as the user's own ("Вы: …", in a language no
// word list holds) counts toward the sent-body baseline: once the run's
// message shows in the chat as the user's, Enter with the same body is
// not sent again, and the first send is marked outgoing and delivered when
// its status reads so. The gate asks for the messages only on the
// protected route.
func TestAMessageReadAsTheUsersOwnIsNotSentTwice(t *testing.T) {
	r := &fakeReader{readings: map[string]string{"Вы: The report is ready": AuthorSelf, "Доставлено": StatusDelivered}}
	page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: enterInChat("Alice Moreau", "The report is ready")}
	g, user := readingGate(page, r, "Alice Moreau")
	assert.Empty(t, check(t, g, "c1"))
	require.Len(t, g.Submissions(), 1)
	assert.Equal(t, true, page.probed[0]["messages"])

	sent := ChatMessage{Label: "Вы: The report is ready", Text: "The report is ready 10:42", Status: "Доставлено"}
	page.probe = enterInChat("Alice Moreau", "the report  is ready", sent)
	refusal := check(t, g, "c2")
	assert.Contains(t, refusal, "Not sent again")
	assert.Contains(t, refusal, "its status reads as delivered")
	subs := g.Submissions()
	require.Len(t, subs, 1, "nothing new was let through")
	assert.True(t, subs[0].Confirmed)
	assert.True(t, subs[0].Delivered)
	assert.Empty(t, user.cards)
	assert.Contains(t, r.names, "Вы: The report is ready")

	// A longer message of the user's that only contains the words is
	// another message.
	g2, _ := readingGate(page, r, "Alice Moreau")
	page.probe = enterInChat("Alice Moreau", "ready")
	assert.Empty(t, check(t, g2, "d1"))
	long := "The report is ready, and the slides are in the shared folder for tomorrow's review"
	r.readings["Вы: "+long] = AuthorSelf
	page.probe = enterInChat("Alice Moreau", "ready", ChatMessage{Label: "Вы: " + long, Text: long})
	assert.Empty(t, check(t, g2, "d2"))

	// Another body goes through.
	page.probe = enterInChat("Alice Moreau", "See you at ten", sent)
	assert.Empty(t, check(t, g, "c3"))
	assert.Len(t, g.Submissions(), 2)
}

// Until a label is read a message is nobody's in particular, and a status
// until read is not delivered; the page's own structure comes before any
// reading; a message the user had sent before the run is the baseline, not
// a repetition.
func TestUnreadMessagesAreNobodysAndUnreadStatusesNotDelivered(t *testing.T) {
	sent := ChatMessage{Label: "나: The report is ready", Text: "The report is ready", Status: "전송됨"}

	// Nobody read the label: the retry is let through.
	page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: enterInChat("Alice Moreau", "The report is ready")}
	g, _ := readingGate(page, &fakeReader{}, "Alice Moreau")
	assert.Empty(t, check(t, g, "c1"))
	page.probe = enterInChat("Alice Moreau", "The report is ready", sent)
	assert.Empty(t, check(t, g, "c2"))
	assert.Len(t, g.Submissions(), 2)

	// The page marks the row as incoming: the reading is not asked.
	r := &fakeReader{readings: map[string]string{"나: The report is ready": AuthorSelf}}
	page = &fakePage{pageURL: "https://chat.example.com/chat/42", probe: enterInChat("Alice Moreau", "The report is ready")}
	g, _ = readingGate(page, r, "Alice Moreau")
	assert.Empty(t, check(t, g, "c1"))
	in := sent
	in.Side = AuthorOther
	page.probe = enterInChat("Alice Moreau", "The report is ready", in)
	assert.Empty(t, check(t, g, "c2"))
	assert.Empty(t, r.names)

	// Read as the user's own with a status nobody read: refused, and the
	// first send is outgoing but not delivered.
	page = &fakePage{pageURL: "https://chat.example.com/chat/42", probe: enterInChat("Alice Moreau", "The report is ready")}
	g, _ = readingGate(page, r, "Alice Moreau")
	assert.Empty(t, check(t, g, "c1"))
	page.probe = enterInChat("Alice Moreau", "The report is ready", sent)
	refusal := check(t, g, "c2")
	assert.Contains(t, refusal, "does not read as delivered yet")
	require.Len(t, g.Submissions(), 1)
	assert.True(t, g.Submissions()[0].Confirmed, "seen as the user's: confirmed off WhatsApp")
	assert.False(t, g.Submissions()[0].Delivered)

	// The same text sent before the run is the baseline.
	page = &fakePage{pageURL: "https://chat.example.com/chat/42", probe: enterInChat("Alice Moreau", "The report is ready", sent)}
	g, _ = readingGate(page, r, "Alice Moreau")
	assert.Empty(t, check(t, g, "c1"))
	assert.Empty(t, check(t, g, "c2"), "still one own copy: the first send has not shown yet")
	page.probe = enterInChat("Alice Moreau", "The report is ready", sent, sent)
	assert.Contains(t, check(t, g, "c3"), "Not sent again")

	// Into another conversation the same body is another message.
	page.probe = enterInChat("Bob Stone", "The report is ready", sent, sent, sent)
	g.cfg.Recipients = []string{"Alice Moreau", "Bob Stone"}
	assert.Empty(t, check(t, g, "c4"))
}

// Off the protected route the probe is not asked for messages.
func TestMessagesAreAskedOnlyOnProtectedRoutes(t *testing.T) {
	page := &fakePage{pageURL: "https://mail.example.com/compose", probe: Probe{Tag: "button", Type: "submit", Name: "Send", InForm: true}}
	g := mailGate(page, &fakeReader{}, &fakeUser{})
	_, _ = g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
	require.NotEmpty(t, page.probed)
	assert.Nil(t, page.probed[0]["messages"])
}

// On native WhatsApp a message counts as sent once its status reads as
// delivered: seen as the user's with a status that reads only "sent", the
// first send is not confirmed (the repetition is refused all the same);
// read as delivered, it is.
func TestANativeWhatsAppSendIsConfirmedOnceDelivered(t *testing.T) {
	r := &fakeReader{readings: map[string]string{"Вы: Hi": AuthorSelf, "Отправлено": StatusSent, "Доставлено": StatusDelivered}}
	page := &fakePage{pageURL: "https://web.whatsapp.com/", probe: enterInChat("Alice Moreau", "Hi")}
	user := &fakeUser{decide: func(Approval) Decision { return Approve }}
	g := New(Config{Mode: "act", AskBeforeActions: true, Prober: page, Approver: user, Messages: r,
		VerifiesRecipient: func(u string) bool { return strings.HasPrefix(u, "https://web.whatsapp.com/") },
		Recipients:        []string{"Alice Moreau"}})
	g.SetWords([]string{"Send Alice Moreau a message saying hi"}, page.pageURL)
	assert.Empty(t, check(t, g, "c1"))
	page.probe = enterInChat("Alice Moreau", "Hi", ChatMessage{Label: "Вы: Hi", Text: "Hi", Status: "Отправлено"})
	assert.Contains(t, check(t, g, "c2"), "does not read as delivered yet")
	require.Len(t, g.Submissions(), 1)
	assert.False(t, g.Submissions()[0].Confirmed)
	page.probe = enterInChat("Alice Moreau", "Hi", ChatMessage{Label: "Вы: Hi", Text: "Hi", Status: "Доставлено"})
	assert.Contains(t, check(t, g, "c3"), "its status reads as delivered")
	assert.True(t, g.Submissions()[0].Confirmed)
	assert.True(t, g.Submissions()[0].Delivered)
}
