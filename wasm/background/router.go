// Package background is the extension's message router: it answers the
// panel's and settings page's runtime messages (docs/PROTOCOL.md), owns the
// agent runs (one per tab), their journals in storage.session, and the
// settings in storage.local.
package background

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"

	"github.com/webbrain/webbrain/wasm/cost"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/tools"
)

// Sender is the runtime.MessageSender of a message, as the JS glue passes it.
type Sender struct {
	ID    string
	URL   string
	TabID int
	// FrameID is the sending frame of a tab (0: its top document).
	FrameID int
}

// fromOwnPage reports whether the message comes from one of WebBrain's own
// pages (panel, settings): the extension's id and a URL of its origin. A
// content script has the id but a web page's URL; another extension has
// neither.
func (s Sender) fromOwnPage(self platform.Extension) bool {
	if self.ID == "" || self.Origin == "" || s.ID != self.ID {
		return false
	}
	u, err := url.Parse(s.URL)
	return err == nil && u.Scheme+"://"+u.Host == self.Origin
}

// Router dispatches messages. It is safe for concurrent use.
type Router struct {
	p platform.Platform

	mu       sync.Mutex
	runs     map[int]*run  // active run per tab
	seq      int           // for request ids the panel did not supply
	pingStop chan struct{} // ends the keepalive ping; nil when no run is active

	resumeOnce sync.Once
	// header is the panel's header record last seen in storage (syncHeader).
	header atomicString
	// memMu orders the read-modify-writes of the user's memory: the
	// panel, the settings page and the learner change it.
	memMu sync.Mutex
	// jobsMu orders the read-modify-writes of the scheduled jobs.
	jobsMu sync.Mutex
	// skillsMu orders those of the user's skills.
	skillsMu sync.Mutex
	// wfMu orders the read-modify-writes of the saved workflows.
	wfMu sync.Mutex
	// teachMu orders the read-modify-writes of teaching sessions.
	teachMu sync.Mutex
	dev     devWatch   // tabs whose console and network Dev mode records
	usage   *cost.Book // token usage and cost per day
	// visionSeen: what vision detection found per provider and model.
	visionSeen visionCache
	selJobs    selectionJobs
	// readings are the page_blocker readings per tab (walls.go).
	readings map[int]*tools.Readings
}

// New returns a Router over the browser platform p.
func New(p platform.Platform) *Router {
	return &Router{p: p, runs: map[int]*run{}, usage: cost.NewBook(p.Local, p.Clock)}
}

// message is the union of every action's fields.
type message struct {
	Action    string          `json:"action"`
	TabID     int             `json:"tabId"`
	Text      string          `json:"text"`
	Mode      string          `json:"mode"`
	RequestID string          `json:"requestId"`
	ID        string          `json:"id"`
	Answer    string          `json:"answer"`
	Decision  string          `json:"decision"` // approval_answer, plan_answer
	Settings  json.RawMessage `json:"settings"`
	Provider  json.RawMessage `json:"provider"`
	Config    json.RawMessage `json:"config"`
	AfterSeq  int             `json:"afterSeq"` // run_state: the last seq the panel has
	Kind      string          `json:"kind"`     // memory_add, memory_edit
	Memory    json.RawMessage `json:"memory"`   // memory_import
	Title     string          `json:"title"`    // job_update
	RunAt     int64           `json:"runAt"`    // job_update: ms since the epoch
	// IntervalMinutes is job_update's new interval of a recurring job.
	IntervalMinutes int  `json:"intervalMinutes"`
	All             bool `json:"all"` // history_delete
	// IntervalSeconds and Keep are watch_start's: how often to check, and
	// whether to go on after the event.
	IntervalSeconds int  `json:"intervalSeconds"`
	Keep            bool `json:"keep"`
	// Beep is watch_start's /beep tone: "", default, short or long.
	Beep string `json:"beep"`
	// Skill is skill_save's {id, markdown, enabled}.
	Skill json.RawMessage `json:"skill"`
	// Workflow is workflow_import's file; Params workflow_run's values.
	Workflow json.RawMessage   `json:"workflow"`
	Params   map[string]string `json:"params"`
	Days     int               `json:"days"` // usage_get
	// Selection is chat_start's pending selection id (selectionContext:<tabId>):
	// the run quotes that selection, read-only.
	Selection string `json:"selection"`
	// Capture and SaveAs are chat_start's /screenshot suffix: what to
	// capture around the run, and the files' base name.
	Capture string `json:"capture"`
	SaveAs  string `json:"saveAs"`
}

// reply is a JSON-serializable answer with ok and, on failure, error.
type reply map[string]any

func okReply(kv ...any) reply {
	r := reply{"ok": true}
	for i := 0; i+1 < len(kv); i += 2 {
		r[kv[i].(string)] = kv[i+1]
	}
	return r
}

// errReply reports err; a settings FieldError also names the field.
func errReply(err error) reply {
	var fe *settings.FieldError
	if errors.As(err, &fe) {
		return reply{"ok": false, "error": fe.Message, "field": fe.Field}
	}
	return reply{"ok": false, "error": plainError(err).English}
}

func failf(format string, a ...any) reply {
	return reply{"ok": false, "error": fmt.Sprintf(format, a...)}
}

// Handle answers one runtime message. The reply is always a JSON object
// with ok; runs continue after Handle returns.
func (r *Router) Handle(ctx context.Context, raw json.RawMessage, sender Sender) any {
	var head struct {
		Action string `json:"action"`
	}
	m, read := readMessage(raw)
	if read {
		head.Action = m.Action
	} else if json.Unmarshal(raw, &head) != nil {
		head.Action = ""
	}
	if head.Action == protocol.ActionTeachStep {
		return r.teachStep(ctx, raw, sender)
	}
	if isSelectionAction(head.Action) {
		return r.selectionAction(ctx, raw, sender)
	}
	if !sender.fromOwnPage(r.p.Self) {
		return failf("Only WebBrain's own pages can control WebBrain.")
	}
	r.Resume(ctx)
	if !read {
		if err := json.Unmarshal(raw, &m); err != nil {
			return failf("The message is not a valid JSON object.")
		}
	}
	switch m.Action {
	case protocol.ActionChatStart:
		return r.chatStart(m)
	case protocol.ActionAbort:
		return r.abort(m)
	case protocol.ActionClearConversation:
		return r.clearConversation(ctx, m)
	case protocol.ActionRunState:
		return r.runState(ctx, m)
	case protocol.ActionSteer:
		return r.steer(ctx, m)
	case protocol.ActionClarifyAnswer:
		return r.clarifyAnswer(m)
	case protocol.ActionApprovalAnswer:
		return r.approvalAnswer(m)
	case protocol.ActionPlanAnswer:
		return r.planAnswer(m)
	case protocol.ActionSettingsGet:
		return r.settingsGet(ctx)
	case protocol.ActionSettingsSave:
		return r.settingsSave(ctx, m)
	case protocol.ActionProviderVision:
		return r.providerVision(ctx, m)
	case protocol.ActionProviderPresets:
		return r.providerPresets()
	case protocol.ActionProviderTest:
		return r.providerTest(ctx, m)
	case protocol.ActionConfigExport:
		return r.configExport(ctx)
	case protocol.ActionConfigImport:
		return r.configImport(ctx, m)
	case protocol.ActionMemoryList, protocol.ActionMemoryAdd, protocol.ActionMemoryEdit, protocol.ActionMemoryForget,
		protocol.ActionMemoryClear, protocol.ActionMemoryImport:
		return r.memoryAction(ctx, m)
	case protocol.ActionJobsList, protocol.ActionJobUpdate, protocol.ActionJobPause, protocol.ActionJobResume, protocol.ActionJobDelete:
		return r.jobsAction(ctx, m)
	case protocol.ActionWatchStart:
		return r.watchStart(ctx, m)
	case protocol.ActionSkillsList, protocol.ActionSkillSave, protocol.ActionSkillDelete:
		return r.skillsAction(ctx, m)
	case protocol.ActionHistoryList, protocol.ActionHistoryGet, protocol.ActionHistoryDelete, protocol.ActionHistoryRestore,
		protocol.ActionConversationExport:
		return r.historyAction(ctx, m)
	case protocol.ActionWorkflowsList, protocol.ActionWorkflowSave, protocol.ActionWorkflowRename, protocol.ActionWorkflowDelete,
		protocol.ActionWorkflowImport, protocol.ActionWorkflowRun:
		return r.workflowsAction(ctx, m)
	case protocol.ActionTeachStart, protocol.ActionTeachEnd, protocol.ActionTeachCancel, protocol.ActionTeachState, protocol.ActionTeachPage:
		return r.teachAction(ctx, m)
	case protocol.ActionTabClosed:
		return r.tabClosed(ctx, m)
	case protocol.ActionDevPatches:
		return r.devPatches(ctx, m)
	case protocol.ActionDevRevert:
		return r.devRevert(ctx, m)
	case protocol.ActionKeepWarm:
		return okReply()
	case protocol.ActionUsageGet:
		return r.usageGet(ctx, m)
	case protocol.ActionAllowanceAnswer:
		return r.allowanceAnswer(ctx, m)
	case "":
		return failf("The message has no action.")
	}
	return failf("Unknown action %q.", m.Action)
}

func needTab(m message) reply {
	if m.TabID <= 0 {
		return failf("The message needs the tab id (tabId).")
	}
	return nil
}
