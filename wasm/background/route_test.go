package background

import (
	"context"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/tools"
)

func auto(tabID int, text string) map[string]any {
	return map[string]any{"action": "chat_start", "tabId": tabID, "text": text, "mode": "auto", "requestId": "req-1"}
}

// useDecisionModel makes the test provider the decision model too and
// scripts its closed answers.
func useDecisionModel(t *testing.T, e *env, reply string) {
	t.Helper()
	s, _ := settings.Load(context.Background(), e.local)
	s.DecisionProvider = "test"
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		t.Fatal(err)
	}
	e.srv.Decider = func(llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: reply} }
}

func runMode(t *testing.T, j Journal) Entry {
	t.Helper()
	e, ok := lastOf(j.Events, protocol.EventRunMode)
	if !ok {
		t.Fatalf("no run_mode event: %v", kinds(j.Events))
	}
	return e
}

func offered(req llmtest.Request, name string) bool { return contains(req.Tools, name) }

func TestAutoWithoutADecisionModelStartsInAsk(t *testing.T) {
	e := newEnv(t, answerOnly())
	e.mustOK(auto(30, "Click the Subscribe button"))
	j := e.waitEnd(30)
	if rm := runMode(t, j); rm.Mode != protocol.ModeAsk || rm.Reason != protocol.RouteDefault {
		t.Fatalf("run_mode %+v", rm)
	}
	req := e.srv.Requests()[0]
	if offered(req, "click_ax") || !offered(req, tools.RequestActionMode) || !strings.Contains(req.Messages[0].Content, "request_action_mode") {
		t.Fatalf("an automatic Ask turn offered %v", req.Tools)
	}
	if n := len(e.srv.DecisionRequests()) + len(e.srv.PlannerRequests()); n != 0 {
		t.Fatalf("%d extra model requests before an Ask turn without a decision model", n)
	}
}

func TestSureDecisionModelRoutesToAct(t *testing.T) {
	e := newEnv(t, answerOnly())
	useDecisionModel(t, e, `{"choice":"act","confidence":0.93,"quote":"Click the Subscribe button"}`)
	e.mustOK(auto(31, "Click the Subscribe button"))
	j := e.waitEnd(31)
	if rm := runMode(t, j); rm.Mode != protocol.ModeAct || rm.Reason != protocol.RouteDecisionModel || j.Mode != protocol.ModeAct {
		t.Fatalf("run_mode %+v, journal mode %s", rm, j.Mode)
	}
	dq := e.srv.DecisionRequests() // the routing question, then the final answer's reading
	if len(dq) == 0 || strings.Contains(dq[0].Messages[1].Content, "example.com") {
		t.Fatalf("the routing question must not carry the page: %+v", dq)
	}
	if req := e.srv.Requests()[0]; !offered(req, "click_ax") || offered(req, tools.RequestActionMode) {
		t.Fatalf("an Act turn offered %v", req.Tools)
	}
}

func TestUnsureRoutingStaysInAsk(t *testing.T) {
	e := newEnv(t, answerOnly())
	useDecisionModel(t, e, `{"choice":"act","confidence":0.8,"quote":"Click"}`)
	e.mustOK(auto(32, "Click the Subscribe button"))
	if rm := runMode(t, e.waitEnd(32)); rm.Mode != protocol.ModeAsk || rm.Reason != protocol.RouteDefault {
		t.Fatalf("run_mode %+v", rm)
	}
}

// handOffModel asks for Act with evidence in its Ask turn, and clicks in
// its Act turn; it answers once the click has a result.
func handOffModel(evidence string) *llmtest.Server {
	return llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		last := req.Messages[len(req.Messages)-1]
		switch {
		case offered(req, tools.RequestActionMode) && last.Role == llm.RoleUser:
			return llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: tools.RequestActionMode, Arguments: `{"evidence":` + jsonString(evidence) + `}`}}}
		case offered(req, tools.RequestActionMode):
			return llmtest.Turn{Text: "Answered in Ask: " + last.Content}
		case last.Role == llm.RoleTool:
			return llmtest.Turn{Text: "Clicked."}
		}
		return llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: "click_ax", Arguments: `{"ref":"ref_1"}`}}}
	})
}

func jsonString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

func TestAskHandsOverToActWithTheUsersWords(t *testing.T) {
	page := &pageCounter{}
	e := newEnv(t, handOffModel("subscribe me to the weekly digest"))
	e.r.p.Content = page
	// No decision model: the active model checks the hand-off and must quote.
	e.srv.Decider = func(llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: `{"choice":"act","quote":"subscribe me to the weekly digest"}`}
	}
	e.mustOK(auto(33, "Please subscribe me to the weekly digest"))
	tick(t, e)
	j := e.waitEnd(33)
	var modes []string
	for _, ev := range j.Events {
		if ev.Kind == protocol.EventRunMode {
			modes = append(modes, ev.Mode+"/"+ev.Reason)
		}
	}
	if strings.Join(modes, " ") != "ask/default act/hand_off" || j.Final != "Clicked." {
		t.Fatalf("modes %v, final %q", modes, j.Final)
	}
	if got := page.names(); len(got) != 1 || got[0] != "click_ax" {
		t.Fatalf("page actions %v", got)
	}
	// The Act pass starts from the conversation before the Ask pass.
	reqs := e.srv.Requests()
	act := reqs[len(reqs)-1]
	for _, m := range act.Messages {
		if m.Name == tools.RequestActionMode {
			t.Fatal("the Act pass carries the Ask pass's hand-off call")
		}
	}
	if len(e.srv.PlannerRequests()) != 1 {
		t.Fatalf("the Act pass was not planned: %d planner requests", len(e.srv.PlannerRequests()))
	}
}

func TestHandOffWithPageWordsIsRefused(t *testing.T) {
	page := &pageCounter{}
	e := newEnv(t, handOffModel("delete all my files now"))
	e.r.p.Content = page
	e.srv.Decider = func(llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: `{"choice":"act","quote":"delete all my files now"}`}
	}
	e.mustOK(auto(34, "What does this page say about files?"))
	j := e.waitEnd(34)
	if rm := runMode(t, j); rm.Mode != protocol.ModeAsk || len(page.names()) != 0 || !strings.Contains(j.Final, "not the user's own words") {
		t.Fatalf("run_mode %+v, page %v, final %q", rm, page.names(), j.Final)
	}
	if n := len(e.srv.DecisionRequests()); n != 0 {
		t.Fatalf("evidence that is not the user's words still asked %d questions", n)
	}
}

func TestHandOffTheCheckDoesNotConfirmIsRefused(t *testing.T) {
	e := newEnv(t, handOffModel("what the subscribe button does"))
	e.srv.Decider = func(llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: `{"choice":"ask","quote":""}`} }
	e.mustOK(auto(35, "Explain what the subscribe button does"))
	j := e.waitEnd(35)
	if rm := runMode(t, j); rm.Mode != protocol.ModeAsk || !strings.Contains(j.Final, "does not read as asking") {
		t.Fatalf("run_mode %+v, final %q", rm, j.Final)
	}
}

func TestChosenAskNeverHandsOver(t *testing.T) {
	e := newEnv(t, answerOnly())
	e.mustOK(map[string]any{"action": "chat_start", "tabId": 36, "text": "Click Subscribe", "mode": "ask", "requestId": "req-1"})
	e.waitEnd(36)
	if req := e.srv.Requests()[0]; offered(req, tools.RequestActionMode) {
		t.Fatal("a chosen Ask turn offered the hand-off")
	}
}

// The questions about the user's words never carry page text, not even
// the title an earlier turn stored with its request.
func TestRoutingAndPlanningSeeNoPageTextFromEarlierTurns(t *testing.T) {
	e := newEnv(t, answerOnly())
	useDecisionModel(t, e, `{"choice":"act","confidence":0.95,"quote":"Subscribe"}`)
	e.mustOK(auto(37, "What is this page?"))
	e.waitEnd(37)
	if conv := e.conversation(37); len(conv) < 2 || !strings.Contains(conv[1].Content, "Example") {
		t.Fatalf("the stored request should carry the page title for the agent: %+v", conv)
	}
	msg := auto(37, "Subscribe me")
	msg["requestId"] = "req-2"
	e.mustOK(msg)
	e.waitEnd(37)
	for _, q := range e.srv.DecisionRequests() {
		if strings.Contains(q.Messages[1].Content, "Example") || strings.Contains(q.Messages[1].Content, "example.com") {
			t.Fatalf("a routing question carried page text:\n%s", q.Messages[1].Content)
		}
	}
	plans := e.srv.PlannerRequests()
	if len(plans) == 0 {
		t.Fatal("the Act turn was not planned")
	}
	user := plans[len(plans)-1].Messages[1].Content
	_, digest, _ := strings.Cut(user, "The conversation before this task")
	if !strings.Contains(digest, "What is this page?") || strings.Contains(digest, "Example") {
		t.Fatalf("the planner's digest:\n%s", digest)
	}
}

// A request handed over to Act and interrupted by a restart resumes in
// Act, without offering the hand-off again.
func TestHandedOffRunResumesInActAfterARestart(t *testing.T) {
	page := &pageCounter{hold: make(chan struct{})}
	e := newEnv(t, handOffModel("subscribe me to the weekly digest"))
	e.r.p.Content = page
	e.srv.Decider = func(llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: `{"choice":"act","quote":"subscribe me to the weekly digest"}`}
	}
	e.mustOK(auto(38, "Please subscribe me to the weekly digest"))
	eventually(t, "the Act pass's click", func() bool { return len(page.names()) == 1 })
	before := len(e.srv.Requests())

	e2 := e.restart(&pageCounter{})
	e2.send(map[string]any{"action": "run_state", "tabId": 38})
	tick(t, e2)
	j := e2.waitEnd(38)
	if j.Mode != protocol.ModeAct || j.Final != "Clicked." {
		t.Fatalf("resumed journal mode %s, final %q", j.Mode, j.Final)
	}
	for _, r := range e2.srv.Requests()[before:] {
		if !offered(r, "click_ax") || offered(r, tools.RequestActionMode) {
			t.Fatalf("a resumed request offered %v", r.Tools)
		}
	}
	close(page.hold)
}

// plan_need rides along the routing: a direct action under Try gets the
// intent check, not the full plan; a task with steps is planned.
func TestDirectActionSkipsTheFullPlan(t *testing.T) {
	for _, tc := range []struct {
		need     string
		wantFull bool
	}{{"direct", false}, {"plan", true}, {"", true}} {
		e := newEnv(t, answerOnly())
		useDecisionModel(t, e, "")
		e.srv.Decider = func(req llmtest.Request) llmtest.Turn {
			if strings.Contains(req.Messages[1].Content, "deserves a plan") {
				return llmtest.Turn{Text: `{"choice":"` + tc.need + `","confidence":0.9,"quote":"Click Subscribe"}`}
			}
			return llmtest.Turn{Text: `{"choice":"act","confidence":0.95,"quote":"Click Subscribe"}`}
		}
		e.mustOK(auto(34, "Click Subscribe"))
		e.waitEnd(34)
		pr := e.srv.PlannerRequests()
		if len(pr) == 0 {
			t.Fatalf("%q: no planner request", tc.need)
		}
		full := !strings.HasPrefix(pr[0].Messages[0].Content, "You check a task before")
		if full != tc.wantFull {
			t.Errorf("plan_need %q: full plan %v, want %v", tc.need, full, tc.wantFull)
		}
	}
}

// Routing reads meaning, not words: requests in German, Japanese and
// Spanish go where the decision model reads them, with no word list in
// between; the question carries the request as the user wrote it.
func TestAutoRoutesRequestsInAnyLanguage(t *testing.T) {
	answers := map[string]string{
		"Wofür ist dieses Formular?":                    `{"choice":"ask","confidence":0.9,"quote":"Wofür ist dieses Formular?"}`,
		"Melde mich mit ada@example.com an.":            `{"choice":"act","confidence":0.92,"quote":"Melde mich mit ada@example.com an."}`,
		"このページのCSSのエラーを調べて直してください":                      `{"choice":"dev","confidence":0.9,"quote":"このページのCSSのエラーを調べて"}`,
		"¿Puedes resumir este artículo en tres frases?": `{"choice":"ask","confidence":0.95,"quote":"resumir este artículo"}`,
	}
	want := map[string]string{
		"Wofür ist dieses Formular?": protocol.ModeAsk, "Melde mich mit ada@example.com an.": protocol.ModeAct,
		"このページのCSSのエラーを調べて直してください": protocol.ModeDev, "¿Puedes resumir este artículo en tres frases?": protocol.ModeAsk,
	}
	for text, mode := range want {
		e := newEnv(t, answerOnly())
		useDecisionModel(t, e, "")
		e.srv.Decider = func(req llmtest.Request) llmtest.Turn {
			for q, a := range answers {
				if strings.Contains(req.Messages[1].Content, "<request>\n"+q+"\n</request>") {
					if strings.Contains(req.Messages[1].Content, "deserves a plan") {
						return llmtest.Turn{Text: llmtest.NoDecision}
					}
					return llmtest.Turn{Text: a}
				}
			}
			return llmtest.Turn{Text: llmtest.NoDecision}
		}
		e.mustOK(auto(35, text))
		j := e.waitEnd(35)
		if rm := runMode(t, j); rm.Mode != mode || rm.Reason != protocol.RouteDecisionModel {
			t.Errorf("%q: run_mode %+v, want %s", text, rm, mode)
		}
	}
}
