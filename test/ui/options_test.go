//go:build browser

package ui

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// The provider's vision control, the site-notes switch and the ask-before-
// actions switch load from the stored settings and are saved with them.
func TestVisionAndSiteNotesSwitchesRoundTrip(t *testing.T) {
	tb := openSettings(t)
	if !eval[bool](tb, `document.querySelector('#site-adapters').checked`) {
		t.Error("#site-adapters is off although siteAdapters is not stored (its default is on)")
	}
	if !eval[bool](tb, `document.querySelector('#ask-before-actions').checked`) {
		t.Error("#ask-before-actions is off although askBeforeActions is not stored (its default is on)")
	}
	tb.do(`document.querySelector('#ask-before-actions').scrollIntoView()`)
	tb.screenshot("settings-agent")
	tb.run(chromedp.Click(chromedp.CSS(`li[data-id="openai"] .provider-edit`)))
	tb.waitFor("the form", `document.querySelector('#p-name').value === 'OpenAI'`)
	if v := eval[string](tb, `document.querySelector('#p-visionMode').value`); v != "auto" {
		t.Errorf("#p-visionMode is %q for a provider without vision, want auto", v)
	}
	choose(tb, "#p-visionMode", "always")
	tb.run(chromedp.Click(chromedp.CSS("#p-save")))
	tb.waitFor("the provider saved", `__fake.settings.providers[1].vision === true && __fake.settings.providers[1].visionMode === 'always'`)

	tb.run(chromedp.Click(chromedp.CSS("#site-adapters")), chromedp.Click(chromedp.CSS("#save-general")))
	tb.waitFor("the general settings saved", `__fake.settings.siteAdapters === false`)
	if v := eval[bool](tb, `__fake.settings.askBeforeActions === true`); !v {
		t.Error("saving the site-notes switch did not keep askBeforeActions on")
	}
	tb.run(chromedp.Click(chromedp.CSS("#ask-before-actions")), chromedp.Click(chromedp.CSS("#save-general")))
	tb.waitFor("askBeforeActions saved off", `__fake.settings.askBeforeActions === false && __fake.settings.siteAdapters === false`)
	if v := eval[bool](tb, `__fake.settings.providers[0].vision === true`); v {
		t.Error("saving one provider's vision changed another provider")
	}
}

// Experimental WebMCP is off unless stored on; the CAPTCHA solver key is
// sent once when typed, never shown again, kept by captchaSolverKeySet and
// removed by Remove key.
func TestWebMCPSwitchAndCaptchaKey(t *testing.T) {
	tb := openSettings(t)
	if eval[bool](tb, `document.querySelector('#experimental-webmcp').checked`) {
		t.Error("#experimental-webmcp is on although experimentalWebMCP is not stored (its default is off)")
	}
	if !eval[bool](tb, `document.querySelector('#captcha-key-clear').hidden`) {
		t.Error("Remove key is shown without a saved key")
	}
	tb.do(`document.querySelector('#experimental-webmcp').scrollIntoView()`)
	tb.run(chromedp.Click(chromedp.CSS("#experimental-webmcp")))
	setValue(tb, "#captcha-key", "CAP-0123456789abcdef")
	tb.run(chromedp.Click(chromedp.CSS("#save-general")))
	tb.waitFor("the general settings saved", `__fake.settings.experimentalWebMCP === true && __fake.settings.captchaSolverKey === 'CAP-0123456789abcdef'`)
	if v := eval[string](tb, `document.querySelector('#captcha-key').value`); v != "" {
		t.Errorf("the key stays in the field after saving: %q", v)
	}
	if !eval[bool](tb, `!document.querySelector('#captcha-key-state').hidden && !document.querySelector('#captcha-key-clear').hidden`) {
		t.Error("the page does not say a key is saved")
	}
	// Saving again without typing keeps the stored key (the background
	// reads captchaSolverKeySet).
	tb.run(chromedp.Click(chromedp.CSS("#save-general")))
	tb.waitFor("saved again", `__fake.settings.captchaSolverKey === '' && __fake.settings.captchaSolverKeySet === true`)
	tb.run(chromedp.Click(chromedp.CSS("#captcha-key-clear")))
	tb.waitFor("the key removed", `__fake.settings.captchaSolverKey === '' && __fake.settings.captchaSolverKeySet === false`)
	if !eval[bool](tb, `document.querySelector('#captcha-key-clear').hidden`) {
		t.Error("Remove key is still shown after removing the key")
	}
}
