// Package history keeps past conversations of the side panel
// (docs/decisions/chat-history.md): when a tab's conversation is cleared or
// its tab closes, the transcript the panel rendered and the provider-facing
// conversation are archived in storage.local, with every secret masked, in
// a bounded list the panel's History view shows, reopens and restores.
package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/secrets"
)

// Bounds of the archive: storage.local holds 10 MB in Chrome and the
// settings and memory live there too, so history takes at most 4 MB.
const (
	MaxEntries     = 50
	MaxTotalBytes  = 4 << 20
	MaxRecordBytes = 256 << 10
	titleRunes     = 80
	shortField     = 2000 // a tool result or argument in an oversized record
)

// Entry is one archived conversation as the History list shows it.
type Entry struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Site       string   `json:"site"` // host of the tab's page
	URL        string   `json:"url"`  // without query and fragment
	Modes      []string `json:"modes"`
	StartedAt  string   `json:"startedAt,omitempty"`
	ArchivedAt string   `json:"archivedAt"`
	Bytes      int      `json:"bytes"`
}

// Record is an archived conversation: the entry, the panel's transcript
// (the tabChat:<tabId> record, items as the panel renders them) and the
// provider-facing conversation.
type Record struct {
	Entry
	Transcript   json.RawMessage `json:"transcript"`
	Conversation []llm.Message   `json:"conversation"`
}

// Meta is what the background notes about a tab's conversation while it
// goes on (chatMeta:<tabId> in storage.session): the page and the modes
// its turns ran in.
type Meta struct {
	URL       string   `json:"url"`
	Modes     []string `json:"modes"`
	StartedAt string   `json:"startedAt"`
}

type index struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"` // newest first
}

// ErrNotFound: no archived conversation has that id.
var ErrNotFound = errors.New("That conversation is no longer in the history.")

// Store is the archive in one storage area (storage.local).
type Store struct {
	Area  platform.Storage
	Clock platform.Clock
}

func recordKey(id string) string { return protocol.KeyChatHistoryRecord + id }

// List returns the archived conversations, newest first.
func (s Store) List(ctx context.Context) ([]Entry, error) {
	ix, err := s.index(ctx)
	return ix.Entries, err
}

func (s Store) index(ctx context.Context) (index, error) {
	got, err := s.Area.Get(ctx, protocol.KeyChatHistory)
	if err != nil {
		return index{}, err
	}
	ix := index{Version: 1, Entries: []Entry{}}
	if raw, ok := got[protocol.KeyChatHistory]; ok && json.Unmarshal(raw, &ix) != nil {
		// An unreadable index lists nothing rather than failing every view;
		// the next archive writes a fresh one.
		ix = index{Version: 1, Entries: []Entry{}}
	}
	if ix.Entries == nil {
		ix.Entries = []Entry{}
	}
	return ix, nil
}

// Get reads one archived conversation.
func (s Store) Get(ctx context.Context, id string) (Record, error) {
	got, err := s.Area.Get(ctx, recordKey(id))
	if err != nil {
		return Record{}, err
	}
	raw, ok := got[recordKey(id)]
	var rec Record
	if !ok || json.Unmarshal(raw, &rec) != nil {
		return Record{}, ErrNotFound
	}
	return rec, nil
}

// Delete removes one archived conversation, or all with id "".
func (s Store) Delete(ctx context.Context, id string) error {
	ix, err := s.index(ctx)
	if err != nil {
		return err
	}
	var gone []string
	kept := ix.Entries[:0:0]
	for _, e := range ix.Entries {
		if id == "" || e.ID == id {
			gone = append(gone, recordKey(e.ID))
		} else {
			kept = append(kept, e)
		}
	}
	if id != "" && len(gone) == 0 {
		return ErrNotFound
	}
	ix.Entries = kept
	if err := s.writeIndex(ctx, ix); err != nil {
		return err
	}
	if len(gone) > 0 {
		return s.Area.Remove(ctx, gone...)
	}
	return nil
}

func (s Store) writeIndex(ctx context.Context, ix index) error {
	raw, err := json.Marshal(ix)
	if err != nil {
		return err
	}
	return s.Area.Set(ctx, map[string]json.RawMessage{protocol.KeyChatHistory: raw})
}

// Archive builds a record from a tab's conversation, transcript and notes
// and stores it, dropping the oldest conversations beyond the bounds. It
// returns ok false when there was nothing to keep (no user message).
func (s Store) Archive(ctx context.Context, conv []llm.Message, transcript json.RawMessage, meta Meta) (Entry, bool, error) {
	rec, ok := Build(conv, transcript, meta, s.Clock.Now())
	if !ok {
		return Entry{}, false, nil
	}
	ix, err := s.index(ctx)
	if err != nil {
		return Entry{}, false, err
	}
	base := rec.ID
	for n := 2; slices.ContainsFunc(ix.Entries, func(e Entry) bool { return e.ID == rec.ID }); n++ {
		rec.ID = fmt.Sprintf("%s-%d", base, n)
	}
	raw, err := json.Marshal(rec)
	if err != nil {
		return Entry{}, false, err
	}
	ix.Entries = append([]Entry{rec.Entry}, ix.Entries...)
	var dropped []string
	total := 0
	for i, e := range ix.Entries {
		total += e.Bytes
		if i >= MaxEntries || total > MaxTotalBytes {
			for _, old := range ix.Entries[i:] {
				dropped = append(dropped, recordKey(old.ID))
			}
			ix.Entries = ix.Entries[:i]
			break
		}
	}
	if err := s.Area.Set(ctx, map[string]json.RawMessage{recordKey(rec.ID): raw}); err != nil {
		return Entry{}, false, err
	}
	if err := s.writeIndex(ctx, ix); err != nil {
		return Entry{}, false, err
	}
	if len(dropped) > 0 {
		_ = s.Area.Remove(ctx, dropped...)
	}
	return rec.Entry, true, nil
}

// Build makes the archived record: secrets masked everywhere (the user's
// own messages too: the archive outlives the session), screenshots
// dropped, and the record shortened to MaxRecordBytes.
func Build(conv []llm.Message, transcript json.RawMessage, meta Meta, now time.Time) (Record, bool) {
	masked := maskConversation(conv)
	items := transcriptItems(transcript)
	title := firstUserText(items, masked)
	if title == "" {
		return Record{}, false
	}
	site, page := SiteOf(meta.URL)
	rec := Record{
		Entry: Entry{
			ID:         fmt.Sprintf("c%d", now.UnixMilli()),
			Title:      clip.Line(title, titleRunes),
			Site:       site,
			URL:        page,
			Modes:      distinct(meta.Modes),
			StartedAt:  meta.StartedAt,
			ArchivedAt: now.UTC().Format(time.RFC3339),
		},
		Conversation: masked,
	}
	fit(&rec, items)
	return rec, true
}

// transcriptItems reads the tabChat record, masked, as generic JSON.
func transcriptItems(raw json.RawMessage) map[string]any {
	var chat map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &chat) != nil || chat == nil {
		return map[string]any{"v": 1, "items": []any{}}
	}
	if _, ok := chat["items"].([]any); !ok {
		chat["items"] = []any{}
	}
	delete(chat, "queue") // drafts not sent are not part of the conversation
	return maskJSON(chat).(map[string]any)
}

// maskJSON masks secrets in every string of a JSON value.
func maskJSON(v any) any {
	switch x := v.(type) {
	case string:
		return secrets.Mask(x, nil)
	case []any:
		for i := range x {
			x[i] = maskJSON(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = maskJSON(x[k])
		}
	}
	return v
}

func maskConversation(conv []llm.Message) []llm.Message {
	out := make([]llm.Message, 0, len(conv))
	for _, m := range conv {
		m.Content = secrets.Mask(m.Content, nil)
		if len(m.Images) > 0 {
			m.Images = nil
			m.Content = strings.TrimSpace(m.Content + "\n[screenshot omitted]")
		}
		if len(m.ToolCalls) > 0 {
			calls := slices.Clone(m.ToolCalls)
			for i := range calls {
				calls[i].Arguments = secrets.Mask(calls[i].Arguments, nil)
			}
			m.ToolCalls = calls
		}
		out = append(out, m)
	}
	return out
}

func firstUserText(chat map[string]any, conv []llm.Message) string {
	for _, it := range chat["items"].([]any) {
		if m, ok := it.(map[string]any); ok && m["role"] == "user" {
			if t, _ := m["text"].(string); strings.TrimSpace(t) != "" {
				return t
			}
		}
	}
	for _, m := range conv {
		if m.Role == llm.RoleUser && strings.TrimSpace(m.Content) != "" {
			return m.Content
		}
	}
	return ""
}

// SiteOf gives the host and the URL without query and fragment, which may
// carry tokens.
func SiteOf(raw string) (site, page string) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", ""
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return u.Hostname(), u.String()
}

func distinct(modes []string) []string {
	out := []string{}
	for _, m := range modes {
		if m != "" && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// fit stores the transcript in rec and shortens the record to
// MaxRecordBytes: first long tool results and arguments, then the oldest
// turns of the conversation and the oldest transcript items.
func fit(rec *Record, chat map[string]any) {
	measure := func() int {
		rec.Transcript, _ = json.Marshal(chat)
		raw, _ := json.Marshal(rec)
		rec.Bytes = len(raw)
		return rec.Bytes
	}
	if measure() <= MaxRecordBytes {
		return
	}
	for i := range rec.Conversation {
		if rec.Conversation[i].Role == llm.RoleTool {
			rec.Conversation[i].Content = clip.Runes(rec.Conversation[i].Content, shortField)
		}
	}
	items := chat["items"].([]any)
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			for _, k := range []string{"result", "args"} {
				if s, ok := m[k].(string); ok {
					m[k] = clip.Runes(s, shortField)
				}
			}
		}
	}
	for measure() > MaxRecordBytes && (len(rec.Conversation) > 0 || len(items) > 0) {
		rec.Conversation = dropOldestTurn(rec.Conversation)
		if len(items) > 0 {
			items = items[1:]
			chat["items"] = items
		}
	}
}

// dropOldestTurn removes the conversation's first turn: from its first
// message up to the next user message, so tool calls keep their results.
func dropOldestTurn(conv []llm.Message) []llm.Message {
	for i := 1; i < len(conv); i++ {
		if conv[i].Role == llm.RoleUser {
			return conv[i:]
		}
	}
	return nil
}
