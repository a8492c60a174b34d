package background

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/tools"
	"github.com/webbrain/webbrain/wasm/uitext"
	"github.com/webbrain/webbrain/wasm/workflow"
)

// Saved workflows (docs/decisions/workflows.md): workflow_save compiles
// the tab's newest successful run, the manager actions change the stored
// list, and workflow_run replays one as a run of the tab without a model.

// workflowRequestPrefix starts the request id of a replay.
const workflowRequestPrefix = "wf:"

// errRefused: the action gate refused a step's action, which was not sent.
var errRefused = errors.New("refused at the action gate")

// replayJob is what a replay run executes.
type replayJob struct {
	wf     workflow.Workflow
	values map[string]string // parameter name → the user's value; never stored
	// notes are the replay's repairs, told in its final answer.
	notes []string
}

// withWorkflows runs f on the stored workflows under wfMu and saves them
// when f reports a change.
func (r *Router) withWorkflows(ctx context.Context, f func([]workflow.Workflow) ([]workflow.Workflow, bool, error)) ([]workflow.Workflow, error) {
	r.wfMu.Lock()
	defer r.wfMu.Unlock()
	var list []workflow.Workflow
	got, err := r.p.Local.Get(ctx, workflow.StorageKey)
	if err != nil {
		return nil, fmt.Errorf("WebBrain could not read the saved workflows: %v", err)
	}
	if raw, ok := got[workflow.StorageKey]; ok {
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, errors.New("the saved workflows are not readable")
		}
	}
	list, changed, err := f(list)
	if err != nil {
		return list, err
	}
	if changed {
		raw, err := json.Marshal(list)
		if err == nil {
			err = r.p.Local.Set(ctx, map[string]json.RawMessage{workflow.StorageKey: raw})
		}
		if err != nil {
			return list, fmt.Errorf("WebBrain could not save the workflows: %v", err)
		}
	}
	return list, nil
}

func findWorkflow(list []workflow.Workflow, id string) int {
	for i, w := range list {
		if w.ID == id {
			return i
		}
	}
	return -1
}

// workflowsAction answers the workflow actions of the panel.
func (r *Router) workflowsAction(ctx context.Context, m message) reply {
	if m.Action == protocol.ActionWorkflowRun {
		return r.workflowRun(ctx, m)
	}
	now := r.p.Clock.Now().UnixMilli()
	var saved *workflow.Workflow
	list, err := r.withWorkflows(ctx, func(list []workflow.Workflow) ([]workflow.Workflow, bool, error) {
		switch m.Action {
		case protocol.ActionWorkflowsList:
			return list, false, nil
		case protocol.ActionWorkflowSave, protocol.ActionWorkflowImport:
			if len(list) >= workflow.MaxWorkflows {
				return list, false, fmt.Errorf("there are already %d saved workflows; delete some first", workflow.MaxWorkflows)
			}
			w, err := r.newWorkflow(ctx, m)
			if err != nil {
				return list, false, err
			}
			w.ID, w.CreatedAt, w.UpdatedAt = fmt.Sprintf("wf_%x", now), now, now
			for findWorkflow(list, w.ID) >= 0 {
				w.ID += "x"
			}
			saved = &w
			return append(list, w), true, nil
		}
		i := findWorkflow(list, m.ID)
		if i < 0 {
			return list, false, errors.New("there is no saved workflow with this id")
		}
		switch m.Action {
		case protocol.ActionWorkflowRename:
			name := clip.Line(strings.TrimSpace(m.Title), workflow.MaxName)
			if name == "" {
				return list, false, errors.New("the new name is empty")
			}
			list[i].Name, list[i].UpdatedAt = name, now
		case protocol.ActionWorkflowDelete:
			list = append(list[:i], list[i+1:]...)
		}
		return list, true, nil
	})
	if err != nil {
		return sentenceError(err)
	}
	if list == nil {
		list = []workflow.Workflow{}
	}
	sort.SliceStable(list, func(a, b int) bool { return list[a].UpdatedAt > list[b].UpdatedAt })
	if saved != nil {
		return okReply("workflows", list, "workflow", saved, "warnings", append([]string{}, saved.Warnings...))
	}
	return okReply("workflows", list)
}

// newWorkflow compiles the tab's conversation (workflow_save) or reads an
// imported file (workflow_import).
func (r *Router) newWorkflow(ctx context.Context, m message) (workflow.Workflow, error) {
	if m.Action == protocol.ActionWorkflowImport {
		w, err := workflow.Parse(m.Workflow)
		if err != nil {
			return w, fmt.Errorf("the file is not a workflow WebBrain can run: %v", err)
		}
		w.Imported = true
		return w, nil
	}
	if m.TabID <= 0 {
		return workflow.Workflow{}, errors.New("the message needs the tab id (tabId)")
	}
	if r.settle(ctx, m.TabID) != nil {
		return workflow.Workflow{}, errors.New("a run is active in this tab; save the workflow when it has ended")
	}
	w, err := workflow.Compile(r.loadConversation(ctx, m.TabID))
	if err != nil {
		return w, err
	}
	w.Name = clip.Line(strings.TrimSpace(m.Title), workflow.MaxName)
	if w.Name == "" {
		w.Name = clip.Line(w.Goal, 60)
	}
	if w.Name == "" {
		w.Name = "Workflow"
	}
	return w, nil
}

// workflowRun starts a replay in the tab with the user's parameter values.
func (r *Router) workflowRun(ctx context.Context, m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	list, err := r.withWorkflows(ctx, func(list []workflow.Workflow) ([]workflow.Workflow, bool, error) { return list, false, nil })
	if err != nil {
		return sentenceError(err)
	}
	i := findWorkflow(list, m.ID)
	if i < 0 {
		return failf("There is no saved workflow with this id.")
	}
	w := list[i]
	values := map[string]string{}
	for _, p := range w.Params {
		v := m.Params[p.Name]
		if v == "" {
			return failf("The workflow needs a value for %q.", p.Label)
		}
		values[p.Name] = v
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, busy := r.runs[m.TabID]; busy {
		return failf("a run is already active in this tab")
	}
	r.seq++
	id := fmt.Sprintf("%s%s:%d-%d", workflowRequestPrefix, w.ID, r.p.Clock.Now().UnixMilli(), r.seq)
	ru := r.newRun(m.TabID, id, protocol.ModeAct, "Run workflow: "+w.Name)
	ru.replay = &replayJob{wf: w, values: values}
	ru.j = newJournal(r.p, m.TabID, id, protocol.ModeAct)
	ru.clar = newClarifier(ru.j, r.p.Clock)
	ru.appr = newApprover(r, ru.j)
	ru.review = newReviewer(r, ru.j)
	r.launch(ru)
	return okReply("requestId", id)
}

// replayRun executes a workflow's steps through the dispatcher and the
// action gate of an Act run. Nothing reaches the active model (a decision
// model, when settings name one, reads the captions the gate's word lists
// lack: control_effect); the journal shows
// each call with its parameter values replaced by their names.
func (r *Router) replayRun(ru *run) (string, error) {
	ctx, job := ru.ctx, ru.replay
	s, _ := settings.Load(ctx, r.p.Local)
	tier := protocol.TierMid
	if cfg, err := s.Active(); err == nil {
		tier = cfg.Tier
	}
	boundary := tools.NewBoundary()
	disp := tools.NewDispatcher(r.p, ru.tabID, protocol.ModeAct, tier, r.p.Browser, boundary)
	gc := guard.Config{Mode: protocol.ModeAct, AskBeforeActions: s.AskBeforeActions, Prober: disp, Approver: ru.appr, VerifiesRecipient: verifiesRecipient}
	if hasDecisionModel(s) {
		// What a control whose caption the word lists lack does is read by
		// the decision model alone, never the active model; nothing is
		// read ahead.
		gc.Effects = newEffects(ctx, r.decider(ru, s, nil, boundary), false)
	}
	gate := guard.New(gc)
	startURL, _ := r.tabPage(ctx, ru.tabID)
	// The values from the run form are the user's words for the gate, and
	// so is the goal of a workflow saved from the user's own request; an
	// imported file's goal is not.
	var words []string
	if !job.wf.Imported {
		words = append(words, job.fill(job.wf.Goal))
	}
	for _, v := range job.values {
		words = append(words, v)
	}
	gate.SetWords(words, startURL)
	seq := 0
	exec := func(call llm.ToolCall) (string, error) {
		seq++
		call.ID = fmt.Sprintf("wf_%d", seq)
		if refusal, err := gate.Check(ctx, call); err != nil {
			return "", err
		} else if refusal != "" {
			ru.j.add(Entry{Event: maskEvent(agent.Event{Kind: protocol.EventToolCall, ID: call.ID, Name: call.Name, Args: job.redact(call.Arguments)})})
			ru.j.add(Entry{Event: agent.Event{Kind: protocol.EventToolResult, ID: call.ID, Name: call.Name, Result: job.redact(refusal), IsError: true}})
			return "", errRefused
		}
		ru.j.add(Entry{Event: maskEvent(agent.Event{Kind: protocol.EventToolCall, ID: call.ID, Name: call.Name, Args: job.redact(call.Arguments)})})
		result, err := disp.Execute(ctx, call)
		shown := result
		if err != nil {
			shown = err.Error()
		}
		ru.j.add(Entry{Event: maskEvent(agent.Event{Kind: protocol.EventToolResult, ID: call.ID, Name: call.Name, Result: job.redact(shown), IsError: err != nil})})
		if err == nil {
			gate.Observe(result)
			if u, _ := r.tabPage(ctx, ru.tabID); u != "" {
				gate.Visit(u)
			}
		}
		return result, err
	}
	for i, st := range job.wf.Steps {
		if err := r.replayStep(ctx, ru, job, i, st, exec); err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			return "", fmt.Errorf("Workflow “%s” stopped at step %d of %d: %v", job.wf.Name, i+1, len(job.wf.Steps), err)
		}
	}
	done := fmt.Sprintf("Workflow “%s” ran all %d steps.", job.wf.Name, len(job.wf.Steps))
	if len(job.notes) > 0 {
		done += " " + strings.Join(job.notes, " ")
	}
	return done, nil
}

// replayStep checks the page family, resolves the step's one target in a
// fresh tree, acts, and checks the postcondition the action reads back.
func (r *Router) replayStep(ctx context.Context, ru *run, job *replayJob, i int, st workflow.Step, exec func(llm.ToolCall) (string, error)) error {
	pageURL, _ := r.tabPage(ctx, ru.tabID)
	if st.Family != "" && !workflow.SameFamily(st.Family, pageURL) {
		return fmt.Errorf("the workflow expects a page of %s here, but the tab shows %s. Nothing was done at this step", st.Family, orUnknown(workflow.Family(pageURL)))
	}
	if st.Action == workflow.ActNavigate {
		_, err := exec(toolCall(protocol.ToolNavigate, map[string]any{"url": st.URL}))
		return err
	}
	tree, err := exec(toolCall(protocol.ToolGetAccessibilityTree, map[string]any{"maxChars": 16000}))
	if err != nil {
		return fmt.Errorf("the page could not be read: %v", err)
	}
	n, err := workflow.Resolve(tree, *st.Target)
	if errors.As(err, new(workflow.NoMatch)) {
		// The target may be one the interactive tree leaves out (a
		// heading, a labelled region): the whole tree decides.
		if tree, err = exec(toolCall(protocol.ToolGetAccessibilityTree, map[string]any{"filter": "all", "maxChars": 16000})); err != nil {
			return fmt.Errorf("the page could not be read: %v", err)
		}
		n, err = workflow.Resolve(tree, *st.Target)
	}
	var repaired *workflow.Target
	if errors.As(err, new(workflow.NoMatch)) {
		var to workflow.Target
		if to, n, err = r.askRepair(ctx, ru, job, i, st, tree, exec); err == nil {
			repaired = &to
		}
	}
	if err != nil {
		return fmt.Errorf("%v. Nothing was done at this step", err)
	}
	args := map[string]any{"ref": n.Ref}
	name := protocol.ToolClickAX
	switch st.Action {
	case workflow.ActType:
		name, args["text"] = protocol.ToolTypeAX, job.values[st.Param]
		if st.Submit {
			args["submit"] = true
		}
	case workflow.ActSelect:
		name, args["value"] = protocol.ToolSetField, job.values[st.Param]
	case workflow.ActCheck:
		name, args["checked"] = protocol.ToolSetField, *st.Checked
	}
	if _, err := exec(toolCall(name, args)); err != nil {
		if errors.Is(err, errRefused) {
			return fmt.Errorf("%s %q was not acted on: it was declined or refused at the action gate", st.Target.Role, st.Target.Name)
		}
		if st.Action == workflow.ActClick || st.Submit {
			return fmt.Errorf("clicking %s %q has an unknown outcome (%v). WebBrain stopped rather than repeat it; check the page", st.Target.Role, st.Target.Name, err)
		}
		return fmt.Errorf("%s %q does not hold the value (%v)", st.Target.Role, st.Target.Name, err)
	}
	if repaired != nil {
		// The postcondition held with the user's choice: it becomes the
		// step's target, unless the workflow was edited meanwhile.
		r.saveRepair(ctx, job, i, *st.Target, *repaired)
	}
	return nil
}

// askRepair is the replay's way out when a step's saved target is gone:
// it offers the user the page's likely replacements (workflow.Candidates,
// each on exactly one element) on a question card and resolves the one
// they choose in a fresh tree. No choice, a choice that is no longer
// unique, or no candidate at all stops the step.
func (r *Router) askRepair(ctx context.Context, ru *run, job *replayJob, i int, st workflow.Step, tree string, exec func(llm.ToolCall) (string, error)) (workflow.Target, workflow.Node, error) {
	gone := workflow.NoMatch{Target: *st.Target}
	cands := workflow.Candidates(tree, *st.Target)
	if len(cands) == 0 || ru.clar == nil {
		return workflow.Target{}, workflow.Node{}, gone
	}
	options := make([]uitext.Text, 0, len(cands)+1)
	for _, c := range cands {
		options = append(options, uitext.Plain(c.Label())) // the page's element, as data
	}
	options = append(options, uitext.T("bg_repair_stop", "None of these: stop the workflow"))
	question := uitext.T("bg_repair_question", "Step $step$ of “$workflow$”: the $target$ is not on the page any more. Which element is it now? WebBrain uses your choice for this step, and keeps it for later runs only if the step then succeeds.",
		"step", strconv.Itoa(i+1), "workflow", job.wf.Name, "target", st.Target.Label())
	answer, err := ru.clar.AskText(ctx, fmt.Sprintf("wf_repair_%d", i+1), question, options)
	if err != nil {
		return workflow.Target{}, workflow.Node{}, fmt.Errorf("%v; nobody chose a replacement", gone)
	}
	var chosen *workflow.Target
	for k := range cands {
		if strings.TrimSpace(answer) == cands[k].Label() {
			chosen = &cands[k]
		}
	}
	if chosen == nil {
		return workflow.Target{}, workflow.Node{}, fmt.Errorf("%v, and no replacement was chosen", gone)
	}
	// The page may have changed while the question waited.
	fresh, err := exec(toolCall(protocol.ToolGetAccessibilityTree, map[string]any{"filter": "all", "maxChars": 16000}))
	if err != nil {
		return workflow.Target{}, workflow.Node{}, fmt.Errorf("the page could not be read: %v", err)
	}
	n, err := workflow.Resolve(fresh, *chosen)
	if err != nil {
		return workflow.Target{}, workflow.Node{}, err
	}
	return *chosen, n, nil
}

// saveRepair persists a healed step atomically against the version the
// replay read, and notes the outcome for the final answer.
func (r *Router) saveRepair(ctx context.Context, job *replayJob, i int, from, to workflow.Target) {
	now := r.p.Clock.Now().UnixMilli()
	_, err := r.withWorkflows(ctx, func(list []workflow.Workflow) ([]workflow.Workflow, bool, error) {
		k := findWorkflow(list, job.wf.ID)
		if k < 0 {
			return list, false, errors.New("the workflow was deleted meanwhile")
		}
		if err := list[k].ApplyRepair(i, to, job.wf.UpdatedAt, now); err != nil {
			return list, false, err
		}
		return list, true, nil
	})
	if err != nil {
		job.notes = append(job.notes, fmt.Sprintf("Step %d used %s instead of the %s, but %v.", i+1, to.Label(), from.Label(), err))
		return
	}
	job.wf.UpdatedAt = now
	job.notes = append(job.notes, fmt.Sprintf("Step %d was repaired: the %s is now %s, saved in the workflow.", i+1, from.Label(), to.Label()))
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown page"
	}
	return s
}

func toolCall(name string, args map[string]any) llm.ToolCall {
	raw, _ := json.Marshal(args)
	return llm.ToolCall{Name: name, Arguments: string(raw)}
}

// fill puts the run's values into text's {param} placeholders.
func (j *replayJob) fill(text string) string {
	for name, v := range j.values {
		text = strings.ReplaceAll(text, "{"+name+"}", v)
	}
	return text
}

// redact replaces the run's values in text by their parameter names: the
// journal and the panel never hold them.
func (j *replayJob) redact(text string) string {
	names := make([]string, 0, len(j.values))
	for name := range j.values {
		names = append(names, name)
	}
	// Longer values first, so one that contains another is replaced whole.
	sort.Slice(names, func(a, b int) bool { return len(j.values[names[a]]) > len(j.values[names[b]]) })
	for _, name := range names {
		if v := j.values[name]; v != "" {
			text = strings.ReplaceAll(text, v, "{"+name+"}")
			if q, err := json.Marshal(v); err == nil {
				text = strings.ReplaceAll(text, string(q[1:len(q)-1]), "{"+name+"}")
			}
		}
	}
	return text
}
