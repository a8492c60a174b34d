package background

import (
	"context"
	"strings"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/decide"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// meaning answers the action gate's questions with the run's decider
// (guard.Meaning, docs/decisions/semantic-decisions.md).
type meaning struct{ d *decide.Decider }

// actionRequestQuestion asks whether the request wants one category of
// consequential action. "yes" is authorizing.
func actionRequestQuestion(c guard.Category, what string) decide.Question {
	return decide.Question{
		ID:   "action_request:" + string(c),
		Text: "Does the request ask WebBrain to " + what + "?",
		Choices: []decide.Choice{
			{Value: "yes", Meaning: "the request asks for this kind of action, in whatever words or language", Authorizing: true},
			{Value: "no", Meaning: "it does not ask for it, only mentions it, asks to prepare or check something, or says not to"},
		},
	}
}

// actionWhat names each category for the question.
var actionWhat = map[guard.Category]string{
	guard.CatSend:     "send a message, an email or a form to someone",
	guard.CatPublish:  "publish or post something (a post, comment, review, reply or listing)",
	guard.CatPayment:  "pay, transfer or move money",
	guard.CatPurchase: "buy something, order it or add it to a cart",
	guard.CatShare:    "share something or give someone access",
	guard.CatAccount:  "change the account's security (password, sign-in methods, account closure)",
	guard.CatSubmit:   "submit a form or change something on a website",
}

func (m meaning) Asks(ctx context.Context, request string, c guard.Category) bool {
	what, ok := actionWhat[c]
	if !ok {
		return false
	}
	a := m.d.Ask(ctx, actionRequestQuestion(c, what), decide.Input{Request: request})
	return a.Choice == "yes"
}

// deletionQuestion is the spec's deletion_request: whether the request
// asks to delete this exact item, which it sees only as page data.
var deletionQuestion = decide.Question{
	ID:   "deletion_request",
	Text: "The page shows the item below with a control that deletes it. Does the request ask WebBrain to delete this exact item?",
	Choices: []decide.Choice{
		{Value: guard.DeleteThis, Meaning: "the request asks to delete this item: it names it, or describes it so that it is the one meant", Authorizing: true},
		{Value: guard.DeleteUnclear, Meaning: "the request asks to delete something, but another item could fit as well, or it names the item only by position"},
		{Value: guard.DeleteAnother, Meaning: "the request asks to delete a different item"},
		{Value: guard.DeleteNotAsked, Meaning: "the request does not ask to delete anything"},
		{Value: guard.DeleteToldNot, Meaning: "the request says not to delete this item, or to keep it"},
	},
}

func (m meaning) Deletion(ctx context.Context, request string, item guard.DeletionItem) string {
	var page strings.Builder
	page.WriteString("Item: " + clip.Runes(item.Text, 600) + "\n")
	if item.Link != "" {
		page.WriteString("Its link: " + clip.Runes(item.Link, 300) + "\n")
	}
	if item.Caption != "" {
		page.WriteString("The control: " + clip.Runes(item.Caption, 200) + "\n")
	}
	if item.Dialog != "" {
		page.WriteString("The site's confirmation question: " + clip.Runes(item.Dialog, 400) + "\n")
	}
	return m.d.Ask(ctx, deletionQuestion, decide.Input{Request: request, Page: page.String()}).Choice
}

// summaryQuestion is the spec's done_summary: whether a short final
// answer gives the result. The answer is the model's text, which may
// quote pages, so it travels as page data.
var summaryQuestion = decide.Question{
	ID:   "done_summary",
	Text: "The page data block holds the assistant's final answer to the request. Does it give the user the result, or does it only say that an answer was given or the work was done, or only say what will be done next?",
	Choices: []decide.Choice{
		{Value: agent.SummaryResult, Meaning: "it gives the answer, the values found or what exactly was done; a short answer can be complete"},
		{Value: agent.SummaryClaim, Meaning: "it only says that the question was answered or the task was done, without the content the user asked for"},
		{Value: agent.SummaryPlan, Meaning: "it only says what will be done next, as a plan or promise"},
	},
}

// summaryKind answers done_summary for a run: in Act with the decision
// model or the active model; in Ask only with a decision model, so that a
// short answer costs no second request of the active model.
func summaryKind(d *decide.Decider, mode string) func(ctx context.Context, request, summary string) string {
	return func(ctx context.Context, request, summary string) string {
		in := decide.Input{Request: request, Page: summary}
		if mode == protocol.ModeAsk {
			return d.AskDecisionModel(ctx, summaryQuestion, in).Choice
		}
		return d.Ask(ctx, summaryQuestion, in).Choice
	}
}

// messageControlQuestion is the spec's message_control: what a control
// beside a messaging page's message box does, read from its name alone (page
// data). No reading authorizes anything: "sends" adds the recipient check,
// and every other reading leaves the control to the word lists, which is
// where it was before the question (docs/decisions/semantic-decisions.md).
var messageControlQuestion = decide.Question{
	ID: "message_control",
	Text: "The page data block holds the name of one control on a messaging site, shown beside the box where a message is written. " +
		"In whatever language it is, what does clicking this control do?",
	Choices: []decide.Choice{
		{Value: guard.ControlSends, Meaning: "it sends something to someone: a message, a reply, a file, a voice note, a forward"},
		{Value: guard.ControlPublishes, Meaning: "it publishes a post, a story or a status for others to see"},
		{Value: guard.ControlOpensReply, Meaning: "it only opens a reply or a forward, without sending it"},
		{Value: guard.ControlNewMessage, Meaning: "it only opens a new message or a new chat"},
		{Value: guard.ControlNewPost, Meaning: "it only opens a new post to write"},
		{Value: guard.ControlDraft, Meaning: "it only works on the message being written: emoji, formatting, attach a file to the draft, record, clear"},
		{Value: guard.ControlConversation, Meaning: "it is one of the conversation's own tools: a call, search, settings, information, back or close"},
		{Value: guard.ControlOther, Meaning: "something else, such as a contact's or a chat's name"},
		{Value: guard.ControlUnclear, Meaning: "it cannot be told from the name"},
	},
}

// MessageControl reads one control's name (guard.MessageReader): the
// decision model first, the active model within activeReadWithin.
func (m meaning) MessageControl(ctx context.Context, name string) string {
	return m.d.AskPage(ctx, messageControlQuestion, clip.Runes(name, 300), activeReadWithin).Choice
}

// messageFieldQuestion is the spec's message_field: which row of a message
// a field is, from its labels and names (page data). A To, Cc or Bcc
// reading makes the field's addresses recipients the user's words must
// name; no reading authorizes anything.
var messageFieldQuestion = decide.Question{
	ID: "message_field",
	Text: "The page data block holds the label and name of one field of a form that sends a message (an e-mail composer, a message form). " +
		"In whatever language it is, which row of the message is this field?",
	Choices: []decide.Choice{
		{Value: guard.FieldTo, Meaning: "the To row: who the message is addressed to"},
		{Value: guard.FieldCc, Meaning: "the Cc row: who receives a copy"},
		{Value: guard.FieldBcc, Meaning: "the Bcc row: who receives a hidden copy"},
		{Value: guard.FieldSubject, Meaning: "the subject or title"},
		{Value: guard.FieldBody, Meaning: "the message's text"},
		{Value: guard.FieldOther, Meaning: "something else: the sender's own address or name, a reply-to or signature setting, a search field"},
		{Value: guard.FieldUnclear, Meaning: "it cannot be told from the label and name"},
	},
}

// MessageField reads one field's labels and names (guard.MessageReader).
func (m meaning) MessageField(ctx context.Context, label string) string {
	return m.d.AskPage(ctx, messageFieldQuestion, clip.Runes(label, 300), activeReadWithin).Choice
}
