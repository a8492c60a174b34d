package guard

import (
	"context"
	"strings"

	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/secrets"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// checkClick classifies what a click would do and decides whether the
// user's words cover it.
func (g *Gate) checkClick(ctx context.Context, tool string, args map[string]any) (*ask, string) {
	return g.checkControl(ctx, tool, args, false)
}

// checkControl probes the control a click or Enter reaches and judges it;
// an action that waits for the user is bound to what the probe showed.
func (g *Gate) checkControl(ctx context.Context, tool string, args map[string]any, enter bool) (*ask, string) {
	p, err := g.probe(ctx, tool, args, enter)
	if err != nil {
		return nil, err.Error()
	}
	a, refusal := g.judgeControl(ctx, tool, p)
	if a != nil {
		a.same = g.stillShows(tool, args, enter, p)
	}
	return a, refusal
}

// checkEnter decides what Enter in a field submits: its form's submit
// control, or the composer the field is.
func (g *Gate) checkEnter(ctx context.Context, tool string, args map[string]any) (*ask, string) {
	return g.checkControl(ctx, tool, args, true)
}

// checkTyping asks before text the user did not give leaves through a
// field: a secret read from a page. A typed Enter (submit) is judged like
// pressing Enter in the field.
func (g *Gate) checkTyping(ctx context.Context, tool string, args map[string]any) (*ask, string) {
	text := typedText(args)
	if found := g.secretsNotFromUser(text); len(found) > 0 {
		p, _ := g.probe(ctx, tool, args, false)
		site := HostOf(p.PageURL)
		var details []Detail
		if f := firstNonEmpty(p.Name, p.Placeholder, p.AriaLabel); f != "" {
			details = append(details, NewDetail(uitext.T("bg_label_field", "Field"), f))
		}
		for _, m := range found {
			details = append(details, NewDetail(labelSecret(), hint(m)))
		}
		what := kindText(found[0].Kind)
		card := uitext.T("bg_approval_type_secret", "Type a $what$ that came from a page, not from you, into a field on $site$.",
			"what", what, "site", siteText(site))
		reason := uitext.T("bg_reason_typed_secret", "The text contains a $what$ that your request did not give. Pages sometimes trick assistants into typing secrets where others can read them.",
			"what", what)
		return &ask{
			approval: Approval{
				Text: card.English, TextMsg: card.Msg,
				Category: protocol.CategoryTypeData, Site: site, URL: p.PageURL, Details: details,
				Reasons: []string{reason.English}, ReasonMsgs: []*uitext.Msg{reason.Msg},
			},
			grant: protocol.CategoryTypeData + "|" + SiteOf(site),
			key:   "type|" + site + "|" + text,
		}, ""
	}
	if submit, _ := args["submit"].(bool); submit && tool == protocol.ToolTypeAX {
		return g.checkEnter(ctx, tool, args)
	}
	if _, ok := args["checked"]; ok && tool == protocol.ToolSetField {
		// A switch can grant access or turn on payments.
		return g.checkClick(ctx, tool, args)
	}
	return nil, ""
}

func typedText(args map[string]any) string {
	var parts []string
	for _, k := range []string{"text", "value"} {
		if s, ok := args[k].(string); ok {
			parts = append(parts, s)
		}
	}
	if vs, ok := args["values"].([]any); ok {
		for _, v := range vs {
			if s, ok := v.(string); ok {
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, "\n")
}

func (g *Gate) probe(ctx context.Context, tool string, args map[string]any, enter bool) (Probe, error) {
	if g.cfg.Prober == nil {
		return Probe{}, nil
	}
	a := map[string]any{"tool": tool}
	for _, k := range []string{"ref", "x", "y"} {
		if v, ok := args[k]; ok {
			a[k] = v
		}
	}
	if enter {
		a["enter"] = true
	}
	if g.verifies(g.currentPage()) {
		a["messages"] = true // the chat observation (chat.go)
	}
	return g.cfg.Prober.Probe(ctx, a)
}

// judgeControl decides on the control a click or Enter activates.
func (g *Gate) judgeControl(ctx context.Context, tool string, p Probe) (*ask, string) {
	c := Classify(p.control())
	if p.Enter && c.Category == CatNone && p.Multiline {
		// Enter in a message box outside any form sends what it holds.
		var field uitext.Text
		if f := firstNonEmpty(p.Name, p.Placeholder); f != "" {
			field = uitext.Plain(quoteCaption(f))
		} else {
			field = uitext.T("bg_caption_message_box", "the message box")
		}
		c = Classification{Category: CatSend}
		c.setCaption(uitext.T("bg_caption_enter_in", "Enter in $field$", "field", field))
	}
	if p.EnterFrom != nil && c.Caption != "" {
		var field uitext.Text
		if f := firstNonEmpty(p.EnterFrom.Name, p.EnterFrom.Placeholder); f != "" {
			field = uitext.Plain(quoteCaption(f))
		} else {
			field = uitext.T("bg_caption_a_field", "a field")
		}
		c.setCaption(uitext.T("bg_caption_enter_activates", "Enter in $field$, which activates $control$",
			"field", field, "control", c.captionText()))
	}
	c = g.readMessageControl(ctx, p, c)
	c = g.readControlEffect(ctx, p, c)
	if c.Category == CatNone && p.NearComposer && unnamed(p) && g.verifies(p.PageURL) {
		// An unlabelled button beside a message box on a messaging route
		// may be its send button: it is checked as one.
		c = Classification{Category: CatSend}
		c.setCaption(uitext.T("bg_caption_unlabelled_send", "an unlabelled button beside the message box"))
	}
	if c.Category == CatNone && submitsForm(p) && g.crossSite(p.FormAction, p.PageURL) {
		// Even a search form must not carry the page's fields to a site the
		// user did not name.
		caption := c.captionText()
		if strings.TrimSpace(caption.English) == "" {
			caption = uitext.Plain(quoteCaption(firstNonEmpty(p.Name, p.Text, "the form")))
		}
		c = Classification{Category: CatSubmit}
		c.setCaption(caption)
	}
	switch c.Category {
	case CatNone:
		return nil, ""
	case CatNavigate:
		return g.checkURL(ctx, tool, p.Href, true, p.PageURL, firstNonEmpty(p.Name, p.Text))
	}
	return g.judgeConsequential(ctx, tool, p, c)
}

// judgeConsequential lets a consequential action through only when the
// user's words ask for this kind of action, on a site they are working
// on, with the values (recipients, amounts, accounts, item) they gave.
func (g *Gate) judgeConsequential(ctx context.Context, tool string, p Probe, c Classification) (*ask, string) {
	auth := g.cfg.Authority
	site := HostOf(p.PageURL)
	item := itemName(p)
	itemOK := item == "" || !needsItemMatch(c.Category) || auth.SharesWord(item) ||
		auth.SaysPhrase(firstNonEmpty(p.Name, p.Text, p.Value))
	requested, itemOK, refusal := g.consult(ctx, p, c, auth.Requested(c.Category), itemOK)
	if refusal != "" {
		return nil, refusal
	}
	if c.Category == CatSend {
		c.Values = g.readRecipientRows(ctx, c.Values, p.FormFields)
		c.Values = g.readChips(ctx, c.Values, p)
	}
	sub := Submission{Category: c.Category, PageURL: p.PageURL}
	if c.Category == CatSend && g.verifies(p.PageURL) {
		who, refusal := g.checkConversation(ctx, p)
		if refusal != "" {
			return nil, refusal
		}
		sub.Recipient = who
	} else if c.Category == CatSend {
		sub.Recipient = g.namedRecipients(c.Values)
	}
	var reasons []uitext.Text
	switch {
	case !requested && c.Category == CatDelete && g.cfg.Meaning != nil:
		reasons = append(reasons, uitext.T("bg_reason_delete_unclear", "Your request does not clearly ask to delete this item."))
	case !requested:
		reasons = append(reasons, notAsked(c.Category))
	}
	if s := SiteOf(site); s != auth.StartSite() && !auth.NamedSite(site) {
		reasons = append(reasons, uitext.T("bg_reason_other_site", "This happens on $site$, not on the site you started on or named.", "site", siteText(site)))
	}
	if g.crossSite(p.FormAction, p.PageURL) {
		reasons = append(reasons, uitext.T("bg_reason_form_other_site", "The form sends its data to another site, $host$.", "host", HostOf(p.FormAction)))
	}
	details := []Detail{NewDetailText(uitext.T("bg_label_action", "Action"), c.captionText())}
	for _, v := range c.Values {
		details = append(details, valueDetail(v))
		if r := g.valueReason(c.Category, v); r.English != "" {
			reasons = append(reasons, r)
		}
	}
	if !itemOK {
		reasons = append(reasons, uitext.T("bg_reason_item_mismatch", "The item does not match anything your request named."))
	}
	secret := false // a secret leaving is asked about even with the setting off
	for _, f := range p.FormFields {
		for _, m := range g.secretsNotFromUser(f.Value) {
			secret = true
			reasons = append(reasons, uitext.T("bg_reason_form_secret", "The form holds a $what$ that your request did not give.", "what", kindText(m.Kind)))
			details = append(details, NewDetail(labelSecret(), hint(m)))
		}
	}
	if len(reasons) == 0 || (!g.cfg.AskBeforeActions && !secret) {
		g.record(sub)
		return nil, ""
	}
	text := actionText(c.Category, c.captionText(), site)
	en, msgs := SplitTexts(reasons)
	return &ask{
		approval: Approval{Text: text.English, TextMsg: text.Msg, Category: string(c.Category), Site: site, URL: p.PageURL,
			Details: details, Reasons: en, ReasonMsgs: msgs},
		grant:   string(c.Category) + "|" + SiteOf(site),
		key:     string(c.Category) + "|" + site + "|" + c.Caption + "|" + detailsKey(details),
		allowed: func() { g.record(sub) },
	}, ""
}

// valueReason says why a value the action carries is not the user's.
func (g *Gate) valueReason(cat Category, v Value) uitext.Text {
	auth := g.cfg.Authority
	switch v.Kind {
	case "recipient":
		if !auth.Mentions(v.Value) {
			return uitext.T("bg_reason_recipient", "The recipient $recipient$ is not one your request named.", "recipient", v.Value)
		}
	case "account":
		if !auth.Mentions(v.Value) {
			return uitext.T("bg_reason_account", "The account $account$ is not one your request gave.", "account", v.Value)
		}
	case "amount":
		if cat == CatPayment && !auth.MentionsAmount(v.Value) && hasAnyAmount(auth) {
			return uitext.T("bg_reason_amount", "The amount $amount$ is not the one your request gave.", "amount", v.Value)
		}
	case "role":
		if cat == CatShare && !auth.Mentions(v.Value) {
			return uitext.T("bg_reason_role", "The access level $role$ is not one your request gave.", "role", v.Value)
		}
	}
	return uitext.Text{}
}

// hasAnyAmount: a request that named no number leaves amounts to the page
// (a checkout total); one that named a number binds it.
func hasAnyAmount(a *Authority) bool { return len(a.numbers) > 0 }

// needsItemMatch: deleting, buying and paying are bound to the item the
// user named.
func needsItemMatch(c Category) bool {
	return c == CatDelete || c == CatPurchase
}

// itemName is what names the item an action is about: the control's own
// caption when it names one ("Add Wireless Mouse to cart"), else the
// heading of its row or card, else that text, else the page's title.
func itemName(p Probe) string {
	for _, s := range []string{firstNonEmpty(p.Name, p.Text, p.Value), p.Heading, p.Record, p.PageTitle} {
		if len(significant(strings.ToLower(s))) > 0 {
			return s
		}
	}
	return ""
}

// valueDetail is the card's row of a value: the page's own label when
// it has one, else WebBrain's name for its kind.
func valueDetail(v Value) Detail {
	if v.Label != "" {
		return Detail{Label: v.Label, Value: v.Value}
	}
	return NewDetail(valueLabel(v.Kind), v.Value)
}

func valueLabel(kind string) uitext.Text {
	switch kind {
	case "recipient":
		return uitext.T("bg_label_recipient", "Recipient")
	case "amount":
		return uitext.T("bg_label_amount", "Amount")
	case "account":
		return uitext.T("bg_label_account", "Account")
	case "role":
		return uitext.T("bg_label_access", "Access")
	case "item":
		return uitext.T("bg_label_item", "Item")
	case "url":
		return labelAddress()
	}
	return uitext.T("bg_label_text", "Text")
}

func labelAddress() uitext.Text { return uitext.T("bg_label_address", "Address") }

func labelSecret() uitext.Text { return uitext.T("bg_label_secret", "Secret") }

// setCaption sets a caption WebBrain worded.
func (c *Classification) setCaption(t uitext.Text) { c.Caption, c.CaptionMsg = t.English, t.Msg }

// captionText is the caption as a Text: the page's words are data.
func (c Classification) captionText() uitext.Text {
	return uitext.Text{English: c.Caption, Msg: c.CaptionMsg}
}

// siteText is a host, or "this page" when there is none.
func siteText(site string) uitext.Text {
	if site == "" {
		return uitext.T("bg_this_page", "this page")
	}
	return uitext.Plain(site)
}

// kindText names a kind of secret for the card.
func kindText(k secrets.Kind) uitext.Text {
	switch k {
	case secrets.KindPassword:
		return uitext.T("bg_secret_password", "password")
	case secrets.KindAPIKey:
		return uitext.T("bg_secret_api_key", "API key")
	case secrets.KindToken:
		return uitext.T("bg_secret_token", "token")
	case secrets.KindPrivateKey:
		return uitext.T("bg_secret_private_key", "private key")
	case secrets.KindOTP:
		return uitext.T("bg_secret_otp", "one-time code")
	case secrets.KindCard:
		return uitext.T("bg_secret_card", "card number")
	case secrets.KindIBAN:
		return uitext.T("bg_secret_iban", "IBAN")
	case secrets.KindCVV:
		return uitext.T("bg_secret_cvv", "card security code")
	}
	return uitext.Plain(kindName(k))
}

func detailsKey(ds []Detail) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Label + "=" + d.Value + ";")
	}
	return b.String()
}

// notAsked is the reason "Your request did not ask to …" of a category.
func notAsked(c Category) uitext.Text {
	switch c {
	case CatSend:
		return uitext.T("bg_reason_not_asked_send", "Your request did not ask to send anything.")
	case CatPublish:
		return uitext.T("bg_reason_not_asked_publish", "Your request did not ask to publish or post anything.")
	case CatDelete:
		return uitext.T("bg_reason_not_asked_delete", "Your request did not ask to delete anything.")
	case CatPayment:
		return uitext.T("bg_reason_not_asked_payment", "Your request did not ask to pay or move money.")
	case CatPurchase:
		return uitext.T("bg_reason_not_asked_purchase", "Your request did not ask to buy anything or add it to a cart.")
	case CatShare:
		return uitext.T("bg_reason_not_asked_share", "Your request did not ask to share anything or give anyone access.")
	case CatAccount:
		return uitext.T("bg_reason_not_asked_account", "Your request did not ask to change your account's security.")
	}
	return uitext.T("bg_reason_not_asked_submit", "Your request did not ask to submit or change anything.")
}

// actionVerb names what a category of action does, as the card's title
// starts.
func actionVerb(c Category) uitext.Text {
	switch c {
	case CatSend:
		return uitext.T("bg_action_send", "Send")
	case CatPublish:
		return uitext.T("bg_action_publish", "Publish")
	case CatDelete:
		return uitext.T("bg_action_delete", "Delete")
	case CatPayment:
		return uitext.T("bg_action_payment", "Pay or move money")
	case CatPurchase:
		return uitext.T("bg_action_purchase", "Buy or add to cart")
	case CatShare:
		return uitext.T("bg_action_share", "Share or grant access")
	case CatAccount:
		return uitext.T("bg_action_account", "Change account security")
	}
	return uitext.T("bg_action_submit", "Submit")
}

// actionText is the card's sentence: "Send: "Reply" on mail.example."
func actionText(c Category, caption uitext.Text, site string) uitext.Text {
	if caption.English != "" {
		return uitext.T("bg_approval_action_caption", "$action$: $caption$ on $site$.",
			"action", actionVerb(c), "caption", caption, "site", siteText(site))
	}
	return uitext.T("bg_approval_action", "$action$ on $site$.", "action", actionVerb(c), "site", siteText(site))
}

func quoteCaption(s string) string {
	s = strings.TrimSpace(s)
	if len([]rune(s)) > 60 {
		s = string([]rune(s)[:59]) + "…"
	}
	return "\"" + s + "\""
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

func orUnknown(site string) string {
	if site == "" {
		return "this page"
	}
	return site
}

// submitsForm reports whether activating p sends its form.
func submitsForm(p Probe) bool {
	return p.InForm && p.FormMethod != "dialog" && (p.Type == "submit" || p.Type == "image" || p.EnterFrom != nil)
}

// crossSite reports whether dest is on another site than page, one the
// user did not name.
func (g *Gate) crossSite(dest, page string) bool {
	d := HostOf(dest)
	return d != "" && SiteOf(d) != SiteOf(HostOf(page)) && !g.cfg.Authority.NamedSite(d)
}
