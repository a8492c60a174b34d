package guard

import (
	"context"
	"strconv"
	"strings"

	"github.com/webbrain/webbrain/wasm/ascii"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Readings of what a clicked control does (the spec's control_effect).
// The word lists read captions in a few languages; a button outside any
// form whose caption is in another language ("Paylaş", "Опубликовать")
// matched nothing there and passed as an ordinary control, so a model a
// page fooled could publish, send, delete or pay with it without a card.
// A control that could act and that the lists leave unmatched is read by
// a model with one closed question about its captions (page data), and a
// consequential reading makes it that category; the rest of the gate then
// judges it as it judges a caption the lists know.
//
// A reading only adds caution: it is asked only when the lists and the
// page's structure found nothing (CatNone), so it can never lower what
// they gave, and a page cannot talk its way out of a card with a caption.
// A reading that is unclear, not on the list or missing decides nothing:
// the control stays what the lists made it, as before.

// EffectReader reads what a control does from its captions. The
// background answers with package decide (docs/decisions/semantic-decisions.md):
// the decision model first, the active model within a short wait.
type EffectReader interface {
	// ControlEffect answers control_effect; "" when no model answered.
	ControlEffect(ctx context.Context, c EffectControl) string
}

// EffectPreReader is an EffectReader that can read captions ahead of a
// click: the decision model alone, in the background, for the captions
// of the buttons and menu items a page read showed.
type EffectPreReader interface {
	PreReadEffects(captions []string)
}

// EffectControl is what control_effect sees, all of it page text: the
// control's captions (its name, text, ARIA label, title, an input's
// value) and the question of the dialog it sits in.
type EffectControl struct {
	Captions []string
	Dialog   string
}

// Readings of control_effect.
const (
	EffectSends          = "sends"            // sends a message or email to someone
	EffectPublishes      = "publishes"        // publishes or posts
	EffectPays           = "pays"             // pays or transfers money
	EffectBuys           = "buys"             // buys, orders, adds to a cart
	EffectShares         = "shares"           // shares or grants access
	EffectAccount        = "account_security" // changes the account's security
	EffectDeletesOne     = "deletes_one"      // deletes one saved item
	EffectDeletesSeveral = "deletes_several"  // deletes several or the selected items
	EffectCommits        = "commits"          // submits, saves or confirms changes
	EffectNextStep       = "next_step"        // moves a form to its next step
	EffectEditsDraft     = "edits_draft"      // only edits the form or draft
	EffectView           = "changes_view"     // open, close, cancel, back, show, filter, search
	EffectUnclear        = "unclear"
)

// effectCategory is the category a reading gives; CatNone for a reading
// that says the control changes nothing yet, and for no reading.
var effectCategory = map[string]Category{
	EffectSends:          CatSend,
	EffectPublishes:      CatPublish,
	EffectPays:           CatPayment,
	EffectBuys:           CatPurchase,
	EffectShares:         CatShare,
	EffectAccount:        CatAccount,
	EffectDeletesOne:     CatDelete,
	EffectDeletesSeveral: CatDelete,
	EffectCommits:        CatSubmit,
	EffectNextStep:       CatSubmit,
}

// readControlEffect reads, for a control that could act and that the
// word lists and page structure left as CatNone, what its captions say
// it does. Called only with c.Category == CatNone; it returns c unless a
// reading names a consequential effect.
func (g *Gate) readControlEffect(ctx context.Context, p Probe, c Classification) Classification {
	if c.Category != CatNone || g.cfg.Effects == nil || p.Editable {
		return c
	}
	ctl := p.control()
	launcher, ok := mayAct(ctl)
	if !ok {
		return c
	}
	caps := captions(ctl)
	if len(caps) == 0 || !unmatched(caps, ctl.Dialog != "") {
		return c
	}
	reading := g.cfg.Effects.ControlEffect(ctx, EffectControl{Captions: caps, Dialog: ctl.Dialog})
	cat := effectCategory[reading]
	searchForm := ctl.InForm && lower(ctl.FormMethod) == "get" && analyze(ctl.FormFields).searchOnly
	switch {
	case cat == CatNone:
		return c
	case reading == EffectNextStep && (!ctl.InForm || searchForm):
		// Like the word lists' "Next": a step of a form is its submit, a
		// page turn outside one, or of a search form, changes nothing.
		return c
	case reading == EffectCommits && (launcher || searchForm):
		// A menu launcher read as committing only opens its menu; "Apply"
		// on a search form shows results.
		return c
	}
	v := verdict(ctl, cat, quote(ctl))
	// The form's fields or the dialog's question may say more than the
	// caption ("Gönder" on a transfer form pays): the costlier one wins.
	if fc, why := formSpecific(ctl); fc != CatNone && rank[string(fc)] > rank[string(cat)] {
		v = verdict(ctl, fc, withNote(quote(ctl), why))
	} else if ctl.Dialog != "" {
		if dc := firstCategory(fold(ctl.Dialog)); dc != CatNone && rank[string(dc)] > rank[string(cat)] {
			v = verdict(ctl, dc, captionInDialog(quote(ctl), ctl.Dialog))
		}
	}
	return v
}

// mayAct reports whether a control can do something when clicked: a
// button, a menu item, a submit, button or image input, a menu launcher
// (launcher true) or a link without a real destination. Fields, choices,
// tabs and options, toggles (judged by their labels), disclosures and
// links with a real href are judged elsewhere or change nothing.
func mayAct(c Control) (launcher, ok bool) {
	tag, role, typ := lower(c.Tag), lower(c.Role), lower(c.Type)
	switch {
	case typ == "checkbox" || typ == "radio" || typ == "reset" || role == "checkbox" || role == "radio" || role == "switch" ||
		role == "menuitemcheckbox" || role == "menuitemradio" || role == "tab" || role == "option" || role == "treeitem" ||
		role == "disclosuretriangle" || tag == "summary" || tag == "select" || tag == "option" || tag == "textarea":
		return false, false
	case role == "popupbutton":
		return true, true
	case role == "menuitem":
		return false, true
	case tag == "a" || role == "link":
		return false, !realHref(c.Href)
	case tag == "input":
		return false, typ == "submit" || typ == "button" || typ == "image"
	case tag == "button", role == "button":
		return false, true
	}
	return false, false
}

// unmatched: the word lists found nothing in the captions, neither an
// effect, a view change nor a refusal. A bare "OK" or "Yes" is read only
// inside a dialog, whose question it answers.
func unmatched(caps []string, inDialog bool) bool {
	r := readCaptions(fold(strings.Join(caps, " | ")))
	if r.main != nil || r.deny || addsPricedItem(caps) {
		return false
	}
	return !r.confirm || inDialog
}

// maxPreRead bounds the captions one page read sends to be read ahead.
const maxPreRead = 30

// treeControl returns the quoted name of a tree line that names a button
// or a menu item (`button "Paylaş" [ref_12]`, `[f2:ref_3]` in a frame).
func treeControl(line string) (string, bool) {
	line = strings.TrimLeft(line, " \t")
	role, rest, ok := strings.Cut(line, " ")
	if !ok || (role != "button" && role != "menuitem" && role != "popupbutton") || !strings.HasPrefix(rest, `"`) {
		return "", false
	}
	end := 1
	for ; end < len(rest); end++ {
		if rest[end] == '\\' {
			end++
		} else if rest[end] == '"' {
			break
		}
	}
	if end >= len(rest) {
		return "", false
	}
	ref := strings.TrimPrefix(rest[end+1:], " [")
	if len(ref) == len(rest[end+1:]) {
		return "", false
	}
	if f, after, ok := strings.Cut(ref, ":"); ok && len(f) > 1 && f[0] == 'f' && ascii.Some(f[1:], ascii.Digit) {
		ref = after
	}
	if !strings.HasPrefix(ref, "ref_") {
		return "", false
	}
	name, err := strconv.Unquote(rest[:end+1])
	return name, err == nil
}

// preRead starts reading ahead the captions of the buttons and menu items
// a page read showed that the word lists leave unmatched, so that a click
// finds them read (EffectPreReader; only when the reader can).
func (g *Gate) preRead(result string) {
	pr, ok := g.cfg.Effects.(EffectPreReader)
	if !ok || !protocol.Acting(g.cfg.Mode) || !strings.Contains(result, "ref_") {
		return
	}
	var names []string
	seen := map[string]bool{}
	for _, line := range strings.Split(result, "\n") {
		name, ok := treeControl(line)
		name = strings.TrimSpace(name)
		if !ok || name == "" || seen[name] || len([]rune(name)) > 120 || !unmatched([]string{name}, false) {
			continue
		}
		seen[name] = true
		names = append(names, name)
		if len(names) == maxPreRead {
			break
		}
	}
	if len(names) > 0 {
		pr.PreReadEffects(names)
	}
}
