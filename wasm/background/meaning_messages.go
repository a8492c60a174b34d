package background

import (
	"context"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/decide"
	"github.com/webbrain/webbrain/wasm/guard"
)

// The recipient guard's readings of a conversation's messages
// (guard.MessageReader, wasm/guard/chat.go): who sent a message, from the
// label the chat app puts on its row, and what a sent message's status
// says. Both read page text, inside the run's untrusted boundary; both are
// asked with decide.AskPage (the decision model first, the active model
// within activeReadWithin, each text once per run), and no choice
// authorizes anything: "self" only counts a message toward the sent-body
// baseline, so a reading can refuse a repeated send but never let one
// through (docs/decisions/adapter-jobs.md, "message_author").

// messageAuthorQuestion is the spec's message_author.
var messageAuthorQuestion = decide.Question{
	ID: "message_author",
	Text: "The page data block holds the label a messaging site puts on one message of a conversation (the text a screen reader announces for it). " +
		"In whatever language it is, does the label say that the page's own user, the person signed in, sent this message?",
	Choices: []decide.Choice{
		{Value: guard.AuthorSelf, Meaning: "the page's own user sent it: the label says \"you\", \"me\" or \"I\" in its language, or marks it as an outgoing message"},
		{Value: guard.AuthorOther, Meaning: "someone else sent it: the label names another person or marks it as an incoming message"},
		{Value: guard.AuthorUnclear, Meaning: "the label does not say who sent it"},
	},
}

// MessageAuthor reads one message row's label (guard.MessageReader).
func (m meaning) MessageAuthor(ctx context.Context, label string) string {
	return m.d.AskPage(ctx, messageAuthorQuestion, clip.Runes(label, 300), activeReadWithin).Choice
}

// messageStatusQuestion is the spec's message_status.
var messageStatusQuestion = decide.Question{
	ID: "message_status",
	Text: "The page data block holds the status a messaging site shows for one message the user sent (the label of its status mark). " +
		"In whatever language it is, what does the status say?",
	Choices: []decide.Choice{
		{Value: guard.StatusDelivered, Meaning: "the message was delivered to the recipient, or read"},
		{Value: guard.StatusSent, Meaning: "the message was sent but is not shown as delivered yet"},
		{Value: guard.StatusPending, Meaning: "the message is still waiting to be sent, or sending failed"},
		{Value: guard.StatusUnclear, Meaning: "it cannot be told from the status"},
	},
}

// MessageStatus reads one sent message's status (guard.MessageReader).
func (m meaning) MessageStatus(ctx context.Context, status string) string {
	return m.d.AskPage(ctx, messageStatusQuestion, clip.Runes(status, 120), activeReadWithin).Choice
}
