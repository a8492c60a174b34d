package guard

import (
	"context"
	"strings"
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
	assert.Equal(t, uitext.Msg{Key: "bg_control_caption", Params: map[string]any{"role": uitext.Msg{Key: "bg_role_button"}, "caption": `"Send"`}},
		c.TextMsg.Params["caption"], "the role is WebBrain's word, the caption the page's data")

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

// The file, script, CAPTCHA, WebMCP and skill-tool cards carry their keys;
// hosts, field captions, tool names and code stay data.
func TestToolCardsCarryKeys(t *testing.T) {
	ctx := context.Background()
	keyOf := func(m *uitext.Msg) string {
		if m == nil {
			return ""
		}
		return m.Key
	}
	reasonKeys := func(a Approval) []string {
		var out []string
		for _, m := range a.ReasonMsgs {
			out = append(out, keyOf(m))
		}
		return out
	}

	page := &fakePage{pageURL: "https://reports.example.com/q3", links: []string{"https://reports.example.com/files/q3.csv"}}
	user := &fakeUser{}
	g := newGate("act", "What does the Q3 report say about revenue?", page.pageURL, page, user)
	_, _ = g.Check(ctx, call("c1", "download_files", map[string]any{"urls": []any{"https://reports.example.com/files/q3.csv"}}))
	require.Len(t, user.cards, 1)
	c := user.cards[0]
	assert.Equal(t, "Download a file from reports.example.com (shown on reports.example.com).", c.Text)
	assert.Equal(t, "bg_approval_download_shown", keyOf(c.TextMsg))
	assert.Equal(t, "reports.example.com", c.TextMsg.Params["host"])
	assert.Equal(t, []string{"bg_reason_no_download"}, reasonKeys(c))
	assert.Equal(t, "bg_label_file", keyOf(c.Details[0].LabelMsg))

	page = &fakePage{pageURL: "https://forms.example.com/apply", probe: Probe{Tag: "input", Type: "file", Name: "Résumé"}}
	user = &fakeUser{}
	g = newGate("act", "Fill in my name on this form", page.pageURL, page, user)
	_, _ = g.Check(ctx, call("c2", "upload_file", map[string]any{"downloadId": 4, "ref": "ref_9"}))
	require.Len(t, user.cards, 1)
	c = user.cards[0]
	assert.Equal(t, `Give downloaded file 4 to "Résumé" on forms.example.com.`, c.Text)
	assert.Equal(t, "bg_approval_upload", keyOf(c.TextMsg))
	assert.Equal(t, `"Résumé"`, c.TextMsg.Params["field"], "the page's caption is data")
	assert.Equal(t, []string{"bg_reason_no_upload"}, reasonKeys(c))
	assert.Equal(t, Detail{Label: "Field", Value: "Résumé", LabelMsg: &uitext.Msg{Key: "bg_label_field"}}, c.Details[0])

	page = &fakePage{pageURL: "https://shop.example/cart"}
	user = &fakeUser{}
	g = newGate("dev", "Why is the checkout button grey?", page.pageURL, page, user)
	_, _ = g.Check(ctx, call("c3", "execute_js", map[string]any{"code": "return document.title"}))
	require.Len(t, user.cards, 1)
	c = user.cards[0]
	assert.Equal(t, "Run JavaScript written by the assistant in the page on shop.example.", c.Text)
	assert.Equal(t, "bg_approval_script", keyOf(c.TextMsg))
	assert.Equal(t, []string{"bg_reason_no_script"}, reasonKeys(c))
	assert.Equal(t, Detail{Label: "Code", Value: "return document.title", LabelMsg: &uitext.Msg{Key: "bg_label_code"}}, c.Details[0])

	cp := &preflightPage{fakePage: fakePage{pageURL: "https://shop.example/checkout"}}
	user = &fakeUser{decide: func(Approval) Decision { return Approve }}
	g = newGate("act", "Buy the blue mug", cp.pageURL, &cp.fakePage, user)
	g.cfg.Prober = cp
	_, _ = g.Check(ctx, call("c4", "solve_captcha", map[string]any{}))
	require.Len(t, user.cards, 1)
	c = user.cards[0]
	assert.Equal(t, "bg_approval_captcha", keyOf(c.TextMsg))
	assert.Equal(t, []string{"bg_reason_no_captcha"}, reasonKeys(c))
	assert.Equal(t, "bg_captcha_sent", keyOf(c.Details[1].ValueMsg), "WebBrain's words in a value carry a key")

	user = &fakeUser{decide: func(Approval) Decision { return Approve }}
	g = newGate("act", "Save a note about Lisbon", "https://news.example.com/", &fakePage{pageURL: "https://news.example.com/"}, user)
	_, _ = g.CheckSkill(ctx, call("c5", "save_note", map[string]any{"text": "Lisbon trip"}),
		SkillCall{Skill: "Notes", Method: "POST", URL: "https://api.notes.example/v1/notes", Values: []string{"Lisbon trip"}})
	require.Len(t, user.cards, 1)
	c = user.cards[0]
	assert.Equal(t, "Send a request to api.notes.example with the skill Notes.", c.Text)
	assert.Equal(t, "bg_approval_skill_send", keyOf(c.TextMsg))
	assert.Equal(t, "Notes", c.TextMsg.Params["skill"])
	assert.Equal(t, []string{"bg_reason_skill_not_read"}, reasonKeys(c))
	assert.Equal(t, "save_note (skill Notes)", c.Details[0].Value)
	assert.Equal(t, "bg_skill_tool", keyOf(c.Details[0].ValueMsg))
}

// A role WebBrain does not know stays as the probe named it; the notes a
// form or dialog adds are WebBrain's words around the page's names.
func TestControlCaptionsKeyTheirWords(t *testing.T) {
	c := Classify(Control{Tool: "click_ax", Tag: "div", Role: "treegrid", Text: "Delete row"})
	assert.Equal(t, `treegrid "Delete row"`, c.Caption)
	require.NotNil(t, c.CaptionMsg)
	assert.Equal(t, "treegrid", c.CaptionMsg.Params["role"], "an unknown role is data")

	c = Classify(Control{Tool: "click_ax", Tag: "button", Role: "button", Text: "OK", Dialog: "Delete this file?"})
	assert.Equal(t, `button "OK" in dialog "Delete this file?"`, c.Caption)
	require.NotNil(t, c.CaptionMsg)
	assert.Equal(t, "bg_caption_in_dialog", c.CaptionMsg.Key)
	assert.Equal(t, `"Delete this file?"`, c.CaptionMsg.Params["dialog"])
}

// Data found in an address: the label, the kinds and the reason are
// WebBrain's words, the host and the value the request's.
func TestDataInAnAddressIsWordedWithKeys(t *testing.T) {
	page := &fakePage{pageURL: "https://mail.example.com/inbox", resource: Resource{URL: "https://img.tracker.test/p.gif?token=sk-live-4f9a8b7c6d5e4f3a2b1c0d9e&to=bob@example.org", Kind: "image"}}
	user := &fakeUser{}
	g := newGate("act", "Download the picture in this email", page.pageURL, page, user)
	_, _ = g.Check(context.Background(), call("c1", "download_resource_from_page", map[string]any{"ref": "ref_3"}))
	require.Len(t, user.cards, 1)
	c := user.cards[0]
	var reason *uitext.Msg
	for i, r := range c.Reasons {
		if strings.Contains(r, "carries") {
			reason = c.ReasonMsgs[i]
			assert.Equal(t, "The address on img.tracker.test carries e-mail address and secret that your request did not give.", r)
		}
	}
	require.NotNil(t, reason, "reasons %q", c.Reasons)
	assert.Equal(t, "bg_reason_address_on_carries", reason.Key)
	assert.Equal(t, "img.tracker.test", reason.Params["host"])
	assert.Equal(t, uitext.Msg{Key: "bg_list_and", Params: map[string]any{"first": uitext.Msg{Key: "bg_data_email"}, "last": uitext.Msg{Key: "bg_data_secret"}}}, reason.Params["data"])
	labels := map[string]string{}
	for _, d := range c.Details {
		if d.LabelMsg != nil {
			labels[d.LabelMsg.Key] = d.Value
		}
	}
	assert.Equal(t, "bob@example.org", labels["bg_label_email_in_address"])
	assert.Contains(t, labels, "bg_label_secret_in_address")

	three := joinTexts([]uitext.Text{uitext.Plain("a"), uitext.Plain("b"), uitext.Plain("c")})
	assert.Equal(t, "a, b and c", three.English)
}
