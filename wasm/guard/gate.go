// Package guard keeps a fooled model from turning the agent against its
// user (docs/decisions/action-gate.md). Before each page action, navigation or fetch
// the Gate looks at what the action would really do (a probe of the
// control on the page, the URL), classifies it and compares it with the
// user's own words (Authority). What the words did not clearly ask for
// waits for the user on WebBrain's approval card; the model's arguments
// and the page's text never authorize anything. The same package cleans
// the final answer (answer.go).
package guard

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/secrets"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Decision is the user's answer on an approval card.
type Decision string

const (
	Approve     Decision = protocol.DecisionApprove
	ApproveSite Decision = protocol.DecisionApproveSite // this kind of action on this site, for the rest of the run
	Decline     Decision = protocol.DecisionDecline
)

// Detail is one labelled value shown on a card.
type Detail struct {
	Label string `json:"label"`
	Value string `json:"value"`
	// LabelMsg is Label as a catalog key for the panel; ValueMsg is set
	// only when the value is WebBrain's own words (never page data).
	LabelMsg *uitext.Msg `json:"labelMsg,omitempty"`
	ValueMsg *uitext.Msg `json:"valueMsg,omitempty"`
}

// NewDetail is a row with WebBrain's label and a value of data.
func NewDetail(label uitext.Text, value string) Detail {
	return Detail{Label: label.English, Value: value, LabelMsg: label.Msg}
}

// NewDetailText is a row whose value is WebBrain's own words too.
func NewDetailText(label, value uitext.Text) Detail {
	d := NewDetail(label, value.English)
	d.ValueMsg = value.Msg
	return d
}

// SplitTexts splits Texts into the card's English lines and their keys (nil
// when no line has one).
func SplitTexts(ts []uitext.Text) ([]string, []*uitext.Msg) {
	var en []string
	var msgs []*uitext.Msg
	keyed := false
	for _, t := range ts {
		en = append(en, t.English)
		msgs = append(msgs, t.Msg)
		keyed = keyed || t.Msg != nil
	}
	if !keyed {
		msgs = nil
	}
	return en, msgs
}

// Approval is what an approval card shows (docs/PROTOCOL.md).
type Approval struct {
	ID   string `json:"-"`
	Text string `json:"-"`
	// TextMsg is Text as a catalog key; the event carries it as msg.
	TextMsg  *uitext.Msg `json:"-"`
	Tool     string      `json:"tool"`
	Category string      `json:"category"`
	Site     string      `json:"site"`
	URL      string      `json:"url"`
	Details  []Detail    `json:"details"`
	Reasons  []string    `json:"reasons"`
	// ReasonMsgs are Reasons as catalog keys, index by index (nil where
	// a reason has none); absent when none has.
	ReasonMsgs []*uitext.Msg `json:"reasonMsgs,omitempty"`
	Choices    []string      `json:"choices"`
	// ExpiresAt (ms since the epoch) is set by the Approver.
	ExpiresAt int64 `json:"expiresAt,omitempty"`
}

// Approver shows a card and waits for the user's decision. It returns
// Decline when the card times out; ctx ending is a stop.
type Approver interface {
	Approve(ctx context.Context, a Approval) (Decision, error)
}

// Prober reads the page for the gate without changing it.
type Prober interface {
	// Probe describes the element an action would reach; args are the
	// tool's arguments plus "enter" for what Enter in a field submits.
	Probe(ctx context.Context, args map[string]any) (Probe, error)
	// Links returns the page's URL and the links a person can see on it.
	Links(ctx context.Context) (pageURL string, links []string, err error)
	// Resource finds what a download from the page would save: for
	// {ref}, what the element shows or links to; for {url}, that URL when
	// the page shows media or a link at it.
	Resource(ctx context.Context, args map[string]any) (Resource, error)
}

// Resource is the content script's answer to wb_resource.
type Resource struct {
	URL  string `json:"url"`
	Tag  string `json:"tag"`
	Kind string `json:"kind"` // image, video, audio, document or link
}

// Probe is the content script's description of a control (wb_probe).
type Probe struct {
	Tool       string  `json:"tool"`
	Tag        string  `json:"tag"`
	Role       string  `json:"role"`
	Type       string  `json:"type"`
	Name       string  `json:"name"`
	Text       string  `json:"text"`
	Title      string  `json:"title"`
	AriaLabel  string  `json:"ariaLabel"`
	Value      string  `json:"value"`
	Href       string  `json:"href"`
	InForm     bool    `json:"inForm"`
	FormAction string  `json:"formAction"`
	FormMethod string  `json:"formMethod"`
	FormFields []Field `json:"formFields"`
	FormName   string  `json:"formName"`
	Record     string  `json:"record"`
	Heading    string  `json:"heading"` // the record's heading: the item's name
	Dialog     string  `json:"dialog"`
	PageURL    string  `json:"pageUrl"`
	PageTitle  string  `json:"pageTitle"`
	Editable   bool    `json:"editable"`
	Multiline  bool    `json:"multiline"`
	// Placeholder is the field's placeholder (Enter in a composer).
	Placeholder string `json:"placeholder"`
	// Enter: Enter in this field outside any form (a composer).
	Enter bool `json:"enter"`
	// EnterFrom is the field Enter was pressed in when the probe is of the
	// form's submit control.
	EnterFrom *Probe `json:"enterFrom"`
	// Conversation is the names the headings above the control or
	// composer give its conversation (recipients.go).
	Conversation []string `json:"conversation"`
	// NearComposer: the control sits beside a message box.
	NearComposer bool `json:"nearComposer"`
	// Body is what the message box a send would empty holds, and
	// Messages the conversation's last message rows (chat.go); both only
	// on a route whose sends are verified.
	Body     string        `json:"body"`
	Messages []ChatMessage `json:"messages"`
	// Chips are the address chips of the form a send carries (chips.go).
	Chips []Chip `json:"chips"`
}

func (p Probe) control() Control {
	return Control{
		Tool: p.Tool, Tag: p.Tag, Role: p.Role, Type: p.Type, Name: p.Name, Text: p.Text,
		Title: p.Title, AriaLabel: p.AriaLabel, Value: p.Value, Href: p.Href,
		// A script-driven button among fields sends them as a form would.
		InForm:     p.InForm || len(p.FormFields) > 0 && p.Tag != "a",
		FormAction: p.FormAction, FormMethod: p.FormMethod, FormFields: p.FormFields, FormName: p.FormName,
		Record: p.Record, Dialog: p.Dialog, PageURL: p.PageURL, PageTitle: p.PageTitle,
	}
}

// Config configures a run's gate.
type Config struct {
	Mode string // protocol.ModeAsk, protocol.ModeAct or protocol.ModeDev
	// AskBeforeActions is the setting "Ask before consequential actions".
	// Off, consequential page actions go through without a card; data
	// leaving in URLs and typed secrets are still asked about.
	AskBeforeActions bool
	Authority        *Authority
	Prober           Prober
	Approver         Approver
	// Meaning reads the user's words where the lexicon is not enough;
	// nil: the lexicon alone decides.
	Meaning Meaning
	// Messages reads a messaging page's own texts (messaging.go); nil: the
	// word lists and page structure alone decide.
	Messages MessageReader
	// Effects reads what a control the word lists leave unmatched does
	// (effect.go); nil: the word lists and page structure alone decide.
	Effects EffectReader
	// VerifiesRecipient reports whether a send on a page must go to a
	// recipient the user named (a site adapter's messaging policy); nil:
	// no page does.
	VerifiesRecipient func(pageURL string) bool
	// Recipients are the people the user's request sends a message to,
	// as the planner read them from the user's words.
	Recipients []string
	// ActiveConversation: the request sends into the conversation on
	// screen without naming anyone ("reply here"); the run's first check
	// pins the one the page has open (pin.go). Pinned is a pin an earlier
	// part of the run took (a resumed run), and OnPin is told of a new one
	// so the run can keep it.
	ActiveConversation bool
	Pinned             string
	OnPin              func(conversation string)
}

// Gate is one run's guard. It is safe for concurrent use.
type Gate struct {
	cfg Config

	mu       sync.Mutex
	corpus   []string        // page-derived text the run read, newest last
	size     int             // its length in bytes
	visited  map[string]bool // sites the run reached by allowed navigation
	grants   map[string]bool // category|site approved for the rest of the run
	declined map[string]bool // actions the user declined: not asked again
	asked    map[string]int  // cards per call, for unique ids
	page     string          // the tab's page as the run last knew it
	sent     []Submission    // consequential actions the gate let through
	chats    []chatSend      // sends into a checked conversation (chat.go)
	pending  *chatSend       // the one the current check may let through
	pinned   string          // the conversation "here" is (pin.go)
	pinTried bool            // the run's first check looked for it
}

// corpusMax bounds the page text kept to recognise it in URLs.
const corpusMax = 512 << 10

// New returns the gate of one run.
func New(cfg Config) *Gate {
	if cfg.Authority == nil {
		cfg.Authority = NewAuthority(nil, "")
	}
	g := &Gate{cfg: cfg, visited: map[string]bool{}, grants: map[string]bool{}, declined: map[string]bool{}, asked: map[string]int{}, pinned: cfg.Pinned}
	if s := cfg.Authority.StartSite(); s != "" {
		g.visited[s] = true
	}
	return g
}

// SetWords gives the gate the user's own words: the request, corrections
// and answers to questions; startURL is the page the run began on. The
// agent calls it from the run's one goroutine, between checks.
func (g *Gate) SetWords(words []string, startURL string) {
	a := NewAuthority(words, startURL)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.cfg.Authority = a
	if s := a.StartSite(); s != "" {
		g.visited[s] = true
	}
	if g.page == "" {
		g.page = startURL
	}
}

// Observe records a tool result the model saw: page text that must not
// leave in a URL without the user knowing. A page read's unmatched
// button and menu item captions are read ahead (effect.go).
func (g *Gate) Observe(result string) {
	g.preRead(result)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.corpus = append(g.corpus, strings.ToLower(result))
	g.size += len(result)
	for g.size > corpusMax && len(g.corpus) > 1 {
		g.size -= len(g.corpus[0])
		g.corpus = g.corpus[1:]
	}
}

// Visit records that the tab is on pageURL after an allowed action.
func (g *Gate) Visit(pageURL string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if pageURL != "" {
		g.page = pageURL
	}
	if s := SiteOf(HostOf(pageURL)); s != "" {
		g.visited[s] = true
	}
}

// Check decides whether call may run. A non-empty refusal is the tool's
// error for the model (the user declined, or the action is never allowed);
// err is a stop (ctx ended) while a card waited.
func (g *Gate) Check(ctx context.Context, call llm.ToolCall) (refusal string, err error) {
	g.mu.Lock()
	n := len(g.sent)
	g.mu.Unlock()
	defer func() { g.tagSubmissions(n, call.ID) }()
	var args map[string]any
	if json.Unmarshal([]byte(orEmpty(call.Arguments)), &args) != nil {
		return "", nil // the dispatcher reports bad arguments
	}
	g.pinAtStart(ctx)
	if r := g.unboundOnProtectedRoute(call.Name); r != "" {
		return r, nil
	}
	var a *ask
	switch call.Name {
	case protocol.ToolClickAX, protocol.ToolClick:
		a, refusal = g.checkClick(ctx, call.Name, args)
	case protocol.ToolIframeClick: // a click_ax inside a frame
		a, refusal = g.checkClick(ctx, protocol.ToolClickAX, args)
	case protocol.ToolTypeAX, protocol.ToolTypeText, protocol.ToolSetField:
		a, refusal = g.checkTyping(ctx, call.Name, args)
	case protocol.ToolIframeType: // a type_ax inside a frame
		a, refusal = g.checkTyping(ctx, protocol.ToolTypeAX, args)
	case protocol.ToolPressKeys:
		keys, _ := args["keys"].(string)
		if refusal = g.oneEnterOnProtectedRoute(keys); refusal == "" && pressesEnter(keys) {
			a, refusal = g.checkEnter(ctx, call.Name, args)
		}
	case protocol.ToolNavigate, protocol.ToolFetchURL, protocol.ToolResearchURL, protocol.ToolNewTab:
		u, _ := args["url"].(string)
		a, refusal = g.checkURL(ctx, call.Name, u, false, "", "")
	case protocol.ToolReadPDF:
		if u, _ := args["url"].(string); strings.TrimSpace(u) != "" {
			a, refusal = g.checkURL(ctx, call.Name, u, false, "", "")
		}
	case protocol.ToolDownloadFiles, protocol.ToolDownloadResource, protocol.ToolDownloadSocialMedia:
		a, refusal = g.checkDownload(ctx, call.Name, args)
	case protocol.ToolUploadFile:
		a, refusal = g.checkUpload(ctx, call.Name, args)
	case protocol.ToolDragDrop:
		a, refusal = g.checkDrop(ctx, call.Name, args)
	case protocol.ToolSolveCaptcha:
		if _, ok := g.preflight(ctx, call.Name, args); ok {
			a, refusal = g.checkCaptcha(ctx)
		}
	case protocol.ToolExecuteWebMCPTool:
		if pf, ok := g.preflight(ctx, call.Name, args); ok {
			a, refusal = g.checkWebMCP(ctx, args, pf)
		}
	case protocol.ToolExecuteJS:
		a, refusal = g.checkScript(ctx, args)
	}
	if refusal != "" || a == nil {
		return refusal, nil
	}
	return g.askUser(ctx, call, a)
}

// ask is an action that needs the user's approval.
type ask struct {
	approval Approval
	grant    string // grant key for approve_site
	key      string // identity of the action, for "declined already"
	allowed  func() // what an approval makes true for the run (a visited site)
	// fresh: every call is asked about; no approval covers the next one.
	fresh bool
	// same reports, after the user approved, that the page still shows
	// the action the card showed (binding.go); nil: nothing to compare.
	same func(context.Context) bool
}

func (g *Gate) askUser(ctx context.Context, call llm.ToolCall, a *ask) (string, error) {
	g.mu.Lock()
	if !a.fresh && g.grants[a.grant] {
		g.mu.Unlock()
		g.allow(a)
		return "", nil
	}
	if g.declined[a.key] {
		g.mu.Unlock()
		return "The user already declined this action in this task. Do not try it again; continue with the rest of the task or call done.", nil
	}
	n := g.asked[call.ID]
	g.asked[call.ID] = n + 1
	g.mu.Unlock()

	ap := a.approval
	ap.ID = "appr_" + call.ID
	if n > 0 {
		ap.ID += fmt.Sprintf("_%d", n)
	}
	ap.Tool = call.Name
	ap.Choices = []string{string(Approve), string(ApproveSite), string(Decline)}
	if a.fresh {
		ap.Choices = []string{string(Approve), string(Decline)}
	}
	if g.cfg.Approver == nil {
		return "This action needs the user's approval, and the user cannot be asked in this run. It was not done.", nil
	}
	d, err := g.cfg.Approver.Approve(ctx, ap)
	if err != nil {
		return "", err
	}
	if (d == Approve || d == ApproveSite) && a.same != nil && !a.same(ctx) {
		return changedWhileAsked, nil
	}
	switch d {
	case Approve:
		g.allow(a)
		return "", nil
	case ApproveSite:
		if a.fresh { // not a choice on its card
			g.allow(a)
			return "", nil
		}
		g.mu.Lock()
		g.grants[a.grant] = true
		g.mu.Unlock()
		g.allow(a)
		return "", nil
	}
	g.mu.Lock()
	g.declined[a.key] = true
	g.mu.Unlock()
	return "The user declined this action on WebBrain's approval card (" + ap.Text + "). It was not done. Do not try it again or another way; continue with the rest of the task, or call done and say what was not done.", nil
}

func (g *Gate) allow(a *ask) {
	if a.allowed != nil {
		a.allowed()
	}
}

func (g *Gate) isVisited(site string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.visited[site]
}

func orEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return "{}"
	}
	return s
}

// pressesEnter reports whether a press_keys sequence has an Enter press
// (alone or with modifiers, which send in many composers).
func pressesEnter(keys string) bool { return enterPresses(keys) > 0 }

// enterPresses counts the Enter presses of a press_keys sequence.
func enterPresses(keys string) int {
	n := 0
	for _, chord := range strings.Fields(keys) {
		parts := strings.Split(chord, "+")
		if k := strings.ToLower(parts[len(parts)-1]); k == "enter" || k == "return" || k == "numpadenter" {
			n++
		}
	}
	return n
}

// secretsNotFromUser are the secrets in text that the user did not write.
func (g *Gate) secretsNotFromUser(text string) []secrets.Match {
	var out []secrets.Match
	for _, m := range secrets.Find(text) {
		if !g.cfg.Authority.Mentions(m.Value) {
			out = append(out, m)
		}
	}
	return out
}

// hint shows a secret as its kind and a few characters, never whole.
func hint(m secrets.Match) string {
	v := []rune(m.Value)
	if len(v) > 8 {
		v = append(v[:4:4], '…')
	} else {
		v = []rune("…")
	}
	return string(v) + " (" + kindName(m.Kind) + ")"
}

func kindName(k secrets.Kind) string {
	s := strings.ReplaceAll(string(k), "_", " ")
	switch s {
	case "api key":
		return "API key"
	case "otp":
		return "one-time code"
	case "card":
		return "card number"
	case "iban":
		return "IBAN"
	case "cvv":
		return "card security code"
	}
	return s
}

// maskSecrets hides every secret in s.
func maskSecrets(s string) string { return secrets.Mask(s, nil) }
