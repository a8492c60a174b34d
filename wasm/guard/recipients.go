package guard

import (
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// The recipient check of messaging sites (docs/site-adapters.md,
// "Messaging"). On a route whose adapter verifies the active recipient, a
// send goes through only when the conversation the page shows above the
// composer is exactly one the user's request named: missing, ambiguous or
// different evidence stops it before anything is sent. Message text, search
// results and input values never name the conversation (the content script
// reads only headings outside message lists), and nothing the model writes
// is a recipient: the names come from the planner's reading of the user's
// words.

// Submission is a consequential action the gate let through: its kind, the
// page and, for a send, the recipient the gate verified ("" when none).
type Submission struct {
	Category  Category
	PageURL   string
	Recipient string
	CallID    string // the tool call it was let through for
	// Confirmed: a later chat observation showed it as the user's own
	// message in the conversation, and on native WhatsApp its status as
	// delivered (chat.go).
	Confirmed bool
	// Delivered: that message's status read as delivered or read.
	Delivered bool
}

// Submissions are the consequential actions the gate let through so far,
// oldest first.
func (g *Gate) Submissions() []Submission {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Submission(nil), g.sent...)
}

// tagSubmissions gives the submissions recorded since the first n the id
// of the call they were let through for.
func (g *Gate) tagSubmissions(n int, callID string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := n; i < len(g.sent); i++ {
		g.sent[i].CallID = callID
	}
}

func (g *Gate) record(s Submission) {
	g.mu.Lock()
	g.sent = append(g.sent, s)
	g.keepChatSend(s, len(g.sent)-1)
	g.mu.Unlock()
}

func (g *Gate) verifies(pageURL string) bool {
	return g.cfg.VerifiesRecipient != nil && pageURL != "" && g.cfg.VerifiesRecipient(pageURL)
}

// identity is a name as the check compares it: case, spacing and a
// leading @ or # (handles, channels) do not count.
func identity(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	return strings.TrimSpace(strings.TrimLeft(s, "@#"))
}

// verifyRecipient returns the named recipient the conversation is, or a
// refusal that says why nothing was sent.
func (g *Gate) verifyRecipient(p Probe) (string, string) {
	const stop = "Not sent: on this messaging page WebBrain sends only into the conversation your task names, "
	names := conversationNames(p)
	if len(g.cfg.Recipients) == 0 && g.cfg.ActiveConversation {
		return g.sendHere(names)
	}
	if len(g.cfg.Recipients) == 0 {
		return "", stop + "and the user's request names no recipient. Ask the user who the message is for (clarify), or call done and say why nothing was sent."
	}
	wanted := quoteNames(g.cfg.Recipients)
	switch {
	case len(names) == 0:
		return "", stop + "and the page shows no conversation name above the message box. Open the conversation with " + wanted + " so its header shows the name, then send again."
	case len(names) > 1:
		return "", stop + "and the page shows several conversation names above the message box, so who it goes to is unclear. Open only the conversation with " + wanted + ", then send again."
	}
	for id, shown := range names {
		for _, r := range g.cfg.Recipients {
			if identity(r) == id {
				return r, ""
			}
		}
		return "", stop + "and the open conversation is " + quoteNames([]string{shown}) + " (page text), not " + wanted + ". Open the conversation with " + wanted + " first; do not send here."
	}
	return "", ""
}

// unnamed reports whether a control carries no words at all (an icon).
func unnamed(p Probe) bool {
	return firstNonEmpty(p.Name, p.Text, p.Title, p.AriaLabel, p.Value) == ""
}

// namedRecipients is, for a send from a form with recipient fields (a
// mail composer), the recipients when every one is named in the user's
// words, else "".
func (g *Gate) namedRecipients(values []Value) string {
	var out []string
	for _, v := range values {
		if v.Kind != "recipient" {
			continue
		}
		if !g.cfg.Authority.Mentions(v.Value) {
			return ""
		}
		out = append(out, v.Value)
	}
	return strings.Join(out, ", ")
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "“" + clip.Line(n, 80) + "”"
	}
	return strings.Join(q, " or ")
}

// unboundOnProtectedRoute refuses, on a page whose sends are verified,
// the tools whose effect cannot be tied to the checked conversation: a
// script, a click inside a frame, a page's own tool, a file input whose
// change may send at once.
func (g *Gate) unboundOnProtectedRoute(tool string) string {
	switch tool {
	case protocol.ToolExecuteJS, protocol.ToolIframeClick, protocol.ToolIframeType, protocol.ToolExecuteWebMCPTool, protocol.ToolUploadFile:
	default:
		return ""
	}
	g.mu.Lock()
	page := g.page
	g.mu.Unlock()
	if !g.verifies(page) {
		return ""
	}
	return "Not done: " + tool + " is not available on this messaging page, because WebBrain cannot check who its effect reaches. Use the page's own controls (click, type) so the recipient check can run."
}

// oneEnterOnProtectedRoute refuses, on a page whose sends are verified, a
// key sequence with more than one Enter: one check covers one send.
func (g *Gate) oneEnterOnProtectedRoute(keys string) string {
	if enterPresses(keys) < 2 {
		return ""
	}
	g.mu.Lock()
	page := g.page
	g.mu.Unlock()
	if !g.verifies(page) {
		return ""
	}
	return "Not done: on this messaging page each Enter that may send is checked on its own. Press Enter once per call."
}
