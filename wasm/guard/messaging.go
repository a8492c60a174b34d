package guard

import (
	"context"
	"strings"

	"github.com/webbrain/webbrain/wasm/uitext"
)

// Readings of a messaging page's own texts (the spec's message_control),
// for the recipient check of recipients.go. The word lists read captions
// in seven languages; a send button in any other language, or one whose
// name the lists do not know, would pass as an ordinary control and send
// without the check. So on a route whose sends are verified, a named
// control beside the message box that the lists leave unsorted is read
// by a model with one closed question about its name, which travels as
// page data. The reading can only add the check: a control the lists or
// the page's structure already take as a send stays one whatever the
// reading says, and a control nobody could read is checked as a send.

// MessageReader reads the texts of a messaging page. The background
// answers with package decide (docs/decisions/semantic-decisions.md):
// the decision model first, the active model within a few seconds.
type MessageReader interface {
	// MessageControl answers message_control about a control's name;
	// "" when no model answered.
	MessageControl(ctx context.Context, name string) string
	// MessageField answers message_field about a field's labels and
	// names; "" when no model answered.
	MessageField(ctx context.Context, label string) string
	// MessageAuthor answers message_author about a message row's label
	// (chat.go); "" when no model answered.
	MessageAuthor(ctx context.Context, label string) string
	// MessageStatus answers message_status about a sent message's status
	// label (chat.go); "" when no model answered.
	MessageStatus(ctx context.Context, status string) string
}

// Readings of message_control.
const (
	ControlSends        = "sends"                  // sends something to someone
	ControlPublishes    = "publishes"              // publishes a post or story
	ControlOpensReply   = "opens_reply_or_forward" // opens a reply or forward
	ControlNewMessage   = "opens_new_message"      // opens a new message
	ControlNewPost      = "opens_new_post"         // opens a new post
	ControlDraft        = "works_on_draft"         // only works on the draft being written
	ControlConversation = "conversation_tool"      // call, search, settings, back…
	ControlOther        = "other"                  // a contact's name, anything else
	ControlUnclear      = "unclear"
)

// Readings of message_field: which row of a message a field is.
const (
	FieldTo      = "to"
	FieldCc      = "cc"
	FieldBcc     = "bcc"
	FieldSubject = "subject"
	FieldBody    = "body"
	FieldOther   = "other"
	FieldUnclear = "unclear"
)

// readMessageControl sorts, on a route whose sends are verified, a named
// control beside the message box, or a button in a dialog (a forward or
// share dialog sends from there), that the word lists left unsorted: read
// as sending, unclear or not read, it is checked as a send; read as
// publishing, as a publication; anything else stays an ordinary control.
func (g *Gate) readMessageControl(ctx context.Context, p Probe, c Classification) Classification {
	if c.Category != CatNone || g.cfg.Messages == nil || p.Editable || unnamed(p) || !g.verifies(p.PageURL) {
		return c
	}
	if !p.NearComposer && (p.Dialog == "" || !buttonLike(p)) {
		return c
	}
	ctl := p.control()
	name := strings.Join(captions(ctl), " / ")
	if strings.TrimSpace(name) == "" {
		return c
	}
	switch g.cfg.Messages.MessageControl(ctx, name) {
	case ControlOpensReply, ControlNewMessage, ControlNewPost, ControlDraft, ControlConversation, ControlOther:
		return c
	case ControlPublishes:
		return verdict(ctl, CatPublish, quote(ctl))
	case ControlSends:
		return verdict(ctl, CatSend, quote(ctl))
	}
	// Unclear or no answer: until it is read it is taken as a control that
	// could send.
	v := verdict(ctl, CatSend, quote(ctl))
	v.setCaption(uitext.T("bg_caption_unread_send", "$control$ (not read: checked as a send)", "control", quote(ctl)))
	return v
}

// buttonLike: a button, not a field, a choice or a menu opener.
func buttonLike(p Probe) bool {
	tag, role, typ := lower(p.Tag), lower(p.Role), lower(p.Type)
	switch {
	case role == "popupbutton" || role == "checkbox" || role == "radio" || role == "option" || role == "switch":
		return false
	case tag == "button", role == "button":
		return true
	case tag == "input":
		return typ == "submit" || typ == "button" || typ == "image"
	}
	return false
}

// readRecipientRows adds, for a send from a form, the addresses of the
// fields the word lists did not take as recipient rows: a Bcc row labelled
// in a language they lack would otherwise carry an address nobody checks.
// A field whose value holds an e-mail address and that the lists read as
// nothing is read with message_field: read as a To, Cc or Bcc row, not
// read, or without labels, its addresses are recipients the user's words
// must name; read as the subject, the body or something else (the
// sender's own address), they are not. Hidden fields, choices and the
// fields the lists already sorted are not read.
func (g *Gate) readRecipientRows(ctx context.Context, values []Value, fields []Field) []Value {
	for _, fd := range fields {
		t, typ := fieldText(fd), lower(fd.Type)
		switch typ {
		case "hidden", "password", "textarea", "submit", "button", "checkbox", "radio", "select", "select-one", "select-multiple", "email":
			continue
		}
		if isRecipient(fd, t) || keyBody.in(t) || keySubject.in(t) || keyCard.in(t) || keyAccount.in(t) || keyAmount.in(t) || keyRole.in(t) {
			continue
		}
		found := emails(fd.Value)
		if len(found) == 0 {
			continue
		}
		label := strings.TrimSpace(strings.Join(nonEmpty(fd.Label, fd.Name), " / "))
		reading := ""
		if label != "" && g.cfg.Messages != nil {
			reading = g.cfg.Messages.MessageField(ctx, label)
		}
		switch reading {
		case FieldSubject, FieldBody, FieldOther:
			continue
		}
		shown := firstNonEmpty(fd.Label, fd.Name) // "" shows as "Recipient"
		values = addRecipients(values, shown, found)
	}
	return values
}

// addRecipients adds the addresses found in a row shown as label to
// values, once each and up to maxValues.
func addRecipients(values []Value, label string, found []string) []Value {
	for _, e := range found {
		if len(values) >= maxValues {
			break
		}
		dup := false
		for _, v := range values {
			dup = dup || v.Kind == "recipient" && strings.EqualFold(v.Value, e)
		}
		if !dup {
			values = append(values, Value{Kind: "recipient", Label: label, Value: e})
		}
	}
	return values
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
