package guard

import (
	"context"
	"strings"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// checkClick classifies what a click would do and decides whether the
// user's words cover it.
func (g *Gate) checkClick(ctx context.Context, tool string, args map[string]any) (*ask, string) {
	p, err := g.probe(ctx, tool, args, false)
	if err != nil {
		return nil, err.Error()
	}
	return g.judgeControl(ctx, tool, p)
}

// checkEnter decides what Enter in a field submits: its form's submit
// control, or the composer the field is.
func (g *Gate) checkEnter(ctx context.Context, tool string, args map[string]any) (*ask, string) {
	p, err := g.probe(ctx, tool, args, true)
	if err != nil {
		return nil, err.Error()
	}
	return g.judgeControl(ctx, tool, p)
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
			details = append(details, Detail{"Field", f})
		}
		for _, m := range found {
			details = append(details, Detail{"Secret", hint(m)})
		}
		what := kindName(found[0].Kind)
		return &ask{
			approval: Approval{
				Text:     "Type a " + what + " that came from a page, not from you, into a field on " + orUnknown(site) + ".",
				Category: protocol.CategoryTypeData, Site: site, URL: p.PageURL, Details: details,
				Reasons: []string{"The text contains a " + what + " that your request did not give. Pages sometimes trick assistants into typing secrets where others can read them."},
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
	return g.cfg.Prober.Probe(ctx, a)
}

// judgeControl decides on the control a click or Enter activates.
func (g *Gate) judgeControl(ctx context.Context, tool string, p Probe) (*ask, string) {
	c := Classify(p.control())
	if p.Enter && c.Category == CatNone && p.Multiline {
		// Enter in a message box outside any form sends what it holds.
		c = Classification{Category: CatSend, Caption: "Enter in " + quoteCaption(firstNonEmpty(p.Name, p.Placeholder, "the message box"))}
	}
	if p.EnterFrom != nil && c.Caption != "" {
		c.Caption = "Enter in " + quoteCaption(firstNonEmpty(p.EnterFrom.Name, p.EnterFrom.Placeholder, "a field")) + ", which activates " + c.Caption
	}
	c = g.readMessageControl(ctx, p, c)
	if c.Category == CatNone && p.NearComposer && unnamed(p) && g.verifies(p.PageURL) {
		// An unlabelled button beside a message box on a messaging route
		// may be its send button: it is checked as one.
		c = Classification{Category: CatSend, Caption: "an unlabelled button beside the message box"}
	}
	if c.Category == CatNone && submitsForm(p) && g.crossSite(p.FormAction, p.PageURL) {
		// Even a search form must not carry the page's fields to a site the
		// user did not name.
		c = Classification{Category: CatSubmit, Caption: firstNonEmpty(c.Caption, quoteCaption(firstNonEmpty(p.Name, p.Text, "the form")))}
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
	}
	sub := Submission{Category: c.Category, PageURL: p.PageURL}
	if c.Category == CatSend && g.verifies(p.PageURL) {
		who, refusal := g.verifyRecipient(p)
		if refusal != "" {
			return nil, refusal
		}
		sub.Recipient = who
	} else if c.Category == CatSend {
		sub.Recipient = g.namedRecipients(c.Values)
	}
	var reasons []string
	switch {
	case !requested && c.Category == CatDelete && g.cfg.Meaning != nil:
		reasons = append(reasons, "Your request does not clearly ask to delete this item.")
	case !requested:
		reasons = append(reasons, "Your request did not ask to "+verbOf(c.Category)+".")
	}
	if s := SiteOf(site); s != auth.StartSite() && !auth.NamedSite(site) {
		reasons = append(reasons, "This happens on "+orUnknown(site)+", not on the site you started on or named.")
	}
	if g.crossSite(p.FormAction, p.PageURL) {
		reasons = append(reasons, "The form sends its data to another site, "+HostOf(p.FormAction)+".")
	}
	details := []Detail{{"Action", c.Caption}}
	for _, v := range c.Values {
		details = append(details, Detail{valueLabel(v), v.Value})
		if r := g.valueReason(c.Category, v); r != "" {
			reasons = append(reasons, r)
		}
	}
	if !itemOK {
		reasons = append(reasons, "The item does not match anything your request named.")
	}
	secret := false // a secret leaving is asked about even with the setting off
	for _, f := range p.FormFields {
		for _, m := range g.secretsNotFromUser(f.Value) {
			secret = true
			reasons = append(reasons, "The form holds a "+kindName(m.Kind)+" that your request did not give.")
			details = append(details, Detail{"Secret", hint(m)})
		}
	}
	if len(reasons) == 0 || (!g.cfg.AskBeforeActions && !secret) {
		g.record(sub)
		return nil, ""
	}
	text := actionText(c.Category, c.Caption, site)
	return &ask{
		approval: Approval{Text: text, Category: string(c.Category), Site: site, URL: p.PageURL, Details: details, Reasons: reasons},
		grant:    string(c.Category) + "|" + SiteOf(site),
		key:      string(c.Category) + "|" + site + "|" + c.Caption + "|" + detailsKey(details),
		allowed:  func() { g.record(sub) },
	}, ""
}

// valueReason says why a value the action carries is not the user's.
func (g *Gate) valueReason(cat Category, v Value) string {
	auth := g.cfg.Authority
	switch v.Kind {
	case "recipient":
		if !auth.Mentions(v.Value) {
			return "The recipient " + v.Value + " is not one your request named."
		}
	case "account":
		if !auth.Mentions(v.Value) {
			return "The account " + v.Value + " is not one your request gave."
		}
	case "amount":
		if cat == CatPayment && !auth.MentionsAmount(v.Value) && hasAnyAmount(auth) {
			return "The amount " + v.Value + " is not the one your request gave."
		}
	case "role":
		if cat == CatShare && !auth.Mentions(v.Value) {
			return "The access level " + v.Value + " is not one your request gave."
		}
	}
	return ""
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

func valueLabel(v Value) string {
	if v.Label != "" {
		return v.Label
	}
	switch v.Kind {
	case "recipient":
		return "Recipient"
	case "amount":
		return "Amount"
	case "account":
		return "Account"
	case "role":
		return "Access"
	case "item":
		return "Item"
	case "url":
		return "Address"
	}
	return "Text"
}

func detailsKey(ds []Detail) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Label + "=" + d.Value + ";")
	}
	return b.String()
}

func verbOf(c Category) string {
	switch c {
	case CatSend:
		return "send anything"
	case CatPublish:
		return "publish or post anything"
	case CatDelete:
		return "delete anything"
	case CatPayment:
		return "pay or move money"
	case CatPurchase:
		return "buy anything or add it to a cart"
	case CatShare:
		return "share anything or give anyone access"
	case CatAccount:
		return "change your account's security"
	}
	return "submit or change anything"
}

func actionText(c Category, caption, site string) string {
	what := map[Category]string{
		CatSend: "Send", CatPublish: "Publish", CatDelete: "Delete", CatPayment: "Pay or move money",
		CatPurchase: "Buy or add to cart", CatShare: "Share or grant access", CatAccount: "Change account security",
	}[c]
	if what == "" {
		what = "Submit"
	}
	if caption != "" {
		what += ": " + caption
	}
	return what + " on " + orUnknown(site) + "."
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
