//go:build browser

package ui

import (
	"regexp"
	"strings"
	"testing"
)

const planReviewEvent = `{kind: "plan_review", id: "plan-1", text: "Zahle die Rechnung.\n1. Rechnung öffnen\n2. Bezahlen",
  plan: {expiresAt: Date.now() + 120000, plan: {action: "execute", summary: "Pay the invoice.", steps: ["Open the invoice", "Pay it"],
    risks: ["Paying cannot be undone"], localized: {summary: "Zahle die Rechnung.", steps: ["Rechnung öffnen", "Bezahlen"], risks: ["Zahlen ist endgültig"]}}}}`

func TestSlashCommandsChooseTheModeOfOneMessage(t *testing.T) {
	tb := openPanel(t, "")
	startRun(tb, "/act Click the blue button")
	start := tb.sent("chat_start")[0]
	if start["mode"] != "act" || start["text"] != "Click the blue button" {
		t.Fatalf("chat_start = %v", start)
	}
	if v := eval[string](tb, `document.querySelector('#mode').value`); v != "auto" {
		t.Errorf("the picker changed to %q for a one-message command", v)
	}
	// Ctrl+Shift+A writes /ask in front of the draft, replacing /act.
	tb.do(`document.querySelector('#prompt').value = "/act what is this"; document.querySelector('#prompt').focus()`)
	tb.run(ctrlShift("a"))
	if v := eval[string](tb, `document.querySelector('#prompt').value`); v != "/ask what is this" {
		t.Errorf("after Ctrl+Shift+A the draft is %q", v)
	}
}

func TestPlanReviewCardApproveEditReject(t *testing.T) {
	tb := openPanel(t, "")
	rid := startRun(tb, "Bezahle die Rechnung")
	deliver(tb, rid, 1, planReviewEvent)
	card := `document.querySelector('.plan-card[data-plan-id="plan-1"]')`
	tb.waitFor("the plan card", `!!`+card)
	tb.screenshot("plan-review-pending")
	if steps := eval[[]string](tb, `[...`+card+`.querySelectorAll('.plan-steps li')].map(e => e.textContent)`); strings.Join(steps, "|") != "Rechnung öffnen|Bezahlen" {
		t.Errorf("steps %q: the user's language was not shown", steps)
	}
	if cd := eval[string](tb, card+`.querySelector('.approval-countdown').textContent`); !regexp.MustCompile(`^Approved automatically at .*[12]:\d\d left`).MatchString(cd) {
		t.Errorf("countdown %q", cd)
	}
	// Edit opens the plan as text; Run this plan sends the edit.
	tb.do(card + `.querySelector('[data-decision="edit"]').click()`)
	tb.waitFor("the edit box", `!!`+card+`?.querySelector('textarea.plan-edit-box')`)
	tb.screenshot("plan-review-edit")
	tb.do(card + `.querySelector('textarea.plan-edit-box').value = "1. Open the invoice\n2. Stop before paying"`)
	tb.do(card + `.querySelector('.approval-approve').click()`)
	tb.waitFor("plan_answer", `__fake.sentOf('plan_answer').length === 1`)
	ans := tb.sent("plan_answer")[0]
	if ans["decision"] != "edit" || ans["text"] != "1. Open the invoice\n2. Stop before paying" || ans["id"] != "plan-1" || ans["requestId"] != rid {
		t.Fatalf("plan_answer = %v", ans)
	}
	deliver(tb, rid, 2, `{kind: "plan_resolved", id: "plan-1", decision: "edit", reason: "user", text: "1. Open the invoice\n2. Stop before paying"}`)
	tb.waitFor("the outcome", card+`?.querySelector('.approval-outcome')?.textContent === 'Approved with your changes'`)
	if n := eval[int](tb, card+`.querySelectorAll('button').length`); n != 0 {
		t.Errorf("a resolved card still has %d buttons", n)
	}
	tb.screenshot("plan-review-resolved")
}

func TestRunModeNoticeSaysHowTheMessageWasRouted(t *testing.T) {
	tb := openPanel(t, "")
	rid := startRun(tb, "Subscribe me")
	deliver(tb, rid, 1, `{kind: "run_mode", mode: "ask", reason: "default"}`)
	deliver(tb, rid, 2, `{kind: "run_mode", mode: "act", reason: "hand_off"}`)
	tb.waitFor("two notices", `document.querySelectorAll('.msg.notice').length >= 2`)
	got := eval[[]string](tb, `[...document.querySelectorAll('.msg.notice')].map(e => e.textContent)`)
	if len(got) < 2 || !strings.Contains(got[0], "read-only") || !strings.Contains(got[1], "Switching to Act") {
		t.Fatalf("notices %q", got)
	}
}
