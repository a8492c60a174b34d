package background

import (
	"context"
	"encoding/json"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// storageWriteTimeout bounds a journal or conversation write. Writes run on
// their own context so a stopped run still records what it did.
const storageWriteTimeout = 5 * time.Second

func convKey(tabID int) string { return protocol.TabKey(protocol.KeyAgentConv, tabID) }
func chatKey(tabID int) string { return protocol.TabKey(protocol.KeyTabChat, tabID) }

// loadConversation hydrates the tab's conversation; an unreadable one
// starts afresh rather than failing the run.
func (r *Router) loadConversation(ctx context.Context, tabID int) []llm.Message {
	got, err := r.p.Session.Get(ctx, convKey(tabID))
	if err != nil {
		return nil
	}
	var msgs []llm.Message
	if raw, ok := got[convKey(tabID)]; !ok || json.Unmarshal(raw, &msgs) != nil {
		return nil
	}
	return msgs
}

func (r *Router) saveConversation(tabID int, msgs []llm.Message) {
	raw, err := json.Marshal(msgs)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storageWriteTimeout)
	defer cancel()
	_ = r.p.Session.Set(ctx, map[string]json.RawMessage{convKey(tabID): raw})
}

// interruptedText is what run_state reports for a journal left "running"
// by a background that was stopped or restarted mid-run.
const interruptedText = "The run was interrupted because the browser restarted WebBrain's background. Send the message again to continue."

// runState returns the live journal of an active run, else the stored one.
func (r *Router) runState(ctx context.Context, m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	if ru := r.active(m.TabID); ru != nil {
		return okReply("journal", missed(ru.j.snapshot(), m))
	}
	got, err := r.p.Session.Get(ctx, journalKey(m.TabID))
	if err != nil {
		return failf("The run state could not be read: %v", err)
	}
	raw, ok := got[journalKey(m.TabID)]
	if !ok {
		return okReply("journal", nil)
	}
	var j Journal
	if err := json.Unmarshal(raw, &j); err != nil {
		return okReply("journal", nil)
	}
	if j.Status == protocol.StatusRunning {
		// No run owns it any more: nothing will finish it.
		j.Status, j.Error = protocol.StatusError, interruptedText
	}
	return okReply("journal", missed(j, m))
}

// missed keeps the journal's events after the seq the panel acknowledges
// having for that request, so a reconnect replays only what it missed.
// Status, accumulated text and final stay whole.
func missed(j Journal, m message) Journal {
	if m.AfterSeq <= 0 || m.RequestID == "" || m.RequestID != j.RequestID {
		return j
	}
	i := 0
	for i < len(j.Events) && j.Events[i].Seq <= m.AfterSeq {
		i++
	}
	j.Events = j.Events[i:]
	return j
}
