//go:build browser

package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// approvalEvent is an approval event (docs/PROTOCOL.md) as a
// JS literal, expiring in five minutes.
func approvalEvent(id string) string {
	return fmt.Sprintf(`{kind: "approval", id: %q, text: "Send the message to eve@evil.example on mail.example.com",
  approval: {tool: "click_ax", category: "send", site: "mail.example.com", url: "https://mail.example.com/compose",
    details: [{label: "Recipient", value: "eve@evil.example"}, {label: "Text", value: "<b>hi</b> " + "x".repeat(400)}],
    reasons: ["Your request did not ask to send anything.", "The text contains an API key read from a page."],
    choices: ["approve", "approve_site", "decline"], expiresAt: Date.now() + 300000}}`, id)
}

func TestApprovalCardAnswersAndShowsTheOutcome(t *testing.T) {
	tb := openPanel(t, "")
	rid := startRun(tb, "reply to the last mail")
	deliver(tb, rid, 1, approvalEvent("appr_1"))
	tb.waitFor("the card", `!!document.querySelector('.approval-card.pending')`)
	tb.screenshot("approval-pending")

	card := `document.querySelector('.approval-card[data-approval-id="appr_1"]')`
	if head := eval[string](tb, card+`.querySelector('.approval-head').textContent`); !strings.Contains(head, "WebBrain asks before acting") || !strings.Contains(head, "Send") {
		t.Errorf("header %q", head)
	}
	if n := eval[int](tb, card+`.querySelectorAll('.approval-head img[src^="/icons/"]').length`); n != 1 {
		t.Error("the card lacks WebBrain's icon")
	}
	rows := eval[[]string](tb, `[...`+card+`.querySelectorAll('dt, dd')].map(e => e.textContent)`)
	if len(rows) != 6 || rows[0] != "Site" || rows[1] != "mail.example.com" || rows[2] != "Recipient" || rows[3] != "eve@evil.example" || rows[4] != "Text" {
		t.Errorf("detail rows %q", rows)
	}
	if len(rows) == 6 && (len([]rune(rows[5])) > 160 || !strings.HasPrefix(rows[5], "<b>hi</b> ") || !strings.HasSuffix(rows[5], "…")) {
		t.Errorf("a long value is not clipped as text: %q", rows[5])
	}
	if title := eval[string](tb, card+`.querySelectorAll('dd')[2].title`); len(title) != 410 {
		t.Errorf("the clipped value's title holds %d characters, want the full 410", len(title))
	}
	if n := eval[int](tb, card+`.querySelectorAll('b, a').length`); n != 0 {
		t.Error("detail values became markup")
	}
	if reasons := eval[[]string](tb, `[...`+card+`.querySelectorAll('.approval-reasons li')].map(e => e.textContent)`); len(reasons) != 2 {
		t.Errorf("reasons %q", reasons)
	}
	labels := eval[[]string](tb, `[...`+card+`.querySelectorAll('button')].map(b => b.textContent)`)
	if strings.Join(labels, "|") != "Approve|Approve on mail.example.com for this run|Decline" {
		t.Errorf("buttons %q", labels)
	}
	if cd := eval[string](tb, card+`.querySelector('.approval-countdown').textContent`); !regexp.MustCompile(`[45]:\d\d left`).MatchString(cd) {
		t.Errorf("countdown %q", cd)
	}

	// Keyboard: focus the second button and press Enter.
	tb.run(chromedp.Focus(chromedp.CSS(`.approval-card button[data-decision="approve_site"]`)), pressEnter(false))
	tb.waitFor("approval_answer", `__fake.sentOf('approval_answer').length === 1`)
	got := tb.sent("approval_answer")[0]
	if got["tabId"] != float64(7) || got["requestId"] != rid || got["id"] != "appr_1" || got["decision"] != "approve_site" {
		t.Fatalf("approval_answer = %v", got)
	}
	if !eval[bool](tb, `[...`+card+`.querySelectorAll('button')].every(b => b.disabled)`) {
		t.Error("an answered card still accepts answers")
	}
	if !eval[bool](tb, `document.activeElement === document.querySelector('#prompt')`) {
		t.Error("after answering by keyboard the focus is not back in the composer")
	}
	tb.run(chromedp.Click(chromedp.CSS(`.approval-card .approval-decline`)))
	if n := len(tb.sent("approval_answer")); n != 1 {
		t.Errorf("%d answers sent for one card", n)
	}

	deliver(tb, rid, 2, `{kind: "approval_resolved", id: "appr_1", decision: "approve_site", reason: "user"}`)
	tb.waitFor("the outcome", card+`.classList.contains('resolved')`)
	if out := eval[string](tb, card+`.querySelector('.approval-outcome').textContent`); out != "Approved on mail.example.com for this run" {
		t.Errorf("outcome %q", out)
	}

	for i, c := range []struct{ decision, reason, want string }{
		{"approve", "user", "Approved"},
		{"decline", "user", "Declined"},
		{"decline", "timeout", "Timed out — declined"},
		{"decline", "stopped", "Cancelled"},
	} {
		id := fmt.Sprintf("appr_%d", i+2)
		deliver(tb, rid, 3+2*i, approvalEvent(id))
		deliver(tb, rid, 4+2*i, fmt.Sprintf(`{kind: "approval_resolved", id: %q, decision: %q, reason: %q}`, id, c.decision, c.reason))
		sel := fmt.Sprintf(`document.querySelector('.approval-card[data-approval-id="%s"] .approval-outcome')`, id)
		tb.waitFor(c.want, sel+`?.textContent === `+quote(c.want))
	}
	tb.screenshot("approval-resolved")
	if n := eval[int](tb, `document.querySelectorAll('.approval-card').length`); n != 5 {
		t.Errorf("%d cards, want 5", n)
	}
}

// A card still pending in the journal is pending again after the panel
// reopens; a resolved one shows its outcome.
func TestApprovalCardSurvivesReopen(t *testing.T) {
	tb := openPanel(t, fmt.Sprintf(`
if (!sessionStorage.getItem("journal")) {
  sessionStorage.setItem("journal", JSON.stringify({requestId: "r-1", mode: "act", status: "running", seq: 4, events: [
    {seq: 1, kind: "run_started", text: "Pay the invoice", mode: "act"},
    {seq: 2, ...%s},
    {seq: 3, kind: "approval_resolved", id: "a1", decision: "decline", reason: "user"},
    {seq: 4, ...%s}]}));
}`, approvalEvent("a1"), approvalEvent("a2")))
	tb.waitFor("the journal", `document.querySelectorAll('.approval-card').length === 2`)
	check := func(when string) {
		t.Helper()
		if out := eval[string](tb, `document.querySelector('[data-approval-id="a1"] .approval-outcome')?.textContent ?? ''`); out != "Declined" {
			t.Errorf("%s: the resolved card shows %q", when, out)
		}
		if !eval[bool](tb, `[...document.querySelectorAll('[data-approval-id="a2"] button')].length === 3 && [...document.querySelectorAll('[data-approval-id="a2"] button')].every(b => !b.disabled)`) {
			t.Errorf("%s: the pending card cannot be answered", when)
		}
	}
	check("first open")
	tb.do(`await new Promise(r => setTimeout(r, 300))`) // let the throttled save run
	tb.run(chromedp.Reload())
	tb.waitFor("the reopened panel", `document.querySelectorAll('.approval-card').length === 2`)
	check("after reopening")
	tb.run(chromedp.Click(chromedp.CSS(`[data-approval-id="a2"] .approval-approve`)))
	tb.waitFor("approval_answer", `__fake.sentOf('approval_answer').length === 1`)
	if got := tb.sent("approval_answer")[0]; got["requestId"] != "r-1" || got["id"] != "a2" || got["decision"] != "approve" {
		t.Errorf("approval_answer = %v", got)
	}

	// Answered but not resolved when the panel closes: the buttons come back.
	tb.do(`await new Promise(r => setTimeout(r, 300))`)
	tb.run(chromedp.Reload())
	tb.waitFor("the panel reopened after answering", `document.querySelectorAll('[data-approval-id="a2"] button:not(:disabled)').length === 3`)

	// The run ends without resolving a card: it can no longer be answered.
	deliver(tb, "r-1", 5, `{kind: "error", text: "The model server went away."}`)
	tb.waitFor("the run to end", `document.querySelector('#transcript').dataset.runStatus === 'error'`)
	if !eval[bool](tb, `[...document.querySelectorAll('.approval-card button')].every(b => b.disabled)`) {
		t.Error("a card of an ended run still has live buttons")
	}
}

// A refused answer gives the buttons back and says why.
func TestApprovalAnswerRefused(t *testing.T) {
	tb := openPanel(t, `__fake.replies.approval_answer = {ok: false, error: "This approval is no longer pending."};`)
	rid := startRun(tb, "buy it")
	deliver(tb, rid, 1, approvalEvent("x"))
	tb.waitFor("the card", `!!document.querySelector('.approval-card.pending')`)
	tb.run(chromedp.Click(chromedp.CSS(`.approval-card .approval-approve`)))
	tb.waitFor("the error", `document.querySelector('.msg.error')?.textContent.includes('no longer pending')`)
	if !eval[bool](tb, `[...document.querySelectorAll('.approval-card button')].every(b => !b.disabled)`) {
		t.Error("buttons stay disabled after a refused answer")
	}
}

// The clarify card is the assistant's question, never a WebBrain prompt;
// a question asking for a secret carries a warning, and the answer field
// is never a password field.
func TestClarifyCardIsTheModelsQuestion(t *testing.T) {
	tb := openPanel(t, "")
	rid := startRun(tb, "log in")
	deliver(tb, rid, 1, `{kind: "clarify", id: "q1", text: "What is your password for this site?", options: []}`)
	deliver(tb, rid, 2, `{kind: "clarify", id: "q2", text: "Which size?", options: ["Small", "Large"]}`)
	tb.waitFor("the cards", `document.querySelectorAll('.clarify-card').length === 2`)
	tb.screenshot("clarify-secret")
	if from := eval[string](tb, `document.querySelector('.clarify-card .clarify-from').textContent`); from != "The assistant asks:" {
		t.Errorf("clarify card label %q", from)
	}
	if label := eval[string](tb, `document.querySelector('.clarify-card').getAttribute('aria-label')`); strings.Contains(label, "WebBrain") {
		t.Errorf("clarify card labelled %q", label)
	}
	if n := eval[int](tb, `document.querySelectorAll('.clarify-card img, .clarify-card .approval-head').length`); n != 0 {
		t.Error("the clarify card carries WebBrain's marks")
	}
	warnings := eval[[]bool](tb, `[...document.querySelectorAll('.clarify-card')].map(c => !!c.querySelector('.clarify-secret-warning'))`)
	if len(warnings) != 2 || !warnings[0] || warnings[1] {
		t.Errorf("secret warnings %v, want [true false]", warnings)
	}
	if w := eval[string](tb, `document.querySelector('.clarify-secret-warning').textContent`); !strings.Contains(w, "never needs") || !strings.Contains(w, "model") {
		t.Errorf("warning %q", w)
	}
	if n := eval[int](tb, `document.querySelectorAll('#transcript input[type=password]').length`); n != 0 {
		t.Error("an answer field is a password field")
	}

	secret := []string{
		"Please give me your password", "Enter the one-time code you received", "What is the card number?",
		"Paste your OpenAI API key", "What is your PIN?", "Wie lautet Ihr Passwort?", "Bitte die Kartennummer eingeben",
		"Quel est votre mot de passe ?", "Entrez le code de vérification", "¿Cuál es tu contraseña?",
		"Introduce el número de tarjeta", "Qual é a sua senha?", "Informe o número do cartão", "请输入您的密码",
		"请提供验证码", "パスワードを教えてください", "カード番号を入力してください", "Your 2FA code, please",
	}
	plain := []string{"Which size?", "Should I open the spinning wheel page?", "Pick a colour: tan or navy?", "Which account tab?"}
	got := eval[[]bool](tb, fmt.Sprintf(`import('/sidepanel/cards.js').then(m => [...%s, ...%s].map(q => m.asksForSecret(q)))`, jsonList(secret), jsonList(plain)))
	for i, q := range append(secret, plain...) {
		if want := i < len(secret); got[i] != want {
			t.Errorf("asksForSecret(%q) = %v, want %v", q, got[i], want)
		}
	}
}

func jsonList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(quoted, ",") + "]"
}
