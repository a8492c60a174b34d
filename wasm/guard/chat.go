package guard

import (
	"context"
	"net/url"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
)

// The chat observation of a protected messaging route (the spec's
// message_author and message_status). At each send the check lets through,
// the probe also reports the conversation's last messages and the body the
// composer holds. A message is the user's own when the page's structure
// says so (WhatsApp marks outgoing rows), else when its label (the
// accessible label a chat app puts on a message row: "You said…", "Вы: …",
// "나: …") is read as the page's own user's by a model; until read it is
// nobody's in particular. The user's own messages holding the body are the
// send's sent-body baseline. At a later send of the same body into the
// same conversation, more of them than the baseline means the earlier send
// went out: the send is refused as a repetition, and the earlier
// submission is marked delivered when its status reads so, and confirmed
// (on native WhatsApp only once delivered).
// No reading lets a send through: "self" can only refuse a repetition or
// confirm a send, and an unread message or status keeps the default.

// ChatMessage is one message row of a conversation as the probe reports
// it: page text, never instructions.
type ChatMessage struct {
	// Label is the row's accessible label ("You said: …").
	Label string `json:"label"`
	// Text is what the row shows.
	Text string `json:"text"`
	// Side is what the page's structure says of its author: "self",
	// "other" or "" (nothing).
	Side string `json:"side"`
	// Status is the label of the row's status mark ("Delivered").
	Status string `json:"status"`
}

// Readings of message_author.
const (
	AuthorSelf    = "self"    // the page's own user sent it
	AuthorOther   = "other"   // someone else sent it
	AuthorUnclear = "unclear" // the label does not say
)

// Readings of message_status.
const (
	StatusDelivered = "delivered_or_read"
	StatusSent      = "sent"
	StatusPending   = "pending_or_failed"
	StatusUnclear   = "unclear"
)

// chatSend is a send the check let through on a protected route, with
// what it carried and the baseline the page showed before it.
type chatSend struct {
	page, conversation, body string
	baseline                 int // the user's own messages holding body, before the send
	sub                      int // its index in Gate.sent; -1 until recorded
}

// author reads who sent a message: the page's structure first, then its
// label's reading; "" until read.
func (g *Gate) author(ctx context.Context, m ChatMessage) string {
	switch m.Side {
	case AuthorSelf, AuthorOther:
		return m.Side
	}
	label := strings.TrimSpace(m.Label)
	if label == "" || g.cfg.Messages == nil {
		return ""
	}
	switch r := g.cfg.Messages.MessageAuthor(ctx, clip.Runes(label, 300)); r {
	case AuthorSelf, AuthorOther:
		return r
	}
	return ""
}

// delivered reads whether a message's status says it was delivered or
// read; an unread, unclear, sent-only, pending or failed status is not.
func (g *Gate) delivered(ctx context.Context, m ChatMessage) bool {
	status := strings.TrimSpace(m.Status)
	if status == "" || g.cfg.Messages == nil {
		return false
	}
	return g.cfg.Messages.MessageStatus(ctx, clip.Runes(status, 120)) == StatusDelivered
}

// chatText folds a message text for comparison.
func chatText(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// ownWithBody counts the user's own messages that hold body, and returns
// the newest of them.
func (g *Gate) ownWithBody(ctx context.Context, msgs []ChatMessage, body string) (int, ChatMessage) {
	n, last := 0, ChatMessage{}
	for _, m := range msgs {
		if !holds(m, body) {
			continue
		}
		if g.author(ctx, m) == AuthorSelf {
			n++
			last = m
		}
	}
	return n, last
}

// holds reports whether a message is body: its text or label holds it
// with little else around it (a time, a status, "You:"), so that a longer
// message that only contains the words is another message.
func holds(m ChatMessage, body string) bool {
	for _, t := range []string{m.Text, m.Label} {
		t = chatText(t)
		if strings.Contains(t, body) && len([]rune(t))-len([]rune(body)) <= maxAround {
			return true
		}
	}
	return false
}

// maxAround bounds what a message row may show beside its body.
const maxAround = 40

// nativeWhatsApp: WhatsApp's own web app, whose sends count once their
// status reads delivered.
func nativeWhatsApp(pageURL string) bool {
	u, err := url.Parse(pageURL)
	return err == nil && strings.EqualFold(u.Hostname(), "web.whatsapp.com")
}

// checkConversation is the recipient check of a send on a protected route
// (verifyRecipient) followed by the chat observation: a body this run
// already sent into this conversation, which now shows there as the
// user's own beyond its baseline, is not sent again.
func (g *Gate) checkConversation(ctx context.Context, p Probe) (string, string) {
	who, refusal := g.verifyRecipient(p)
	if refusal != "" {
		return "", refusal
	}
	body := chatText(p.Body)
	g.mu.Lock()
	g.pending = nil
	g.mu.Unlock()
	if body == "" {
		return who, ""
	}
	own, last := g.ownWithBody(ctx, p.Messages, body)
	conv := identity(who)
	g.mu.Lock()
	var earlier *chatSend
	for _, c := range g.chats {
		if c.page == HostOf(p.PageURL) && c.conversation == conv && c.body == body {
			earlier = &c
		}
	}
	g.mu.Unlock()
	if earlier != nil && own > earlier.baseline {
		delivered := g.delivered(ctx, last)
		g.mu.Lock()
		if s := earlier.sub; s >= 0 && s < len(g.sent) {
			g.sent[s].Delivered = g.sent[s].Delivered || delivered
			g.sent[s].Confirmed = !nativeWhatsApp(g.sent[s].PageURL) || g.sent[s].Delivered
		}
		g.mu.Unlock()
		state := "its status does not read as delivered yet, so wait and read the page again"
		if delivered {
			state = "its status reads as delivered"
		}
		return "", "Not sent again: this message already shows in the conversation with " + quoteNames([]string{who}) +
			" as sent by the user since WebBrain let it through, and " + state +
			". Do not send it again: one request sends it once. Continue with the rest of the task or call done."
	}
	baseline := own
	if earlier != nil && earlier.baseline < baseline {
		baseline = earlier.baseline
	}
	g.mu.Lock()
	g.pending = &chatSend{page: HostOf(p.PageURL), conversation: conv, body: body, baseline: baseline, sub: -1}
	g.mu.Unlock()
	return who, ""
}

// keepChatSend files the pending chat send with the submission recorded
// at index i; g.mu is held.
func (g *Gate) keepChatSend(s Submission, i int) {
	c := g.pending
	g.pending = nil
	if c == nil || s.Category != CatSend || HostOf(s.PageURL) != c.page || identity(s.Recipient) != c.conversation {
		return
	}
	c.sub = i
	for j := range g.chats {
		if g.chats[j].page == c.page && g.chats[j].conversation == c.conversation && g.chats[j].body == c.body {
			g.chats[j] = *c
			return
		}
	}
	if len(g.chats) >= maxChatSends {
		g.chats = g.chats[1:]
	}
	g.chats = append(g.chats, *c)
}

const maxChatSends = 50

// currentPage is the tab's page as the run last knew it.
func (g *Gate) currentPage() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.page
}
