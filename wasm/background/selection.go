package background

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/cost"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/selection"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/tools"
)

// The selection toolbar (docs/decisions/selection-toolbar.md): its
// content script asks for a card's answer (selection_inline), cancels one
// it no longer needs (selection_inline_cancel) and hands a selection to the
// side panel (selection_context), which the next chat_start of the tab
// takes as its quoted context.

// selectionMessage is what the toolbar's script (or the glue's context
// menu, for the tab it names) sends.
type selectionMessage struct {
	Action       string `json:"action"`
	TabID        int    `json:"tabId"`
	JobID        string `json:"jobId"`
	Kind         string `json:"kind"`
	Text         string `json:"text"`
	Target       string `json:"target"`
	ContinueFrom string `json:"continueFrom"`
	// Answer is a card's complete answer the panel's question follows up.
	Answer string `json:"answer"`
	// Prompt is what the user asked in the toolbar's More… popup (an
	// action's request or a question), which the panel sends at once;
	// empty: the user writes the question in the panel.
	Prompt string `json:"prompt"`
}

// selectionJobs are the card calls in flight, by tab and job id, so a
// closed or retargeted card cancels the paid request it no longer needs.
type selectionJobs struct {
	mu   sync.Mutex
	jobs map[string]context.CancelFunc
}

func (s *selectionJobs) add(key string, cancel context.CancelFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jobs == nil {
		s.jobs = map[string]context.CancelFunc{}
	}
	if old := s.jobs[key]; old != nil {
		old()
	}
	s.jobs[key] = cancel
}

func (s *selectionJobs) cancel(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.jobs[key]
	delete(s.jobs, key)
	if c != nil {
		c()
	}
	return c != nil
}

func (s *selectionJobs) done(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.jobs, key)
}

// fromTabPage reports whether the message comes from WebBrain's content
// script in a tab's top document: the extension's id, a tab, frame 0 and
// a URL that is not one of WebBrain's own pages.
func (s Sender) fromTabPage(id, origin string) bool {
	return id != "" && s.ID == id && s.TabID > 0 && s.FrameID == 0 && (origin == "" || !strings.HasPrefix(s.URL, origin+"/"))
}

// isSelectionAction reports whether action is one the toolbar's content
// script may send.
func isSelectionAction(action string) bool {
	switch action {
	case protocol.ActionSelectionInline, protocol.ActionSelectionInlineCancel, protocol.ActionSelectionContext:
		return true
	}
	return false
}

// selectionAction answers the toolbar's messages. A content script speaks
// only for its own tab: the tab id comes from the browser, never from the
// message. The glue's context-menu handler (an own-page sender) names it.
func (r *Router) selectionAction(ctx context.Context, raw json.RawMessage, sender Sender) reply {
	var m selectionMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return failf("The message is not a valid JSON object.")
	}
	switch {
	case sender.fromTabPage(r.p.Self.ID, r.p.Self.Origin):
		m.TabID = sender.TabID
	case sender.fromOwnPage(r.p.Self):
		if m.TabID <= 0 {
			return failf("The message needs the tab id (tabId).")
		}
	default:
		return failf("Only WebBrain's selection toolbar can ask about a selection.")
	}
	key := strconv.Itoa(m.TabID) + ":" + m.JobID
	switch m.Action {
	case protocol.ActionSelectionInline:
		return r.selectionInline(ctx, m, key)
	case protocol.ActionSelectionInlineCancel:
		return okReply("cancelled", r.selJobs.cancel(key))
	default:
		return r.selectionContext(ctx, m)
	}
}

// selectionInline answers a card: one tool-less model call through the
// cost allowance, with the selection as untrusted page data.
func (r *Router) selectionInline(ctx context.Context, m selectionMessage, key string) reply {
	q := selection.Request{Kind: m.Kind, Text: m.Text, Target: m.Target, ContinueFrom: m.ContinueFrom}
	if err := q.Validate(); err != nil {
		return errReply(err)
	}
	s, problem := settings.Load(ctx, r.p.Local)
	if problem != nil {
		return failf("%v. Open Settings and save them again.", problem)
	}
	cfg, err := s.Active()
	if err != nil {
		return errReply(err)
	}
	prov, err := llm.New(cfg, r.p.Fetch)
	if err != nil {
		return errReply(err)
	}
	p, err := selection.Build(q, tools.NewBoundary(), agent.ContextWindow(cfg))
	if err != nil {
		return reply{"ok": false, "error": err.Error(), "contextWindow": errors.Is(err, selection.ErrContextWindow)}
	}
	callCtx, cancel := context.WithTimeout(context.Background(), selection.Timeout)
	defer cancel()
	r.selJobs.add(key, cancel)
	defer r.selJobs.done(key)
	card := r.cardMeter(s, cfg)
	if err := card.admit(callCtx, p.Request); err != nil {
		return errReply(err)
	}
	res, err := prov.Chat(callCtx, p.Request)
	notice := card.record(res.Usage, err == nil || res.Usage != (llm.Usage{}))
	if err != nil {
		switch {
		case errors.Is(callCtx.Err(), context.Canceled):
			return reply{"ok": false, "error": "Cancelled.", "cancelled": true}
		case errors.Is(callCtx.Err(), context.DeadlineExceeded):
			return failf("The model did not answer within %d seconds.", int(selection.Timeout.Seconds()))
		}
		return errReply(err)
	}
	a := selection.Finish(res, p.Budget)
	if a.Text == "" {
		return failf("The model sent an empty answer.")
	}
	return okReply("text", a.Text, "truncated", a.Truncated, "notice", notice, "kind", q.Kind)
}

// cardMeter is the cost allowance of a card's call. A card has no run and
// no panel to show an allowance card on: a call that may pass the
// allowance is refused with the allowance's own message, and the call
// that reaches it keeps its answer with a notice.
type cardMeter struct {
	r      *Router
	model  string
	price  cost.Price
	priced bool
	allow  cost.Allowance
}

func (r *Router) cardMeter(s settings.Settings, cfg llm.Config) *cardMeter {
	model := cfg.Model
	if model == "" {
		model = cfg.Deployment
	}
	price, _, ok := cost.Lookup(cost.Model{BaseURL: cfg.BaseURL, ID: model}, s.Prices)
	return &cardMeter{r: r, model: model, price: price, priced: ok, allow: s.Allowance()}
}

func (c *cardMeter) admit(ctx context.Context, req llm.Request) error {
	if !c.priced || c.allow == (cost.Allowance{}) {
		return nil
	}
	day, err := c.r.usage.Today(ctx)
	if err != nil {
		return errors.New("WebBrain could not read today's usage to check the cost allowance.")
	}
	if l, over := c.allow.Check(day, cost.Tally{}, 0, c.price.Estimate(req)); over {
		return errors.New("This answer may pass the cost allowance. " + l.Message() + " Raise it in Settings → Usage and cost, or ask in the side panel.")
	}
	return nil
}

// record counts the call in the day's usage and returns the notice of the
// call that reached the allowance.
func (c *cardMeter) record(u llm.Usage, made bool) string {
	if !made {
		return ""
	}
	call := cost.NewCall(c.model, u, c.price, c.priced)
	ctx, cancel := context.WithTimeout(context.Background(), storageWriteTimeout)
	defer cancel()
	day, err := c.r.usage.Add(ctx, call)
	if err != nil || call.CostUSD <= 0 || c.allow == (cost.Allowance{}) {
		return ""
	}
	before := day
	before.CostUSD -= call.CostUSD
	if l, reached := c.allow.Reached(day, cost.Tally{}, 0); reached {
		if _, was := c.allow.Reached(before, cost.Tally{}, 0); !was {
			return "This answer reached the cost allowance. " + l.Message() + " The next model call will ask first."
		}
	}
	return ""
}

// pendingSelection is a selection waiting in storage.session for the
// tab's next side-panel message (selectionContext:<tabId>).
type pendingSelection struct {
	ID           string `json:"id"`
	Kind         string `json:"kind,omitempty"`
	Text         string `json:"text"`
	ContinueFrom string `json:"continueFrom,omitempty"`
	Answer       string `json:"answer,omitempty"`
	Prompt       string `json:"prompt,omitempty"`
	At           int64  `json:"at"`
}

// selectionContext keeps the selection for the tab's panel, which shows
// it as a quote and sends it with the next message.
func (r *Router) selectionContext(ctx context.Context, m selectionMessage) reply {
	text := strings.TrimSpace(m.Text)
	if text == "" {
		return failf("No text is selected.")
	}
	text, _ = selection.Clip16(text, selection.MaxSelectionChars)
	if selection.Len16(m.ContinueFrom) > selection.MaxAnswerChars || selection.Len16(m.Answer) > selection.MaxAnswerChars {
		return failf("The earlier answer is longer than a card holds.")
	}
	switch m.Kind {
	case "", selection.KindTranslate, selection.KindExplain, selection.KindProofread:
	default:
		return failf("Unknown selection action %q.", m.Kind)
	}
	prompt := strings.TrimSpace(m.Prompt)
	switch {
	case prompt != "" && (m.ContinueFrom != "" || m.Kind != ""):
		return failf("A request from More… comes without a card's answer.")
	case selection.Len16(prompt) > selection.MaxQuestionChars:
		return failf("The question is longer than %d characters.", selection.MaxQuestionChars)
	case m.ContinueFrom != "":
		prompt = continuePrompt
	}
	now := r.p.Clock.Now().UnixMilli()
	p := pendingSelection{ID: "sel-" + strconv.FormatInt(now, 36) + "-" + strconv.Itoa(m.TabID), Kind: m.Kind, Text: text,
		ContinueFrom: m.ContinueFrom, Answer: m.Answer, Prompt: prompt, At: now}
	raw, _ := json.Marshal(p)
	if err := r.p.Session.Set(ctx, map[string]json.RawMessage{selectionKey(m.TabID): raw}); err != nil {
		return failf("The selection could not be kept for the side panel: %v", err)
	}
	return okReply("id", p.ID)
}

// continuePrompt is the message Continue in side panel sends for the user.
const continuePrompt = "Continue the earlier answer from where it stops."

func selectionKey(tabID int) string { return protocol.TabKey(protocol.KeySelectionContext, tabID) }

// takeSelection reads and removes the tab's pending selection when its id
// is id: the run it starts quotes it, read-only.
func (r *Router) takeSelection(ctx context.Context, tabID int, id string) (pendingSelection, error) {
	got, err := r.p.Session.Get(ctx, selectionKey(tabID))
	if err != nil {
		return pendingSelection{}, err
	}
	var p pendingSelection
	if raw := got[selectionKey(tabID)]; raw == nil || json.Unmarshal(raw, &p) != nil || p.ID != id {
		return pendingSelection{}, errors.New("The selected text is no longer waiting for this tab: select it again.")
	}
	_ = r.p.Session.Remove(ctx, selectionKey(tabID))
	return p, nil
}

// selectionNote is a selected-text run's note and page data: a
// continuation keeps selection_only grounding, a free-form question
// selection_context.
func selectionNote(p pendingSelection) (note, data string) {
	grounding := selection.GroundingSelectionContext
	if p.ContinueFrom != "" {
		grounding = selection.GroundingSelectionOnly
	}
	return selection.ContextNote(grounding) + " " + selectionToolsNote, selection.ContextData(p.Text, p.ContinueFrom, p.Answer)
}

// selectionTools are all a run grounded on a selection is offered: it
// answers from the quoted text, so reading more of the page (the tree,
// the text, screenshots, other addresses) would only widen its sources
// beyond what the user pointed at. done lets a model that finishes with a
// tool call do so; a plain answer ends the run as well.
var selectionTools = []string{protocol.ToolDone}

const selectionToolsNote = "This run offers no page tools: answer from the selected text (and the conversation); if it is not enough, say what is missing."
