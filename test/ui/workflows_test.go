//go:build browser

package ui

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

const workflowsSetup = `
__fake.workflows = [
  {id: "wf_a", name: "Newsletter", goal: "Sign me up as {email}", params: [{name: "email", label: "Email"}, {name: "password", label: "Password", secret: true}],
   steps: [{action: "type"}, {action: "type"}, {action: "click"}], updatedAt: 2},
  {id: "wf_b", name: "Old one", goal: "", params: [], steps: [{action: "click"}], updatedAt: 1,
   repairs: [{step: 1, from: {role: "button", name: "Sign up"}, to: {role: "button", name: "Join the list"}, at: 1}]}];
__fake.replies.workflows_list = () => ({ok: true, workflows: __fake.workflows});
__fake.replies.workflow_rename = ({id, title}) => { __fake.workflows.find(w => w.id === id).name = title; return {ok: true, workflows: __fake.workflows}; };
__fake.replies.workflow_delete = ({id}) => { __fake.workflows = __fake.workflows.filter(w => w.id !== id); return {ok: true, workflows: __fake.workflows}; };
__fake.replies.workflow_save = () => ({ok: true, workflows: __fake.workflows, workflow: __fake.workflows[0], warnings: ["hover skipped: this action is not replayable"]});
__fake.replies.workflow_run = () => ({ok: true, requestId: "wf:wf_a:1"});`

func TestWorkflowManagerRenamesAndDeletes(t *testing.T) {
	tb := openPanel(t, workflowsSetup)
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/workflow"), pressEnter(false))
	tb.waitFor("the workflows list", `document.querySelectorAll('.workflows-list li[data-workflow-id]').length === 2`)
	tb.screenshot("workflows-list")
	if got := eval[string](tb, `document.querySelector('[data-workflow-id="wf_b"] .workflow-repairs')?.textContent ?? ''`); got != "Step 1 repaired: button “Sign up” is now button “Join the list”." {
		t.Errorf("the repaired workflow shows %q", got)
	}
	tb.do(`document.querySelector('[data-workflow-id="wf_b"] input').value = "Renamed"`)
	tb.run(chromedp.Click(chromedp.CSS(`[data-workflow-id="wf_b"] .workflow-rename`)))
	tb.waitFor("the new name", `document.querySelector('[data-workflow-id="wf_b"] .workflow-name').textContent === "Renamed"`)
	tb.run(chromedp.Click(chromedp.CSS(`[data-workflow-id="wf_a"] .workflow-delete`)))
	tb.waitFor("the deleted workflow", `!document.querySelector('[data-workflow-id="wf_a"]')`)
	if n := len(tb.sent("chat_start")); n != 0 {
		t.Errorf("/workflow started %d chat runs", n)
	}
}

func TestWorkflowSaveReportsWarnings(t *testing.T) {
	tb := openPanel(t, workflowsSetup)
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/workflow --save Newsletter"), pressEnter(false))
	tb.waitFor("the save notice", `[...document.querySelectorAll('.msg.notice')].some(n => n.textContent.includes('Saved workflow'))`)
	sent := tb.sent("workflow_save")
	if len(sent) != 1 || sent[0]["title"] != "Newsletter" || sent[0]["tabId"] == nil {
		t.Fatalf("workflow_save sent %v", sent)
	}
	notice := eval[string](tb, `[...document.querySelectorAll('.msg.notice')].map(n => n.textContent).join('\n')`)
	if !strings.Contains(notice, "hover skipped") || !strings.Contains(notice, "/workflow --run wf_a") {
		t.Errorf("notice %q", notice)
	}
}

func TestWorkflowRunFormSendsValuesAndKeepsNone(t *testing.T) {
	tb := openPanel(t, workflowsSetup)
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/workflow --run wf_a"), pressEnter(false))
	tb.waitFor("the run form", `!!document.querySelector('.workflow-run-form input[name="password"]')`)
	if typ := eval[string](tb, `document.querySelector('.workflow-run-form input[name="password"]').type`); typ != "password" {
		t.Errorf("a secret parameter's input is %q", typ)
	}
	tb.do(`document.querySelector('.workflow-run-form input[name="email"]').value = "bob@example.com"`)
	tb.do(`document.querySelector('.workflow-run-form input[name="password"]').value = "s3cret-Value"`)
	tb.run(chromedp.Click(chromedp.CSS(`.workflow-run-form button[type="submit"]`)))
	tb.waitFor("the started note", `!document.querySelector('.workflow-run-form') && document.querySelector('.msg.workflows').textContent.includes('Started')`)
	sent := tb.sent("workflow_run")
	if len(sent) != 1 || sent[0]["id"] != "wf_a" {
		t.Fatalf("workflow_run sent %v", sent)
	}
	params, _ := sent[0]["params"].(map[string]any)
	if params["email"] != "bob@example.com" || params["password"] != "s3cret-Value" {
		t.Errorf("params %v", params)
	}
	if html := eval[string](tb, `document.body.innerHTML`); strings.Contains(html, "s3cret-Value") || strings.Contains(html, "bob@example.com") {
		t.Error("the panel still shows a parameter value")
	}
}
