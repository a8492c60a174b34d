package guard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webbrain/webbrain/wasm/uitext"
)

// The card's words carry their catalog keys (docs/decisions/background-texts.md);
// what came from the page (recipient, caption, host) is a parameter, as it was.
func TestApprovalCardTextsCarryKeysAndPageValuesStayData(t *testing.T) {
	page := &fakePage{pageURL: "https://mail.example.com/inbox", probe: Probe{Tag: "button", Type: "submit", Name: "Send", InForm: true,
		FormFields: []Field{{Type: "email", Name: "to", Value: "mallory@example.net"}, {Type: "textarea", Name: "body", Label: "Message", Value: "Hi"}}}}
	user := &fakeUser{}
	g := newGate("act", "Email alice@example.com that the report is ready", page.pageURL, page, user)
	_, _ = g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
	require.Len(t, user.cards, 1)
	c := user.cards[0]

	require.NotNil(t, c.TextMsg)
	assert.Equal(t, "bg_approval_action_caption", c.TextMsg.Key)
	assert.Equal(t, uitext.Msg{Key: "bg_action_send"}, c.TextMsg.Params["action"])
	assert.Equal(t, "mail.example.com", c.TextMsg.Params["site"])
	assert.Equal(t, `Send: button "Send" on mail.example.com.`, c.Text)
	assert.Equal(t, `button "Send"`, c.TextMsg.Params["caption"], "the control as the page names it (role and caption) is data")

	require.NotEmpty(t, c.Details)
	assert.Equal(t, "Action", c.Details[0].Label)
	assert.Equal(t, "bg_label_action", c.Details[0].LabelMsg.Key)
	var recipient *Detail
	for i := range c.Details {
		if c.Details[i].Value == "mallory@example.net" {
			recipient = &c.Details[i]
		}
	}
	require.NotNil(t, recipient, "the recipient is shown as the page has it")
	assert.Equal(t, "to", recipient.Label, "the field's own name labels it")
	assert.Nil(t, recipient.LabelMsg, "the page's label is data, not a key")
	assert.Nil(t, recipient.ValueMsg, "a value from the page is never a key")
	unlabelled := valueDetail(Value{Kind: "recipient", Value: "@mallory"})
	assert.Equal(t, Detail{Label: "Recipient", Value: "@mallory", LabelMsg: &uitext.Msg{Key: "bg_label_recipient"}}, unlabelled)

	require.Len(t, c.ReasonMsgs, len(c.Reasons))
	found := false
	for i, m := range c.ReasonMsgs {
		if m != nil && m.Key == "bg_reason_recipient" {
			found = true
			assert.Equal(t, "mallory@example.net", m.Params["recipient"])
			assert.Equal(t, "The recipient mallory@example.net is not one your request named.", c.Reasons[i])
		}
	}
	assert.True(t, found, "reasons: %v", c.Reasons)
}

func TestEnterInAMessageBoxIsWordedByWebBrain(t *testing.T) {
	page := &fakePage{pageURL: "https://chat.example.com/", probe: Probe{Tag: "textarea", Multiline: true, Enter: true}}
	user := &fakeUser{}
	g := newGate("act", "read the chat", page.pageURL, page, user)
	_, _ = g.Check(context.Background(), call("c1", "press_keys", map[string]any{"ref": "ref_2", "keys": "Enter"}))
	if len(user.cards) == 0 {
		t.Skip("Enter here is not asked about")
	}
	c := user.cards[0]
	require.NotNil(t, c.TextMsg)
	caption, ok := c.TextMsg.Params["caption"].(uitext.Msg)
	require.True(t, ok, "the caption is WebBrain's words: %#v", c.TextMsg.Params)
	assert.Equal(t, "bg_caption_enter_in", caption.Key)
	assert.Equal(t, uitext.Msg{Key: "bg_caption_message_box"}, caption.Params["field"])
	assert.Equal(t, "bg_caption_enter_in", c.Details[0].ValueMsg.Key)
}

func TestNavigationCardKeys(t *testing.T) {
	page := &fakePage{pageURL: "https://news.example.com/"}
	user := &fakeUser{}
	g := newGate("act", "summarise this page", page.pageURL, page, user)
	_, _ = g.Check(context.Background(), call("n1", "navigate", map[string]any{"url": "https://other.example.org/x"}))
	require.Len(t, user.cards, 1)
	c := user.cards[0]
	assert.Equal(t, "bg_approval_open", c.TextMsg.Key)
	assert.Equal(t, "other.example.org", c.TextMsg.Params["host"])
	assert.Equal(t, "bg_label_address", c.Details[0].LabelMsg.Key)
	require.NotEmpty(t, c.ReasonMsgs)
	assert.Equal(t, "bg_reason_host_not_named", c.ReasonMsgs[0].Key)
}

func TestTypingASecretNamesItsKind(t *testing.T) {
	page := &fakePage{pageURL: "https://forum.example.com/t/1", probe: Probe{Tag: "textarea", Name: "Reply"}}
	user := &fakeUser{}
	g := newGate("act", "reply to the thread saying thanks", page.pageURL, page, user)
	_, _ = g.Check(context.Background(), call("t", "type_ax", map[string]any{"ref": "ref_3", "text": "my key is sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t"}))
	require.Len(t, user.cards, 1)
	c := user.cards[0]
	assert.Equal(t, "bg_approval_type_secret", c.TextMsg.Key)
	assert.Equal(t, uitext.Msg{Key: "bg_secret_api_key"}, c.TextMsg.Params["what"])
	assert.Equal(t, "Field", c.Details[0].Label)
	assert.Equal(t, "Reply", c.Details[0].Value)
	assert.Equal(t, "bg_reason_typed_secret", c.ReasonMsgs[0].Key)
}
