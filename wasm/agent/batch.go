package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/tools"
)

// runBatch appends the model's turn and runs its tool calls in order, one
// tool message per call. done reports that the turn is over with final;
// err is ctx.Err() after a stop.
func (r *run) runBatch(ctx context.Context, step int, res llm.Result) (final string, done bool, err error) {
	calls := withCallIDs(res.ToolCalls, step)
	r.conv = append(r.conv, llm.Message{Role: llm.RoleAssistant, Content: res.Content, ToolCalls: calls})
	return r.runCalls(ctx, step, calls, nil)
}

// runCalls runs calls, the rest of the batch of step. A correction that
// arrives lets the running call finish and skips the others. resumed is
// the receipt of the first call when a restart interrupted it after its
// dispatch: it is sent again under that receipt, without asking the gate
// again (it was allowed before it was recorded as dispatched).
func (r *run) runCalls(ctx context.Context, step int, calls []llm.ToolCall, resumed *tools.Receipt) (final string, done bool, err error) {
	for i, call := range calls {
		if ctx.Err() != nil {
			r.closeCalls(calls[i:], resultStopped)
			return "", false, ctx.Err()
		}
		if call.Name == tools.RequestActionMode && r.opts.RequestActionMode != nil {
			r.emit(Event{Kind: protocol.EventToolCall, ID: call.ID, Name: call.Name, Args: call.Arguments})
			if refusal := r.requestActionMode(ctx, call); refusal != "" {
				r.addResult(call, refusal, true)
				continue
			}
			r.addResult(call, "WebBrain switches this request to an action mode (Act, or Dev for the page's code).", false)
			r.closeCalls(calls[i+1:], resultSkipped)
			return "", false, ErrHandOff
		}
		if i > 0 || resumed == nil {
			if retry := r.publicMediaGuard(ctx, call); retry != "" {
				r.emit(Event{Kind: protocol.EventToolCall, ID: call.ID, Name: call.Name, Args: call.Arguments})
				r.addResult(call, retry, true)
				if err := r.save(step); err != nil {
					_, err = r.persistFail(calls[i+1:], err)
					return "", false, err
				}
				continue
			}
		}
		var rc tools.Receipt
		if i == 0 && resumed != nil {
			rc = *resumed
		} else {
			if len(r.newCorrections()) > 0 {
				r.closeCalls(calls[i:], resultSteered)
				return "", false, nil
			}
			// The gate decides before the call is recorded as dispatched: a
			// restart while the user is asked checks (and asks) again. A
			// call this mode does not offer never runs, so it asks nothing.
			var refusal string
			var err error
			if r.offered(call.Name) {
				refusal, err = r.gateCheck(ctx, call)
			}
			if err != nil || ctx.Err() != nil {
				r.closeCalls(calls[i:], resultStopped)
				return "", false, ctx.Err()
			}
			if refusal != "" {
				r.emit(Event{Kind: protocol.EventToolCall, ID: call.ID, Name: call.Name, Args: call.Arguments})
				r.refuse(call, refusal)
				if err := r.save(step); err != nil {
					_, err = r.persistFail(calls[i+1:], err)
					return "", false, err
				}
				continue
			}
			rc = r.receiptFor(ctx, call)
		}
		if err := r.saveDispatch(step, call.ID, rc); err != nil {
			_, err = r.persistFail(calls[i:], err)
			return "", false, err
		}
		if !rc.Resumed { // the interrupted dispatch announced it
			r.emit(Event{Kind: protocol.EventToolCall, ID: call.ID, Name: call.Name, Args: call.Arguments})
			r.called = append(r.called, call.Name)
		}

		var urlBefore string
		track := mayNavigate(call.Name) && r.opts.Page != nil
		if track {
			urlBefore, _ = r.opts.Page(ctx)
		}
		result, isErr, finished := r.runCall(ctx, call, rc)
		if ctx.Err() != nil {
			r.closeCalls(calls[i:], resultStopped)
			return "", false, ctx.Err()
		}
		if finished != "" {
			r.addResult(call, result, false)
			r.closeCalls(calls[i+1:], resultSkipped)
			return finished, true, nil
		}
		result = tools.Cap(result, tools.ResultLimit(call, r.opts.Tier, r.opts.ContextWindow), "")
		urlAfter := urlBefore
		if track {
			urlAfter, _ = r.opts.Page(ctx)
		}
		v := r.loops.observe(observation{name: call.Name, args: call.Arguments, result: result, isError: isErr, urlBefore: urlBefore, urlAfter: urlAfter})
		r.observed(result, urlAfter)
		if !isErr {
			r.noteTyped(call.Name, call.Arguments, urlBefore, urlAfter)
		}
		result += r.siteChange(urlBefore, urlAfter)
		result += r.wallNote(ctx, call, isErr)
		if v.nudge != "" {
			result += "\n\n" + v.nudge
		}
		r.addResult(call, result, isErr)
		if err := r.save(step); err != nil {
			_, err = r.persistFail(calls[i+1:], err)
			return "", false, err
		}
		if v.nudge != "" {
			r.emit(Event{Kind: protocol.EventLoopWarning, Text: v.nudge})
		}
		if v.stop {
			r.emit(Event{Kind: protocol.EventLoopWarning, Text: loopStopMessage})
			r.closeCalls(calls[i+1:], resultSkipped)
			r.conv = append(r.conv, llm.Message{Role: llm.RoleAssistant, Content: loopStopMessage})
			return loopStopMessage, true, nil
		}
	}
	return "", false, nil
}

// offered reports whether the run offers the tool: the catalog's in this
// mode, tier, browser and features, load_skill and loaded skills' tools.
func (r *run) offered(name string) bool {
	if r.opts.OnlyTools != nil && !slices.Contains(r.opts.OnlyTools, name) {
		return false
	}
	_, skillTool := r.skillTools[name]
	return name == protocol.ToolLoadSkill || skillTool || tools.Offered(r.opts.Mode, r.opts.Tier, r.opts.Browser, name, r.opts.Features...)
}

// receiptFor asks the executor where call will take effect and names
// its dispatch; a call that changes nothing, or a page that cannot say,
// gets no receipt (a restart then reports its effect as unknown).
func (r *run) receiptFor(ctx context.Context, call llm.ToolCall) tools.Receipt {
	ex, ok := r.opts.Executor.(OnceExecutor)
	if !ok || tools.ReadOnly(call.Name) {
		return tools.Receipt{}
	}
	at, err := ex.Locate(ctx, call)
	if err != nil || at == "" {
		return tools.Receipt{}
	}
	return tools.Receipt{ID: newReceiptID(), At: at}
}

// newReceiptID is random: call ids repeat across runs (some servers send
// none and get call_<step>_<n>), and a page keeps its receipts for as long
// as it is open. 24 hex digits from math/rand/v2, whose generator is
// ChaCha8 seeded by the runtime from the system's entropy: crypto/rand
// would link the FIPS module, 0.1 MB of the module for this one id.
func newReceiptID() string {
	const digits = "0123456789abcdef"
	var b [24]byte
	hi, lo := rand.Uint64(), rand.Uint32()
	for i := range 16 {
		b[i] = digits[hi>>(60-4*i)&0xf]
	}
	for i := range 8 {
		b[16+i] = digits[lo>>(28-4*i)&0xf]
	}
	return string(b[:])
}

// runCall runs one call under rc. finished is the final answer when the
// call was a valid done.
func (r *run) runCall(ctx context.Context, call llm.ToolCall, rc tools.Receipt) (result string, isErr bool, finished string) {
	if r.opts.OnlyTools != nil && !slices.Contains(r.opts.OnlyTools, call.Name) {
		return "Error: " + call.Name + " is not offered in this run: it answers from the text the user selected, which is in their message; nothing else on the page is in scope.", true, ""
	}
	if call.Name == protocol.ToolLoadSkill {
		result, isErr = r.loadSkill(call)
		return result, isErr, ""
	}
	if st, ok := r.skillTools[call.Name]; ok {
		result, isErr = r.runSkillTool(ctx, call, st)
		if isErr && call.Name == toolPublicMedia {
			r.mediaFailed = true // the browser's downloader may now try
		}
		return result, isErr, ""
	}
	if call.Name == tools.Beep && r.opts.Beep != nil {
		var a struct {
			Key     string `json:"event_key"`
			Message string `json:"message"`
		}
		if json.Unmarshal([]byte(orEmptyObject(call.Arguments)), &a) != nil {
			return "Error: beep needs event_key: a short name of the event.", true, ""
		}
		out, err := r.opts.Beep(ctx, a.Key, a.Message)
		if err != nil {
			return "Error: " + err.Error() + ".", true, ""
		}
		return out, false, ""
	}
	if call.Name == tools.DelegateResearch && r.opts.Research != nil {
		var a struct {
			Request string `json:"research_request"`
		}
		if json.Unmarshal([]byte(orEmptyObject(call.Arguments)), &a) != nil || strings.TrimSpace(a.Request) == "" {
			return "Error: delegate_research needs research_request: the complete question.", true, ""
		}
		out, err := r.opts.Research(ctx, strings.TrimSpace(a.Request))
		if err != nil {
			return "Error: " + err.Error(), true, ""
		}
		return out, false, ""
	}
	if err := tools.NotOffered(r.opts.Mode, r.opts.Tier, r.opts.Browser, call.Name, r.opts.Features...); err != nil {
		return "Error: " + err.Error() + ".", true, ""
	}
	switch call.Name {
	case protocol.ToolDone:
		var a struct{ Summary, Status string }
		if json.Unmarshal([]byte(orEmptyObject(call.Arguments)), &a) != nil || a.Summary == "" {
			return "Error: done needs a summary for the user and a status.", true, ""
		}
		return r.judge(ctx, a.Summary, a.Status)
	case protocol.ToolClarify:
		return r.clarify(ctx, call)
	case protocol.ToolProgressUpdate:
		result, isErr = r.ledger.update(call.Arguments)
		return result, isErr, ""
	case protocol.ToolProgressRead:
		return r.ledger.render(r.opts.Boundary), false, ""
	case protocol.ToolScratchpadWrite:
		result, isErr = r.ledger.write(call.Arguments)
		return result, isErr, ""
	case protocol.ToolScheduleResume, protocol.ToolScheduleTask:
		if r.opts.Schedule == nil {
			return "Error: scheduling is not available in this run.", true, ""
		}
		out, ends, err := r.opts.Schedule(ctx, call)
		if err != nil {
			return "Error: " + err.Error() + ".", true, ""
		}
		if ends {
			return out, false, out
		}
		return out, false, ""
	}
	if r.opts.Executor == nil {
		return "Error: no browser tab is attached to this run.", true, ""
	}
	var out string
	var err error
	if ex, ok := r.opts.Executor.(OnceExecutor); ok && rc.ID != "" {
		out, err = ex.ExecuteOnce(ctx, call, rc)
	} else {
		out, err = r.opts.Executor.Execute(ctx, call)
	}
	if err != nil {
		return "Error: " + err.Error(), true, ""
	}
	return out, false, ""
}

// Outcomes of an Act run (done's status).
const (
	outcomeSuccess = "success"
	outcomePartial = "partial"
	outcomeFailed  = "failed"
)

// judge checks a done call against what the page shows and the run's own
// ledger (checkClaim). The model's word alone is never the outcome.
func (r *run) judge(ctx context.Context, summary, status string) (string, bool, string) {
	switch status = strings.ToLower(strings.TrimSpace(status)); status {
	case outcomeSuccess, outcomePartial, outcomeFailed:
	default:
		status = outcomeSuccess // done without a status claims it is done
	}
	r.status = status
	if status != outcomeSuccess {
		return "Finished.", false, summary
	}
	if back := r.checkSummary(ctx, summary); back != "" {
		r.status = ""
		return back, true, ""
	}
	if !protocol.Acting(r.opts.Mode) {
		return "Finished.", false, summary
	}
	back, final := r.checkClaim(ctx, summary)
	if back != "" {
		r.status = ""
		return back, true, ""
	}
	return "Finished.", false, final
}

// checkClaim is the completion judge of an Act run that says it is done:
// with done's success or with a plain answer. Open or failed items of
// its ledger, or errors the page shows (readPage: its messages read with
// status_message where a model can, by structure where none did), send
// the claim back once (back is
// what the model is told); claimed again, the run ends partial (ledger)
// or failed (page), with what WebBrain saw under the summary (final).
func (r *run) checkClaim(ctx context.Context, summary string) (back, final string) {
	if back, note := r.judgeLedger(); back != "" || note != "" {
		return back, summary + note
	}
	reader, ok := r.opts.Executor.(StatusReader)
	if !ok {
		return "", summary
	}
	st, err := reader.Status(ctx)
	var page pageVerdict
	if err == nil {
		page = r.readPage(ctx, st)
		st = withSuccesses(st, page.successes)
	}
	if back, note := r.judgeJob(st, err); back != "" || note != "" {
		return back, summary + note
	}
	if err != nil || len(page.errors) == 0 {
		return r.judgeReadback(ctx), summary
	}
	shown := r.opts.Boundary.Wrap(strings.Join(page.errors, "\n"))
	if !r.judged {
		r.judged = true
		r.status = ""
		return "Not finished: WebBrain read the page, and it shows these errors:\n" + shown +
			"\nFix what the page says and check the result, or call done with status failed or partial and tell the user what went wrong.", ""
	}
	r.status = outcomeFailed
	return "", summary + "\n\n**WebBrain could not confirm this.** The page still shows: " + quoteList(page.errors)
}

// judgeLedger checks a success claim against the run's own ledger: open
// or failed items send the claim back once (back is the tool result);
// claimed again, the run ends as partial and note joins the summary.
func (r *run) judgeLedger() (back, note string) {
	open, failed := r.ledger.open(), r.ledger.failed()
	if len(open)+len(failed) == 0 {
		return "", ""
	}
	if !r.ledgerSet {
		r.ledgerSet = true
		r.status = ""
		msg := "Not finished: your progress ledger still lists"
		if len(open) > 0 {
			msg += fmt.Sprintf(" %d open item(s): %s", len(open), itemNames(open))
		}
		if len(failed) > 0 {
			if len(open) > 0 {
				msg += ", and"
			}
			msg += fmt.Sprintf(" %d failed item(s): %s", len(failed), itemNames(failed))
		}
		return msg + ". Finish the open items and mark them done (or skipped, with a note, when the task does not need them), or call done with status partial and tell the user what is not done.", ""
	}
	r.status = outcomePartial
	note = "\n\n**Not everything is done.** WebBrain's progress ledger for this run lists "
	switch {
	case len(open) > 0 && len(failed) > 0:
		note += fmt.Sprintf("%d open item(s) (%s) and %d failed item(s) (%s).", len(open), itemNames(open), len(failed), itemNames(failed))
	case len(open) > 0:
		note += fmt.Sprintf("%d open item(s): %s.", len(open), itemNames(open))
	default:
		note += fmt.Sprintf("%d failed item(s): %s.", len(failed), itemNames(failed))
	}
	return "", note
}

// quoteList renders page messages for the user, each in quotes.
func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = "“" + clip.Runes(s, 200) + "”"
	}
	return strings.Join(q, "; ")
}

// requestActionMode asks the background to hand the request over to Act;
// it returns why not, or "" when it agreed.
func (r *run) requestActionMode(ctx context.Context, call llm.ToolCall) string {
	var a struct{ Evidence string }
	if json.Unmarshal([]byte(orEmptyObject(call.Arguments)), &a) != nil || strings.TrimSpace(a.Evidence) == "" {
		return "Error: request_action_mode needs evidence: the user's words that ask for the action, copied exactly."
	}
	if err := r.opts.RequestActionMode(ctx, a.Evidence); err != nil {
		return "Error: WebBrain stays in Ask mode: " + err.Error() + ". Answer the user from what you can read, and tell them what they can ask to have done."
	}
	return ""
}

// clarify asks the user and returns the answer as the tool result.
func (r *run) clarify(ctx context.Context, call llm.ToolCall) (string, bool, string) {
	var a struct {
		Question string
		Options  []string
	}
	if json.Unmarshal([]byte(orEmptyObject(call.Arguments)), &a) != nil || a.Question == "" {
		return "Error: clarify needs a question.", true, ""
	}
	if r.opts.Clarifier == nil {
		return "Error: the user cannot be asked right now; decide with what you know or call done.", true, ""
	}
	r.emit(Event{Kind: protocol.EventClarify, ID: call.ID, Text: a.Question, Options: a.Options})
	answer, err := r.opts.Clarifier.Ask(ctx, call.ID, a.Question, a.Options)
	if err != nil {
		return "Error: no answer from the user: " + err.Error(), true, ""
	}
	return answerPrefix + answer, false, ""
}

// addResult appends a tool message and reports it.
func (r *run) addResult(call llm.ToolCall, result string, isErr bool) {
	r.conv = append(r.conv, llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Name: call.Name, Content: result})
	r.emit(Event{Kind: protocol.EventToolResult, ID: call.ID, Name: call.Name, Result: result, IsError: isErr})
}

// closeCalls gives each call that will not run a result message.
func (r *run) closeCalls(calls []llm.ToolCall, result string) {
	for _, c := range calls {
		r.conv = append(r.conv, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: result})
	}
}

// withCallIDs gives every call a unique id: some local servers send none
// or repeat them, and results are matched to calls by id.
func withCallIDs(calls []llm.ToolCall, step int) []llm.ToolCall {
	out := make([]llm.ToolCall, len(calls))
	seen := map[string]bool{}
	for i, c := range calls {
		if c.ID == "" || seen[c.ID] {
			c.ID = fmt.Sprintf("call_%d_%d", step, i)
		}
		seen[c.ID] = true
		if c.Arguments == "" {
			c.Arguments = "{}"
		}
		out[i] = c
	}
	return out
}

func orEmptyObject(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}

// refuse gives call the gate's refusal as its error result; the loop
// detector sees it, so a model that keeps trying is stopped.
func (r *run) refuse(call llm.ToolCall, refusal string) {
	result := "Error: " + refusal
	r.loops.observe(observation{name: call.Name, args: call.Arguments, result: result, isError: true})
	r.addResult(call, result, true)
}

// observed tells the gate what the call returned and where the tab is.
func (r *run) observed(result, pageURL string) {
	if r.opts.Gate == nil {
		return
	}
	r.opts.Gate.Observe(result)
	if pageURL != "" {
		r.opts.Gate.Visit(pageURL)
	}
}
