package guard

import (
	"context"
	"slices"
)

// A request can point at the conversation on screen instead of naming
// anyone ("reply here", "answer this chat", in any language): the planner
// marks it active_conversation. Its first send pins the conversation whose
// header shows exactly one name, and every later send of the run must go
// into that same conversation: a page that leads the model to another chat
// cannot widen "here" (docs/decisions/recipient-pin.md).

// conversationNames are the conversation names of a probe, by identity.
func conversationNames(p Probe) map[string]string {
	names := map[string]string{}
	for _, n := range p.Conversation {
		if id := identity(n); id != "" {
			names[id] = n
		}
	}
	return names
}

// pinAtStart pins, at the run's first check (before any action of the
// run), the conversation the page has open, when it shows exactly one
// name. A conversation the model opens later is never "here".
func (g *Gate) pinAtStart(ctx context.Context) {
	if !g.cfg.ActiveConversation || len(g.cfg.Recipients) > 0 || g.cfg.Prober == nil {
		return
	}
	g.mu.Lock()
	done := g.pinned != "" || g.pinTried
	g.pinTried = true
	g.mu.Unlock()
	if done {
		return
	}
	p, err := g.cfg.Prober.Probe(ctx, map[string]any{"composer": true})
	if err != nil {
		return
	}
	names := conversationNames(p)
	if len(names) != 1 {
		return
	}
	for _, shown := range names {
		g.mu.Lock()
		g.pinned = shown
		g.mu.Unlock()
		if g.cfg.OnPin != nil {
			g.cfg.OnPin(shown)
		}
	}
}

// sendHere decides a send of an active_conversation run: the recipient
// (the pinned conversation's name) or a refusal.
func (g *Gate) sendHere(names map[string]string) (string, string) {
	const stop = "Not sent: the task sends into the conversation that was open when it started, "
	g.mu.Lock()
	pinned := g.pinned
	g.mu.Unlock()
	if pinned == "" {
		return "", stop + "and the page showed no single conversation name then, so which conversation that is cannot be told. Ask the user who the message is for (clarify), or call done and say why nothing was sent."
	}
	for id, shown := range names {
		if len(names) == 1 && id == identity(pinned) {
			return shown, ""
		}
	}
	return "", stop + quoteNames([]string{pinned}) + ", and the message box here belongs to " + describeNames(names) + " (page text). Go back to that conversation, or call done: the user did not ask to write to anyone else."
}

// describeNames says which conversation names a page shows.
func describeNames(names map[string]string) string {
	if len(names) == 0 {
		return "no conversation name"
	}
	shown := make([]string, 0, len(names))
	for _, n := range names {
		shown = append(shown, n)
	}
	slices.Sort(shown)
	return quoteNames(shown)
}
