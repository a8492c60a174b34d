package background

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/memory"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

// memoryAction answers the memory_* actions of the panel and the settings
// page (docs/PROTOCOL.md). Every reply carries the memory as it now is.
func (r *Router) memoryAction(ctx context.Context, m message) reply {
	r.memMu.Lock()
	defer r.memMu.Unlock()
	s, loadErr := memory.Load(ctx, r.p.Local)
	now := r.p.Clock.Now()
	var changed any // the record added or edited
	switch m.Action {
	case protocol.ActionMemoryList:
		out := r.memoryReply(ctx, s, nil)
		if loadErr != nil {
			out["warning"] = loadErr.Error() + "; it is kept as it is until you change memory."
		}
		return out
	case protocol.ActionMemoryAdd:
		rec, err := s.Add(m.Text, m.Kind, memory.SourceUser, 1, now)
		if err != nil {
			return sentenceError(err)
		}
		changed = rec
		// Adding on purpose turns memory on, as the user plainly wants it.
		if err := r.enableMemory(ctx); err != nil {
			return errReply(err)
		}
	case protocol.ActionMemoryEdit:
		rec, err := s.Edit(m.ID, m.Text, m.Kind, now)
		if err != nil {
			return sentenceError(err)
		}
		changed = rec
	case protocol.ActionMemoryForget:
		if err := s.Forget(m.ID); err != nil {
			return sentenceError(err)
		}
	case protocol.ActionMemoryClear:
		s.Records = nil
	case protocol.ActionMemoryImport:
		n, err := importMemory(&s, m.Memory, now)
		if err != nil {
			return sentenceError(err)
		}
		changed = n
	}
	if err := memory.Save(ctx, r.p.Local, s, now); err != nil {
		return failf("WebBrain could not save its memory: %v.", err)
	}
	return r.memoryReply(ctx, s, changed)
}

// memoryReply is the memory with the two settings that govern it.
func (r *Router) memoryReply(ctx context.Context, s memory.Store, changed any) reply {
	st, _ := settings.Load(ctx, r.p.Local)
	if s.Records == nil {
		s.Records = []memory.Record{}
	}
	out := okReply("memory", s, "enabled", st.Memory, "autoLearn", st.MemoryAutoLearn)
	if changed != nil {
		out["changed"] = changed
	}
	return out
}

func (r *Router) enableMemory(ctx context.Context) error {
	st, problem := settings.Load(ctx, r.p.Local)
	if problem != nil || st.Memory {
		return nil // damaged settings are the settings page's to fix
	}
	st.Memory = true
	return settings.Save(ctx, r.p.Local, st)
}

// importMemory adds the records of an exported memory file that are new,
// as imports; it returns how many it added.
func importMemory(s *memory.Store, raw json.RawMessage, now time.Time) (int, error) {
	var in memory.Store
	if len(raw) == 0 || json.Unmarshal(raw, &in) != nil || in.Version != memory.Version {
		return 0, fmt.Errorf("this is not a WebBrain memory file (wb_user_memory_v1)")
	}
	added := 0
	for _, rec := range in.Records {
		if rec.ArchivedAt != 0 {
			continue
		}
		if _, err := s.Add(rec.Text, rec.Kind, memory.SourceImport, 1, now); err == nil {
			added++
		}
	}
	return added, nil
}

// memoryPrompt loads the memory block for a run and marks its records
// used; "" when memory is off or empty.
func (r *Router) memoryPrompt(ctx context.Context, s settings.Settings) string {
	if !s.Memory {
		return ""
	}
	r.memMu.Lock()
	defer r.memMu.Unlock()
	m, err := memory.Load(ctx, r.p.Local)
	if err != nil {
		return ""
	}
	block, ids := m.Prompt()
	if len(ids) > 0 {
		m.MarkUsed(ids, r.p.Clock.Now())
		_ = memory.Save(ctx, r.p.Local, m, r.p.Clock.Now())
	}
	return block
}

// learn runs after a successful run without holding it up: it asks the
// active model what the user's own words said that is worth keeping, and
// retries once on failure. Nothing from the page reaches it.
func (r *Router) learn(p llm.Provider, request string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for try := 0; try < 2; try++ {
		r.memMu.Lock()
		s, err := memory.Load(ctx, r.p.Local)
		r.memMu.Unlock()
		if err != nil {
			return
		}
		found, err := memory.Learn(ctx, p, request, s)
		if err != nil {
			continue
		}
		if len(found) > 0 {
			r.keepLearned(ctx, found)
		}
		return
	}
}

func (r *Router) keepLearned(ctx context.Context, found []memory.Candidate) {
	r.memMu.Lock()
	defer r.memMu.Unlock()
	s, err := memory.Load(ctx, r.p.Local)
	if err != nil {
		return
	}
	now := r.p.Clock.Now()
	for _, c := range found {
		_, _ = s.Add(c.Text, c.Kind, memory.SourceLearned, memory.LearnedConfidence, now)
	}
	_ = memory.Save(ctx, r.p.Local, s, now)
}

// sentenceError is a Go error (lowercase, no stop) as the panel shows it:
// a sentence. Memory, jobs, watches and skills report through it.
func sentenceError(err error) reply {
	msg := []rune(err.Error())
	msg[0] = unicode.ToUpper(msg[0])
	return failf("%s.", string(msg))
}
