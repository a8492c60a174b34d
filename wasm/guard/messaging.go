package guard

import (
	"context"
	"strings"
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
		return verdict(ctl, CatPublish, quote(ctl)+" (read as publishing)")
	case ControlSends:
		return verdict(ctl, CatSend, quote(ctl)+" (read as sending)")
	}
	// Unclear or no answer: until it is read it is taken as a control that
	// could send.
	return verdict(ctl, CatSend, quote(ctl)+" beside the message box (not read: checked as a send)")
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
