//go:build browser

package ui

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// The provider's vision switch, the site-notes switch and the ask-before-
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
	if eval[bool](tb, `document.querySelector('#p-vision').checked`) {
		t.Error("#p-vision is on for a provider without vision")
	}
	tb.run(chromedp.Click(chromedp.CSS("#p-vision")), chromedp.Click(chromedp.CSS("#p-save")))
	tb.waitFor("the provider saved", `__fake.settings.providers[1].vision === true`)

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
