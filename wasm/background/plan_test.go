package background

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

// A plan that deletes an account: what a Strict review must show first.
const deletePlan = `Here is the plan:
` + "```json" + `
{"action":"execute","summary":"Delete the account from the settings page.","steps":["Open the settings","Click Delete account"],"risks":["Deleting the account cannot be undone"],"question":null,"recipients":[],"localized":null}
` + "```"

// usePlanner sets the planner level and review, and scripts the planner's
// replies in order (the last one repeats).
func usePlanner(t *testing.T, e *env, level, review string, replies ...string) {
	t.Helper()
	s, _ := settings.Load(context.Background(), e.local)
	s.Planner, s.PlanReview = level, review
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		t.Fatal(err)
	}
	e.srv.Planner = func(req llmtest.Request) llmtest.Turn {
		n := min(len(e.srv.PlannerRequests())-1, len(replies)-1)
		return llmtest.Turn{Text: replies[n]}
	}
}

func waitPlanCard(t *testing.T, e *env, tabID int, id string) Entry {
	t.Helper()
	var card Entry
	eventually(t, "the plan review card "+id, func() bool {
		ru := e.r.active(tabID)
		if ru == nil {
			return false
		}
		c, ok := ru.j.find(protocol.EventPlanReview, id)
		card = c
		return ok
	})
	return card
}

func answerPlan(tabID int, id, decision, text string) map[string]any {
	return map[string]any{"action": "plan_answer", "tabId": tabID, "requestId": "req-1", "id": id, "decision": decision, "text": text}
}

// systemOf is the system prompt of the model's first agent request.
func systemOf(e *env) string {
	reqs := e.srv.Requests()
	if len(reqs) == 0 {
		return ""
	}
	return reqs[0].Messages[0].Content
}

func TestStrictPlanWaitsForApprovalBeforeAnyPageAction(t *testing.T) {
	page := &dangerPage{}
	e := newEnv(t, obeyThenReport())
	e.r.p.Content = page
	// The model reads the request as asking to delete what the page shows.
	e.srv.Decider = func(llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: `{"choice":"delete_this_item","quote":"Delete my account"}`}
	}
	usePlanner(t, e, protocol.PlannerStrict, protocol.ReviewStrict, deletePlan)
	e.mustOK(act(11, "Delete my account"))
	card := waitPlanCard(t, e, 11, "plan-1")
	if card.Plan == nil || len(card.Plan.Plan.Steps) != 2 || card.Plan.ExpiresAt != e.clock.Now().Add(planReviewTimeout).UnixMilli() ||
		!strings.Contains(card.Text, "1. Open the settings") {
		t.Fatalf("card %+v %q", card.Plan, card.Text)
	}
	// The edit box starts from the Markdown with its Risks heading keyed.
	if m := card.Msg; m == nil || m.Key != "bg_plan_risks" || m.Params["risks"] != "- Deleting the account cannot be undone" {
		t.Errorf("card msg %+v", card.Msg)
	}
	if len(e.srv.Requests()) != 0 || len(page.names()) != 0 {
		t.Fatalf("the run went on before the review: %d requests, page %v", len(e.srv.Requests()), page.names())
	}
	if rep := e.send(answerPlan(11, "plan-1", "maybe", "")); rep["ok"] != false {
		t.Fatalf("an unknown decision was accepted: %v", rep)
	}
	if rep := e.send(answerPlan(11, "plan-1", protocol.PlanEdit, "  ")); rep["ok"] != false {
		t.Fatalf("an empty edit was accepted: %v", rep)
	}
	e.mustOK(answerPlan(11, "plan-1", protocol.PlanApprove, ""))
	if rep := e.send(answerPlan(11, "plan-1", protocol.PlanReject, "")); rep["ok"] != false {
		t.Fatalf("a second answer was accepted: %v", rep)
	}
	tick(t, e) // a click waits a moment on the clock to see whether it navigated
	j := e.waitEnd(11)
	res, ok := lastOf(j.Events, protocol.EventPlanResolved)
	if !ok || res.Decision != protocol.PlanApprove || res.Reason != protocol.ResolvedUser || !strings.Contains(res.Text, "Click Delete account") {
		t.Fatalf("resolution %+v", res)
	}
	if sys := systemOf(e); !strings.Contains(sys, "[Approved plan]") || !strings.Contains(sys, "2. Click Delete account") {
		t.Fatalf("the plan is not pinned in the system prompt:\n%s", sys)
	}
	if got := page.names(); len(got) != 1 || got[0] != "click_ax" {
		t.Fatalf("page actions %v", got)
	}
}

func TestRejectedPlanLeavesThePageUntouched(t *testing.T) {
	page := &dangerPage{}
	e := newEnv(t, obeyThenReport())
	e.r.p.Content = page
	usePlanner(t, e, protocol.PlannerStrict, protocol.ReviewStrict, deletePlan)
	e.mustOK(act(12, "Delete my account"))
	waitPlanCard(t, e, 12, "plan-1")
	e.mustOK(answerPlan(12, "plan-1", protocol.PlanReject, ""))
	j := e.waitEnd(12)
	if j.Status != protocol.StatusStopped || len(e.srv.Requests()) != 0 || len(page.names()) != 0 {
		t.Fatalf("status %s, %d model requests, page %v", j.Status, len(e.srv.Requests()), page.names())
	}
	if res, _ := lastOf(j.Events, protocol.EventPlanResolved); res.Decision != protocol.PlanReject || res.Reason != protocol.ResolvedUser {
		t.Fatalf("resolution %+v", res)
	}
}

func TestEditedPlanIsTheOneFollowed(t *testing.T) {
	e := newEnv(t, answerOnly())
	usePlanner(t, e, protocol.PlannerStrict, protocol.ReviewStrict, deletePlan)
	e.mustOK(act(13, "Tidy my account"))
	waitPlanCard(t, e, 13, "plan-1")
	e.mustOK(answerPlan(13, "plan-1", protocol.PlanEdit, "1. Only read the settings page\n2. Change nothing"))
	j := e.waitEnd(13)
	if res, _ := lastOf(j.Events, protocol.EventPlanResolved); res.Decision != protocol.PlanEdit || !strings.Contains(res.Text, "Change nothing") {
		t.Fatalf("resolution %+v", res)
	}
	sys := systemOf(e)
	if !strings.Contains(sys, "2. Change nothing") || strings.Contains(sys, "Delete account") {
		t.Fatalf("the system prompt does not carry the edit alone:\n%s", sys)
	}
}

func TestUnansweredPlanIsApprovedAfterTwoMinutes(t *testing.T) {
	e := newEnv(t, answerOnly())
	usePlanner(t, e, protocol.PlannerStrict, protocol.ReviewStrict, deletePlan)
	e.mustOK(act(14, "Delete my account"))
	waitPlanCard(t, e, 14, "plan-1")
	eventually(t, "the review's timer", func() bool { return e.clock.Waiters() > 0 })
	e.clock.Advance(planReviewTimeout + time.Second)
	tick(t, e)
	j := e.waitEnd(14)
	res, ok := lastOf(j.Events, protocol.EventPlanResolved)
	if !ok || res.Decision != protocol.PlanApprove || res.Reason != protocol.ResolvedTimeout {
		t.Fatalf("resolution %+v", res)
	}
	if len(e.srv.Requests()) == 0 {
		t.Fatal("the run did not go on after the timeout")
	}
}

func TestStopDuringReviewRunsNothing(t *testing.T) {
	page := &dangerPage{}
	e := newEnv(t, obeyThenReport())
	e.r.p.Content = page
	usePlanner(t, e, protocol.PlannerStrict, protocol.ReviewStrict, deletePlan)
	e.mustOK(act(15, "Delete my account"))
	waitPlanCard(t, e, 15, "plan-1")
	e.mustOK(map[string]any{"action": "abort", "tabId": 15})
	j := e.waitEnd(15)
	res, _ := lastOf(j.Events, protocol.EventPlanResolved)
	if j.Status != protocol.StatusStopped || res.Reason != protocol.ResolvedStopped || len(e.srv.Requests()) != 0 || len(page.names()) != 0 {
		t.Fatalf("status %s, resolution %+v, %d requests, page %v", j.Status, res, len(e.srv.Requests()), page.names())
	}
}

func TestCorrectionSupersedesThePendingPlan(t *testing.T) {
	e := newEnv(t, answerOnly())
	usePlanner(t, e, protocol.PlannerStrict, protocol.ReviewStrict, deletePlan)
	e.mustOK(act(16, "Delete my account"))
	waitPlanCard(t, e, 16, "plan-1")
	e.mustOK(steerMsg(16, "req-1", "no, only export my data"))
	waitPlanCard(t, e, 16, "plan-2")
	plans := e.srv.PlannerRequests()
	if len(plans) != 2 || !strings.Contains(plans[1].Messages[1].Content, "only export my data") {
		t.Fatalf("the second plan did not read the correction: %d planner requests", len(plans))
	}
	e.mustOK(answerPlan(16, "plan-2", protocol.PlanApprove, ""))
	j := e.waitEnd(16)
	var first Entry
	for _, ev := range j.Events {
		if ev.Kind == protocol.EventPlanResolved && ev.ID == "plan-1" {
			first = ev
		}
	}
	if first.Decision != protocol.PlanSuperseded || first.Reason != protocol.ResolvedCorrection {
		t.Fatalf("the first card was resolved %+v", first)
	}
	if rep := e.send(answerPlan(16, "plan-1", protocol.PlanApprove, "")); rep["ok"] != false {
		t.Fatalf("a superseded card took an answer: %v", rep)
	}
}

func TestPlanReviewSurvivesABackgroundRestart(t *testing.T) {
	e := newEnv(t, answerOnly())
	usePlanner(t, e, protocol.PlannerStrict, protocol.ReviewStrict, deletePlan)
	e.mustOK(act(17, "Delete my account"))
	before := waitPlanCard(t, e, 17, "plan-1")

	e2 := e.restart(&pageCounter{})
	e2.send(map[string]any{"action": "run_state", "tabId": 17}) // wakes the resume
	after := waitPlanCard(t, e2, 17, "plan-1")
	if after.Plan.ExpiresAt != before.Plan.ExpiresAt {
		t.Fatalf("the card changed across the restart: %+v then %+v", before.Plan, after.Plan)
	}
	e2.mustOK(answerPlan(17, "plan-1", protocol.PlanApprove, ""))
	e2.waitEnd(17)
	if n := len(e2.srv.PlannerRequests()); n != 1 {
		t.Fatalf("the restart planned again: %d planner requests", n)
	}
	if sys := systemOf(e2); !strings.Contains(sys, "[Approved plan]") {
		t.Fatalf("no pinned plan after the restart:\n%s", sys)
	}
}

func TestTryFallsBackToReadOnlyOnAnUnreadablePlan(t *testing.T) {
	page := &dangerPage{}
	e := newEnv(t, obeyThenReport())
	e.r.p.Content = page
	usePlanner(t, e, protocol.PlannerTry, protocol.ReviewStrict, "I think we should delete it.")
	e.mustOK(act(18, "Delete my account"))
	j := e.waitEnd(18)
	if n := len(e.srv.PlannerRequests()); n != 2 {
		t.Fatalf("%d planner requests, want the first and one repair", n)
	}
	mc, ok := lastOf(j.Events, protocol.EventModeChanged)
	if !ok || mc.Mode != protocol.ModeAsk || j.Mode != protocol.ModeAsk {
		t.Fatalf("mode_changed %+v, journal mode %s", mc, j.Mode)
	}
	if reqs := e.srv.Requests(); len(reqs) == 0 || contains(reqs[0].Tools, "click_ax") {
		t.Fatalf("the read-only turn offered click_ax: %v", reqs)
	}
	if len(page.names()) != 0 {
		t.Fatalf("page actions %v", page.names())
	}
}

func TestStrictStopsOnAnUnreadablePlan(t *testing.T) {
	e := newEnv(t, obeyThenReport())
	usePlanner(t, e, protocol.PlannerStrict, protocol.ReviewStrict, "no json here")
	e.mustOK(act(19, "Delete my account"))
	j := e.waitEnd(19)
	if j.Status != protocol.StatusError || !strings.Contains(j.Error, "Strict") || len(e.srv.Requests()) != 0 {
		t.Fatalf("status %s, error %q, %d requests", j.Status, j.Error, len(e.srv.Requests()))
	}
}

func TestPlanOnlyAnswersWithThePlan(t *testing.T) {
	e := newEnv(t, obeyThenReport())
	usePlanner(t, e, protocol.PlannerTry, protocol.ReviewStrict,
		`{"action":"plan_only","summary":"How to cancel the subscription.","steps":["Open Billing","Click Cancel plan"],"risks":[],"question":null,"recipients":[],"localized":{"summary":"So kündigen Sie das Abo.","steps":["Abrechnung öffnen","Auf Abo kündigen klicken"],"risks":[],"question":null}}`)
	e.mustOK(act(20, "Wie würdest du mein Abo kündigen? Nur erklären."))
	j := e.waitEnd(20)
	if j.Status != protocol.StatusDone || !strings.Contains(j.Final, "1. Abrechnung öffnen") || len(e.srv.Requests()) != 0 {
		t.Fatalf("status %s, final %q, %d requests", j.Status, j.Final, len(e.srv.Requests()))
	}
	if conv := e.conversation(20); len(conv) != 2 || conv[1].Content != j.Final {
		t.Fatalf("conversation %+v", conv)
	}
}

// A plan-only answer with risks carries its Risks heading as a key; the
// model's summary, steps and risks are parameters, as it wrote them.
func TestPlanOnlyAnswerKeysItsRisksHeading(t *testing.T) {
	e := newEnv(t, obeyThenReport())
	usePlanner(t, e, protocol.PlannerTry, protocol.ReviewStrict,
		`{"action":"plan_only","summary":"How to close the account.","steps":["Open Settings"],"risks":["It cannot be undone"],"question":null,"recipients":[],"localized":{"summary":"So schließen Sie das Konto.","steps":["Einstellungen öffnen"],"risks":["Das lässt sich nicht rückgängig machen"],"question":null}}`)
	e.mustOK(act(22, "Wie schließe ich mein Konto? Nur erklären."))
	j := e.waitEnd(22)
	final, ok := lastOf(j.Events, protocol.EventFinal)
	if !ok || final.Text != "So schließen Sie das Konto.\n1. Einstellungen öffnen\n\nRisks:\n- Das lässt sich nicht rückgängig machen" {
		t.Fatalf("final %q", final.Text)
	}
	if m := final.Msg; m == nil || m.Key != "bg_plan_risks" || m.Params["plan"] != "So schließen Sie das Konto.\n1. Einstellungen öffnen" ||
		m.Params["risks"] != "- Das lässt sich nicht rückgängig machen" {
		t.Fatalf("final msg %+v", final.Msg)
	}
}

func TestPlannerQuestionIsAskedThenPlannedAgain(t *testing.T) {
	e := newEnv(t, answerOnly())
	usePlanner(t, e, protocol.PlannerTry, protocol.ReviewStrict,
		`{"action":"clarify","summary":"","steps":[],"risks":[],"question":"Which of your two accounts?","recipients":[],"localized":null}`,
		llmtest.ExecutePlan)
	e.mustOK(act(21, "Delete my account"))
	eventually(t, "the planner's question", func() bool {
		ru := e.r.active(21)
		return ru != nil && ru.j.hasEvent(protocol.EventClarify, "plan-q1")
	})
	e.mustOK(map[string]any{"action": "clarify_answer", "tabId": 21, "requestId": "req-1", "id": "plan-q1", "answer": "the work one"})
	j := e.waitEnd(21)
	plans := e.srv.PlannerRequests()
	if len(plans) != 2 || !strings.Contains(plans[1].Messages[1].Content, "The user answered: the work one") {
		t.Fatalf("%d planner requests; the second did not carry the answer", len(plans))
	}
	if _, ok := lastOf(j.Events, protocol.EventPlan); !ok || j.Status != protocol.StatusDone {
		t.Fatalf("status %s, events %v", j.Status, kinds(j.Events))
	}
}

// answerOnly is a model that answers every request with text.
func answerOnly() *llmtest.Server {
	return llmtest.New(func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: "Done."} })
}
