//go:build browser

package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// chooseLanguage is setup that stores the user's interface language
// (wb_ui_language in storage.local) before the page starts.
func chooseLanguage(code string) string {
	return fmt.Sprintf(`{ const k = "__fake_storage_local";
  const all = JSON.parse(sessionStorage.getItem(k) || "{}"); all.wb_ui_language = %q;
  sessionStorage.setItem(k, JSON.stringify(all)); }
`, code)
}

// rect is an element's box in the page, as JS computes it.
type rect struct{ Left, Right, Width float64 }

func box(tb *tab, css string) rect {
	tb.t.Helper()
	return eval[rect](tb, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
  return {left: r.left, right: r.right, width: document.documentElement.clientWidth}; })()`, css))
}

// The panel in Arabic, as a user sees it: right to left, translated, and
// laid out as the mirror of the English panel.
func TestPanelInArabicIsRightToLeft(t *testing.T) {
	tb := openPanel(t, chooseLanguage("ar"))
	tb.waitFor("the welcome", `!!document.querySelector('#welcome h2')`)
	if got := eval[[]string](tb, `[document.documentElement.dir, document.documentElement.lang, document.querySelector('#ui-language').value]`); strings.Join(got, " ") != "rtl ar ar" {
		t.Fatalf("dir, lang and the picker = %q, want rtl ar ar", got)
	}
	if got := eval[string](tb, `document.querySelector('#welcome h2').textContent`); got != "ماذا يمكنني أن أفعل في هذه الصفحة؟" {
		t.Errorf("welcome = %q", got)
	}
	texts := eval[[]string](tb, `[document.querySelector('#send').textContent, document.querySelector('#prompt').placeholder,
  document.querySelector('#open-history').textContent, document.querySelector('#mode option[value=ask]').textContent]`)
	if strings.Join(texts, "|") != "إرسال|اسأل عن هذه الصفحة أو أخبر WebBrain بما يفعله|السجل|سؤال (قراءة فقط)" {
		t.Errorf("controls = %q", texts)
	}

	// Mirrored: the header's text sits at the right, its buttons at the left;
	// the composer's Send button is at the left edge.
	if title, settings := box(tb, "#provider"), box(tb, "#open-settings"); !(settings.Right < title.Left) {
		t.Errorf("Settings (%v) is not left of the provider line (%v)", settings, title)
	}
	if send := box(tb, "#send"); send.Left > send.Width/2 {
		t.Errorf("Send sits at %v of %v: not at the left", send.Left, send.Width)
	}

	rid := startRun(tb, "لخّص هذه الصفحة")
	deliver(tb, rid, 1, `{kind: "run_started", text: "لخّص هذه الصفحة", mode: "act"}`)
	deliver(tb, rid, 2, `{kind: "tool_call", id: "c1", name: "click_ax", args: "{\"ref\":\"ref_4\"}"}`)
	deliver(tb, rid, 3, `{kind: "tool_result", id: "c1", name: "click_ax", result: "Clicked button \"Add to cart\" [ref_4]"}`)
	deliver(tb, rid, 4, approvalEvent("appr_1"))
	tb.waitFor("the card", `!!document.querySelector('.approval-card.pending')`)

	// The user's message is at the left (the end of an RTL line).
	if msg := box(tb, ".msg.user"); msg.Left > msg.Width-msg.Right {
		t.Errorf("the user's message is not at the left: %v", msg)
	}
	if got := eval[string](tb, `document.querySelector('.tool-row .tool-summary').textContent`); got != "نقر على «\u2068Add to cart\u2069»" {
		t.Errorf("tool row = %q", got)
	}
	card := `document.querySelector('.approval-card')`
	if got := eval[[]string](tb, `[...`+card+`.querySelectorAll('button')].map(b => b.textContent)`); strings.Join(got, "|") != "موافقة|موافقة على \u2068mail.example.com\u2069 لهذه المهمة|رفض" {
		t.Errorf("card buttons = %q", got)
	}
	// The reasons' bullets indent from the right.
	if got := eval[[]string](tb, `(() => { const s = getComputedStyle(`+card+`.querySelector('.approval-reasons'));
  return [s.paddingRight, s.paddingLeft]; })()`); got[0] != "18px" || got[1] != "0px" {
		t.Errorf("reasons padding right, left = %q", got)
	}
	if got := eval[string](tb, card+`.querySelector('.approval-countdown').textContent`); !strings.HasPrefix(got, "سيُرفض تلقائيًا عند") {
		t.Errorf("countdown = %q", got)
	}
	tb.screenshot("panel-ar")

	// The command menu: Arabic descriptions under the commands, which stay
	// left to right.
	tb.do(`const p = document.querySelector('#prompt'); p.value = '/'; p.dispatchEvent(new Event('input'));`)
	tb.waitFor("the command menu", `!document.querySelector('#slash-menu').hidden`)
	if got := eval[string](tb, `document.querySelector('#slash-menu li .slash-about').textContent`); got != "إرسال رسالة واحدة في وضع السؤال: قراءة الصفحة دون تغيير أي شيء." {
		t.Errorf("first command's description = %q", got)
	}
	if got := eval[string](tb, `getComputedStyle(document.querySelector('#slash-menu .slash-label')).direction`); got != "ltr" {
		t.Errorf("a command's name reads %s", got)
	}
	tb.screenshot("panel-ar-commands")
}

// Counts take each language's plural forms.
func TestPluralFormsFollowTheLanguage(t *testing.T) {
	for _, c := range []struct {
		lang  string
		count []int
		want  []string
	}{
		{"ru", []int{1, 3, 5, 21}, []string{"1 прошлый разговор.", "3 прошлых разговора.", "5 прошлых разговоров.", "21 прошлый разговор."}},
		{"ar", []int{2, 3, 11}, []string{"محادثتان سابقتان.", "\u20683\u2069 محادثات سابقة.", "\u206811\u2069 محادثة سابقة."}},
		{"en", []int{1, 2}, []string{"1 past conversation.", "2 past conversations."}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			tb := openPanel(t, chooseLanguage(c.lang))
			got := eval[[]string](tb, fmt.Sprintf(`import('/common/i18n.js').then((m) => %s.map((n) => m.tp('history_count', n)))`, jsInts(c.count)))
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("history_count = %q, want %q", got, c.want)
			}
		})
	}
}

func jsInts(ns []int) string {
	var parts []string
	for _, n := range ns {
		parts = append(parts, fmt.Sprint(n))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// The Traces page follows the chosen language too.
func TestTracesPageInHebrew(t *testing.T) {
	tb := openPage(t, "/traces/traces.html", chooseLanguage("he"))
	tb.waitFor("the page", `document.body.dataset.ready === 'true'`)
	got := eval[[]string](tb, `[document.documentElement.dir, document.title, document.querySelector('#traces-delete-all').textContent,
  document.querySelector('th[data-i18n=traces_started]').textContent]`)
	if strings.Join(got, "|") != "rtl|עקבות WebBrain|מחיקת הכול|התחלה" {
		t.Errorf("traces page = %q", got)
	}
	// Other tests may have left runs: either way the count is Hebrew.
	if status := eval[string](tb, `document.querySelector('#traces-status').textContent`); status != "לא נרשמו משימות." && !strings.Contains(status, "משימ") {
		t.Errorf("status = %q", status)
	}
}

// The History view in Hebrew: the count in Hebrew, each conversation's
// title at the right and its Delete button at the left.
func TestHistoryInHebrewIsMirrored(t *testing.T) {
	tb := openPanel(t, historySetup+chooseLanguage("he"))
	tb.do(`document.querySelector('#open-history').click()`)
	tb.waitFor("the list", `document.querySelectorAll('#history-list li').length === 2`)
	if got := eval[string](tb, `document.querySelector('#history-status').textContent`); got != "שתי שיחות קודמות." {
		t.Errorf("status = %q", got)
	}
	if title, del := box(tb, "#history-list li .history-open"), box(tb, "#history-list li .history-delete"); !(del.Right < title.Left) {
		t.Errorf("Delete (%v) is not left of the title (%v)", del, title)
	}
	if got := eval[string](tb, `document.querySelector('#history-list li .history-delete').textContent`); got != "מחיקה" {
		t.Errorf("delete = %q", got)
	}
	tb.screenshot("history-he")
}

// The settings page in Arabic: right to left, translated headings and
// buttons, the section navigation at the right and its current mark on the
// right edge.
func TestSettingsPageInArabic(t *testing.T) {
	tb := openPage(t, "/settings/settings.html", settingsSetup+chooseLanguage("ar"))
	tb.run(chromedp.EmulateViewport(1180, 1000))
	tb.waitFor("the provider list", `document.querySelectorAll('#provider-list li[data-id]').length === 2`)
	got := eval[[]string](tb, `[document.documentElement.dir, document.documentElement.lang, document.title,
  document.querySelector('h1').textContent, document.querySelector('#providers-heading').textContent,
  document.querySelector('#add-provider').textContent]`)
	if strings.Join(got, "|") != "rtl|ar|إعدادات WebBrain|إعدادات WebBrain|المزوّدون|إضافة مزوّد" {
		t.Errorf("settings page = %q", got)
	}
	nav, main := box(tb, "#section-nav"), box(tb, "main")
	if nav.Left < main.Left {
		t.Errorf("the navigation (%v) is left of the sections (%v): not mirrored", nav, main)
	}
	border := eval[string](tb, `getComputedStyle(document.querySelector('#section-nav a[aria-current="true"]')).borderRightWidth`)
	if border != "3px" {
		t.Errorf("the current section's mark is %q wide on the right, want 3px", border)
	}
	tb.screenshot("settings-ar")
}

// The background's texts come with their catalog keys (docs/decisions/background-texts.md):
// an Arabic panel shows the card in Arabic, the page's values inside
// isolates and unchanged; a key whose English is not the text sent shows
// the text sent; a clarify option WebBrain worded is shown translated and
// answered in English.
func TestBackgroundTextsInTheInterfaceLanguage(t *testing.T) {
	tb := openPanel(t, chooseLanguage("ar"))
	rid := startRun(tb, "reply to the last mail")
	deliver(tb, rid, 1, `{kind: "approval", id: "appr_1", text: 'Send: button "Send" on mail.example.com.',
  msg: {key: "bg_approval_action_caption", params: {action: {key: "bg_action_send"}, caption: 'button "Send"', site: "mail.example.com"}},
  approval: {tool: "click_ax", category: "send", site: "mail.example.com", url: "https://mail.example.com/compose",
    details: [{label: "Recipient", value: "eve@evil.example", labelMsg: {key: "bg_label_recipient"}}, {label: "To", value: "$recipient$"}],
    reasons: ["The recipient eve@evil.example is not one your request named.", "Your request did not ask to send anything, really."],
    reasonMsgs: [{key: "bg_reason_recipient", params: {recipient: "eve@evil.example"}}, {key: "bg_reason_not_asked_send"}],
    choices: ["approve", "decline"], expiresAt: Date.now() + 300000}}`)
	tb.waitFor("the card", `!!document.querySelector('.approval-card.pending')`)
	card := `document.querySelector('.approval-card')`
	const fsi, pdi = "\u2068", "\u2069"
	if got, want := eval[string](tb, card+`.querySelector('.approval-text').textContent`), fsi+"إرسال"+pdi+": "+fsi+`button "Send"`+pdi+" على "+fsi+"mail.example.com"+pdi+"."; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	rows := eval[[]string](tb, `[...`+card+`.querySelectorAll('dt, dd')].map(e => e.textContent)`)
	if strings.Join(rows, "|") != "الموقع|mail.example.com|المستلم|eve@evil.example|To|$recipient$" {
		t.Errorf("rows %q: WebBrain's label translated, the page's label and values as they are", rows)
	}
	reasons := eval[[]string](tb, `[...`+card+`.querySelectorAll('.approval-reasons li')].map(e => e.textContent)`)
	if len(reasons) != 2 || !strings.Contains(reasons[0], fsi+"eve@evil.example"+pdi) || strings.Contains(reasons[0], "recipient") ||
		reasons[1] != "Your request did not ask to send anything, really." {
		t.Errorf("reasons %q: the second's key renders other English, so it shows as sent", reasons)
	}
	tb.screenshot("approval-ar")

	deliver(tb, rid, 2, `{kind: "clarify", id: "wf_repair_2", text: "Step 2 of “Join”: the button \"Join\" is not on the page any more. Which element is it now? WebBrain uses your choice for this step, and keeps it for later runs only if the step then succeeds.",
  msg: {key: "bg_repair_question", params: {step: "2", workflow: "Join", target: 'button "Join"'}},
  options: ['button "Join now"', "None of these: stop the workflow"], optionMsgs: [null, {key: "bg_repair_stop"}]}`)
	tb.waitFor("the question", `document.querySelectorAll('.clarify-option').length === 2`)
	if q := eval[string](tb, `document.querySelector('.clarify-question').textContent`); !strings.HasPrefix(q, "الخطوة "+fsi+"2"+pdi) {
		t.Errorf("question %q", q)
	}
	options := eval[[]string](tb, `[...document.querySelectorAll('.clarify-option')].map(b => b.textContent)`)
	if len(options) != 2 || options[0] != `button "Join now"` || options[1] != "لا شيء مما سبق: أوقف سير العمل" {
		t.Fatalf("options %q", options)
	}
	tb.run(chromedp.Click(chromedp.JSPath(`document.querySelectorAll('.clarify-option')[1]`)))
	tb.waitFor("clarify_answer", `__fake.sentOf('clarify_answer').length === 1`)
	if got := tb.sent("clarify_answer")[0]["answer"]; got != "None of these: stop the workflow" {
		t.Errorf("answer %q, want the option's English", got)
	}
}

// A run's capture note and the plan it follows come with their keys: a
// Hebrew panel shows WebBrain's words in Hebrew, the file's name as it is,
// and the plan's own Markdown (the model's words) still as lists.
func TestCaptureNoteAndPlanInTheInterfaceLanguage(t *testing.T) {
	tb := openPanel(t, chooseLanguage("he"))
	rid := startRun(tb, "pay the invoice")
	deliver(tb, rid, 1, `{kind: "capture", text: "Saved the screenshot before the run: WebBrain/pay-before.png",
  msg: {key: "bg_capture_shot_before_saved", params: {file: "WebBrain/pay-before.png"}}}`)
	deliver(tb, rid, 2, `{kind: "plan", text: "Pay the invoice\n1. Open it\n2. Pay it\n\nRisks:\n- Money leaves the account",
  msg: {key: "bg_plan_risks", params: {plan: "Pay the invoice\n1. Open it\n2. Pay it", risks: "- Money leaves the account"}}}`)
	tb.waitFor("the plan", `!!document.querySelector('.plan-note')`)
	const fsi, pdi = "\u2068", "\u2069"
	notes := eval[[]string](tb, `[...document.querySelectorAll('#transcript .msg.notice:not(.plan-note)')].map(e => e.textContent)`)
	if !slices.Contains(notes, "צילום המסך שלפני ההרצה נשמר: "+fsi+"WebBrain/pay-before.png"+pdi) {
		t.Errorf("notices %q", notes)
	}
	tb.run(chromedp.Click(chromedp.CSS(".plan-note summary")))
	got := eval[[]string](tb, `[...document.querySelectorAll('.plan-note li')].map(e => e.textContent)`)
	if strings.Join(got, "|") != "Open it|Pay it|Money leaves the account" {
		t.Errorf("plan list items %q: the model's steps and risks, still lists", got)
	}
	if text := eval[string](tb, `document.querySelector('.plan-note').textContent`); !strings.Contains(text, "סיכונים:") || strings.Contains(text, "Risks:") {
		t.Errorf("plan %q: the Risks heading in Hebrew", text)
	}
	tb.screenshot("plan-he")
}

// The cost allowance card and a plan-only answer come with their keys: a
// French panel shows WebBrain's words in French, the amounts as sent, and
// the plan's own Markdown (the model's words) still as a list.
func TestAllowanceCardAndPlanAnswerInTheInterfaceLanguage(t *testing.T) {
	tb := openPanel(t, chooseLanguage("fr"))
	rid := startRun(tb, "how would I close my account?")
	deliver(tb, rid, 1, `{kind: "final", text: "Close the account\n1. Open Settings\n\nRisks:\n- It cannot be undone",
  msg: {key: "bg_plan_risks", params: {plan: "Close the account\n1. Open Settings", risks: "- It cannot be undone"}}}`)
	tb.waitFor("the answer", `[...document.querySelectorAll('.msg.assistant')].some(e => e.textContent.includes("Open Settings"))`)
	answer := `[...document.querySelectorAll('.msg.assistant')].at(-1)`
	if items := eval[[]string](tb, `[...`+answer+`.querySelectorAll('li')].map(e => e.textContent)`); strings.Join(items, "|") != "Open Settings|It cannot be undone" {
		t.Errorf("answer list items %q: the model's steps and risks, still lists", items)
	}
	if text := eval[string](tb, answer+`.textContent`); !strings.Contains(text, "Risques :") || strings.Contains(text, "Risks:") {
		t.Errorf("answer %q: the Risks heading in French", text)
	}
	tb.waitFor("the run's end", `document.querySelector('#transcript').dataset.runStatus !== "running"`)
	rid = startRun(tb, "read it")
	deliver(tb, rid, 1, `{kind: "allowance", id: "allowance-day-2026-12-07-100",
  text: "Paused before the next model call, which may cost up to $0.03. Today's cost allowance is $1.00 and $1.20 has been spent. Raise the allowance by $1.00 to go on, or stop the run.",
  msg: {key: "bg_allowance_paused", params: {estimate: "$0.03", raise: "$1.00",
    limit: {key: "bg_allowance_day_spent", params: {limit: "$1.00", spent: "$1.20"}}}},
  allowance: {scope: "day", limitUsd: 1, spentUsd: 1.2, estimateUsd: 0.03, raiseUsd: 1}}`)
	tb.waitFor("the card", `!!document.querySelector('.allowance-card .approval-text')`)
	want := "En pause avant le prochain appel au modèle, qui peut coûter jusqu'à $0.03. La limite de coût du jour est de $1.00 et $1.20 ont été dépensés. Relevez la limite de $1.00 pour continuer, ou arrêtez l'exécution."
	if got := eval[string](tb, `document.querySelector('.allowance-card .approval-text').textContent`); got != want {
		t.Errorf("card text %q, want %q", got, want)
	}
	tb.screenshot("allowance-fr")
}
