package background

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/webbrain/webbrain/wasm/adapters"
	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/tools"
	"github.com/webbrain/webbrain/wasm/trace"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// clearWait bounds how long clear_conversation waits for a stopping run.
const clearWait = 5 * time.Second

// run is one active agent turn in a tab.
type run struct {
	tabID     int
	requestID string
	mode      string
	text      string
	// note is WebBrain's own line after the text in the first user
	// message (a scheduled run's framing): never the user's words.
	// noteData is page text that goes with it, wrapped as such.
	note, noteData string
	// selection: the run is grounded on a selection the panel quoted; it
	// offers only selectionTools (docs/decisions/selection-toolbar.md).
	selection bool

	ctx     context.Context
	cancel  context.CancelFunc
	aborted atomic.Bool // the user stopped it (abort or clear)
	done    chan struct{}

	j      *journal
	clar   *clarifier
	appr   *approver
	review *reviewer
	steer  *steerBox
	plan   string // the approved plan, pinned in the system prompt
	// finalMsg is a plan-only answer's catalog key (its Risks heading).
	finalMsg *uitext.Msg
	// planSkills are the skills the approved plan chose, loaded first.
	planSkills []string
	// job is the site job the plan is bound to (nil: none); recipients
	// the people the request sends a message to, as the planner read them.
	job        *adapters.Binding
	recipients []string
	// here: the request sends into the conversation on screen ("reply
	// here"); pinned is that conversation once the gate pinned it.
	here   bool
	pinned string
	// auto: WebBrain chose the mode (an "auto" message); an Ask turn can
	// then hand itself over to Act, once (handedOff).
	auto        bool
	handedOff   bool
	handOffMode string // Act, or Dev when the page-free check answered dev
	// direct: routing read the request as one direct action (plan_need),
	// so a Try planner only checks intent instead of planning.
	direct bool

	resumed bool              // continued after a background restart
	resume  *agent.Checkpoint // where to continue; nil: from the start

	persistMu sync.Mutex // orders the final conversation save against a clear
	cleared   bool

	trace *trace.Recorder // nil unless "Record traces" is on

	replay *replayJob // a saved workflow's replay: no model runs

	allow allowanceBox // the cost allowance pause

	shots *shots // before/after screenshots the user asked for; nil: none
}

func (ru *run) stop() {
	ru.aborted.Store(true)
	ru.cancel()
}

func (r *Router) chatStart(m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	if m.Mode != protocol.ModeAsk && !protocol.Acting(m.Mode) && m.Mode != protocol.ModeAuto {
		return failf("Unknown mode %q: use %q, %q, %q or %q.", m.Mode, protocol.ModeAuto, protocol.ModeAsk, protocol.ModeAct, protocol.ModeDev)
	}
	if strings.TrimSpace(m.Text) == "" {
		return failf("The message is empty.")
	}
	if m.Capture != "" && m.Capture != protocol.CaptureScreenshot && m.Capture != protocol.CaptureRecord {
		return failf("Unknown capture %q: WebBrain can capture %q or %q around a run.", m.Capture, protocol.CaptureScreenshot, protocol.CaptureRecord)
	}
	// The panel sends the next queued message as soon as it sees the end.
	r.settle(context.Background(), m.TabID)
	var sel *pendingSelection
	if m.Selection != "" {
		ctx, cancel := context.WithTimeout(context.Background(), storageWriteTimeout)
		p, err := r.takeSelection(ctx, m.TabID, m.Selection)
		cancel()
		if err != nil {
			return errReply(err)
		}
		// A selected-text run reads: Ask rules, whatever the picker says.
		sel, m.Mode = &p, protocol.ModeAsk
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, busy := r.runs[m.TabID]; busy {
		return failf("a run is already active in this tab")
	}
	id := m.RequestID
	if id == "" {
		r.seq++
		id = fmt.Sprintf("req-%d-%d", r.p.Clock.Now().UnixMilli(), r.seq)
	}
	ru := r.newRun(m.TabID, id, m.Mode, m.Text)
	if sel != nil {
		ru.note, ru.noteData = selectionNote(*sel)
		ru.selection = true
	}
	if m.Capture != "" {
		ru.shots = newShots(m.SaveAs, m.Capture == protocol.CaptureRecord, r.p.Clock.Now())
	}
	ru.j = newJournal(r.p, m.TabID, id, m.Mode)
	ru.clar = newClarifier(ru.j, r.p.Clock)
	ru.appr = newApprover(r, ru.j)
	ru.review = newReviewer(r, ru.j)
	r.launch(ru)
	return okReply("requestId", id)
}

func (r *Router) newRun(tabID int, requestID, mode, text string) *run {
	ctx, cancel := context.WithCancel(context.Background())
	return &run{tabID: tabID, requestID: requestID, mode: mode, text: text,
		ctx: ctx, cancel: cancel, done: make(chan struct{}), steer: newSteerBox(r.p, tabID, requestID)}
}

// launch registers the run and starts it; the caller holds r.mu.
func (r *Router) launch(ru *run) {
	r.runs[ru.tabID] = ru
	if len(r.runs) == 1 {
		r.keepAlive(true)
	}
	go r.execute(ru)
}

// execute runs the turn and journals how it ended.
func (r *Router) execute(ru *run) {
	defer r.finish(ru)
	defer r.afterTurn(ru)
	if ru.resumed {
		ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventResumed, Text: resumedText}})
	} else {
		ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventRunStarted, Text: ru.text}, Mode: ru.mode})
	}
	if !ru.resumed {
		r.shoot(ru, shotBefore)
	}
	final, err := r.runGuarded(ru)
	r.shoot(ru, shotAfter)
	r.handBack(ru)
	defer r.jobRunEnded(ru) // after the end is journaled
	defer r.dropRecord(ru.tabID)
	switch {
	case ru.aborted.Load() && ru.j.status() != protocol.StatusDone:
		ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventStopped}})
	case ru.j.terminal():
		// The agent already journaled its final answer or error.
	case err != nil:
		t := plainError(err)
		ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventError, Text: t.English, Msg: t.Msg}})
	default:
		ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventFinal, Text: final, Msg: ru.finalMsg}})
	}
}

// runGuarded turns a panic into the run's error: in the browser a panic
// would end the whole Go module, and with it every tab's run.
func (r *Router) runGuarded(ru *run) (final string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = uitext.Errorf("bg_err_internal", "WebBrain hit an internal error and stopped this run ($detail$).", "detail", fmt.Sprint(p))
		}
	}()
	if ru.replay != nil {
		return r.replayRun(ru)
	}
	return r.runAgent(ru)
}

// runAgent prepares the provider and tools from the settings, runs the
// agent and saves the conversation it leaves, whatever the outcome.
func (r *Router) runAgent(ru *run) (string, error) {
	ctx := ru.ctx
	s, problem := settings.Load(ctx, r.p.Local)
	if problem != nil {
		var le *settings.LoadError
		if errors.As(problem, &le) {
			return "", uitext.Errorf("bg_err_settings_damaged", "The saved settings are damaged or unreadable ($reason$). Open Settings and save them again.", "reason", le.Reason)
		}
		return "", fmt.Errorf("%v. Open Settings and save them again.", problem)
	}
	cfg, err := s.Active()
	if err != nil {
		return "", err
	}
	if ru.mode == protocol.ModeDev && cfg.Tier == protocol.TierCompact {
		return "", errCompactDev(cfg.Name)
	}
	prov, err := llm.New(cfg, r.p.Fetch)
	if err != nil {
		return "", err
	}
	prov = r.metered(ru, s, cfg, r.traced(ru, s, cfg, prov))
	if ru.resume == nil {
		if err := r.saveRecord(ru, nil); err != nil {
			return "", fmt.Errorf("WebBrain could not save the run before starting it: %v", err)
		}
	}
	window := agent.ContextWindow(cfg)
	boundary := tools.NewBoundary() // per run, so a page cannot learn it from an earlier one
	history := r.loadConversation(ctx, ru.tabID)
	dec := r.decider(ru, s, prov, boundary)
	if ru.mode == protocol.ModeAuto {
		ru.auto = true
		r.route(ctx, ru, s, cfg.Tier, dec, history)
		if err := r.saveRecord(ru, nil); err != nil {
			return "", fmt.Errorf("WebBrain could not save the run before starting it: %v", err)
		}
	}
	if protocol.Acting(ru.mode) && ru.resume == nil {
		pl, err := r.plan(ctx, ru, s, prov, boundary, history)
		switch {
		case err != nil:
			return "", err
		case pl.answer != "":
			// Nothing ran: the turn is the request and this answer.
			r.keepConversation(ru, append(history,
				llm.Message{Role: llm.RoleUser, Content: ru.text}, llm.Message{Role: llm.RoleAssistant, Content: pl.answer}))
			ru.finalMsg = pl.answerMsg
			return pl.answer, nil
		case pl.readOnly:
			ru.mode = protocol.ModeAsk
		}
		ru.plan, ru.planSkills = pl.pinned, pl.skills
		ru.job, ru.recipients, ru.here = pl.job, pl.recipients, pl.here
		if err := r.saveRecord(ru, nil); err != nil {
			return "", fmt.Errorf("WebBrain could not save the run before starting it: %v", err)
		}
	}
	r.watchDev(ctx, ru.tabID, ru.mode)
	// Hosts on this computer or the local network are reached only when the
	// user's own request names them.
	var features []tools.Feature
	if s.ExperimentalWebMCP {
		features = append(features, tools.FeatureWebMCP)
	}
	disp := tools.NewDispatcher(r.p, ru.tabID, ru.mode, cfg.Tier, r.p.Browser, boundary).WithContextWindow(window).
		AllowHosts(guard.HostsIn(ru.text)).WithFeatures(features...).WithCaptchaKey(s.CaptchaSolverKey).
		WithPageReader(pageBlocker(dec), r.readingsOf(ru.tabID))
	opts := agent.Options{
		Provider:      prov,
		Mode:          ru.mode,
		Tier:          cfg.Tier,
		Browser:       r.p.Browser,
		Features:      features,
		MaxSteps:      s.MaxSteps,
		ContextWindow: window,
		Executor:      disp,
		Boundary:      boundary,
		Clarifier:     ru.clar,
		Gate: guard.New(guard.Config{
			Mode: ru.mode, AskBeforeActions: s.AskBeforeActions, Prober: disp, Approver: ru.appr,
			Meaning: meaning{dec}, Messages: meaning{dec}, VerifiesRecipient: verifiesRecipient, Recipients: ru.recipients,
			ActiveConversation: ru.here, Pinned: ru.pinnedConversation(), OnPin: ru.pin,
			Effects: newEffects(ctx, dec, hasDecisionModel(s)),
		}),
		SiteJob: ru.job,
		Task:    ru.text,
		Plan:    ru.plan,
		Memory:  r.memoryPrompt(ctx, s),
		Page:    func(ctx context.Context) (string, string) { return r.tabPage(ctx, ru.tabID) },
		Emit: func(ev agent.Event) {
			switch ev.Kind {
			case protocol.EventFinal, protocol.EventError:
				r.handBack(ru) // corrections go back to the queue before the run ends
			case protocol.EventCorrection:
				ru.steer.markApplied(ev.ID)
			}
			ru.j.add(Entry{Event: maskEvent(ev)})
		},
		Steering:    ru.steer,
		Checkpoint:  func(cp agent.Checkpoint) error { return r.saveRecord(ru, &cp) },
		Skills:      r.skillCatalog(ctx, ru.mode, cfg.Tier),
		PlanSkills:  ru.planSkills,
		SummaryKind: summaryKind(dec, ru.mode),
		StatusRead:  statusReader(dec),
		Schedule:    r.scheduleTool(ru),
	}
	if s.SiteAdapters {
		opts.SiteAdapter = adapters.Match
		opts.SiteMatched = func(a *adapters.Adapter, injected bool) { ru.trace.AdapterMatch(a.ID, a.Revision, injected) }
	}
	if ru.job != nil && ru.resume == nil {
		ru.trace.SiteJob(ru.job.Adapter, ru.job.Revision, ru.job.Job.ID)
	}
	if s.ResearchEscalation && ru.mode == protocol.ModeAsk {
		opts.Research = r.research(ru, boundary)
	}
	if id := jobOf(ru.requestID); id != "" && r.beepWatch(ctx, id) {
		opts.Beep = r.beepTool(id)
	}
	if ru.auto && !ru.handedOff && ru.mode == protocol.ModeAsk {
		opts.RequestActionMode = r.handOff(ru, cfg.Tier, dec)
	}
	if ru.selection {
		// Grounded on the selection: nothing else of the page is read.
		opts.OnlyTools = selectionTools
	}
	if r.p.Capture != nil && r.vision(ctx, cfg).Vision && !ru.selection {
		opts.Screenshot = func(ctx context.Context) (llm.Image, error) {
			mediaType, data, err := r.p.Capture.Capture(ctx, ru.tabID)
			return llm.Image{MediaType: mediaType, Data: data}, err
		}
	}
	var out agent.Outcome
	if ru.resume != nil {
		disp.RestoreTarget(ru.resume.Conversation)
		out, err = agent.Resume(ctx, opts, *ru.resume)
	} else {
		out, err = agent.Run(ctx, opts, history, joinNote(ru.text, ru.note, ru.noteData, boundary))
	}
	if errors.Is(err, agent.ErrHandOff) {
		// The Ask pass is dropped: Act starts the request again from the
		// conversation before it, with every correction.
		ru.handedOff, ru.mode, ru.resume = true, ru.handOffMode, nil
		ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventRunMode, Reason: protocol.RouteHandOff}, Mode: ru.mode})
		return r.runAgent(ru)
	}
	r.keepConversation(ru, out.Conversation)
	if err == nil && out.Final != "" && s.Memory && s.MemoryAutoLearn {
		go r.learn(prov, ru.text)
	}
	return out.Final, err
}

// keepConversation saves what the turn left unless the tab was cleared.
func (r *Router) keepConversation(ru *run, conv []llm.Message) {
	ru.persistMu.Lock()
	defer ru.persistMu.Unlock()
	if !ru.cleared && conv != nil {
		r.saveConversation(ru.tabID, storedConversation(conv))
	}
}

// finish retires the run and drops the keepalive after the last one.
func (r *Router) finish(ru *run) {
	ru.cancel()
	// Trusted input attached the debugger to the tab; detaching removes
	// Chrome's "started debugging this browser" bar once the run is over.
	// Dev's capture keeps it for the tab's next Dev turn; a turn that
	// ended in another mode has left Dev.
	if ru.mode != protocol.ModeDev {
		r.unwatchDev(ru.tabID, false)
	}
	if r.p.Debugger != nil && !r.dev.has(ru.tabID) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = r.p.Debugger.Detach(ctx, ru.tabID)
		cancel()
	}
	r.mu.Lock()
	if r.runs[ru.tabID] == ru {
		delete(r.runs, ru.tabID)
	}
	if len(r.runs) == 0 {
		r.keepAlive(false)
	}
	r.mu.Unlock()
	close(ru.done)
}

// keepAlive holds the MV3 service worker up while runs are active: an
// alarm every 30 s wakes a worker that was stopped anyway, and a ping
// every 20 s keeps a live one from idling out. The caller holds r.mu, so
// starts and stops cannot interleave.
func (r *Router) keepAlive(on bool) {
	if on {
		r.pingStop = make(chan struct{})
		go r.pingWhileActive(r.pingStop)
	} else if r.pingStop != nil {
		close(r.pingStop)
		r.pingStop = nil
	}
	if r.p.Alarms == nil {
		return
	}
	if on {
		_ = r.p.Alarms.Create(keepaliveAlarm, keepalivePeriod)
	} else {
		_ = r.p.Alarms.Clear(keepaliveAlarm)
	}
}

const (
	keepaliveAlarm  = "keepalive"
	keepalivePeriod = 30 * time.Second
)

// resumedText is the notice of the resumed event.
const resumedText = "WebBrain's background was restarted during this run; the run was resumed where it left off."

func (r *Router) active(tabID int) *run {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.runs[tabID]
}

// settle returns the tab's active run after waiting (up to clearWait) for
// one that has already journaled its end: such a run is only saving what
// it left, and the user who saw its answer may act on the tab at once.
func (r *Router) settle(ctx context.Context, tabID int) *run {
	ru := r.active(tabID)
	if ru == nil || !ru.j.terminal() {
		return ru
	}
	select {
	case <-ru.done:
		return r.active(tabID)
	case <-time.After(clearWait):
	case <-ctx.Done():
	}
	return ru
}

func (r *Router) abort(m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	if ru := r.active(m.TabID); ru != nil {
		ru.stop()
	}
	return okReply()
}

func (r *Router) clarifyAnswer(m message) reply {
	return r.answerRun(m, "question", func(ru *run) error { return ru.clar.answer(m.ID, m.Answer) })
}

func (r *Router) approvalAnswer(m message) reply {
	return r.answerRun(m, "card", func(ru *run) error { return ru.appr.answer(m.ID, guard.Decision(m.Decision)) })
}

func (r *Router) planAnswer(m message) reply {
	return r.answerRun(m, "plan", func(ru *run) error { return ru.review.answer(m.ID, m.Decision, m.Text) })
}

// answerRun hands the user's answer to a question or card of the tab's
// active run, if m belongs to that run's request.
func (r *Router) answerRun(m message, what string, answer func(*run) error) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	ru := r.active(m.TabID)
	if ru == nil {
		return failf("No run is active in this tab.")
	}
	if m.RequestID != ru.requestID {
		return failf("This %s belongs to a request that is no longer running.", what)
	}
	if err := answer(ru); err != nil {
		return errReply(err)
	}
	return okReply()
}

// clearConversation stops the tab's run, makes sure it writes nothing more
// and removes the tab's conversation, journal and rendered transcript.
func (r *Router) clearConversation(ctx context.Context, m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	if ru := r.active(m.TabID); ru != nil {
		ru.j.drop()
		ru.persistMu.Lock()
		ru.cleared = true
		ru.persistMu.Unlock()
		ru.stop()
		select {
		case <-ru.done:
		case <-time.After(clearWait):
		case <-ctx.Done():
		}
	}
	r.unwatchDev(m.TabID, true)
	// The conversation goes into the history; failing to keep it does not
	// keep the user from clearing.
	archiveErr := r.archiveTab(ctx, m.TabID)
	if err := r.p.Session.Remove(ctx, convKey(m.TabID), journalKey(m.TabID), chatKey(m.TabID), runKey(m.TabID), steerKey(m.TabID),
		metaKey(m.TabID)); err != nil {
		return failf("The conversation could not be cleared: %v", err)
	}
	if archiveErr != nil {
		return okReply("warning", "The conversation could not be kept in the history: "+archiveErr.Error())
	}
	return okReply()
}

// plainError is the user-facing text of err, without package prefixes.
func plainError(err error) uitext.Text {
	var fe *settings.FieldError
	if errors.As(err, &fe) {
		return uitext.Text{English: fe.Message, Msg: fe.UI}
	}
	var le *llm.Error
	if errors.As(err, &le) {
		t, _ := le.UIText()
		return t
	}
	return uitext.Of(err)
}

// joinNote puts WebBrain's note after the user's text.
// data is page text that goes with the note (a watch's last observation),
// wrapped in the run's boundary.
func joinNote(text, note, data string, b tools.Boundary) string {
	if note != "" {
		text += "\n\n" + note
	}
	if data != "" {
		text += "\n" + b.Wrap(data)
	}
	return text
}
