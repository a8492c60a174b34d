//go:build browser

package ui

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

func menuLabels(tb *tab) string {
	return eval[string](tb, `document.querySelector('#slash-menu').hidden ? '(closed)' : [...document.querySelectorAll('#slash-menu .slash-label')].map((n) => n.textContent).join(' | ')`)
}

func lastNotice(tb *tab) string {
	return eval[string](tb, `[...document.querySelectorAll('#transcript .msg.notice')].at(-1)?.textContent ?? ''`)
}

// Typing "/" offers the commands, narrowing as the name grows; Tab
// completes a name and goes on to its flags; /help lists every command;
// names are matched without regard to case but token by token, and an
// unknown command never reaches the model.
func TestSlashCommandsCompleteAndHelp(t *testing.T) {
	tb := openPanel(t, `__fake.replies.memory_list = {ok: true, enabled: true, memory: {records: [{id: "m1", text: "I prefer metric units"}]}};`)
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/"))
	tb.waitFor("the menu", `!document.querySelector('#slash-menu').hidden`)
	all := menuLabels(tb)
	for _, name := range []string{"/ask <message>", "/help", "/clear", "/memory", "/watch", "/teach --start"} {
		if !strings.Contains(all, name) {
			t.Errorf("menu %q lacks %s", all, name)
		}
	}
	tb.screenshot("slash-menu")
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "me"))
	tb.waitFor("one candidate", `document.querySelectorAll('#slash-menu li').length === 1`)
	if got := menuLabels(tb); got != "/memory" {
		t.Fatalf("menu for /me = %q", got)
	}
	tb.run(press("Tab", 9, 0))
	tb.waitFor("the flags", `document.querySelector('#prompt').value === '/memory ' && document.querySelectorAll('#slash-menu li').length === 2`)
	if got := menuLabels(tb); got != "--add | --forget" {
		t.Fatalf("flags = %q", got)
	}
	tb.run(press("ArrowDown", 40, 0), press("Tab", 9, 0))
	tb.waitFor("the chosen flag", `document.querySelector('#prompt').value === '/memory --forget '`)
	tb.do(`document.querySelector('#prompt').value = ''; document.querySelector('#prompt').dispatchEvent(new Event('input'))`)
	tb.waitFor("the menu to close", `document.querySelector('#slash-menu').hidden`)

	// Case-insensitive names; Enter on a whole name sends it.
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/MEMORY"), pressEnter(false))
	tb.waitFor("the memory list", `__fake.sentOf('memory_list').length === 1`)
	tb.waitFor("the list shown", `[...document.querySelectorAll('#transcript .msg.notice')].some((n) => n.textContent.includes('metric'))`)

	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/help"), pressEnter(false))
	tb.waitFor("help", `[...document.querySelectorAll('#transcript .msg.notice')].at(-1)?.textContent.startsWith('Commands:')`)
	help := lastNotice(tb)
	for _, usage := range []string{"/export --config", "/watch [--keep] [--every <seconds>] <what to watch for>", "/workflow --run <id>"} {
		if !strings.Contains(help, usage) {
			t.Errorf("help lacks %q:\n%s", usage, help)
		}
	}

	// "/memoryx" is not /memory, and nothing goes to the model.
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/memoryx tell me"), press("Escape", 27, 0), pressEnter(false))
	tb.waitFor("the unknown command", `[...document.querySelectorAll('#transcript .msg.notice')].at(-1)?.textContent.startsWith('Unknown command /memoryx')`)
	if n := len(tb.sent("chat_start")); n != 0 {
		t.Errorf("%d chat_start sent for slash commands", n)
	}
}

// A command that is not safe during a run waits for it to end.
func TestSlashCommandThatWaitsForTheRun(t *testing.T) {
	tb := openPanel(t, "")
	startRun(tb, "Summarize")
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/clear"), pressEnter(false))
	tb.waitFor("the refusal", `[...document.querySelectorAll('#transcript .msg.notice')].at(-1)?.textContent.startsWith('/clear waits until the running task ends')`)
	if n := len(tb.sent("clear_conversation")); n != 0 {
		t.Errorf("/clear during a run sent clear_conversation")
	}
}
