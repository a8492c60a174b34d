//go:build browser

package ui

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// historySetup answers the history actions from a list kept in the page,
// and records downloads (the anchors the panel clicks) in __fake.downloads.
const historySetup = `
chrome.runtime.getManifest = () => ({version: "9.9.9"});
__fake.downloads = [];
HTMLAnchorElement.prototype.click = function () {
  __fake.downloads.push(fetch(this.href).then((r) => r.text()).then((text) => ({name: this.download, text})));
};
let entries = [
  {id: "c2", title: "Compare the two laptops", site: "shop.example", url: "https://shop.example/", modes: ["ask"], archivedAt: "2026-12-01T10:00:00Z"},
  {id: "c1", title: "Pay the invoice", site: "bank.example", url: "https://bank.example/", modes: ["act"], archivedAt: "2026-11-30T09:00:00Z"},
];
const transcript = {v: 1, items: [
  {role: "user", requestId: "r", text: "Compare the two laptops"},
  {role: "tool", requestId: "r", id: "t1", name: "read_page", args: "{}", result: "page"},
  {role: "approval", requestId: "r", id: "a1", text: "Open the comparison page?", approval: {tool: "click_ax", category: "navigate", site: "shop.example", details: [], reasons: [], choices: ["approve", "decline"]}},
  {role: "assistant", requestId: "r", text: "The **first** one is lighter."},
]};
__fake.replies.history_list = () => ({ok: true, entries});
__fake.replies.history_get = (m) => ({ok: true, entry: entries.find((e) => e.id === m.id), transcript});
__fake.replies.history_delete = (m) => {
  entries = m.all ? [] : entries.filter((e) => e.id !== m.id);
  return {ok: true, entries};
};
__fake.replies.history_restore = async (m) => {
  await chrome.storage.session.set({["tabChat:" + m.tabId]: transcript});
  entries = entries.filter((e) => e.id !== m.id);
  return {ok: true, entry: {id: m.id}};
};
`

func visible(tb *tab, css string) bool {
	return eval[bool](tb, `(() => { const n = document.querySelector(`+"`"+css+"`"+`); return !!n && n.checkVisibility(); })()`)
}

func TestHistoryViewOpensContinuesAndDeletes(t *testing.T) {
	tb := openPanel(t, historySetup)
	if !visible(tb, "#welcome") {
		t.Fatal("the empty chat shows no welcome")
	}
	tb.do(`document.querySelector('#open-history').click()`)
	tb.waitFor("the list", `document.querySelectorAll('#history-list .history-item').length === 2`)
	if visible(tb, "#transcript") || visible(tb, "#composer") || !visible(tb, "#history") {
		t.Fatal("the History view does not take the chat's place")
	}
	if visible(tb, "#welcome") {
		t.Error("the empty chat's welcome stays visible under the History view")
	}
	tb.do(`document.querySelector('#history-close').click()`)
	if !visible(tb, "#welcome") {
		t.Error("the welcome does not come back when History closes on an empty chat")
	}
	tb.do(`document.querySelector('#open-history').click()`)
	tb.waitFor("the list", `document.querySelectorAll('#history-list .history-item').length === 2`)
	first := eval[string](tb, `document.querySelector('#history-list .history-item').textContent`)
	if !strings.Contains(first, "Compare the two laptops") || !strings.Contains(first, "shop.example") || !strings.Contains(first, "2026") {
		t.Errorf("first row %q: want title, site and date", first)
	}

	// Open: the old transcript, read-only.
	tb.do(`document.querySelector('#history-list .history-open').click()`)
	tb.waitFor("the transcript", `document.querySelector('#history-transcript .msg.assistant strong')?.textContent === 'first'`)
	if n := eval[int](tb, `document.querySelectorAll('#history-transcript button:not(:disabled):not(.copy)').length`); n != 0 {
		t.Errorf("%d enabled buttons besides Copy in the read-only transcript: an archived card cannot be answered", n)
	}
	if !visible(tb, "#history-continue") || visible(tb, "#history-list") {
		t.Error("the opened conversation does not replace the list")
	}
	tb.screenshot("history-open")

	// Continue here: restored as the tab's conversation.
	tb.do(`document.querySelector('#history-continue').click()`)
	tb.waitFor("the chat", `document.querySelector('#transcript').checkVisibility() && document.querySelector('#transcript .msg.user')?.textContent === 'Compare the two laptops'`)
	restore := tb.sent("history_restore")
	if len(restore) != 1 || restore[0]["id"] != "c2" || restore[0]["tabId"] != float64(7) {
		t.Fatalf("history_restore = %v", restore)
	}
	if visible(tb, "#history") {
		t.Error("the History view stays open after Continue here")
	}

	// Delete one, then all (the button asks once more).
	tb.do(`document.querySelector('#open-history').click()`)
	tb.waitFor("the list", `document.querySelectorAll('#history-list .history-item').length === 1`)
	tb.do(`document.querySelector('#history-list .history-delete').click()`)
	tb.waitFor("the deletion", `document.querySelectorAll('#history-list .history-item').length === 0`)
	if del := tb.sent("history_delete"); len(del) != 1 || del[0]["id"] != "c1" {
		t.Fatalf("history_delete = %v", del)
	}
	tb.do(`entries = [{id: "c3", title: "x", site: "", modes: [], archivedAt: "2026-12-01T10:00:00Z"}]`)
	tb.do(`document.querySelector('#history-close').click()`)
	tb.do(`document.querySelector('#open-history').click()`)
	tb.waitFor("the list", `document.querySelectorAll('#history-list .history-item').length === 1`)
	tb.do(`document.querySelector('#history-delete-all').click()`)
	if n := len(tb.sent("history_delete")); n != 1 {
		t.Fatalf("the first click on Delete all deleted (%d messages)", n)
	}
	tb.do(`document.querySelector('#history-delete-all').click()`)
	tb.waitFor("all deleted", `__fake.sentOf('history_delete').length === 2`)
	if del := tb.sent("history_delete"); del[1]["all"] != true {
		t.Fatalf("Delete all sent %v", del[1])
	}
	tb.waitFor("the empty list", `document.querySelector('#history-status').textContent.includes('No past conversations')`)
}

func TestExportDownloadsTheConversationAndTraces(t *testing.T) {
	tb := openPanel(t, historySetup+`
__fake.replies.conversation_export = async (m) => {
  const stored = (await chrome.storage.session.get("tabChat:" + m.tabId))["tabChat:" + m.tabId];
  return {ok: true, filename: "webbrain-conversation.md",
    markdown: "# WebBrain conversation\n\nExported by WebBrain 9.9.9\n\n**You:** " + stored.items[0].text};
};
`)
	rid := startRun(tb, "What is on sale?")
	deliver(tb, rid, 1, `{kind: "final", text: "Socks."}`)
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/export"), pressEnter(false))
	tb.waitFor("the download", `__fake.downloads.length === 1`)
	got := eval[map[string]string](tb, `__fake.downloads[0]`)
	if got["name"] != "webbrain-conversation.md" || !strings.Contains(got["text"], "**You:** What is on sale?") {
		t.Fatalf("download %v: the transcript must be stored before the export is asked", got)
	}
	if exp := tb.sent("conversation_export"); len(exp) != 1 || exp[0]["tabId"] != float64(7) {
		t.Fatalf("conversation_export = %v", exp)
	}
	tb.waitFor("the notice", `document.querySelector('#transcript').textContent.includes('Exported the conversation as webbrain-conversation.md')`)

	// Traces: none yet, then one run of this tab (and one of another tab).
	tb.do(`await wbTraceDB.clear()`)
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/export --traces"), pressEnter(false))
	tb.waitFor("the notice", `document.querySelector('#transcript').textContent.includes('No traces were recorded in this tab')`)
	tb.do(`
const run = (id, tabId) => ({id, tabId, site: "shop.example", mode: "ask", status: "done", startedAt: new Date().toISOString(),
  durationMs: 5, recordedByWebBrainVersion: "9.9.8", provider: {kind: "openai-chat", tier: "mid", vision: false}, events: []});
await wbTraceDB.put(run("r7", 7));
await wbTraceDB.put(run("r8", 8));`)
	tb.run(chromedp.SendKeys(chromedp.CSS("#prompt"), "/export --traces"), pressEnter(false))
	tb.waitFor("the trace download", `__fake.downloads.length === 2`)
	doc := eval[map[string]any](tb, `__fake.downloads[1].then((d) => JSON.parse(d.text))`)
	runs, _ := doc["runs"].([]any)
	if doc["format"] != "webbrain-trace/1" || doc["exportedByWebBrainVersion"] != "9.9.9" || len(runs) != 1 ||
		runs[0].(map[string]any)["recordedByWebBrainVersion"] != "9.9.8" || runs[0].(map[string]any)["id"] != "r7" {
		t.Fatalf("trace export %v", doc)
	}
	tb.do(`await wbTraceDB.clear()`)
}
