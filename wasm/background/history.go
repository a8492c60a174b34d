package background

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/webbrain/webbrain/wasm/history"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Chat history (docs/decisions/chat-history.md): a tab's conversation is
// archived in storage.local when it is cleared or its tab closes.

func metaKey(tabID int) string { return protocol.TabKey(protocol.KeyChatMeta, tabID) }

func (r *Router) history() history.Store {
	return history.Store{Area: r.p.Local, Clock: r.p.Clock}
}

// noteTurn records, after a turn, the tab's page and the mode the turn
// ran in, for the archive's site and modes.
func (r *Router) noteTurn(ru *run) {
	ctx, cancel := context.WithTimeout(context.Background(), storageWriteTimeout)
	defer cancel()
	ru.persistMu.Lock()
	defer ru.persistMu.Unlock()
	if ru.cleared {
		return
	}
	meta := r.loadMeta(ctx, ru.tabID)
	if meta.StartedAt == "" {
		meta.StartedAt = r.p.Clock.Now().UTC().Format(time.RFC3339)
	}
	if tab, err := r.p.Tabs.Get(ctx, ru.tabID); err == nil && tab.URL != "" {
		meta.URL = tab.URL
	}
	meta.Modes = append(meta.Modes, ru.mode)
	if raw, err := json.Marshal(meta); err == nil {
		_ = r.p.Session.Set(ctx, map[string]json.RawMessage{metaKey(ru.tabID): raw})
	}
}

func (r *Router) loadMeta(ctx context.Context, tabID int) history.Meta {
	var meta history.Meta
	if got, err := r.p.Session.Get(ctx, metaKey(tabID)); err == nil {
		_ = json.Unmarshal(got[metaKey(tabID)], &meta)
	}
	return meta
}

// archiveTab keeps the tab's conversation in the history. Nothing to keep
// (no message sent) is not an error.
func (r *Router) archiveTab(ctx context.Context, tabID int) error {
	got, err := r.p.Session.Get(ctx, convKey(tabID), chatKey(tabID), metaKey(tabID))
	if err != nil {
		return err
	}
	var conv []llm.Message
	_ = json.Unmarshal(got[convKey(tabID)], &conv)
	var meta history.Meta
	_ = json.Unmarshal(got[metaKey(tabID)], &meta)
	if meta.URL == "" {
		if tab, err := r.p.Tabs.Get(ctx, tabID); err == nil {
			meta.URL = tab.URL
		}
	}
	_, _, err = r.history().Archive(ctx, conv, got[chatKey(tabID)], meta)
	return err
}

// tabClosed archives a closed tab's conversation and frees its session
// keys; a run still going there is stopped first.
func (r *Router) tabClosed(ctx context.Context, m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	_ = r.p.Session.Remove(ctx, teachKey(m.TabID)) // a closed tab's recording ends unsaved
	r.forgetReadings(m.TabID)
	return r.clearConversation(ctx, m)
}

func (r *Router) historyAction(ctx context.Context, m message) reply {
	store := r.history()
	switch m.Action {
	case protocol.ActionHistoryList:
		entries, err := store.List(ctx)
		if err != nil {
			return failf("The history could not be read: %v", err)
		}
		return okReply("entries", entries)
	case protocol.ActionHistoryGet:
		rec, err := store.Get(ctx, m.ID)
		if err != nil {
			return historyErr(err)
		}
		return okReply("entry", rec.Entry, "transcript", rec.Transcript)
	case protocol.ActionHistoryDelete:
		if m.ID == "" && !m.All {
			return failf("Say which conversation to delete (id), or all.")
		}
		if err := store.Delete(ctx, m.ID); err != nil {
			return historyErr(err)
		}
		return r.historyAction(ctx, message{Action: protocol.ActionHistoryList})
	case protocol.ActionHistoryRestore:
		return r.restore(ctx, m)
	}
	return r.exportConversation(ctx, m)
}

func historyErr(err error) reply {
	if errors.Is(err, history.ErrNotFound) {
		return failf("%s", err.Error())
	}
	return failf("The history could not be read: %v", err)
}

// restore makes an archived conversation the tab's current one. The
// tab's own conversation goes into the history first, and the restored
// one leaves it (it is archived again when cleared).
func (r *Router) restore(ctx context.Context, m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	if r.settle(ctx, m.TabID) != nil {
		return failf("Wait until the current run ends (or stop it) before continuing an older conversation here.")
	}
	rec, err := r.history().Get(ctx, m.ID)
	if err != nil {
		return historyErr(err)
	}
	if err := r.archiveTab(ctx, m.TabID); err != nil {
		return failf("The current conversation could not be kept in the history: %v", err)
	}
	conv, _ := json.Marshal(rec.Conversation)
	meta, _ := json.Marshal(history.Meta{URL: rec.URL, Modes: rec.Modes, StartedAt: rec.StartedAt})
	if err := r.p.Session.Remove(ctx, journalKey(m.TabID), runKey(m.TabID), steerKey(m.TabID)); err != nil {
		return failf("The conversation could not be restored: %v", err)
	}
	if err := r.p.Session.Set(ctx, map[string]json.RawMessage{
		convKey(m.TabID): conv, chatKey(m.TabID): rec.Transcript, metaKey(m.TabID): meta,
	}); err != nil {
		return failf("The conversation could not be restored: %v", err)
	}
	_ = r.history().Delete(ctx, m.ID)
	return okReply("entry", rec.Entry)
}

// exportConversation renders the tab's conversation (tabId) or an
// archived one (id) as Markdown for /export.
func (r *Router) exportConversation(ctx context.Context, m message) reply {
	info := history.ExportInfo{Version: r.p.Self.Version, Now: r.p.Clock.Now()}
	var transcript json.RawMessage
	if m.ID != "" {
		rec, err := r.history().Get(ctx, m.ID)
		if err != nil {
			return historyErr(err)
		}
		transcript, info.Site, info.Title = rec.Transcript, rec.Site, rec.Title
	} else {
		if rep := needTab(m); rep != nil {
			return rep
		}
		got, err := r.p.Session.Get(ctx, chatKey(m.TabID))
		if err != nil {
			return failf("The conversation could not be read: %v", err)
		}
		transcript = got[chatKey(m.TabID)]
		if tab, err := r.p.Tabs.Get(ctx, m.TabID); err == nil {
			info.Site, _ = history.SiteOf(tab.URL)
		}
	}
	name := "webbrain-conversation-" + info.Now.UTC().Format("20060102-150405") + ".md"
	return okReply("markdown", history.Markdown(transcript, info), "filename", name)
}
