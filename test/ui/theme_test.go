//go:build browser

package ui

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// prefersDark makes the page's browser prefer a dark (or light) look.
func prefersDark(dark bool) chromedp.Action[chromedp.Void] {
	value := "light"
	if dark {
		value = "dark"
	}
	return chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: value}},
		})
		return err
	})
}

const background = `getComputedStyle(document.body).backgroundColor`

// The settings' theme overrides the browser's preference; System follows it.
func TestPanelTheme(t *testing.T) {
	for _, c := range []struct {
		theme    string
		prefDark bool
		want     string
	}{
		{"dark", false, "rgb(28, 28, 31)"},
		{"light", true, "rgb(255, 255, 255)"},
		{"system", true, "rgb(28, 28, 31)"},
		{"", false, "rgb(255, 255, 255)"},
	} {
		t.Run(c.theme, func(t *testing.T) {
			tb := openPanel(t, `__fake.replies.settings_get.settings.theme = "`+c.theme+`";`)
			tb.run(prefersDark(c.prefDark))
			if got := eval[string](tb, background); got != c.want {
				t.Errorf("theme %q, prefers dark %v: background %s, want %s", c.theme, c.prefDark, got, c.want)
			}
			if c.theme == "dark" {
				rid := startRun(tb, "Fill the form")
				deliver(tb, rid, 1, `{kind: "tool_call", id: "c1", name: "type_text", args: "{}"}`)
				deliver(tb, rid, 2, `{kind: "tool_result", id: "c1", name: "type_text", result: "Typed \"x\" into textbox \"Name\" [ref_2]"}`)
				deliver(tb, rid, 3, `{kind: "final", text: "Filled 1 of 3 fields.", reason: "step_limit"}`)
				tb.waitFor("Continue", `!!document.querySelector('.run-continue')`)
				tb.screenshot("panel-dark")
			}
		})
	}
}

// Choosing a theme in Settings saves it at once and shows it.
func TestSettingsTheme(t *testing.T) {
	tb := openPage(t, "/settings/settings.html", settingsSetup)
	tb.waitFor("the settings", `document.querySelector('#theme').value === 'system' && document.querySelectorAll('#provider-list li').length === 2`)
	tb.run(chromedp.SetValue(chromedp.CSS("#theme"), "dark"))
	tb.waitFor("the dark page", `document.documentElement.dataset.theme === 'dark'`)
	saves := tb.sent("settings_save")
	if len(saves) != 1 {
		t.Fatalf("%d saves, want 1", len(saves))
	}
	if s := saves[0]["settings"].(map[string]any); s["theme"] != "dark" || s["activeProvider"] != "ollama" {
		t.Errorf("saved %v", s)
	}
	if got := eval[string](tb, background); got != "rgb(28, 28, 31)" {
		t.Errorf("background %s in the dark theme", got)
	}
	tb.do(`document.querySelector('#theme').focus()`)
	tb.screenshot("settings-dark")
	tb.run(chromedp.SetValue(chromedp.CSS("#theme"), "system"))
	tb.waitFor("the system look", `document.documentElement.dataset.theme === undefined`)
}
