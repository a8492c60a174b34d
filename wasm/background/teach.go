package background

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/workflow"
)

// Teacher mode (docs/decisions/workflows.md): while a tab records, the
// recorder in its top document reports the user's own trusted actions as
// teach_step, the background's tab listener reports each loaded document
// as teach_page, and teach_end compiles the session like a saved run.

// navCause is how long after a captured click or Enter a new document
// counts as that action's result rather than a navigation of its own.
const navCause = 10 * time.Second

// teachSession is teachSession:<tabId> in storage.session: it survives
// the page's navigations and a restart of the background.
type teachSession struct {
	StartedAt int64 `json:"startedAt"`
	// Family is the page family the tab shows now.
	Family string `json:"family"`
	// ActedAt is when the last click or Enter was captured (ms).
	ActedAt int64               `json:"acted"`
	Steps   []workflow.Captured `json:"steps"`
}

func teachKey(tabID int) string { return protocol.TabKey(protocol.KeyTeach, tabID) }

// withTeach runs f on the tab's session under teachMu; f returns the
// session to store, or nil to remove it.
func (r *Router) withTeach(ctx context.Context, tabID int, f func(*teachSession) (*teachSession, error)) error {
	r.teachMu.Lock()
	defer r.teachMu.Unlock()
	var s *teachSession
	got, err := r.p.Session.Get(ctx, teachKey(tabID))
	if err != nil {
		return fmt.Errorf("WebBrain could not read the recording: %v", err)
	}
	if raw, ok := got[teachKey(tabID)]; ok {
		s = &teachSession{}
		if json.Unmarshal(raw, s) != nil {
			s = nil
		}
	}
	before := s
	s, err = f(s)
	if err != nil {
		return err
	}
	if s == nil {
		if before != nil {
			return r.p.Session.Remove(ctx, teachKey(tabID))
		}
		return nil
	}
	raw, err := json.Marshal(s)
	if err == nil {
		err = r.p.Session.Set(ctx, map[string]json.RawMessage{teachKey(tabID): raw})
	}
	return err
}

var errNotTeaching = errors.New("this tab is not recording; start with /teach --start")

// teachAction answers the panel's teacher-mode actions.
func (r *Router) teachAction(ctx context.Context, m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	switch m.Action {
	case protocol.ActionTeachStart:
		return r.teachStart(ctx, m.TabID)
	case protocol.ActionTeachEnd:
		return r.teachEnd(ctx, m)
	case protocol.ActionTeachPage:
		r.teachPage(ctx, m.TabID)
		return okReply()
	}
	var steps int
	teaching := false
	err := r.withTeach(ctx, m.TabID, func(s *teachSession) (*teachSession, error) {
		if s == nil || m.Action == protocol.ActionTeachCancel {
			return nil, nil
		}
		teaching, steps = true, len(s.Steps)
		return s, nil
	})
	if err != nil {
		return sentenceError(err)
	}
	if m.Action == protocol.ActionTeachCancel {
		r.stopRecorder(ctx, m.TabID)
	}
	return okReply("teaching", teaching, "steps", steps)
}

func (r *Router) teachStart(ctx context.Context, tabID int) reply {
	if r.settle(ctx, tabID) != nil {
		return failf("A run is active in this tab; start teaching when it has ended.")
	}
	tab, err := r.p.Tabs.Get(ctx, tabID)
	if err != nil {
		return failf("WebBrain could not read the tab: %v", err)
	}
	family := workflow.Family(tab.URL)
	if !strings.HasPrefix(family, "http") {
		return failf("Teacher mode records on web pages (http or https) only.")
	}
	err = r.withTeach(ctx, tabID, func(s *teachSession) (*teachSession, error) {
		if s != nil {
			return s, errors.New("this tab is already recording; end it with /teach --end or /teach --cancel")
		}
		return &teachSession{StartedAt: r.p.Clock.Now().UnixMilli(), Family: family, Steps: []workflow.Captured{}}, nil
	})
	if err != nil {
		return sentenceError(err)
	}
	if err := r.startRecorder(ctx, tabID); err != nil {
		_ = r.withTeach(ctx, tabID, func(*teachSession) (*teachSession, error) { return nil, nil })
		return failf("WebBrain could not record on this page: %v", err)
	}
	return okReply("teaching", true, "steps", 0)
}

// startRecorder (re)starts the recorder in the tab's top document.
func (r *Router) startRecorder(ctx context.Context, tabID int) error {
	return r.recorder(ctx, tabID, map[string]any{})
}

// stopRecorder ends the recorder of the tab's document, if it still runs.
func (r *Router) stopRecorder(ctx context.Context, tabID int) {
	_ = r.recorder(ctx, tabID, map[string]any{"stop": true})
}

func (r *Router) recorder(ctx context.Context, tabID int, args map[string]any) error {
	msg, _ := json.Marshal(map[string]any{"wb": "tool", "name": protocol.PageTeach, "args": args})
	raw, err := r.p.Content.Send(ctx, tabID, msg)
	if err != nil {
		return err
	}
	var rep struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	if json.Unmarshal(raw, &rep) != nil || !rep.OK {
		return fmt.Errorf("the page did not start the recorder: %s", rep.Error)
	}
	return nil
}

// teachStep stores one action the recorder of a recording tab's top
// document reports. The tab is the sender's: a page cannot add steps to
// another tab's recording.
func (r *Router) teachStep(ctx context.Context, raw json.RawMessage, sender Sender) reply {
	if r.p.Self.ID == "" || sender.ID != r.p.Self.ID || sender.TabID <= 0 || sender.FrameID != 0 {
		return failf("Only the recorder of a tab's page can report a step.")
	}
	var m struct {
		Step workflow.Captured `json:"step"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return failf("The step is not readable.")
	}
	// The page's own origin comes from the browser, not from the report.
	page := workflow.Family(sender.URL)
	if m.Step.Kind == workflow.CapNavigate || page == "" || !sameOrigin(workflow.Family(m.Step.Family), page) {
		return failf("The step does not belong to this page.")
	}
	step, ok := m.Step.Sanitize()
	if !ok {
		return failf("The step names no element.")
	}
	err := r.withTeach(ctx, sender.TabID, func(s *teachSession) (*teachSession, error) {
		if s == nil {
			return nil, errNotTeaching
		}
		if len(s.Steps) >= workflow.MaxCaptured {
			return s, errors.New("the recording is full; end it with /teach --end")
		}
		i := len(s.Steps)
		for i > 0 && step.At > 0 && s.Steps[i-1].At > step.At {
			i--
		}
		s.Steps = append(s.Steps[:i], append([]workflow.Captured{step}, s.Steps[i:]...)...)
		if step.Kind == workflow.CapClick || step.Kind == workflow.CapSubmit {
			s.ActedAt = r.p.Clock.Now().UnixMilli()
			s.Steps = dropCausedNavigations(s.Steps, i)
		}
		return s, nil
	})
	if err != nil {
		return sentenceError(err)
	}
	return okReply()
}

// dropCausedNavigations removes the navigate steps recorded at or after
// the time of the click or Enter at i and within navCause of it: a single-page app's
// address change is reported by the tab as soon as the app pushes it,
// which can be before the recorder's report of the click that caused it
// is stored. Replaying both would repeat the action's navigation.
func dropCausedNavigations(steps []workflow.Captured, i int) []workflow.Captured {
	at := steps[i].At
	if at <= 0 {
		return steps
	}
	out := make([]workflow.Captured, 0, len(steps))
	for _, s := range steps {
		if s.Kind == workflow.CapNavigate && s.At >= at && s.At-at < float64(navCause.Milliseconds()) {
			continue
		}
		out = append(out, s)
	}
	return out
}

func sameOrigin(a, b string) bool {
	origin := func(f string) string {
		if i := strings.Index(f, "://"); i >= 0 {
			if j := strings.Index(f[i+3:], "/"); j >= 0 {
				return f[:i+3+j]
			}
		}
		return f
	}
	return a != "" && origin(a) == origin(b)
}

// teachPage follows a recording tab to a new document, or to a new
// address of the same document (a single-page app's pushState): a
// navigation no captured action caused becomes a navigate step, and the
// document gets the recorder (a recorder already running stays as it is).
func (r *Router) teachPage(ctx context.Context, tabID int) {
	tab, err := r.p.Tabs.Get(ctx, tabID)
	if err != nil {
		return
	}
	recording := false
	now := r.p.Clock.Now().UnixMilli()
	_ = r.withTeach(ctx, tabID, func(s *teachSession) (*teachSession, error) {
		if s == nil {
			return nil, nil
		}
		recording = true
		family := workflow.Family(tab.URL)
		if family != s.Family {
			caused := s.ActedAt > 0 && now-s.ActedAt < navCause.Milliseconds()
			if !caused && len(s.Steps) < workflow.MaxCaptured {
				s.Steps = append(s.Steps, workflow.Captured{Kind: workflow.CapNavigate, URL: tab.URL, Family: s.Family, At: float64(now)})
			}
			s.Family, s.ActedAt = family, 0
		}
		return s, nil
	})
	if recording && strings.HasPrefix(workflow.Family(tab.URL), "http") {
		_ = r.startRecorder(ctx, tabID)
	}
}

// teachEnd compiles the recording and stores it as a saved workflow.
func (r *Router) teachEnd(ctx context.Context, m message) reply {
	var session []workflow.Captured
	err := r.withTeach(ctx, m.TabID, func(s *teachSession) (*teachSession, error) {
		if s == nil {
			return nil, errNotTeaching
		}
		session = s.Steps
		return s, nil
	})
	if err != nil {
		return sentenceError(err)
	}
	w, err := workflow.CompileCapture(session)
	if err != nil {
		return sentenceError(err)
	}
	w.Name = clip.Line(strings.TrimSpace(m.Title), workflow.MaxName)
	if w.Name == "" {
		w.Name = "Taught workflow"
	}
	now := r.p.Clock.Now().UnixMilli()
	list, err := r.withWorkflows(ctx, func(list []workflow.Workflow) ([]workflow.Workflow, bool, error) {
		if len(list) >= workflow.MaxWorkflows {
			return list, false, fmt.Errorf("there are already %d saved workflows; delete some first", workflow.MaxWorkflows)
		}
		w.ID, w.CreatedAt, w.UpdatedAt = fmt.Sprintf("wf_%x", now), now, now
		for findWorkflow(list, w.ID) >= 0 {
			w.ID += "x"
		}
		return append([]workflow.Workflow{w}, list...), true, nil
	})
	if err != nil {
		return sentenceError(err)
	}
	_ = r.withTeach(ctx, m.TabID, func(*teachSession) (*teachSession, error) { return nil, nil })
	r.stopRecorder(ctx, m.TabID)
	return okReply("workflows", list, "workflow", w, "warnings", append([]string{}, w.Warnings...), "teaching", false)
}
