//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/test/testenv"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// A browser whose interface is Spanish shows the panel in Spanish without
// any setting: the manifest's strings, the static page and what the panel
// writes during a run. Choosing Arabic in the panel's picker applies at
// once (the open panel reloads itself) and lays the panel out right to
// left; the model still reads only the user's own words.
func TestPanelFollowsTheBrowsersLanguage(t *testing.T) {
	b, err := testenv.StartExtensionBrowser(chromedp.WindowSize(480, 860),
		chromedp.Flag("lang", "es"), chromedp.Env("LANGUAGE=es", "LANG=es_ES.UTF-8"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	wlog := &consoleLog{}
	worker, cancelWorker := chromedp.NewContext(b.Ctx, chromedp.WithTargetID(b.Worker.TargetID), chromedp.WithListener(wlog.listen))
	defer cancelWorker()
	if err := chromedp.Do(worker); err != nil {
		t.Fatalf("attach to the service worker: %v", err)
	}
	// The session helpers work on env: point them at this browser for the test.
	shared := env
	env = &browserEnv{root: b.Root, extID: b.ExtID, browser: b.Ctx, worker: worker, workerLg: wlog,
		fixtures: shared.fixtures, downloads: shared.downloads, notes: shared.notes}
	defer func() { env = shared }()

	ui := evalIn[string](t, worker, `chrome.i18n.getUILanguage()`)
	if !strings.HasPrefix(ui, "es") {
		t.Skipf("this Chromium ignores --lang and LANGUAGE (its interface is %q)", ui)
	}
	if title := evalIn[string](t, worker, `chrome.action.getTitle({})`, chromedp.EvalAwaitPromise); title != "Abrir WebBrain" {
		t.Errorf("toolbar button title = %q, want the manifest's __MSG_ in Spanish", title)
	}
	// The context menu's titles come from the same catalogs, read in the
	// service worker (jsglue/background.js).
	if title := evalIn[string](t, worker, `chrome.i18n.getMessage("selection_translate")`); title != "Traducir" {
		t.Errorf("the selection menu's Translate = %q in the service worker, want Spanish", title)
	}

	withUsage := func(turn llmtest.Turn, u llm.Usage) llmtest.Turn { turn.Usage = &u; return turn }
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return withUsage(scenario.CallTool("read_page", map[string]any{}), llm.Usage{InputTokens: 1200, OutputTokens: 30})
		}
		return withUsage(scenario.Answer("Las linternas flotan en el muelle 9."), llm.Usage{InputTokens: 1500, OutputTokens: 20})
	})
	s := openSession(t, "article.html", srv, scenario.OpenAIChat)
	got := evalIn[[]string](t, s.panel, `[document.documentElement.lang, document.documentElement.dir,
		document.querySelector('#welcome h2').textContent, document.querySelector('#send').textContent,
		document.querySelector('#open-history').textContent, document.querySelector('#mode option[value=act]').textContent]`)
	want := []string{"es", "ltr", "¿Qué puedo hacer en esta página?", "Enviar", "Historial", "Actuar (puede hacer clic y escribir)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("panel = %q, want %q", got, want)
	}

	s.send("ask", "¿Qué flota en el muelle 9?")
	if st := s.waitRunEnd(); st != "done" {
		t.Fatalf("run status %q", st)
	}
	if row := s.text(".tool-row .tool-summary"); row != "Leyó la página" {
		t.Errorf("tool row = %q", row)
	}
	if line := s.text(".msg.assistant .run-usage"); !strings.HasPrefix(line, "Tokens: 2700 de entrada") && !strings.HasPrefix(line, "Tokens: 2.700 de entrada") {
		t.Errorf("usage line = %q", line)
	}
	// What the model read is the user's message and WebBrain's English prompt.
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no model request")
	}
	sys := reqs[0].Messages[0].Content
	if strings.Contains(sys, "Leyó") || strings.Contains(sys, "Preguntar") || !strings.Contains(sys, "You") {
		t.Errorf("the system prompt is not WebBrain's English prompt: %.200q", sys)
	}
	panelShot(t, s, "panel-es")

	// The user picks Arabic: the open panel reloads itself in Arabic, right to left.
	evalIn[chromedp.Void](t, s.panel, `(() => { const p = document.querySelector('#ui-language');
		p.value = 'ar'; p.dispatchEvent(new Event('change', {bubbles: true})); })()`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		// The page reloads meanwhile: an evaluation may meet no document.
		got, err := chromedp.Run(s.panel, chromedp.Evaluate[string](`(document.documentElement?.dir ?? '') + (document.body?.dataset.ready ?? '')`))
		if err == nil && got == "rtltrue" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the panel did not turn to Arabic (%q, %v)", got, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	scenario.WaitFor(t, s, "the conversation again", 10*time.Second, `document.querySelectorAll('#transcript .msg.assistant').length === 1`)
	if got := s.text("#send") + "|" + s.text(".tool-row .tool-summary"); got != "إرسال|قرأ الصفحة" {
		t.Errorf("after choosing Arabic: %q", got)
	}
	panelShot(t, s, "panel-ar-e2e")
}

// WebBrain's approval card for a send the page prepared shows in the
// language the user picked (wb_ui_language): the background sends each
// text's catalog key beside its English (docs/decisions/background-texts.md),
// and the page's recipient stays as the page has it, never translated.
func TestApprovalCardInTheUsersLanguage(t *testing.T) {
	evalIn[chromedp.Void](t, env.worker, `chrome.storage.local.set({wb_ui_language: "es"})`, chromedp.EvalAwaitPromise)
	defer evalIn[chromedp.Void](t, env.worker, `chrome.storage.local.remove("wb_ui_language")`, chromedp.EvalAwaitPromise)
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return callTool("get_accessibility_tree", map[string]any{})
		case 1:
			ref, err := findRef(lastToolResult(req), "button", "Send")
			if err != nil {
				return scriptFailed(err)
			}
			return callTool("click_ax", map[string]any{"ref": ref})
		}
		return answer("The send was declined.")
	})
	s := openSession(t, "compose.html", srv, openAIChat)
	u, _ := url.Parse(env.fixtures.URL)
	host := u.Hostname()
	s.send("act", "Email alice@example.com that the report is ready.")
	scenario.WaitFor(t, s, "the approval card", 30*time.Second, `!!document.querySelector('.approval-card.pending button[data-decision="decline"]')`)

	if got, want := s.text(".approval-card .approval-text"), `Enviar: botón "Send" en `+host+"."; got != want {
		t.Errorf("card title %q, want %q", got, want)
	}
	rows := evalIn[[]string](t, s.panel, `[...document.querySelectorAll('.approval-card .approval-details dt, .approval-card .approval-details dd')].map(e => e.textContent)`)
	joined := strings.Join(rows, "|")
	if !strings.Contains(joined, "Acción|botón \"Send\"") || !strings.Contains(joined, "Destinatario|mallory@evil.example") {
		t.Errorf("detail rows %q: want Spanish labels and role, and the page's caption and recipient as they are", rows)
	}
	reasons := evalIn[[]string](t, s.panel, `[...document.querySelectorAll('.approval-card .approval-reasons li')].map(e => e.textContent)`)
	if !slices.Contains(reasons, "El destinatario mallory@evil.example no es uno que tu solicitud nombrara.") {
		t.Errorf("reasons %q", reasons)
	}
	if got := s.text(".approval-card button[data-decision=decline]"); got != "Rechazar" {
		t.Errorf("decline button %q", got)
	}
	panelShot(t, s, "approval-es")

	// The model hears the decline in English, as every tool result.
	if err := chromedp.Do(s.panel, chromedp.Click(chromedp.CSS(`.approval-card.pending button[data-decision="decline"]`))); err != nil {
		t.Fatal(err)
	}
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	if rec := s.pageRecord(); len(rec) != 0 {
		t.Errorf("the page recorded %q after a decline", rec)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1].Messages
	if res := last[len(last)-1].Content; !strings.Contains(res, "declined") {
		t.Errorf("the model's result %q", res)
	}
}

// A download card, worded by the background with its keys, reaches a
// Spanish panel in Spanish; the addresses stay as they are.
func TestDownloadCardInTheUsersLanguage(t *testing.T) {
	evalIn[chromedp.Void](t, env.worker, `chrome.storage.local.set({wb_ui_language: "es"})`, chromedp.EvalAwaitPromise)
	defer evalIn[chromedp.Void](t, env.worker, `chrome.storage.local.remove("wb_ui_language")`, chromedp.EvalAwaitPromise)
	file := env.fixtures.URL + "/files/report.csv"
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return callTool("download_files", map[string]any{"urls": []any{file}})
		}
		return answer("The download was declined.")
	})
	s := openSession(t, "compose.html", srv, openAIChat)
	u, _ := url.Parse(env.fixtures.URL)
	host := u.Hostname()
	s.send("act", "What is on this page?")
	scenario.WaitFor(t, s, "the download card", 30*time.Second, `!!document.querySelector('.approval-card.pending button[data-decision="decline"]')`)

	if got, want := s.text(".approval-card .approval-text"), "Descargar un archivo de "+host+" (mostrado en "+host+")."; got != want {
		t.Errorf("card title %q, want %q", got, want)
	}
	rows := evalIn[[]string](t, s.panel, `[...document.querySelectorAll('.approval-card .approval-details dt, .approval-card .approval-details dd')].map(e => e.textContent)`)
	if joined := strings.Join(rows, "|"); !strings.Contains(joined, "Archivo|"+file) {
		t.Errorf("detail rows %q: want the Spanish label and the address as it is", rows)
	}
	reasons := evalIn[[]string](t, s.panel, `[...document.querySelectorAll('.approval-card .approval-reasons li')].map(e => e.textContent)`)
	if !slices.Contains(reasons, "Tu solicitud no pidió descargar archivos.") ||
		!slices.Contains(reasons, "La página no enlaza a "+file+", y tú no diste esa dirección.") {
		t.Errorf("reasons %q", reasons)
	}
	panelShot(t, s, "download-es")
	if err := chromedp.Do(s.panel, chromedp.Click(chromedp.CSS(`.approval-card.pending button[data-decision="decline"]`))); err != nil {
		t.Fatal(err)
	}
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
}

// The background shows system notifications itself, in the language picked
// in the panel (wb_ui_language), else the browser's; a text whose key no
// longer gives its English is shown as sent.
func TestNotificationsInTheUsersLanguage(t *testing.T) {
	evalIn[chromedp.Void](t, env.worker, `(() => {
  globalThis.__notified = [];
  globalThis.__realCreate ??= chrome.notifications.create;
  chrome.notifications.create = (id, opts) => { globalThis.__notified.push(opts); return Promise.resolve(id); };
})()`)
	defer evalIn[chromedp.Void](t, env.worker, `chrome.notifications.create = globalThis.__realCreate`)
	defer evalIn[chromedp.Void](t, env.worker, `chrome.storage.local.remove("wb_ui_language")`, chromedp.EvalAwaitPromise)
	show := func(text, textMsg string) []string {
		return evalIn[[]string](t, env.worker, fmt.Sprintf(`wbHost.notify.create("webbrain-job-t", "WebBrain: Digest needs you", %q,
  JSON.stringify({key: "bg_notify_job_needs_you", params: {job: "Digest"}}), %q).then(() => {
  const n = globalThis.__notified.pop(); return [n.title, n.message]; })`, text, textMsg), chromedp.EvalAwaitPromise)
	}
	paused := `{"key":"bg_notify_paused"}`
	const pausedEnglish = "Paused after repeated failures. Type /jobs in the side panel to resume it."

	evalIn[chromedp.Void](t, env.worker, `chrome.storage.local.set({wb_ui_language: "es"})`, chromedp.EvalAwaitPromise)
	if got := show(pausedEnglish, paused); got[0] != "WebBrain: Digest te necesita" ||
		got[1] != "En pausa tras fallos repetidos. Escribe /jobs en el panel lateral para reanudarla." {
		t.Errorf("in Spanish: %q", got)
	}
	if got := show("Paused after one failure.", paused); got[1] != "Paused after one failure." {
		t.Errorf("a key that does not give the text sent: %q", got)
	}
	evalIn[chromedp.Void](t, env.worker, `chrome.storage.local.remove("wb_ui_language")`, chromedp.EvalAwaitPromise)
	want := evalIn[string](t, env.worker, `chrome.i18n.getUILanguage()`)
	if got := show(pausedEnglish, paused); strings.HasPrefix(want, "en") && got[1] != pausedEnglish {
		t.Errorf("in the browser's language (%s): %q", want, got)
	}
}
