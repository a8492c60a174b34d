//go:build e2e

package durable

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// Exactly once across worker stops (docs/decisions/exactly-once.md): every
// kind of page action, interrupted by a service worker stop at three
// points, must take effect exactly once, and the run must end with the
// answer the page shows.

// Where the worker is stopped.
type stopPoint int

const (
	// beforeDispatch: the run has recorded the call as dispatched in its
	// checkpoint and not sent it: holdDispatch makes the worker hold the
	// call's first message to the page (or the tab update of navigate),
	// and the test stops the worker then.
	//
	// Stopping when the model's reply has been written is too early: the
	// run records the call 10 to 300 ms later, and a stop takes tens of
	// milliseconds to land, so it landed before the record and the resumed
	// run simply asked the model again; timed to the record instead, it
	// landed sometimes before and sometimes after the first keys.
	beforeDispatch stopPoint = iota
	// afterDispatch: the page (or the fixture server) has the whole effect
	// and the action's report is still pending: the page keeps changing
	// for a while after each effect (hold=), and the server holds its
	// answer to a navigation or a form post.
	afterDispatch
	// inTheMiddle: part of the input has reached the page. The page tells
	// the fixture server at the Nth keydown or the first mousedown (a
	// synchronous request) and busy-waits 600 ms in that handler, so the
	// stop lands while that input event is in flight: typing has put part
	// of the text in, a click has had its mousedown but not its click.
	inTheMiddle
	stopPointCount
)

var stopPointNames = [...]string{"before dispatch", "after dispatch", "in the middle"}

func (p stopPoint) String() string { return stopPointNames[p] }

// How long the page or the server keeps a report pending after the effect
// in the afterDispatch cells (the content script settles for at most 1.5 s).
const (
	holdPageMs   = 1200
	holdServerMs = 1500
)

const (
	typedName = "Ada Lovelace, mathematician"
	noteStart = "Leave at door."
	noteAdded = " Ring the bell twice, then wait."
	arrowUps  = 12
)

// actionKind is one kind of page action and the small task that uses it.
type actionKind struct {
	name   string
	tool   string // the call under test
	prompt func(run string, p stopPoint) string
	// focus is the control the model clicks (click_ax) before the call
	// under test, to give it focus: {role, name}.
	focus []string
	act   func(tree, run string, p stopPoint) (llmtest.Turn, error)
	line  string // the page's line the model reports, as it must read ("Clicks: 1")
	// middle is the page's mark for inTheMiddle: the Nth keydown, or the
	// mousedown of a click. "" when the action has no middle: set_field
	// sets the value and fires its events in one task of the content
	// script, so a stop falls before it (beforeDispatch) or after it
	// (afterDispatch); navigate is one tabs.update, after which the browser
	// loads the page by itself (afterDispatch stops during that load).
	middle string
	// effect measures the effect: a JS expression in the page, or the
	// fixture server's count of event server.
	effect  string
	server  string
	initial string // the effect before the action
	want    string
	// partial: in the middle of the action the page holds part of its
	// effect (typing, keys); a click in the middle has had its mousedown
	// and not its click, so its effect is still the initial one.
	partial bool
	// done is a JS condition true once the page has the whole effect.
	done string
	// judge says whether got is the effect once ("ok"), more ("doubled")
	// or less ("lost").
	judge func(got string) string
}

// judgeCount compares a count with want.
func judgeCount(want int) func(string) string {
	return func(got string) string {
		n, err := strconv.Atoi(got)
		switch {
		case err != nil:
			return "lost"
		case n > want:
			return "doubled"
		case n < want:
			return "lost"
		}
		return "ok"
	}
}

// judgeText compares a field's value with want: the value before or a
// prefix of want is a lost (truncated) effect, anything longer a doubled
// one, anything else wrong.
func judgeText(initial, want string) func(string) string {
	return func(got string) string {
		switch {
		case got == want:
			return "ok"
		case len(got) > len(want):
			return "doubled"
		case got == initial || strings.HasPrefix(want, got):
			return "lost"
		}
		return "wrong"
	}
}

// judgeChange reads "<state>/<change events>": the state must be the one
// wanted and the page must have seen one change.
func judgeChange(state string) func(string) string {
	return func(got string) string {
		s, n, _ := strings.Cut(got, "/")
		switch {
		case n != "0" && n != "1":
			return "doubled"
		case s != state || n == "0":
			return "lost"
		}
		return "ok"
	}
}

func clickRef(role, name string) func(string, string, stopPoint) (llmtest.Turn, error) {
	return func(tree, _ string, _ stopPoint) (llmtest.Turn, error) {
		ref, err := scenario.FindRef(tree, role, name)
		return tool("click_ax", map[string]any{"ref": ref}), err
	}
}

func reportURL(run string, p stopPoint) string {
	u := env.fixtures.URL + "/report?run=" + run
	if p == afterDispatch {
		u += "&hold=" + strconv.Itoa(holdServerMs)
	}
	return u
}

func fixed(s string) func(string, stopPoint) string {
	return func(string, stopPoint) string { return s }
}

var actionKinds = []actionKind{
	{
		name: "click_ax", tool: "click_ax",
		prompt: fixed("Click Add one once and tell me what the page shows for Clicks."),
		act:    clickRef("button", "Add one"),
		line:   "Clicks: 1", middle: "mousedown:1",
		effect: `String(window.__record.clicks)`, initial: "0", want: "1", done: `window.__record.clicks >= 1`,
		judge: judgeCount(1),
	},
	{
		name: "click x,y", tool: "click",
		prompt: fixed("Click the blue tap area at (1000, 150) once and tell me what the page shows for Taps."),
		act: func(string, string, stopPoint) (llmtest.Turn, error) {
			return tool("click", map[string]any{"x": 1000, "y": 150}), nil
		},
		line: "Taps: 1", middle: "mousedown:1",
		effect: `String(window.__record.taps)`, initial: "0", want: "1", done: `window.__record.taps >= 1`,
		judge: judgeCount(1),
	},
	{
		name: "type_ax", tool: "type_ax",
		prompt: fixed(`Replace the name with "` + typedName + `" and tell me what the page shows for Name.`),
		act: func(tree, run string, p stopPoint) (llmtest.Turn, error) {
			ref, err := scenario.FindRef(tree, "textbox", "Name")
			return tool("type_ax", map[string]any{"ref": ref, "text": typedName}), err
		},
		line: "Name: " + typedName, middle: "keydown:10",
		effect: `document.getElementById('name').value`, initial: "Old name", want: typedName, partial: true,
		done:  fmt.Sprintf(`document.getElementById('name').value === %q`, typedName),
		judge: judgeText("Old name", typedName),
	},
	{
		name: "type_text", tool: "type_text",
		prompt: fixed(`Add "` + strings.TrimSpace(noteAdded) + `" at the end of the delivery instructions and tell me what they say now.`),
		focus:  []string{"textbox", "Delivery instructions"},
		act: func(string, string, stopPoint) (llmtest.Turn, error) {
			return tool("type_text", map[string]any{"text": noteAdded}), nil
		},
		line: "Delivery instructions: " + noteStart + noteAdded, middle: "keydown:10",
		effect: `document.getElementById('note').value`, initial: noteStart, want: noteStart + noteAdded, partial: true,
		done:  fmt.Sprintf(`document.getElementById('note').value === %q`, noteStart+noteAdded),
		judge: judgeText(noteStart, noteStart+noteAdded),
	},
	{
		name: "press_keys", tool: "press_keys",
		prompt: fixed(fmt.Sprintf("Raise the quantity to %d with the Up arrow key and tell me what the page shows for Quantity.", arrowUps)),
		focus:  []string{"spinbutton", "Quantity"},
		act: func(string, string, stopPoint) (llmtest.Turn, error) {
			return tool("press_keys", map[string]any{"keys": strings.TrimSpace(strings.Repeat("ArrowUp ", arrowUps))}), nil
		},
		line: fmt.Sprintf("Quantity: %d", arrowUps), middle: "keydown:5",
		effect: `String(window.__record.quantity)`, initial: "0", want: strconv.Itoa(arrowUps), partial: true,
		done:  fmt.Sprintf(`window.__record.quantity >= %d`, arrowUps),
		judge: judgeCount(arrowUps),
	},
	{
		name: "set_field checkbox", tool: "set_field",
		prompt: fixed("Subscribe me to the newsletter and tell me what the page shows for Newsletter."),
		act: func(tree, run string, p stopPoint) (llmtest.Turn, error) {
			ref, err := scenario.FindRef(tree, "checkbox", "Subscribe to the newsletter")
			return tool("set_field", map[string]any{"ref": ref, "checked": true}), err
		},
		line:   "Newsletter: subscribed",
		effect: `document.getElementById('newsletter').checked + '/' + window.__record.newsletterChanges`, initial: "false/0", want: "true/1",
		done:  `window.__record.newsletterChanges >= 1`,
		judge: judgeChange("true"),
	},
	{
		name: "set_field select", tool: "set_field",
		prompt: fixed("Set the size to Large and tell me what the page shows for Size."),
		act: func(tree, run string, p stopPoint) (llmtest.Turn, error) {
			ref, err := scenario.FindRef(tree, "combobox", "Size")
			return tool("set_field", map[string]any{"ref": ref, "value": "Large"}), err
		},
		line:   "Size: Large",
		effect: `document.getElementById('size').value + '/' + window.__record.sizeChanges`, initial: "medium/0", want: "large/1",
		done:  `window.__record.sizeChanges >= 1`,
		judge: judgeChange("large"),
	},
	{
		name: "navigate", tool: "navigate",
		prompt: func(run string, p stopPoint) string {
			return "Open the monthly report at " + reportURL(run, p) + " and tell me what it shows for Report views."
		},
		act: func(_, run string, p stopPoint) (llmtest.Turn, error) {
			return tool("navigate", map[string]any{"url": reportURL(run, p)}), nil
		},
		line:   "Report views: 1",
		server: "report", initial: "0", want: "1",
		judge: judgeCount(1),
	},
	{
		name: "submit", tool: "click_ax",
		prompt: fixed("Save the settings form with its Save settings button and tell me what the page says about submissions."),
		act:    clickRef("button", "Save settings"),
		line:   "Submissions received: 1", middle: "mousedown:1",
		server: "submit", initial: "0", want: "1",
		judge: judgeCount(1),
	},
}

// toolResult is one tool message with the name of its call.
type toolResult struct{ name, args, content string }

func toolResults(req llmtest.Request) []toolResult {
	calls := map[string]llm.ToolCall{}
	var out []toolResult
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			calls[c.ID] = c
		}
		if m.Role == llm.RoleTool {
			c := calls[m.ToolCallID]
			out = append(out, toolResult{c.Name, c.Arguments, m.Content})
		}
	}
	return out
}

// script is the fake model for one cell: read the tree, (focus a
// control,) act, read the page, answer with the line it shows. It reads
// refs from the tree the extension sent. actTurns counts the replies that
// carried the call under test (two when a stop made the run ask again);
// actReq is the request the first was the answer to.
func (k actionKind) script(run string, p stopPoint, actTurns, actReq *atomic.Int32) func(n int, req llmtest.Request) llmtest.Turn {
	lineRE := regexp.MustCompile(regexp.QuoteMeta(k.line[:strings.Index(k.line, ":")+1]) + ` [^\n"]*`)
	return func(n int, req llmtest.Request) llmtest.Turn {
		results := toolResults(req)
		var plan []string
		plan = append(plan, "tree")
		if k.focus != nil {
			plan = append(plan, "focus")
		}
		plan = append(plan, "act")
		if len(results) < len(plan) {
			var tree string
			if len(results) > 0 {
				tree = results[0].content
			}
			switch plan[len(results)] {
			case "tree":
				return tool("get_accessibility_tree", map[string]any{"filter": "interactive"})
			case "focus":
				ref, err := scenario.FindRef(tree, k.focus[0], k.focus[1])
				if err != nil {
					return scenario.ScriptFailed(err)
				}
				return tool("click_ax", map[string]any{"ref": ref})
			}
			turn, err := k.act(tree, run, p)
			if err != nil {
				return scenario.ScriptFailed(err)
			}
			if actTurns.Add(1) == 1 {
				actReq.Store(int32(n))
			}
			return turn
		}
		// After the action: read the page until it shows the line.
		last := results[len(results)-1]
		if last.name == "read_page" {
			if m := lineRE.FindString(last.content); m != "" {
				return llmtest.Turn{Text: `The page shows "` + strings.TrimSpace(m) + `".`}
			}
		}
		if len(results)-len(plan) >= 3 { // read, wait, read
			return llmtest.Turn{Text: "The page does not show " + k.line[:strings.Index(k.line, ":")] + "."}
		}
		if last.name == "read_page" {
			return tool("wait_for_stable", map[string]any{"timeoutMs": 3000})
		}
		return tool("read_page", map[string]any{})
	}
}

// cellResult is what one run showed.
type cellResult struct {
	ran     bool
	kind    string
	point   stopPoint
	verdict string // ok, doubled, lost, or what else went wrong
	effect  string // the effect measured at the end ("1", the field's value...)
	atStop  string // the effect when the worker had just stopped
	report  string // how the action's result reached the model after the stop
}

var runSeq atomic.Int32

// pagePath is the fixture page for a cell: hold keeps the report pending
// after the effect; slow makes every key and mousedown slow, mark stops
// the run in the middle of the input.
func pagePath(k actionKind, p stopPoint, run string) string {
	path := "/exactly.html?run=" + run
	switch p {
	case afterDispatch:
		if k.server != "" {
			path += "&hold=" + strconv.Itoa(holdServerMs)
		} else {
			path += "&hold=" + strconv.Itoa(holdPageMs)
		}
	case inTheMiddle:
		path += "&slow=20&mark=" + k.middle
	}
	return path
}

func (k actionKind) measure(t *testing.T, s *session, run string) string {
	if k.server != "" {
		return strconv.Itoa(env.served.count(run, k.server))
	}
	return evalIn[string](t, s.page, k.effect)
}

// holdDispatch makes the service worker hold the call of tool for the tab
// instead of sending it: the first content message for it (the tool's own
// message, or trusted_prepare for it) or, for navigate, the tab update
// never leaves and the fixture server gets the mark "held". It is set in
// the worker over CDP, as a breakpoint would be, and dies with the worker;
// the test detaches before it stops the worker.
func holdDispatch(t *testing.T, tabID int, tool, run string) {
	t.Helper()
	if err := holdCall(tabID, tool, env.fixtures.URL+"/mark?ev=held&run="+run); err != nil {
		t.Fatalf("harness: set the hold in the service worker: %v", err)
	}
}

// dispatchedCall is the name of the call the tab's run checkpoint records
// as dispatched ("" when none).
func dispatchedCall(t *testing.T, tabID int) string {
	return evalIn[string](t, env.control, fmt.Sprintf(`chrome.storage.session.get('agentRun:%d').then((r) => {
		let rec = r['agentRun:%d'];
		if (typeof rec === 'string') rec = JSON.parse(rec);
		const cp = rec && rec.checkpoint, id = cp && cp.dispatched;
		const call = id && (cp.conversation || []).flatMap((m) => m.tool_calls || []).find((c) => c.id === id);
		return call ? call.name : '';
	})`, tabID, tabID), chromedp.EvalAwaitPromise)
}

func waitChan(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(runTimeout):
		t.Fatalf("harness: timed out waiting for %s", what)
	}
}

// runCell runs kind k's task once, stops the worker at p, and checks the
// run and the effect. It fills res as it learns.
func runCell(t *testing.T, k actionKind, p stopPoint, res *cellResult) {
	run := fmt.Sprintf("r%d", runSeq.Add(1))
	cellStart := time.Now()
	var actTurns, actReq atomic.Int32
	srv := llmtest.New(k.script(run, p, &actTurns, &actReq))
	s := openSessionAt(t, srv, pagePath(k, p, run))
	if p == beforeDispatch {
		holdDispatch(t, s.tabID, k.tool, run)
	}
	s.typeEnter("act", k.prompt(run, p), false)
	switch p {
	case beforeDispatch:
		waitChan(t, env.served.seen(run, "mark held"), "the worker to hold "+k.tool)
	case afterDispatch:
		if k.server != "" {
			waitChan(t, env.served.seen(run, k.server), "the server to get the "+k.server)
		} else {
			waitFor(t, s.page, "the whole effect in the page", runTimeout, k.done)
		}
	case inTheMiddle:
		waitChan(t, env.served.seen(run, "mark "+k.middle), "the page's mark at "+k.middle)
	}
	stopWorker(t)
	res.atStop = k.measure(t, s, run)
	// The stop must have landed where the cell says: the call recorded as
	// dispatched and without a result, and the page's effect none, part
	// or all of it.
	harness := func(format string, args ...any) {
		t.Helper()
		res.verdict = "harness: " + fmt.Sprintf(format, args...)
		t.Fatalf("harness: "+format, args...)
	}
	if got := dispatchedCall(t, s.tabID); got != k.tool {
		harness("at the stop the checkpoint records %q as dispatched, want %s in flight", got, k.tool)
	}
	switch {
	case p == beforeDispatch && res.atStop != k.initial:
		harness("the effect had begun before the stop: %q", res.atStop)
	case p == afterDispatch && k.judge(res.atStop) != "ok":
		harness("the effect was not whole at the stop: %q", res.atStop)
	case p == inTheMiddle && (k.judge(res.atStop) != "lost" || k.partial && res.atStop == k.initial):
		harness("the stop did not land in the middle: the effect was %q", res.atStop)
	}
	t.Logf("stopped %s after %v; effect at the stop %q", p, time.Since(cellStart).Round(time.Millisecond), res.atStop)

	st := s.waitRunEnd()
	t.Logf("the run ended %s after %v", st, time.Since(cellStart).Round(time.Millisecond))
	res.effect = k.measure(t, s, run)
	res.verdict = k.judge(res.effect)
	res.report = actionReport(srv.Requests(), int(actReq.Load()))
	if res.verdict != "ok" {
		t.Errorf("%s effect: got %q, want %q (%s)", k.name, res.effect, k.want, res.verdict)
	}
	if st != "done" {
		t.Errorf("run ended %s", st)
		if res.verdict == "ok" {
			res.verdict = "ended " + st
		}
	}
	want := `The page shows "` + k.line + `".`
	if answers := s.texts(".msg.assistant"); len(answers) != 1 || answers[0] != want {
		t.Errorf("answers in the panel: %q, want [%q]", answers, want)
		if res.verdict == "ok" {
			res.verdict = "wrong answer"
		}
	}
	if notices := strings.Join(s.texts(".msg.notice"), "\n"); !strings.Contains(notices, "resumed") {
		t.Errorf("no resumed notice; notices: %q", notices)
		if res.verdict == "ok" {
			res.verdict = "no resumed notice"
		}
	}
	if t.Failed() && k.server == "" {
		log := evalIn[[]string](t, s.page, `window.__record?.log ?? []`)
		t.Logf("page log: %s", strings.Join(log, " "))
	}
}

// actionReport is how the call under test was reported to the model:
// "interrupted" (effect unknown), "error", or "result".
func actionReport(reqs []llmtest.Request, actReq int) string {
	if len(reqs) == 0 || actReq < 0 || actReq >= len(reqs) {
		return "?"
	}
	last := reqs[len(reqs)-1]
	// The call under test is the last call of the reply to request actReq,
	// or of a later reply when the model was asked again: its result is
	// the first one after the results request actReq already had.
	before := len(toolResults(reqs[actReq]))
	results := toolResults(last)
	if len(results) <= before {
		return "no result"
	}
	r := results[before].content
	switch {
	case strings.HasPrefix(r, "Interrupted"):
		return "interrupted"
	case strings.Contains(r, "unknown"):
		return "unknown"
	case strings.HasPrefix(r, "Error"):
		return "error"
	}
	return "result"
}

// TestExactlyOnceAcrossStops stops the service worker once in each run,
// for every kind of page action and each stop point, and checks the
// action took effect exactly once and the run answered what the page
// shows.
func TestExactlyOnceAcrossStops(t *testing.T) {
	start := time.Now()
	var results []*cellResult
	for _, k := range actionKinds {
		for p := stopPoint(0); p < stopPointCount; p++ {
			if p == inTheMiddle && k.middle == "" {
				continue // one step: see the kinds' middle field
			}
			res := &cellResult{kind: k.name, point: p, verdict: "harness: did not finish"}
			results = append(results, res)
			t.Run(strings.ReplaceAll(k.name+"/"+p.String(), " ", "_"), func(t *testing.T) {
				res.ran = true
				runCell(t, k, p, res)
			})
		}
	}
	var right, doubled, lost, total int
	var b strings.Builder
	for _, k := range actionKinds {
		var kr, kd, kl, kn int
		var cells []string
		for _, r := range results {
			if r.kind != k.name || !r.ran {
				continue
			}
			kn++
			switch {
			case r.verdict == "ok":
				kr++
			case r.verdict == "doubled":
				kd++
			case r.verdict == "lost":
				kl++
			}
			cell := fmt.Sprintf("%s: %s", r.point, r.verdict)
			if r.verdict != "ok" && !strings.HasPrefix(r.verdict, "harness") {
				cell += fmt.Sprintf(" (effect %q, at the stop %q)", clipText(r.effect, 24), clipText(r.atStop, 24))
			}
			if r.report != "" {
				cell += " [reported " + r.report + "]"
			}
			cells = append(cells, cell)
		}
		right, doubled, lost, total = right+kr, doubled+kd, lost+kl, total+kn
		if kn == 0 {
			continue
		}
		fmt.Fprintf(&b, "exactly-once %-20s %d/%d right, %d doubled, %d lost; %s\n", k.name+":", kr, kn, kd, kl, strings.Join(cells, "; "))
	}
	fmt.Fprintf(&b, "exactly-once: %d/%d runs right, %d doubled, %d lost effects (%s)\n", right, total, doubled, lost, time.Since(start).Round(time.Second))
	t.Log("\n" + b.String())
	fmt.Print(b.String())
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
