package background

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/webbrain/webbrain/wasm/adapters"
	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func runKey(tabID int) string { return protocol.TabKey(protocol.KeyAgentRun, tabID) }

// runRecord is agentRun:<tabId>: what a new background needs to resume a
// run the old one left, written before the run starts and at every
// checkpoint of the agent (docs/decisions/durable-runs.md).
type runRecord struct {
	RequestID  string            `json:"requestId"`
	Mode       string            `json:"mode"`
	Text       string            `json:"text"`
	Checkpoint *agent.Checkpoint `json:"checkpoint,omitempty"`
	// Plan is the approved plan; a resumed run pins it again rather than
	// planning anew.
	Plan string `json:"plan,omitempty"`
	// PlanSkills are the skills the approved plan chose.
	PlanSkills []string `json:"planSkills,omitempty"`
	// Job and Recipients are the plan's site job binding and the people
	// the request sends to, as planning left them.
	Job        *adapters.Binding `json:"job,omitempty"`
	Recipients []string          `json:"recipients,omitempty"`
	// ActiveConversation and Pinned: the request sends into the
	// conversation on screen, and which one that is once pinned.
	ActiveConversation bool   `json:"activeConversation,omitempty"`
	Pinned             string `json:"pinned,omitempty"`
	// Auto and HandedOff: WebBrain chose the mode, and an Ask turn has
	// already handed the request over to Act.
	Auto      bool `json:"auto,omitempty"`
	HandedOff bool `json:"handedOff,omitempty"`
	// Note and NoteData are WebBrain's line after the text and the page
	// text that goes with it (run.note, run.noteData).
	Note     string `json:"note,omitempty"`
	NoteData string `json:"noteData,omitempty"`
	// Selection: the run is grounded on a quoted selection (run.selection).
	Selection bool `json:"selection,omitempty"`
	// Shots are the screenshots asked for around the run: a resumed run
	// still saves the one after it.
	Shots *shots `json:"shots,omitempty"`
}

// saveRecord stores the run's record; the agent waits for it before it
// sends anything, so a restart never loses an action it made.
func (r *Router) saveRecord(ru *run, cp *agent.Checkpoint) error {
	ru.persistMu.Lock()
	defer ru.persistMu.Unlock()
	if ru.cleared {
		return nil
	}
	raw, err := json.Marshal(runRecord{RequestID: ru.requestID, Mode: ru.mode, Text: ru.text, Checkpoint: cp, Plan: ru.plan, PlanSkills: ru.planSkills, Job: ru.job, Recipients: ru.recipients, ActiveConversation: ru.here, Pinned: ru.pinned, Auto: ru.auto, HandedOff: ru.handedOff, Note: ru.note, NoteData: ru.noteData, Selection: ru.selection, Shots: ru.shots})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), storageWriteTimeout)
	defer cancel()
	return r.p.Session.Set(ctx, map[string]json.RawMessage{runKey(ru.tabID): raw})
}

// dropRecord removes what only an unfinished run needs.
func (r *Router) dropRecord(tabID int) {
	ctx, cancel := context.WithTimeout(context.Background(), storageWriteTimeout)
	defer cancel()
	_ = r.p.Session.Remove(ctx, runKey(tabID), steerKey(tabID))
}

// Resume continues every run a previous background left running. main
// calls it once Go is ready; Handle calls it too, so the first message
// sees the resumed runs. Only the first call does anything.
func (r *Router) Resume(ctx context.Context) {
	r.resumeOnce.Do(func() {
		r.resumeRuns(ctx)
		r.resumeJobs(ctx)
	})
}

// resumeRuns reads the run records and what goes with them, not the whole
// session area: the first message after a wake waits for this, and the
// area also holds every tab's conversation and transcript.
func (r *Router) resumeRuns(ctx context.Context) {
	keys, err := r.p.Session.Keys(ctx)
	if err != nil {
		return
	}
	var want []string
	for _, key := range keys {
		if tab, ok := strings.CutPrefix(key, protocol.KeyAgentRun); ok {
			if tabID, err := strconv.Atoi(tab); err == nil {
				want = append(want, key, journalKey(tabID), steerKey(tabID))
			}
		}
	}
	if len(want) == 0 {
		return
	}
	all, err := r.p.Session.Get(ctx, want...)
	if err != nil {
		return
	}
	for key, raw := range all {
		tab, ok := strings.CutPrefix(key, protocol.KeyAgentRun)
		if !ok {
			continue
		}
		tabID, err := strconv.Atoi(tab)
		if err != nil {
			continue
		}
		var rec runRecord
		var j Journal
		if json.Unmarshal(raw, &rec) != nil || json.Unmarshal(all[journalKey(tabID)], &j) != nil ||
			j.Status != protocol.StatusRunning || j.RequestID != rec.RequestID {
			// Finished, cleared or unreadable: nothing to continue.
			r.dropRecord(tabID)
			continue
		}
		r.resumeRun(tabID, rec, j, all[steerKey(tabID)])
	}
}

// resumeRun restarts one run from its record with its journal's sequence
// and its unapplied corrections.
func (r *Router) resumeRun(tabID int, rec runRecord, j Journal, steer json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, busy := r.runs[tabID]; busy {
		return
	}
	ru := r.newRun(tabID, rec.RequestID, rec.Mode, rec.Text)
	ru.j = resumedJournal(r.p, tabID, j)
	if id := jobOf(rec.RequestID); id != "" {
		ru.j.onWait = func() { r.jobWaits(id, rec.RequestID, ru.j) }
	}
	ru.clar = newClarifier(ru.j, r.p.Clock)
	ru.appr = newApprover(r, ru.j)
	ru.review = newReviewer(r, ru.j)
	ru.plan, ru.planSkills, ru.auto, ru.handedOff, ru.note, ru.noteData = rec.Plan, rec.PlanSkills, rec.Auto, rec.HandedOff, rec.Note, rec.NoteData
	ru.selection = rec.Selection
	ru.shots = rec.Shots
	ru.job, ru.recipients, ru.here, ru.pinned = rec.Job, rec.Recipients, rec.ActiveConversation, rec.Pinned
	ru.resume = rec.Checkpoint
	ru.resumed = true
	var applied []string
	if rec.Checkpoint != nil {
		applied = rec.Checkpoint.Applied
	}
	ru.steer.restore(steer, applied)
	r.launch(ru)
}

// keepalivePing is how often an active run touches an extension API: each
// call resets the MV3 worker's idle timer, which a long model request
// alone would not.
const keepalivePing = 20 * time.Second

func (r *Router) pingWhileActive(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-r.p.Clock.After(keepalivePing):
			ctx, cancel := context.WithTimeout(context.Background(), storageWriteTimeout)
			_, _ = r.p.Session.Get(ctx, "keepalive")
			cancel()
		}
	}
}

// pin keeps the conversation the gate pinned for a "reply here" request;
// the next saved record carries it over a worker restart.
func (ru *run) pin(conversation string) {
	ru.persistMu.Lock()
	defer ru.persistMu.Unlock()
	ru.pinned = conversation
}

func (ru *run) pinnedConversation() string {
	ru.persistMu.Lock()
	defer ru.persistMu.Unlock()
	return ru.pinned
}
