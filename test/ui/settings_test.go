//go:build browser

package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// settingsSetup stores two providers, the second with a key (which, as
// from the background, is only apiKeySet); settings_save validates like the
// background (base URL scheme, step range) and keeps what it accepted.
const settingsSetup = `
__fake.settings = {providers: [
  {id: "ollama", name: "Ollama (local)", kind: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1", apiKey: "", model: "", tier: "mid", contextWindow: 0},
  {id: "openai", name: "OpenAI", kind: "openai-chat", baseUrl: "https://api.openai.com/v1", apiKey: "", apiKeySet: true, model: "gpt-x", tier: "full", contextWindow: 128000}],
  activeProvider: "ollama", maxSteps: 30};
__fake.replies.settings_get = () => ({ok: true, settings: __fake.settings});
__fake.replies.settings_save = ({settings}) => {
  const bad = settings.providers.findIndex(p => !/^https?:\/\//.test(p.baseUrl));
  if (bad >= 0) return {ok: false, field: "providers." + bad + ".baseUrl", error: "The base URL must be a full address starting with http:// or https://."};
  if (!(settings.maxSteps >= 1 && settings.maxSteps <= 200)) return {ok: false, field: "maxSteps", error: "The step limit must be between 1 and 200."};
  __fake.settings = settings;
  return {ok: true};
};
__fake.replies.provider_test = ({provider}) => provider.baseUrl.includes("11434") ? {ok: true, model: "llama3.2"}
  : {ok: false, error: "Could not connect to " + provider.baseUrl};
__fake.memory = [{id: "mem_1", text: "I prefer metric units", kind: "preference", source: "user"},
  {id: "mem_2", text: "Prefers answers in German", kind: "preference", source: "learned"}];
const memoryReply = (changed) => ({ok: true, memory: {version: 1, records: __fake.memory}, enabled: true, autoLearn: true, changed});
__fake.replies.memory_list = () => memoryReply();
__fake.replies.memory_add = ({text}) => {
  if (!text.trim()) return {ok: false, error: "There is nothing to remember: the text is empty."};
  const r = {id: "mem_" + (__fake.memory.length + 1), text, kind: "preference", source: "user"};
  __fake.memory.push(r);
  return memoryReply(r);
};
__fake.replies.memory_edit = ({id, text}) => { __fake.memory.find(r => r.id === id).text = text; return memoryReply(); };
__fake.replies.memory_forget = ({id}) => { __fake.memory = __fake.memory.filter(r => r.id !== id); return memoryReply(); };
`

func openSettings(t *testing.T) *tab {
	tb := openPage(t, "/settings/settings.html", settingsSetup)
	tb.waitFor("the provider list", `document.querySelectorAll('#provider-list li[data-id]').length === 2`)
	return tb
}

// setValue types over an input's value and fires its events, as a user would.
func setValue(tb *tab, sel, value string) {
	tb.t.Helper()
	tb.do(`document.querySelector(` + quote(sel) + `).value = ''`)
	tb.run(chromedp.SendKeys(chromedp.CSS(sel), value))
}

func choose(tb *tab, sel, value string) {
	tb.t.Helper()
	tb.do(`const s = document.querySelector(` + quote(sel) + `); s.value = ` + quote(value) + `; s.dispatchEvent(new Event('change'));`)
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

func visibleErrors(tb *tab) []string {
	return eval[[]string](tb, `[...document.querySelectorAll('.form-error')].filter(e => !e.hidden).map(e => e.id)`)
}

func TestSettingsErrorShowsNextToFieldAndKeepsInput(t *testing.T) {
	tb := openSettings(t)
	if !eval[bool](tb, `document.querySelector('li[data-id="ollama"] .provider-active').checked`) {
		t.Fatal("the active provider's radio is not checked")
	}
	tb.run(chromedp.Click(chromedp.CSS(`li[data-id="openai"] .provider-edit`)))
	tb.waitFor("the form", `document.querySelector('#p-name').value === 'OpenAI'`)
	setValue(tb, "#p-baseUrl", "ftp://nope")
	setValue(tb, "#p-model", "gpt-y")
	tb.run(chromedp.Click(chromedp.CSS("#p-save")))
	tb.waitFor("the error", `!document.querySelector('#p-baseUrl-error').hidden`)

	if got := visibleErrors(tb); len(got) != 1 || got[0] != "p-baseUrl-error" {
		t.Errorf("visible errors = %v, want only p-baseUrl-error", got)
	}
	if !eval[bool](tb, `document.querySelector('#p-baseUrl-error').parentElement === document.querySelector('#p-baseUrl').parentElement`) {
		t.Error("the error is not beside the base URL field")
	}
	if msg := eval[string](tb, `document.querySelector('#p-baseUrl-error').textContent`); !strings.Contains(msg, "http://") {
		t.Errorf("error text = %q", msg)
	}
	if v := eval[[]string](tb, `[document.querySelector('#p-baseUrl').value, document.querySelector('#p-model').value, document.querySelector('#p-baseUrl').getAttribute('aria-invalid')]`); v[0] != "ftp://nope" || v[1] != "gpt-y" || v[2] != "true" {
		t.Errorf("after the error the form holds %v", v)
	}
	if saved := eval[string](tb, `document.querySelector('#saved').textContent`); saved != "" {
		t.Errorf("#saved says %q after a failed save", saved)
	}

	setValue(tb, "#p-baseUrl", "https://proxy.example/v1")
	tb.run(chromedp.Click(chromedp.CSS("#p-save")))
	tb.waitFor("the confirmation", `document.querySelector('#saved').textContent === 'Saved.'`)
	if got := visibleErrors(tb); len(got) != 0 {
		t.Errorf("errors still shown: %v", got)
	}
	saves := tb.sent("settings_save")
	last := saves[len(saves)-1]["settings"].(map[string]any)
	providers := last["providers"].([]any)
	second := providers[1].(map[string]any)
	if len(providers) != 2 || second["baseUrl"] != "https://proxy.example/v1" || second["model"] != "gpt-y" || second["apiKey"] != "" || second["apiKeySet"] != true || last["maxSteps"] != float64(30) {
		t.Errorf("settings_save sent %v", last)
	}

	setValue(tb, "#max-steps", "500")
	tb.run(chromedp.Click(chromedp.CSS("#save-general")))
	tb.waitFor("the step error", `!document.querySelector('#max-steps-error').hidden`)
	if v := eval[string](tb, `document.querySelector('#max-steps').value`); v != "500" {
		t.Errorf("max steps input = %q after the error", v)
	}
}

func TestSettingsProviderForm(t *testing.T) {
	tb := openSettings(t)
	tb.run(chromedp.Click(chromedp.CSS("#add-provider")))
	tb.waitFor("an empty form", `!document.querySelector('#provider-form-section').hidden && document.querySelector('#p-name').value === ''`)
	baseURL := func() string { return eval[string](tb, `document.querySelector('#p-baseUrl').value`) }
	azureShown := func() bool { return eval[bool](tb, `!document.querySelector('#azure-fields').hidden`) }

	choose(tb, "#p-kind", "anthropic")
	if got := baseURL(); got != "https://api.anthropic.com" {
		t.Errorf("anthropic base URL = %q", got)
	}
	if azureShown() {
		t.Error("Azure fields shown for anthropic")
	}
	choose(tb, "#p-kind", "azure")
	if got := baseURL(); got != "https://<resource>.openai.azure.com" || !azureShown() {
		t.Errorf("azure: base URL %q, Azure fields shown %v", got, azureShown())
	}
	setValue(tb, "#p-baseUrl", "https://mine.example/v1")
	choose(tb, "#p-kind", "openai-chat")
	if got := baseURL(); got != "https://mine.example/v1" {
		t.Errorf("a typed base URL was replaced by %q", got)
	}

	choose(tb, "#p-preset", "2") // Ollama
	if got := baseURL(); got != "http://127.0.0.1:11434/v1" {
		t.Errorf("Ollama preset base URL = %q", got)
	}
	setValue(tb, "#p-name", "Local llama")
	setValue(tb, "#p-apiKey", "secret")
	tb.run(chromedp.Click(chromedp.CSS("#p-apiKey-toggle")))
	if typ := eval[string](tb, `document.querySelector('#p-apiKey').type`); typ != "text" {
		t.Errorf("show toggle left the key field as %q", typ)
	}

	tb.run(chromedp.Click(chromedp.CSS("#p-test")))
	tb.waitFor("the test result", `document.querySelector('#test-result').textContent.includes('llama3.2')`)
	if got := tb.sent("provider_test")[0]["provider"].(map[string]any); got["baseUrl"] != "http://127.0.0.1:11434/v1" || got["apiKey"] != "secret" || got["name"] != "Local llama" {
		t.Errorf("provider_test sent %v", got)
	}

	tb.run(chromedp.Click(chromedp.CSS("#p-save")))
	tb.waitFor("the new provider listed", `document.querySelectorAll('#provider-list li[data-id]').length === 3`)
	if id := eval[string](tb, `document.querySelectorAll('#provider-list li')[2].dataset.id`); id != "local-llama" {
		t.Errorf("new provider id = %q", id)
	}

	tb.run(chromedp.Click(chromedp.CSS(`li[data-id="local-llama"] .provider-active`)))
	tb.waitFor("the active provider saved", `__fake.settings.activeProvider === 'local-llama'`)

	tb.run(chromedp.Click(chromedp.CSS(`li[data-id="openai"] .provider-edit`)),
		chromedp.Click(chromedp.CSS("#p-delete")))
	tb.waitFor("the provider deleted", `document.querySelectorAll('#provider-list li[data-id]').length === 2`)
	if ids := eval[string](tb, `__fake.settings.providers.map(p => p.id).join(',') + ' ' + __fake.settings.activeProvider`); ids != "ollama,local-llama local-llama" {
		t.Errorf("stored after delete: %s", ids)
	}
}

// The page shows that a key is saved without ever holding it: saving keeps
// the stored key, a typed key replaces it, and Remove key clears it.
func TestSettingsKeySavedReplaceAndRemove(t *testing.T) {
	tb := openSettings(t)
	tb.run(chromedp.Click(chromedp.CSS(`li[data-id="openai"] .provider-edit`)))
	tb.waitFor("the form", `document.querySelector('#p-name').value === 'OpenAI'`)
	if v := eval[string](tb, `document.querySelector('#p-apiKey').value`); v != "" {
		t.Errorf("key field holds %q", v)
	}
	tb.screenshot("settings-key-saved")
	if !eval[bool](tb, `!document.querySelector('#p-apiKey-state').hidden && document.querySelector('#p-apiKey-state').textContent.includes('saved') && !document.querySelector('#p-apiKey-clear').hidden`) {
		t.Error("no 'key saved' state or Remove key button for a provider with a key")
	}
	lastProvider := func() map[string]any {
		saves := tb.sent("settings_save")
		return saves[len(saves)-1]["settings"].(map[string]any)["providers"].([]any)[1].(map[string]any)
	}
	// provider_test without a typed key asks for the stored one.
	tb.run(chromedp.Click(chromedp.CSS("#p-test")))
	tb.waitFor("provider_test", `__fake.sentOf('provider_test').length === 1`)
	if got := tb.sent("provider_test")[0]["provider"].(map[string]any); got["apiKey"] != "" || got["apiKeySet"] != true {
		t.Errorf("provider_test sent %v", got)
	}

	setValue(tb, "#p-apiKey", "sk-typed-new")
	tb.run(chromedp.Click(chromedp.CSS("#p-save")))
	tb.waitFor("the save", `__fake.sentOf('settings_save').length === 1`)
	if p := lastProvider(); p["apiKey"] != "sk-typed-new" {
		t.Errorf("a typed key was not sent: %v", p)
	}
	tb.waitFor("the form refilled", `document.querySelector('#p-apiKey').value === '' && !document.querySelector('#p-apiKey-clear').hidden`)

	tb.run(chromedp.Click(chromedp.CSS("#p-apiKey-clear")))
	if eval[bool](tb, `!document.querySelector('#p-apiKey-clear').hidden`) {
		t.Error("Remove key still offered after removing")
	}
	tb.run(chromedp.Click(chromedp.CSS("#p-save")))
	tb.waitFor("the second save", `__fake.sentOf('settings_save').length === 2`)
	if p := lastProvider(); p["apiKey"] != "" || p["apiKeySet"] != false {
		t.Errorf("Remove key sent %v", p)
	}
}

func TestMemorySectionListsAddsEditsAndForgets(t *testing.T) {
	tb := openSettings(t)
	tb.waitFor("the memory list", `document.querySelectorAll('#memory-list li[data-id]').length === 2`)
	if got := eval[string](tb, `document.querySelector('#memory-list li[data-id="mem_2"] .help').textContent`); got != "Preference · learned" {
		t.Errorf("learned record labelled %q", got)
	}
	tb.do(`document.querySelector('#memory-add').click()`)
	tb.waitFor("the empty-text error", `!document.querySelector('#memory-error').hidden`)
	setValue(tb, "#memory-new", "My usual airport is LHR")
	tb.do(`document.querySelector('#memory-add').click()`)
	tb.waitFor("the new record", `document.querySelectorAll('#memory-list li[data-id]').length === 3 && document.querySelector('#memory-error').hidden`)
	if got := eval[string](tb, `document.querySelector('#memory-new').value`); got != "" {
		t.Errorf("the input kept %q after adding", got)
	}
	setValue(tb, `#memory-list li[data-id="mem_1"] input`, "I prefer metric units and 24-hour time")
	tb.do(`document.querySelector('#memory-list li[data-id="mem_1"] button').click()`)
	tb.waitFor("the edit", `__fake.memory[0].text === 'I prefer metric units and 24-hour time'`)
	tb.do(`document.querySelector('#memory-list li[data-id="mem_2"] button.danger').click()`)
	tb.waitFor("the forget", `!document.querySelector('#memory-list li[data-id="mem_2"]')`)
	if got := eval[[]string](tb, `__fake.sentOf('memory_forget').map(m => m.id)`); len(got) != 1 || got[0] != "mem_2" {
		t.Errorf("forget sent %v", got)
	}
	tb.screenshot("settings-memory")
}

func TestSkillsSectionSavesTheUsersSkill(t *testing.T) {
	tb := openPage(t, "/settings/settings.html", settingsSetup+`
__fake.skills = [{id: "humanizer", name: "Humanizer", summary: "Rewrite a draft.", modes: ["ask", "act"], packaged: true, enabled: true},
  {id: "open-meteo", name: "Open-Meteo weather", summary: "Look up the weather.", modes: ["ask", "act"], packaged: true, enabled: true,
   tools: ["geocode_place: GET geocoding-api.open-meteo.com", "get_weather_forecast: GET api.open-meteo.com"]}];
__fake.replies.skills_list = () => ({ok: true, skills: __fake.skills});
__fake.replies.skill_save = ({skill}) => {
  if (!/^[a-z0-9-]+$/.test(skill.id)) return {ok: false, error: "Id \"" + skill.id + "\": use lowercase letters, digits and hyphens."};
  __fake.skills = __fake.skills.filter(s => s.id !== skill.id).concat([{...skill, name: "Weekly report", summary: "Write my weekly report.", modes: ["act"], packaged: false}]);
  return {ok: true, skills: __fake.skills};
};`)
	tb.waitFor("the packaged skill", `!!document.querySelector('#skills-list li[data-id="humanizer"]')`)
	setValue(tb, "#skill-id", "Weekly Report")
	setValue(tb, "#skill-md", "# Weekly report")
	tb.do(`document.querySelector('#skill-save').click()`)
	tb.waitFor("the id error", `!document.querySelector('#skills-error').hidden`)
	setValue(tb, "#skill-id", "weekly-report")
	tb.do(`document.querySelector('#skill-save').click()`)
	tb.waitFor("the saved skill", `!!document.querySelector('#skills-list li[data-id="weekly-report"]') && document.querySelector('#skills-error').hidden`)
	if got := eval[[]string](tb, `__fake.sentOf('skill_save').map(m => m.skill.id + '|' + m.skill.enabled)`); len(got) != 2 || got[1] != "weekly-report|true" {
		t.Errorf("skill_save sent %v", got)
	}
	if eval[bool](tb, `!!document.querySelector('#skills-list li[data-id="humanizer"] button')`) {
		t.Error("a packaged skill can be edited or deleted")
	}
	if got := eval[string](tb, `document.querySelector('#skills-list li[data-id="open-meteo"] .skill-tools')?.textContent ?? ''`); got != "Tools: geocode_place: GET geocoding-api.open-meteo.com; get_weather_forecast: GET api.open-meteo.com" {
		t.Errorf("the skill's tools are shown as %q", got)
	}
	// Export saves the Markdown under Agent Skills front matter.
	exported := eval[string](tb, `(() => {
		const a = document.querySelector('#skills-list li[data-id="weekly-report"] a[download]');
		return fetch(a.href).then(r => r.text()).then(t => a.download + '\n' + t);
	})()`)
	if want := "weekly-report.md\n---\nname: \"Weekly report\"\ndescription: \"Write my weekly report.\"\n---\n\n# Weekly report"; exported != want {
		t.Errorf("exported %q, want %q", exported, want)
	}
	// Import reads a SKILL.md through the file picker; its front matter
	// names it.
	file := filepath.Join(t.TempDir(), "SKILL.md")
	if err := os.WriteFile(file, []byte("---\nname: \"PR Review\"\ndescription: Review a pull request.\n---\nRead the diff."), 0o600); err != nil {
		t.Fatal(err)
	}
	tb.run(chromedp.SetUploadFiles(chromedp.ID("skill-file"), []string{file}))
	tb.waitFor("the imported file in the form", `document.querySelector('#skill-id').value === 'pr-review' && document.querySelector('#skill-md').value.includes('Read the diff.')`)
	tb.screenshot("settings-skills")
}
