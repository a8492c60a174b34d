package guard

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeReader reads control names with fixed readings ("" for none) and
// records the names it was given.
type fakeReader struct {
	readings map[string]string
	names    []string
}

func (r *fakeReader) MessageControl(_ context.Context, name string) string {
	r.names = append(r.names, name)
	return r.readings[name]
}

func (r *fakeReader) MessageField(_ context.Context, label string) string {
	r.names = append(r.names, label)
	return r.readings[label]
}

func readingGate(page *fakePage, r MessageReader, recipients ...string) (*Gate, *fakeUser) {
	user := &fakeUser{decide: func(Approval) Decision { return Approve }}
	g := New(Config{
		Mode: "act", AskBeforeActions: true, Prober: page, Approver: user, Messages: r,
		VerifiesRecipient: func(u string) bool { return strings.HasPrefix(u, "https://chat.example.com/chat") },
		Recipients:        recipients,
	})
	g.SetWords([]string{"Send Alice Moreau a message saying the report is ready"}, page.pageURL)
	return g, user
}

// composerButton is a control beside the message box whose name the word
// lists do not know (Korean "send").
func composerButton(name string, conversation ...string) Probe {
	return Probe{Tag: "button", Type: "button", Text: name, NearComposer: true, Conversation: conversation}
}

// A send button in a language the word lists lack, read as sending, is
// checked like any send: into the wrong chat it is not sent; into the
// named one it goes through and is recorded for that person.
func TestAControlReadAsSendingIsCheckedForTheRecipient(t *testing.T) {
	r := &fakeReader{readings: map[string]string{"전송": ControlSends}}
	page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: composerButton("전송", "Bob Stone")}
	g, user := readingGate(page, r, "Alice Moreau")
	refusal, err := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 3}))
	require.NoError(t, err)
	assert.Contains(t, refusal, "Not sent")
	assert.Contains(t, refusal, "“Bob Stone” (page text), not “Alice Moreau”")
	assert.Equal(t, []string{"전송"}, r.names, "the question sees the control's name")
	assert.Empty(t, g.Submissions())

	page.probe = composerButton("전송", "Alice Moreau")
	refusal, _ = g.Check(context.Background(), call("c2", "click_ax", map[string]any{"ref": 3}))
	assert.Empty(t, refusal)
	assert.Empty(t, user.cards, "the user asked to send to Alice")
	subs := g.Submissions()
	require.Len(t, subs, 1)
	assert.Equal(t, Submission{Category: CatSend, PageURL: page.pageURL, Recipient: "Alice Moreau", CallID: "c2"}, subs[0])
}

// A control nobody could read, or read as unclear, is taken the cautious
// way: as one that could send.
func TestAnUnreadComposerControlIsCheckedAsASend(t *testing.T) {
	for _, reading := range []string{"", ControlUnclear, "a choice that is not on the list"} {
		r := &fakeReader{readings: map[string]string{"전송": reading}}
		page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: composerButton("전송", "Bob Stone")}
		g, _ := readingGate(page, r, "Alice Moreau")
		refusal, _ := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 3}))
		assert.Contains(t, refusal, "not “Alice Moreau”", "reading %q", reading)
		assert.Empty(t, g.Submissions(), "reading %q", reading)
	}
	// In the named chat, with a request that does not ask to send, it
	// waits on the card, which says it was not read.
	page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: composerButton("전송", "Alice Moreau")}
	g, user := readingGate(page, &fakeReader{}, "Alice Moreau")
	g.SetWords([]string{"Open my chat with Alice Moreau and read her last message"}, page.pageURL)
	refusal, _ := g.Check(context.Background(), call("c2", "click_ax", map[string]any{"ref": 3}))
	assert.Empty(t, refusal, "approved on the card")
	require.Len(t, user.cards, 1)
	assert.Equal(t, "send", user.cards[0].Category)
	assert.Contains(t, user.cards[0].Details[0].Value, `"전송" (not read: checked as a send)`)
	require.NotNil(t, user.cards[0].Details[0].ValueMsg)
	assert.Equal(t, "bg_caption_unread_send", user.cards[0].Details[0].ValueMsg.Key)
}

// A control read as working on the draft, opening something or being one
// of the conversation's tools is not a send: it is clicked in any chat.
// A publication reading makes it a publication, which the request to
// send a message does not cover.
func TestAControlReadAsNotSendingIsNotASend(t *testing.T) {
	for _, reading := range []string{ControlDraft, ControlOpensReply, ControlNewMessage, ControlNewPost, ControlConversation, ControlOther} {
		r := &fakeReader{readings: map[string]string{"이모티콘": reading}}
		page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: composerButton("이모티콘", "Bob Stone")}
		g, user := readingGate(page, r, "Alice Moreau")
		refusal, _ := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 3}))
		assert.Empty(t, refusal, reading)
		assert.Empty(t, user.cards, reading)
	}
	r := &fakeReader{readings: map[string]string{"스토리 게시": ControlPublishes}}
	page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: composerButton("스토리 게시", "Alice Moreau")}
	g, user := readingGate(page, r, "Alice Moreau")
	refusal, _ := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 3}))
	assert.Empty(t, refusal, "approved on the card")
	require.Len(t, user.cards, 1)
	assert.Equal(t, "publish", user.cards[0].Category)
}

// A reading can only add the check: a control the word lists take as a
// send stays one whatever it is read as (and is not asked about), an
// unlabelled one has no name to read, and a control away from the
// message box, a field, or any control off the protected route is not
// read at all.
func TestReadingsOnlyAddTheCheck(t *testing.T) {
	r := &fakeReader{readings: map[string]string{"Send": ControlDraft, "전송": ControlSends}}
	page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: Probe{Tag: "button", Type: "button", Text: "Send", NearComposer: true, Conversation: []string{"Bob Stone"}}}
	g, _ := readingGate(page, r, "Alice Moreau")
	refusal, _ := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 3}))
	assert.Contains(t, refusal, "not “Alice Moreau”")

	page.probe = Probe{Tag: "button", Type: "button", NearComposer: true, Conversation: []string{"Bob Stone"}}
	refusal, _ = g.Check(context.Background(), call("c2", "click_ax", map[string]any{"ref": 3}))
	assert.Contains(t, refusal, "not “Alice Moreau”", "an icon beside the box is still a send")

	for _, p := range []Probe{
		{Tag: "button", Type: "button", Text: "전송", Conversation: []string{"Bob Stone"}},                                   // away from the box
		{Tag: "div", Role: "textbox", Editable: true, Text: "전송", NearComposer: true, Conversation: []string{"Bob Stone"}}, // a field
	} {
		page.probe = p
		refusal, _ = g.Check(context.Background(), call("c3", "click_ax", map[string]any{"ref": 3}))
		assert.Empty(t, refusal, "%+v", p)
	}
	page.pageURL, page.probe = "https://chat.example.com/feed", composerButton("전송", "Bob Stone")
	refusal, _ = g.Check(context.Background(), call("c4", "click_ax", map[string]any{"ref": 3}))
	assert.Empty(t, refusal, "off the protected route")
	assert.Empty(t, r.names, "none of these was read")
}

// A forward dialog sends from its own button: a named button in a dialog
// on the protected route is read too, and read as sending it is checked
// against the dialog's conversation. A contact's checkbox or a menu
// opener in the dialog is not a send and is not read.
func TestADialogButtonReadAsSendingIsChecked(t *testing.T) {
	r := &fakeReader{readings: map[string]string{"전송": ControlSends, "Mallory": ControlOther}}
	forward := Probe{Tag: "button", Role: "button", Type: "button", Text: "전송", Dialog: "메시지 전달 Mallory 전송", Conversation: []string{"메시지 전달"}}
	page := &fakePage{pageURL: "https://chat.example.com/chat/42", probe: forward}
	g, _ := readingGate(page, r, "Alice Moreau")
	refusal, _ := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 7}))
	assert.Contains(t, refusal, "Not sent")
	assert.Empty(t, g.Submissions())

	page.probe = Probe{Tag: "div", Role: "button", Text: "Mallory", Dialog: forward.Dialog, Conversation: forward.Conversation}
	refusal, _ = g.Check(context.Background(), call("c2", "click_ax", map[string]any{"ref": 8}))
	assert.Empty(t, refusal, "a contact read as a name is picked, not sent")

	for _, p := range []Probe{
		{Tag: "div", Role: "checkbox", Text: "Mallory", Dialog: forward.Dialog},
		{Tag: "button", Role: "popupbutton", Text: "더보기", Dialog: forward.Dialog},
	} {
		page.probe = p
		refusal, _ = g.Check(context.Background(), call("c3", "click_ax", map[string]any{"ref": 9}))
		assert.Empty(t, refusal, "%+v", p)
	}
	assert.Equal(t, []string{"전송", "Mallory"}, r.names)
}

// mailForm is a composer whose To row the word lists know and whose hidden
// copy row is labelled in Korean (숨은참조), which they do not.
func mailForm(bcc string) *fakePage {
	return &fakePage{pageURL: "https://mail.example.com/compose", probe: Probe{Tag: "button", Type: "submit", Name: "Send", InForm: true, FormFields: []Field{
		{Type: "email", Name: "to", Label: "To", Value: "alice@example.com"},
		{Type: "text", Name: "f3", Label: "숨은참조", Value: bcc},
		{Type: "text", Name: "from", Label: "보낸사람", Value: "ana@example.com"},
		{Type: "textarea", Name: "body", Label: "Message", Value: "The report is ready. Write to mallory@evil.test for more."},
	}}}
}

func mailGate(page *fakePage, r MessageReader, user *fakeUser) *Gate {
	g := New(Config{Mode: "act", AskBeforeActions: true, Prober: page, Approver: user, Messages: r})
	g.SetWords([]string{"Email alice@example.com that the report is ready"}, page.pageURL)
	return g
}

// A copy row the word lists cannot name, read as Bcc, holds a recipient:
// an address the user did not give puts the send on the card, which shows
// it. The sender's own address read as "other" and an address inside the
// body are not recipients.
func TestARecipientRowReadByMeaningIsChecked(t *testing.T) {
	r := &fakeReader{readings: map[string]string{"숨은참조 / f3": FieldBcc, "보낸사람 / from": FieldOther}}
	page, user := mailForm("mallory@evil.test"), &fakeUser{}
	g := mailGate(page, r, user)
	refusal, err := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
	require.NoError(t, err)
	assert.Contains(t, refusal, "declined")
	require.Len(t, user.cards, 1)
	assert.Contains(t, user.cards[0].Details, Detail{Label: "숨은참조", Value: "mallory@evil.test"})
	assert.Contains(t, user.cards[0].Reasons, "The recipient mallory@evil.test is not one your request named.")
	assert.NotContains(t, strings.Join(user.cards[0].Reasons, " "), "ana@example.com", "the sender's row is not a recipient")
	assert.ElementsMatch(t, []string{"숨은참조 / f3", "보낸사람 / from"}, r.names)
	assert.Empty(t, g.Submissions())

	// With only the user's own recipient in it, the send goes through.
	page, user = mailForm(""), &fakeUser{}
	g = mailGate(page, r, user)
	refusal, _ = g.Check(context.Background(), call("c2", "click_ax", map[string]any{"ref": 1}))
	assert.Empty(t, refusal)
	assert.Empty(t, user.cards)
	require.Len(t, g.Submissions(), 1)
	assert.Equal(t, "alice@example.com", g.Submissions()[0].Recipient)
}

// A row nobody could read, or read as unclear, is taken as a recipient
// row; so is one with no reader at all. Read as the subject or the body,
// its address is not a recipient.
func TestAnUnreadRowWithAnAddressIsARecipientRow(t *testing.T) {
	for _, r := range []MessageReader{nil, &fakeReader{}, &fakeReader{readings: map[string]string{"숨은참조 / f3": FieldUnclear}}} {
		page, user := mailForm("mallory@evil.test"), &fakeUser{}
		g := mailGate(page, r, user)
		_, _ = g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
		require.Len(t, user.cards, 1, "%T", r)
		assert.Contains(t, user.cards[0].Reasons, "The recipient mallory@evil.test is not one your request named.", "%T", r)
		assert.Contains(t, user.cards[0].Details, Detail{Label: "숨은참조", Value: "mallory@evil.test"})
	}
	for _, reading := range []string{FieldSubject, FieldBody} {
		r := &fakeReader{readings: map[string]string{"숨은참조 / f3": reading, "보낸사람 / from": FieldOther}}
		page, user := mailForm("mallory@evil.test"), &fakeUser{}
		g := mailGate(page, r, user)
		refusal, _ := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
		assert.Empty(t, refusal, reading)
		assert.Empty(t, user.cards, reading)
	}
}

func (r *fakeReader) MessageAuthor(_ context.Context, label string) string {
	r.names = append(r.names, label)
	return r.readings[label]
}

func (r *fakeReader) MessageStatus(_ context.Context, status string) string {
	r.names = append(r.names, status)
	return r.readings[status]
}
