// Package guard holds the consequential-action gate. Its classifier is
// pure and deterministic: a page that fools the model must not make it do
// harm, so the verdict on what an action does may not come from a model
// the page can talk to. It reads only what the content-script probe saw.
//
// Classify, in order:
//   - Checkboxes, radios and switches change nothing until a form is sent,
//     except a label that grants access ("Make admin", "Public"), turns on
//     automatic payment, or changes two-factor sign-in.
//   - Tabs, options, list and tree items, and fields (set_field, typing)
//     are CatNone: another layer judges typed data. Tool "type_ax" or
//     "press_keys" on a field means it submits (the probe reports plain
//     typing as "set_field" or "type"): in a form that is the form's
//     submit, outside one the field's label decides ("Message #general").
//   - A link with a real destination is CatNavigate whatever it is named,
//     unless its path or query performs a deletion (?action=delete,
//     /remove, /unsubscribe); /logout is ordinary navigation.
//   - Captions (name, text, aria-label, title, an input's value) are
//     folded (lowercase, no diacritics) and matched against the lexicons
//     on word boundaries, CJK as substrings; the longest phrase wins, so
//     "Cancel subscription" is a deletion and "Delete filter" a view change.
//     A caption that starts by declining ("No", "Keep") is CatNone.
//   - Ordinary controls (menu items, popup launchers, disclosure summaries,
//     link-less anchors, buttons outside forms and dialogs) only open
//     things: they count only when the caption is a commit (a menu item
//     "Delete" deletes), never for opener words such as Reply or Share.
//   - In a commit context (a form's submitter, a type=button in a form,
//     any button in a dialog) opener words count too, a generic caption
//     (Save, Submit, OK) takes the category the form's fields, the dialog's
//     question or the form's name give, and "Next" is a submit. "OK", "Yes"
//     or "I understand" in a dialog asking "Delete …?" is that deletion.
//   - A form's submitter without a telling caption: method=dialog closes,
//     a GET form of search and filter fields is a view change, a new
//     password is CatAccount, an amount or card number CatPayment, a role
//     with an address CatShare, a recipient with a body CatSend, a comment
//     or reply body CatPublish, anything else at least CatSubmit.
//   - "Save draft" is CatSubmit and never more: it sends nothing.
//
// Values come from the control's own context (captions, dialog, fields,
// record, href), never from the model's arguments.
//
// The verdict is a floor that holds when the model obeys the page: a
// category means "ask unless the user's own words (Requested) or the
// model-read checks allow it"; CatNone never grants anything by itself.
//
// Known limits: the lexicons cover common wording in English, German,
// French, Spanish, Portuguese, Chinese and Japanese (some Italian and
// Dutch); other languages and unusual wording fall through to the
// structure rules. Classify itself stays pure; the gate then reads a
// control that could act and whose captions the lexicons leave wholly
// unmatched with a model (control_effect, effect.go), which can only
// raise CatNone to a category: a caption no model read stays ordinary,
// and an unmatched caption on a checkbox, tab, field or real link is not
// read. The Control has no aria-expanded/aria-haspopup field:
// the probe passes a popup launcher as role "popupbutton" and a disclosure
// as tag "summary", as Chrome's computed roles do.
package guard

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Category is what an action does to the world.
type Category string

const (
	CatNone     Category = ""                        // observation, preparation, a view change, opening a menu/editor/composer
	CatNavigate Category = protocol.CategoryNavigate // a link with a real destination (not a destructive query)
	CatSubmit   Category = protocol.CategorySubmit   // commits a form or saves changes
	CatSend     Category = protocol.CategorySend     // sends a message, email, invitation or reply to someone
	CatPublish  Category = protocol.CategoryPublish  // posts, comments, replies publicly, publishes, reviews
	CatDelete   Category = protocol.CategoryDelete   // deletes, removes, cancels, closes an account or record, revokes
	CatPayment  Category = protocol.CategoryPayment  // pays, transfers money, places an order, checks out, refunds
	CatPurchase Category = protocol.CategoryPurchase // adds to cart, subscribes, buys, books, bids
	CatShare    Category = protocol.CategoryShare    // shares, invites, grants access or a role, makes public
	CatAccount  Category = protocol.CategoryAccount  // changes account security or identity
	CatDownload Category = protocol.CategoryDownload // saves a file through the browser's downloads
	CatUpload   Category = protocol.CategoryUpload   // gives a file to a page
)

// Field is one form field that a submission would send.
type Field struct{ Name, Label, Type, Value string }

// Control is what the page shows about the element an action targets (a
// content-script probe fills it).
type Control struct {
	Tool                    string // click_ax, click, type_ax (submit), press_keys (Enter), set_field...
	Tag, Role, Type         string // e.g. "button", "button", "submit"; "a","link",""; "input","checkbox","checkbox"
	Name                    string // accessible name
	Text                    string // visible text
	Title, AriaLabel, Value string // title attribute, aria-label, input value (for input type=submit/button)
	Href                    string // absolute URL for links
	InForm                  bool
	FormAction, FormMethod  string  // absolute action URL; "get"/"post"/"dialog"
	FormFields              []Field // fields the form would submit (hidden included), values as they are now
	FormName                string  // the form's accessible name / heading / legend / id
	Record                  string  // bounded visible text of the nearest row/list item/article/card
	Dialog                  string  // title + text of the dialog the control sits in, if any
	PageURL                 string
	PageTitle               string
}

// Value is a value an action carries that the user should see before
// approving it. Kind: "recipient", "amount", "account", "item", "role",
// "text", "url".
type Value struct{ Kind, Label, Value string }

// Classification is the verdict on one action.
type Classification struct {
	Category Category
	Caption  string // the caption that decided it, quoted for the user
	// CaptionMsg is Caption as a catalog key when WebBrain worded it
	// ("Enter in …"); nil for the page's own caption.
	CaptionMsg *uitext.Msg
	Values     []Value // recipients, amounts, accounts, roles, text being sent, the item
}

// rank breaks ties between equally long captions: the costlier effect wins.
var rank = map[string]int{
	string(CatPayment): 9, string(CatDelete): 8, string(CatAccount): 7, string(CatShare): 6,
	string(CatSend): 5, string(CatPublish): 4, string(CatPurchase): 3, string(CatSubmit): 2,
	clsGeneric: 1, clsStep: 1, clsConfirm: 0, clsView: 0,
}

func isCategory(cls string) bool {
	switch Category(cls) {
	case CatSubmit, CatSend, CatPublish, CatDelete, CatPayment, CatPurchase, CatShare, CatAccount:
		return true
	}
	return false
}

// reading is what the captions say.
type reading struct {
	main    *entry // the longest phrase that is not a confirmation or refusal
	confirm bool   // a confirmation word is present
	deny    bool   // the caption starts by declining
}

func readCaptions(t string) reading {
	var r reading
	var ms []match
	for _, m := range scan(t, captionEntries()) {
		switch m.e.cls {
		case clsDeny:
			if m.pos == 1 || (m.pos >= 2 && t[m.pos-2:m.pos] == "| ") {
				r.deny = true
			}
		case clsConfirm:
			r.confirm = true
		default:
			ms = append(ms, m)
		}
	}
	// Where phrases overlap the longest one is meant ("Delete filter",
	// "Cancel subscription"); apart, the costlier effect wins ("Buy more").
	// Opener words lose to any other reading ("Delete message").
	bestLen := 0
	for _, m := range ms {
		n := m.end - m.pos
		covered := false
		for _, o := range ms {
			if o.pos < m.end && m.pos < o.end && o.end-o.pos > n {
				covered = true
				break
			}
		}
		if covered {
			continue
		}
		switch b := r.main; {
		case b == nil,
			b.weak && !m.e.weak,
			b.weak == m.e.weak && (rank[m.e.cls] > rank[b.cls] || rank[m.e.cls] == rank[b.cls] && n > bestLen):
			r.main, bestLen = m.e, n
		}
	}
	return r
}

// firstCategory is the earliest category phrase in longer text such as a
// dialog's question; view words there ("Cancel" buttons) say nothing.
func firstCategory(t string) Category {
	best, bestPos, bestLen := "", len(t), 0
	ms := scan(t, captionEntries())
	for _, m := range ms {
		if !isCategory(m.e.cls) {
			continue
		}
		n := m.end - m.pos
		if m.pos < bestPos || m.pos == bestPos && n > bestLen {
			best, bestPos, bestLen = m.e.cls, m.pos, n
		}
	}
	// A longer view phrase at the same place ("remove filter") cancels it.
	for _, m := range ms {
		if m.e.cls == clsView && m.pos == bestPos && m.end-m.pos > bestLen {
			return CatNone
		}
	}
	return Category(best)
}

// Classify decides what the action on c does.
func Classify(c Control) Classification {
	tool, tag, role, typ := lower(c.Tool), lower(c.Tag), lower(c.Role), lower(c.Type)
	// An <input> is a button by its type: a file input is a "button" by
	// role (it opens a file chooser) but sends nothing.
	buttonish := tag == "button" || role == "button" && tag != "input" || tag == "input" && (typ == "submit" || typ == "button" || typ == "image")

	switch {
	case typ == "checkbox" || typ == "radio" || role == "checkbox" || role == "radio" || role == "switch" || role == "menuitemcheckbox" || role == "menuitemradio":
		return toggle(c)
	case role == "tab" || role == "option" || role == "treeitem" || role == "tablist" || role == "listbox" || role == "slider" || tag == "select" || tag == "option":
		return Classification{}
	// An <input> one types in (a combobox with a list of suggestions, a
	// number) is a text field however it is labelled: Enter submits its form.
	case (role == "combobox" || role == "spinbutton") && tag != "input":
		return Classification{}
	case (tool == protocol.ToolPressKeys || tool == protocol.ToolTypeAX || tool == "submit") && !buttonish:
		return implicitSubmit(c)
	case tool == protocol.ToolSetField || tool == "type" || tool == "select_option" || tag == "textarea" || role == "textbox" || role == "searchbox" || tag == "input" && !buttonish:
		return Classification{}
	}

	link := tag == "a" || role == "link"
	if link && realHref(c.Href) {
		return linkVerdict(c)
	}

	caps := captions(c)
	r := readCaptions(fold(strings.Join(caps, " | ")))
	// Menu items and launchers open or pick things even inside a dialog
	// or form; any other button there may commit it.
	launcher := role == "popupbutton" || role == "disclosuretriangle" || tag == "summary"
	ordinary := launcher || strings.HasPrefix(role, "menuitem") || link
	submitter := c.InForm && (typ == "submit" || typ == "image" || typ == "" && tag == "button")
	commit := submitter || !ordinary && (c.Dialog != "" || c.InForm)
	if typ == "reset" || r.deny {
		return Classification{}
	}

	if !commit {
		// Ordinary control: only commit wording counts.
		if r.main == nil || r.main.weak {
			if addsPricedItem(caps) {
				return verdict(c, CatPurchase, quote(c))
			}
			return Classification{}
		}
		cls := r.main.cls
		if cls == clsGeneric && !launcher {
			cls = string(CatSubmit)
		}
		if !isCategory(cls) || launcher && cls == string(CatSubmit) {
			return Classification{}
		}
		return verdict(c, Category(cls), quote(c))
	}

	var dialogCat Category
	if c.Dialog != "" {
		dialogCat = firstCategory(fold(c.Dialog))
	}
	cls := ""
	if r.main != nil {
		cls = r.main.cls
	}
	// "OK" / "Yes, cancel" in a dialog that asks "Delete …?": the question decides.
	if r.confirm && dialogCat != CatNone && (cls == "" || cls == clsView || cls == clsGeneric || cls == clsStep || r.main.weak) {
		return verdict(c, dialogCat, captionInDialog(quote(c), c.Dialog))
	}
	switch {
	case cls == clsView:
		return Classification{}
	case r.main != nil && r.main.weak:
		// An opener word in a commit context: the form may say whom it goes to.
		if cat, why := formSpecific(c); cat != CatNone {
			return verdict(c, cat, withNote(quote(c), why))
		}
		return verdict(c, Category(cls), quote(c))
	case cls == string(CatSend):
		// "Send" in a share dialog or a money form grants or pays.
		if cat, why := formSpecific(c); cat == CatShare || cat == CatPayment || cat == CatAccount {
			return verdict(c, cat, withNote(quote(c), why))
		}
		if dialogCat == CatShare || dialogCat == CatPayment {
			return verdict(c, dialogCat, captionInDialog(quote(c), c.Dialog))
		}
		return verdict(c, CatSend, quote(c))
	case isCategory(cls):
		return verdict(c, Category(cls), quote(c))
	case cls == clsGeneric:
		if cat, why := formSpecific(c); cat != CatNone {
			return verdict(c, cat, withNote(quote(c), why))
		}
		if dialogCat != CatNone {
			return verdict(c, dialogCat, captionInDialog(quote(c), c.Dialog))
		}
		if c.InForm && lower(c.FormMethod) == "get" && analyze(c.FormFields).searchOnly {
			return Classification{} // "Submit" on a search form
		}
		return verdict(c, CatSubmit, quote(c))
	case cls == clsStep:
		if cat, why := formSpecific(c); cat != CatNone {
			return verdict(c, cat, withNote(quote(c), why)) // "Next" on a transfer form
		}
		if c.InForm && !(lower(c.FormMethod) == "get" && analyze(c.FormFields).searchOnly) {
			return verdict(c, CatSubmit, quote(c))
		}
		return Classification{} // a page of results
	}
	// Confirmation without a question, or no telling caption at all.
	if submitter {
		if cat, why := formVerdict(c); cat != CatNone {
			return verdict(c, cat, withNote(quote(c), why))
		}
	}
	return Classification{}
}

// toggle judges a checkbox, radio or switch by its label.
func toggle(c Control) Classification {
	t := fold(strings.Join(captions(c), " | "))
	best, bestLen := "", 0
	for _, m := range scan(t, toggleEntries()) {
		if n := m.end - m.pos; n > bestLen {
			best, bestLen = m.e.cls, n
		}
	}
	if best == "" {
		return Classification{}
	}
	return verdict(c, Category(best), quote(c))
}

// implicitSubmit judges Enter or a submitting type_ax in a field.
func implicitSubmit(c Control) Classification {
	if c.InForm {
		cat, why := formVerdict(c)
		if cat == CatNone {
			return Classification{}
		}
		return verdict(c, cat, withNote(quote(c), why))
	}
	// A composer outside a form: its label says what Enter does.
	r := readCaptions(fold(strings.Join(captions(c), " | ")))
	if r.main == nil || r.deny {
		return Classification{}
	}
	switch Category(r.main.cls) {
	case CatSend, CatPublish:
		return verdict(c, Category(r.main.cls), quote(c))
	}
	return Classification{}
}

// realHref is a destination the browser would load.
func realHref(h string) bool {
	h = strings.TrimSpace(lower(h))
	return h != "" && !strings.HasPrefix(h, "#") && !strings.HasPrefix(h, "javascript:") && !strings.HasSuffix(h, "#")
}

func linkVerdict(c Control) Classification {
	u := lower(c.Href)
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		if j := strings.IndexAny(u, "/?#"); j >= 0 {
			u = u[j:] // the host may be named delete.example.com
		} else {
			u = ""
		}
	}
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	// An action is a whole path segment or query key or value, or starts
	// one ("/cart/remove/4411", "delete.php", "?action=delete&id=3",
	// "do=delete"); an article "/how-to-remove-stains" is none.
	path, query, _ := strings.Cut(u, "?")
	for _, seg := range strings.Split(path, "/") {
		if hrefAction(seg, hrefDelete) {
			return verdict(c, CatDelete, uitext.T("bg_caption_link_to", "$control$ to $href$", "control", quote(c), "href", clip.Line(c.Href, 120)))
		}
	}
	for _, kv := range strings.FieldsFunc(query, func(r rune) bool { return r == '&' || r == ';' }) {
		k, v, _ := strings.Cut(kv, "=")
		// A key names the action only whole ("delete=1"; "cancel_url" is none).
		if slices.Contains(hrefDelete, k) || hrefAction(v, hrefDelete) || hrefAction(v, hrefQueryDelete) {
			return verdict(c, CatDelete, uitext.T("bg_caption_link_to", "$control$ to $href$", "control", quote(c), "href", clip.Line(c.Href, 120)))
		}
	}
	return verdict(c, CatNavigate, quote(c))
}

// hrefAction: seg is one of the words or starts with one and a separator.
func hrefAction(seg string, words []string) bool {
	for _, w := range words {
		if strings.HasPrefix(seg, w) && (len(seg) == len(w) || strings.IndexByte("._-+", seg[len(w)]) >= 0) {
			return true
		}
	}
	return false
}

// formSpecific is the category a form's fields or name give beyond
// CatSubmit, with a note for the caption.
func formSpecific(c Control) (Category, note) {
	if !c.InForm {
		return CatNone, nil
	}
	f := analyze(c.FormFields)
	switch {
	case f.newPassword:
		return CatAccount, func(t uitext.Text) uitext.Text {
			return uitext.T("bg_caption_form_password", "$control$ (form sets a password)", "control", t)
		}
	case f.amount || f.card:
		return CatPayment, func(t uitext.Text) uitext.Text {
			return uitext.T("bg_caption_form_amount", "$control$ (form carries an amount)", "control", t)
		}
	case f.role && (f.recipient || f.email):
		return CatShare, func(t uitext.Text) uitext.Text {
			return uitext.T("bg_caption_form_role", "$control$ (form grants a role)", "control", t)
		}
	case f.recipient && (f.body || f.subject):
		return CatSend, func(t uitext.Text) uitext.Text {
			return uitext.T("bg_caption_form_message", "$control$ (form has recipient and message)", "control", t)
		}
	case f.public && !f.recipient:
		return CatPublish, func(t uitext.Text) uitext.Text {
			return uitext.T("bg_caption_form_comment", "$control$ (form posts a comment)", "control", t)
		}
	}
	if c.FormName != "" {
		if cat := firstCategory(fold(c.FormName)); cat != CatNone {
			return cat, inForm(c.FormName)
		}
	}
	return CatNone, nil
}

// formVerdict judges a form's submission when the caption says nothing.
func formVerdict(c Control) (Category, note) {
	method := lower(c.FormMethod)
	if method == "dialog" {
		return CatNone, nil
	}
	f := analyze(c.FormFields)
	if method == "get" && f.searchOnly {
		return CatNone, nil
	}
	if cat, why := formSpecific(c); cat != CatNone {
		return cat, why
	}
	if c.FormName != "" {
		return CatSubmit, inForm(c.FormName)
	}
	return CatSubmit, nil
}

// note adds to a control's caption what its form says about it.
type note func(control uitext.Text) uitext.Text

func withNote(control uitext.Text, n note) uitext.Text {
	if n == nil {
		return control
	}
	return n(control)
}

func inForm(name string) note {
	return func(t uitext.Text) uitext.Text {
		return uitext.T("bg_caption_in_form", "$control$ in form $form$", "control", t, "form", clipQuote(name, 60))
	}
}

func captionInDialog(control uitext.Text, dialog string) uitext.Text {
	return uitext.T("bg_caption_in_dialog", "$control$ in dialog $dialog$", "control", control, "dialog", clipQuote(dialog, 80))
}

// fieldInfo is what a form's fields say about its submission.
type fieldInfo struct {
	recipient, email, body, public, subject, amount, card, account, role, newPassword bool
	searchOnly                                                                        bool // nothing but search/filter inputs
}

func analyze(fs []Field) fieldInfo {
	var f fieldInfo
	f.searchOnly = true
	passwords := 0
	for _, fd := range fs {
		t := fieldText(fd)
		typ := lower(fd.Type)
		if isRecipient(fd, t) {
			f.recipient = true
		}
		if typ == "email" {
			f.email = true
		}
		if typ == "textarea" || keyBody.in(t) {
			f.body = true
			if keyPublic.in(t) {
				f.public = true
			}
		}
		if keySubject.in(t) {
			f.subject = true
		}
		if keyAmount.in(t) {
			f.amount = true
		}
		if keyCard.in(t) {
			f.card = true
		}
		if keyAccount.in(t) {
			f.account = true
		}
		if keyRole.in(t) {
			f.role = true
		}
		if typ == "password" || keyPassword.in(t) {
			passwords++
			if keyNew.in(t) {
				f.newPassword = true
			}
		}
		switch {
		case typ == "hidden" || typ == "submit" || typ == "button":
		case typ == "search" || keySearch.in(t):
		case typ == "checkbox" || typ == "radio" || typ == "select" || typ == "select-one" || typ == "date" || typ == "number" || typ == "range":
		default:
			f.searchOnly = false
		}
	}
	if passwords >= 2 {
		f.newPassword = true
	}
	return f
}

// isRecipient: the field holds addressees; t is its fieldText.
func isRecipient(f Field, t string) bool {
	return keyRecipient.in(t) || recipientRows[strings.TrimSpace(fold(f.Name))] || recipientRows[strings.TrimSpace(fold(f.Label))]
}

var keySubject = keys(`subject|betreff|objet|asunto|assunto|主题|主題|件名`)

// fieldText is a field's name (camelCase split) and label, folded.
func fieldText(f Field) string {
	var b strings.Builder
	for i, r := range f.Name {
		if r >= 'A' && r <= 'Z' && i > 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return fold(b.String() + " | " + f.Label)
}

// captions are the control's own words, in the order a person reads them.
func captions(c Control) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if s == "" {
			return
		}
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	add(c.Name)
	add(c.AriaLabel)
	add(c.Text)
	add(c.Title)
	tag, typ := lower(c.Tag), lower(c.Type)
	if tag == "input" && (typ == "submit" || typ == "button" || typ == "image" || typ == "reset") || tag == "button" {
		add(c.Value)
	}
	return out
}

// quote names the control for the user: `button "Delete account"`. The
// role is WebBrain's word when it is one of roleWords (a key), the page's
// caption is data.
func quote(c Control) uitext.Text {
	kind := lower(c.Role)
	if kind == "" {
		kind = lower(c.Tag)
	}
	if kind == "" {
		kind = "control"
	}
	role := roleText(kind)
	caps := captions(c)
	if len(caps) == 0 {
		return role
	}
	return uitext.T("bg_control_caption", "$role$ $caption$", "role", role, "caption", clipQuote(caps[0], 80))
}

// roleText is an accessibility role or tag as the card names it.
func roleText(kind string) uitext.Text {
	switch kind {
	case "button":
		return uitext.T("bg_role_button", "button")
	case "popupbutton":
		return uitext.T("bg_role_popupbutton", "popupbutton")
	case "link":
		return uitext.T("bg_role_link", "link")
	case "a":
		return uitext.T("bg_role_a", "a")
	case "checkbox":
		return uitext.T("bg_role_checkbox", "checkbox")
	case "radio":
		return uitext.T("bg_role_radio", "radio")
	case "switch":
		return uitext.T("bg_role_switch", "switch")
	case "tab":
		return uitext.T("bg_role_tab", "tab")
	case "menuitem":
		return uitext.T("bg_role_menuitem", "menuitem")
	case "option":
		return uitext.T("bg_role_option", "option")
	case "textbox":
		return uitext.T("bg_role_textbox", "textbox")
	case "searchbox":
		return uitext.T("bg_role_searchbox", "searchbox")
	case "combobox":
		return uitext.T("bg_role_combobox", "combobox")
	case "listitem":
		return uitext.T("bg_role_listitem", "listitem")
	case "input":
		return uitext.T("bg_role_input", "input")
	case "select":
		return uitext.T("bg_role_select", "select")
	case "textarea":
		return uitext.T("bg_role_textarea", "textarea")
	case "img":
		return uitext.T("bg_role_img", "img")
	case "image":
		return uitext.T("bg_role_image", "image")
	case "control":
		return uitext.T("bg_role_control", "control")
	}
	return uitext.Plain(kind)
}

func clipQuote(s string, n int) string { return `"` + clip.Line(s, n) + `"` }

func lower(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func verdict(c Control, cat Category, caption uitext.Text) Classification {
	return Classification{Category: cat, Caption: caption.English, CaptionMsg: caption.Msg, Values: values(c, cat)}
}

// maxValues bounds what one approval card shows.
const maxValues = 16

// values collects what the user should see before approving: only for
// actions that do something, and only from the page's side.
func values(c Control, cat Category) []Value {
	if cat == CatNone {
		return nil
	}
	var out []Value
	add := func(kind, label, v string) {
		v = clip.Line(v, 200)
		if v == "" || len(out) == maxValues {
			return
		}
		for _, o := range out {
			if o.Kind == kind && o.Value == v {
				return
			}
		}
		out = append(out, Value{kind, label, v})
	}
	texts := append(captions(c), c.Dialog)
	for _, t := range texts {
		for _, e := range emails(t) {
			add("recipient", "", e)
		}
		for _, h := range handles(t) {
			add("recipient", "", h)
		}
	}
	fieldRecipients := cat == CatSend || cat == CatShare || cat == CatPayment
	for _, fd := range c.FormFields {
		t, typ, v := fieldText(fd), lower(fd.Type), strings.TrimSpace(fd.Value)
		label := fd.Label
		if label == "" {
			label = fd.Name
		}
		if v == "" || typ == "password" {
			continue // a secret is never echoed
		}
		switch {
		case keyCard.in(t):
			add("account", label, mask(v))
		case keyAccount.in(t) && digits(v) >= 6:
			add("account", label, v)
		case isRecipient(fd, t) || typ == "email" && fieldRecipients:
			found := false
			for _, e := range emails(v) {
				add("recipient", label, e)
				found = true
			}
			for _, h := range handles(v) {
				add("recipient", label, h)
				found = true
			}
			if !found {
				add("recipient", label, v)
			}
		case keyAmount.in(t):
			if cur := fieldValue(c.FormFields, keyCurrency); cur != "" && !strings.Contains(v, cur) {
				v += " " + cur
			}
			add("amount", label, v)
		case keyRole.in(t):
			add("role", label, v)
		case typ == "textarea" || keyBody.in(t) || keySubject.in(t) && cat == CatSend:
			if typ != "hidden" {
				add("text", label, v)
			}
		}
	}
	for _, t := range texts {
		for _, a := range amounts(t) {
			add("amount", "", a)
		}
		for _, a := range ibans(t) {
			add("account", "", a)
		}
	}
	if cat == CatShare || cat == CatAccount {
		for _, t := range texts {
			if r := roleLex.find(fold(t)); r != "" {
				add("role", "", r)
			}
		}
	}
	if cat == CatPurchase || cat == CatPayment {
		for _, a := range amounts(c.Record) {
			add("amount", "", a) // the product's or order's price
		}
	}
	if c.Record != "" {
		add("item", "", c.Record)
	}
	if lower(c.Tag) == "a" || lower(c.Role) == "link" {
		add("url", "", c.Href)
	}
	return out
}

var keyCurrency = keys(`currency|währung|waehrung|devise|moneda|moeda|币种|幣別|通貨`)

// fieldValue is the value of the first field whose name or label holds
// one of the keys.
func fieldValue(fs []Field, k keySet) string {
	for _, f := range fs {
		if k.in(fieldText(f)) && strings.TrimSpace(f.Value) != "" {
			return strings.TrimSpace(f.Value)
		}
	}
	return ""
}

// mask keeps a card number's last four digits.
func mask(v string) string {
	d := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		if v[i] >= '0' && v[i] <= '9' {
			d = append(d, v[i])
		}
	}
	if len(d) <= 4 {
		return string(d)
	}
	return "…" + string(d[len(d)-4:])
}

func digits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func emailLocal(b byte) bool {
	return isAlnum(b) || b == '.' || b == '_' || b == '%' || b == '+' || b == '-'
}

// emails finds addresses: local@domain.tld.
func emails(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '@' {
			continue
		}
		l := i
		for l > 0 && emailLocal(s[l-1]) {
			l--
		}
		r := i + 1
		for r < len(s) && (isAlnum(s[r]) || s[r] == '.' || s[r] == '-') {
			r++
		}
		for r > i+1 && (s[r-1] == '.' || s[r-1] == '-') {
			r--
		}
		if l < i && r > i+1 && strings.Contains(s[i+1:r], ".") {
			out = append(out, s[l:r])
			i = r - 1
		}
	}
	return out
}

// handles finds @names that are not part of an address.
func handles(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '@' || i > 0 && emailLocal(s[i-1]) {
			continue
		}
		r := i + 1
		for r < len(s) && (isAlnum(s[r]) || s[r] == '_' || s[r] == '.' || s[r] == '-') {
			r++
		}
		for r > i+1 && (s[r-1] == '.' || s[r-1] == '-') {
			r--
		}
		if h := s[i:r]; len(h) > 1 && len(h) <= 40 && !strings.Contains(h[1:], ".") {
			out = append(out, h)
		}
	}
	return out
}

var (
	currencySymbols = "€$£¥￥₹₩₽₺₪฿₫"
	currencyCodes   = " EUR USD GBP JPY CNY RMB CHF BRL CAD AUD INR MXN SEK NOK DKK PLN HKD TWD KRW ARS CLP COP "
	currencyAfter   = []string{"元", "円", "欧元", "美元", "块", "圆", "euros", "euro", "dollars", "dollar", "reais", "real", "pesos", "francs", "yuan", "yen"}
	currencyBefore  = []string{"R$", "US$", "C$", "A$", "HK$", "NT$", "CHF", "Fr."}
)

// amounts finds money: a number with a currency symbol, code or word
// right before or after it ("€500", "1.234,56 EUR", "500元").
func amounts(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' || i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
			continue
		}
		j := i
		for j < len(s) {
			if s[j] >= '0' && s[j] <= '9' {
				j++
				continue
			}
			// A separator inside a number: "1,234.56", "1.234,56", "1 234".
			if (s[j] == ',' || s[j] == '.' || s[j] == '\'' || s[j] == ' ') && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9' {
				if s[j] == ' ' && !(j+4 <= len(s) && allDigits(s[j+1:j+4]) && (j+4 == len(s) || s[j+4] < '0' || s[j+4] > '9')) {
					break
				}
				j++
				continue
			}
			break
		}
		start, end := i, j
		before := strings.TrimRight(s[:i], " \u00a0")
		after := strings.TrimLeft(s[j:], " \u00a0")
		found := false
		for _, p := range currencyBefore {
			if strings.HasSuffix(before, p) {
				start, found = len(before)-len(p), true
				break
			}
		}
		if !found {
			if r, n := lastRune(before); n > 0 && strings.ContainsRune(currencySymbols, r) {
				start, found = len(before)-n, true
			} else if len(before) >= 3 && strings.Contains(currencyCodes, " "+before[len(before)-3:]+" ") && (len(before) == 3 || !isAlnum(before[len(before)-4])) {
				start, found = len(before)-3, true
			}
		}
		if !found {
			if r, n := firstRune(after); n > 0 && strings.ContainsRune(currencySymbols, r) {
				end, found = len(s)-len(after)+n, true
			} else if len(after) >= 3 && strings.Contains(currencyCodes, " "+after[:3]+" ") && (len(after) == 3 || !isAlnum(after[3])) {
				end, found = len(s)-len(after)+3, true
			} else {
				la := strings.ToLower(after)
				for _, w := range currencyAfter {
					if strings.HasPrefix(la, w) && (len(la) == len(w) || w[0] >= 0x80 || !isAlnum(la[len(w)])) {
						end, found = len(s)-len(after)+len(w), true
						break
					}
				}
			}
		}
		if found {
			out = append(out, strings.TrimSpace(s[start:end]))
		}
		i = j
	}
	return out
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0 && i >= len(s)-4; i-- {
		if s[i]&0xC0 != 0x80 {
			r := []rune(s[i:])
			if len(r) == 1 {
				return r[0], len(s) - i
			}
			return 0, 0
		}
	}
	return 0, 0
}

func firstRune(s string) (rune, int) {
	for i, r := range s {
		_ = i
		n := len(string(r))
		return r, n
	}
	return 0, 0
}

// ibans finds international account numbers: two letters, two check
// digits, then 11 to 30 letters and digits, in groups or not.
func ibans(s string) []string {
	var out []string
	for i := 0; i+4 <= len(s); i++ {
		if !(up(s[i]) && up(s[i+1]) && dig(s[i+2]) && dig(s[i+3])) || i > 0 && isAlnum(s[i-1]) {
			continue
		}
		j, n := i, 0
		for j < len(s) {
			if up(s[j]) || dig(s[j]) {
				j, n = j+1, n+1
			} else if s[j] == ' ' && j+1 < len(s) && (up(s[j+1]) || dig(s[j+1])) && n < 34 {
				j++
			} else {
				break
			}
		}
		if n >= 15 && n <= 34 {
			out = append(out, strings.TrimSpace(s[i:j]))
			i = j
		}
	}
	return out
}

func up(b byte) bool  { return b >= 'A' && b <= 'Z' }
func dig(b byte) bool { return b >= '0' && b <= '9' }

// Requested returns the categories the user's own words ask for (the task
// text and corrections). A request verb counts unless negated ("don't
// delete", "nicht löschen", "不要删除", "削除しないで") or asked about
// ("how to delete"); words that are also nouns ("post", "order") count
// only in verb position: at the start of a clause or after a request
// marker ("please", "can you", "bitte", "peux-tu"). It errs towards
// asking: a missed request makes the gate ask the user, a false one
// would let an action through.
func Requested(task string) map[Category]bool {
	out := map[Category]bool{}
	t := fold(task)
	for _, m := range scan(t, requestEntries()) {
		e := m.e
		if e.cjk {
			if cjkNegated(t, m) || e.noun && !cjkVerbPosition(t, m.pos, m.end) {
				continue
			}
		} else {
			if latinNegated(t, m) || e.noun && !verbPosition(t, m.pos) {
				continue
			}
		}
		out[Category(e.cls)] = true
		if e.pay {
			out[CatPayment] = true
		}
	}
	return out
}

// tokensBefore returns up to n words before pos, nearest first, stopping
// at a clause boundary.
func tokensBefore(t string, pos, n int) []string {
	f := strings.Fields(t[:pos])
	var out []string
	for i := len(f) - 1; i >= 0 && len(out) < n; i-- {
		if f[i] == "|" {
			break
		}
		out = append(out, f[i])
	}
	return out
}

func tokensAfter(t string, end, n int) []string {
	f := strings.Fields(t[end:])
	var out []string
	for _, w := range f {
		if w == "|" || len(out) == n {
			break
		}
		out = append(out, w)
	}
	return out
}

func latinNegated(t string, m match) bool {
	for _, w := range tokensBefore(t, m.pos, 3) {
		if negBefore[w] || reqQuestion[w] {
			return true
		}
	}
	for _, w := range tokensAfter(t, m.end, 3) {
		if negAfter[w] {
			return true
		}
	}
	return false
}

// verbPosition: the word starts a clause or follows a request marker.
func verbPosition(t string, pos int) bool {
	b := tokensBefore(t, pos, 2)
	if len(b) == 0 {
		return true
	}
	if b[0] == "to" && len(b) > 1 && reqQuestion[b[1]] {
		return false
	}
	if b[0] == "s" { // "let's order", not "Bob's order"
		return len(b) > 1 && b[1] == "let"
	}
	return reqMarker[b[0]]
}

var cjkQuestion = []string{"如何", "怎么", "怎麼", "怎样", "怎樣", "どうやって", "方法"}

func cjkNegated(t string, m match) bool {
	before := t[:m.pos]
	if i := strings.LastIndexAny(before, "| "); i >= 0 && len(before)-i > 13 {
		before = before[len(before)-12:] // the last four CJK runes
	} else if i >= 0 {
		before = before[i+1:]
	}
	for _, n := range cjkNegBefore {
		if strings.Contains(before, n) {
			return true
		}
	}
	for _, q := range cjkQuestion {
		if strings.Contains(before, q) {
			return true
		}
	}
	after := t[m.end:]
	for _, n := range cjkNegAfter {
		if strings.HasPrefix(after, n) {
			return true
		}
	}
	return false
}

// cjkVerbPosition: a CJK word that is also a noun (转账, 共享) is a
// request at a clause start, after a request marker (帮我), or before
// its object or amount (共享给, 转账500元); not in 转账记录.
func cjkVerbPosition(t string, pos, end int) bool {
	before, after := t[:pos], strings.TrimPrefix(t[end:], " ")
	if before == "" || strings.HasSuffix(before, " ") {
		return true
	}
	if strings.HasPrefix(after, "给") || strings.HasPrefix(after, "給") || strings.HasPrefix(after, "到") || after != "" && after[0] >= '0' && after[0] <= '9' {
		return true
	}
	for _, w := range cjkMarker {
		if strings.HasSuffix(before, w) {
			return true
		}
	}
	return false
}

// addVerbs start a caption that adds something ("Add 3-year Protection
// Plan ($149)"): with a price in the caption it is a purchase even when it
// never says cart.
var addVerbs = []string{"add", "hinzufügen", "ajouter", "añadir", "agregar", "adicionar", "aggiungi", "toevoegen", "加", "添加", "追加"}

func addsPricedItem(caps []string) bool {
	for _, c := range caps {
		f := strings.TrimSpace(fold(c))
		for _, v := range addVerbs {
			v = strings.TrimSpace(fold(v))
			if (strings.HasPrefix(f, v+" ") || isCJKWord(v) && strings.Contains(f, v) || strings.HasSuffix(f, " "+v)) && len(amounts(c)) > 0 {
				return true
			}
		}
	}
	return false
}

func isCJKWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isCJK(r)
}
