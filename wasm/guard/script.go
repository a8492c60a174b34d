package guard

import (
	"context"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Dev mode's execute_js runs the model's code in the page with the page's
// own powers: it can click, send and read anything a page script can. It
// is a consequential page action (a submission, as the spec words it):
// it goes through when the user's words ask for running script or for
// changing the page, and otherwise waits for the approval card
// (docs/decisions/dev-mode.md).

// scriptWords ask for code to run; changeWords ask for the page to be
// changed, which in Dev mode a script may do.
var (
	scriptWords = []string{
		"javascript", "js", "script", "scripts", "execute", "evaluate", "eval", "run", "snippet", "console",
		"ausführen", "skript", "exécute", "exécuter", "ejecuta", "ejecutar", "executa", "executar", "esegui",
	}
	changeWords = []string{
		"change", "modify", "patch", "fix", "edit", "set", "update", "hide", "remove", "replace", "tweak", "inject", "toggle", "trigger", "call",
		"ändere", "ändern", "modifie", "modifier", "cambia", "cambiar", "altera", "alterar", "modifica",
	}
	negations = map[string]bool{"not": true, "don't": true, "dont": true, "never": true, "without": true, "no": true, "nicht": true, "ne": true, "sin": true, "sem": true, "senza": true}
)

// asksForScript reports whether words ask to run script or change the page.
func asksForScript(words string) bool {
	f := strings.FieldsFunc(strings.ToLower(words), func(r rune) bool {
		return !(isWordRune(r) || r == '\'' || r == '’')
	})
	for i, w := range f {
		w = strings.ReplaceAll(w, "’", "'")
		if !contains(scriptWords, w) && !contains(changeWords, w) {
			continue
		}
		negated := false
		for j := max(0, i-3); j < i; j++ {
			if negations[strings.ReplaceAll(f[j], "’", "'")] {
				negated = true
			}
		}
		if !negated {
			return true
		}
	}
	return false
}

func contains(list []string, w string) bool {
	for _, x := range list {
		if x == w {
			return true
		}
	}
	return false
}

// checkScript decides on an execute_js call.
func (g *Gate) checkScript(ctx context.Context, args map[string]any) (*ask, string) {
	code, _ := args["code"].(string)
	pageURL := ""
	if g.cfg.Prober != nil {
		pageURL, _, _ = g.cfg.Prober.Links(ctx)
	}
	site := HostOf(pageURL)
	var reasons []uitext.Text
	if !asksForScript(g.cfg.Authority.Request()) {
		reasons = append(reasons, uitext.T("bg_reason_no_script", "Your request did not ask to run script or change the page."))
	}
	details := []Detail{NewDetail(uitext.T("bg_label_code", "Code"), maskSecrets(clip.Runes(code, 400)))}
	secret := false
	for _, m := range g.secretsNotFromUser(code) {
		secret = true
		reasons = append(reasons, uitext.T("bg_reason_code_secret", "The code holds a $kind$ that your request did not give.", "kind", kindText(m.Kind)))
	}
	if len(reasons) == 0 || (!g.cfg.AskBeforeActions && !secret) {
		return nil, ""
	}
	text := uitext.T("bg_approval_script", "Run JavaScript written by the assistant in the page on $site$.", "site", siteText(site))
	en, msgs := SplitTexts(reasons)
	return &ask{
		approval: Approval{
			Text: text.English, TextMsg: text.Msg,
			Category: protocol.CategorySubmit, Site: site, URL: pageURL, Details: details, Reasons: en, ReasonMsgs: msgs,
		},
		grant: "script|" + SiteOf(site),
		key:   "script|" + site + "|" + code,
	}, ""
}
