//go:build browser

package ui

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// pageSetup is settingsSetup with the background's provider tests and
// defaults (kept in sessionStorage, as the background keeps them across
// a reload): the OpenAI card last tested fine, none for Ollama; a Test of
// Ollama fails as Ollama does without OLLAMA_ORIGINS.
const pageSetup = settingsSetup + `
__fake.tests = JSON.parse(sessionStorage.getItem("__tests") || '{"openai": {"ok": true, "model": "gpt-x", "at": 1764000000000}}');
__fake.replies.settings_get = () => ({ok: true, settings: __fake.settings, providerTests: __fake.tests, defaults: {maxSteps: 130}});
__fake.replies.provider_test = (m) => {
  if (m.id === "ollama") {
    const test = {ok: false, reason: "ollama_origins", at: 1764000100000,
      error: "Ollama refused the request from the browser extension (HTTP 403). Set OLLAMA_ORIGINS=chrome-extension://*,moz-extension://* in Ollama's environment and restart Ollama."};
    __fake.tests.ollama = test;
    sessionStorage.setItem("__tests", JSON.stringify(__fake.tests));
    return {ok: false, error: test.error, reason: test.reason, test};
  }
  return {ok: true, model: "llama3.2"};
};
`

var sectionIDs = []string{"providers", "models", "agent", "safety", "skills", "memory", "cost", "scheduler", "privacy", "transfer", "about"}

// The page has a section with a heading for each part of the settings and a
// navigation that reaches each by keyboard: Enter on a link moves the focus
// to that section's heading and marks the link current.
func TestSettingsSectionsAndNav(t *testing.T) {
	tb := openPage(t, "/settings/settings.html", pageSetup)
	tb.waitFor("the cards", `document.querySelectorAll('#provider-list li[data-id]').length === 2`)
	links := eval[[]string](tb, `[...document.querySelectorAll('#section-nav a')].map(a => a.getAttribute('href'))`)
	if len(links) != len(sectionIDs) {
		t.Fatalf("nav links %v, want one per section %v", links, sectionIDs)
	}
	for i, id := range sectionIDs {
		if links[i] != "#"+id {
			t.Errorf("nav link %d = %s, want #%s", i, links[i], id)
		}
		if heading := eval[string](tb, `document.querySelector('#`+id+` > h2')?.textContent ?? ''`); heading == "" {
			t.Errorf("section #%s has no heading", id)
		}
	}
	// Keyboard: focus the "Import and export" link and press Enter.
	tb.do(`document.querySelector('#section-nav a[href="#transfer"]').focus()`)
	tb.run(chromedp.KeyEvent(kb.Enter))
	tb.waitFor("the heading focused", `document.activeElement === document.querySelector('#transfer-heading')`)
	tb.waitFor("the link marked", `document.querySelector('#section-nav a[href="#transfer"]').getAttribute('aria-current') === 'true'`)
	if n := eval[int](tb, `document.querySelectorAll('#section-nav a[aria-current]').length`); n != 1 {
		t.Errorf("%d links marked current", n)
	}
	// Tab from the heading reaches the section's first control.
	tb.run(chromedp.KeyEvent(kb.Tab))
	tb.waitFor("the export button focused", `document.activeElement?.id === 'config-export'`)
	if got := eval[string](tb, `document.querySelector('#max-steps').placeholder + '|' + document.querySelector('#max-steps-help').textContent`); !strings.Contains(got, "130|") || !strings.Contains(got, "Default: 130") {
		t.Errorf("step limit default shown as %q, want the background's 130", got)
	}
}

// Each provider is a card with its name, wire format, model and the last
// Test result kept by the background; Test on a card tests that saved
// provider by id and shows why it fails.
func TestSettingsProviderCards(t *testing.T) {
	tb := openPage(t, "/settings/settings.html", pageSetup)
	tb.waitFor("the cards", `document.querySelectorAll('#provider-list li[data-id]').length === 2`)
	openai := eval[string](tb, `document.querySelector('li[data-id="openai"]').innerText`)
	for _, want := range []string{"OpenAI", "OpenAI chat completions", "gpt-x", "api.openai.com", "Full tier", "key saved", "tested ok"} {
		if !strings.Contains(openai, want) {
			t.Errorf("the OpenAI card lacks %q:\n%s", want, openai)
		}
	}
	ollama := eval[string](tb, `document.querySelector('li[data-id="ollama"]').innerText`)
	for _, want := range []string{"Ollama (local)", "first model the server lists", "Not tested yet", "In use"} {
		if !strings.Contains(ollama, want) {
			t.Errorf("the Ollama card lacks %q:\n%s", want, ollama)
		}
	}
	tb.run(chromedp.Click(chromedp.CSS(`li[data-id="ollama"] .provider-test`)))
	tb.waitFor("the failure", `document.querySelector('li[data-id="ollama"] .provider-status.failing')?.textContent.includes('failing: OLLAMA_ORIGINS missing')`)
	if sent := tb.sent("provider_test"); len(sent) != 1 || sent[0]["id"] != "ollama" || sent[0]["provider"] != nil {
		t.Errorf("provider_test sent %v, want the saved provider by id", sent)
	}
	tb.screenshot("settings-provider-cards")
	// Reopened, the page shows the kept result.
	tb.run(chromedp.Reload())
	tb.waitFor("the kept failure", `document.querySelector('li[data-id="ollama"] .provider-status')?.textContent.includes('failing: OLLAMA_ORIGINS missing')`)
}

// The tier is explained in plain words where it is chosen.
func TestSettingsTierExplained(t *testing.T) {
	tb := openPage(t, "/settings/settings.html", pageSetup)
	tb.waitFor("the cards", `document.querySelectorAll('#provider-list li[data-id]').length === 2`)
	tb.run(chromedp.Click(chromedp.CSS(`li[data-id="ollama"] .provider-edit`)))
	tb.waitFor("the form", `document.querySelector('#p-name').value === 'Ollama (local)'`)
	if got := eval[string](tb, `document.querySelector('#p-tier-help').textContent`); !strings.Contains(got, "capable local models") {
		t.Errorf("tier help for Mid: %q", got)
	}
	choose(tb, "#p-tier", "compact")
	tb.waitFor("the Compact help", `document.querySelector('#p-tier-help').textContent.includes('very small local models')`)
	// A preset of a cloud service sets the Full tier.
	tb.do(`const s = document.querySelector('#p-preset'); s.value = [...s.options].find(o => o.text === 'Anthropic').value; s.dispatchEvent(new Event('change'));`)
	tb.waitFor("the preset applied", `document.querySelector('#p-kind').value === 'anthropic' && document.querySelector('#p-tier').value === 'full'`)
}

// Vision is Automatic, Always or Never, saved as visionMode (with the
// older boolean for Always); a provider stored with vision true shows Always.
func TestSettingsVisionControl(t *testing.T) {
	tb := openPage(t, "/settings/settings.html", pageSetup+`__fake.settings.providers[0].vision = true;`)
	tb.waitFor("the cards", `document.querySelectorAll('#provider-list li[data-id]').length === 2`)
	tb.run(chromedp.Click(chromedp.CSS(`li[data-id="ollama"] .provider-edit`)))
	tb.waitFor("the form", `document.querySelector('#p-name').value === 'Ollama (local)'`)
	if got := eval[string](tb, `document.querySelector('#p-visionMode').value`); got != "always" {
		t.Errorf("vision true shows %q, want always", got)
	}
	// A click by script: at this narrow width the sticky section bar may
	// cover the button where chromedp scrolls it.
	tb.do(`document.querySelector('li[data-id="openai"] .provider-edit').click()`)
	tb.waitFor("the OpenAI form", `document.querySelector('#p-name').value === 'OpenAI'`)
	if got := eval[string](tb, `document.querySelector('#p-visionMode').value`); got != "auto" {
		t.Errorf("no vision setting shows %q, want auto", got)
	}
	choose(tb, "#p-visionMode", "never")
	tb.run(chromedp.Click(chromedp.CSS("#p-save")))
	tb.waitFor("saved", `__fake.settings.providers[1].visionMode === 'never' && __fake.settings.providers[1].vision === false`)
	choose(tb, "#p-visionMode", "always")
	tb.run(chromedp.Click(chromedp.CSS("#p-save")))
	tb.waitFor("saved Always", `__fake.settings.providers[1].visionMode === 'always' && __fake.settings.providers[1].vision === true`)
	tb.waitFor("the card", `document.querySelector('li[data-id="openai"]').innerText.includes('vision: always')`)
}

// The whole page in light and dark, at a desktop width, for a person to
// look at (WB_SCREENSHOTS).
func TestSettingsPageLooks(t *testing.T) {
	tb := openPage(t, "/settings/settings.html", pageSetup)
	tb.run(chromedp.EmulateViewport(1180, 1000))
	tb.waitFor("the cards", `document.querySelectorAll('#provider-list li[data-id]').length === 2`)
	tb.run(prefersDark(false))
	tb.screenshot("settings-light")
	tb.run(chromedp.Click(chromedp.CSS(`li[data-id="openai"] .provider-edit`)))
	tb.waitFor("the form", `document.querySelector('#p-name').value === 'OpenAI'`)
	tb.screenshot("settings-light-form")
	tb.run(chromedp.SetValue(chromedp.CSS("#theme"), "dark"))
	tb.waitFor("the dark page", `document.documentElement.dataset.theme === 'dark'`)
	if got := eval[string](tb, background); got != "rgb(28, 28, 31)" {
		t.Errorf("background %s in the dark theme, want the panel's", got)
	}
	if got := eval[string](tb, `getComputedStyle(document.querySelector('#providers')).backgroundColor`); got == "rgb(255, 255, 255)" {
		t.Error("the provider section stays white in the dark theme")
	}
	tb.screenshot("settings-dark-form")
	tb.do(`document.querySelector('#p-cancel').click(); window.scrollTo(0, 0)`)
	tb.screenshot("settings-dark")
	tb.do(`document.querySelector('#section-nav a[href="#models"]').click()`)
	tb.screenshot("settings-dark-models")
	tb.do(`document.querySelector('#section-nav a[href="#transfer"]').click()`)
	tb.screenshot("settings-dark-transfer")
	// At the side panel's width the navigation is a row above the page.
	tb.run(chromedp.EmulateViewport(420, 800))
	tb.do(`window.scrollTo(0, 0)`)
	if got := eval[string](tb, `getComputedStyle(document.querySelector('#section-nav ul')).display`); got != "flex" {
		t.Errorf("narrow navigation display %s, want a row (flex)", got)
	}
	tb.screenshot("settings-dark-narrow")
}

// Export in "Import and export" downloads the configuration the background
// exports and warns that it holds the keys.
func TestSettingsExport(t *testing.T) {
	tb := openPage(t, "/settings/settings.html", pageSetup+`
__fake.replies.config_export = {ok: true, config: {format: "webbrain-config/1", settings: {providers: [{id: "o", apiKey: "sk-secret-key-1234"}]}}};
__fake.downloads = [];
const click = HTMLAnchorElement.prototype.click;
HTMLAnchorElement.prototype.click = function () { if (this.download) __fake.downloads.push(this.download); else click.call(this); };`)
	tb.waitFor("the cards", `document.querySelectorAll('#provider-list li[data-id]').length === 2`)
	tb.do(`document.querySelector('#config-export').click()`)
	tb.waitFor("the notice", `document.querySelector('#import-report').textContent.includes('plain text')`)
	if got := eval[[]string](tb, `__fake.downloads`); len(got) != 1 || !strings.HasPrefix(got[0], "webbrain-config-") || !strings.HasSuffix(got[0], ".json") {
		t.Errorf("downloads %v", got)
	}
}
