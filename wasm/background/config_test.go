package background

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

func storedSettings(t *testing.T, e *env) string {
	t.Helper()
	got, err := e.local.Get(context.Background(), protocol.KeySettings)
	if err != nil {
		t.Fatal(err)
	}
	return string(got[protocol.KeySettings])
}

func TestSettingsSaveInvalidChangesNothing(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	before := storedSettings(t, e)
	s := e.mustOK(map[string]any{"action": "settings_get"})["settings"].(map[string]any)

	s["providers"].([]any)[0].(map[string]any)["baseUrl"] = "localhost:11434"
	reply := e.send(map[string]any{"action": "settings_save", "settings": s})
	if reply["ok"] != false || reply["field"] != "providers[0].baseUrl" || reply["error"] == "" {
		t.Fatalf("reply %v", reply)
	}
	if storedSettings(t, e) != before {
		t.Fatal("an invalid save changed the stored settings")
	}

	s["providers"].([]any)[0].(map[string]any)["baseUrl"] = "http://127.0.0.1:1234/v1"
	s["maxSteps"] = 12
	e.mustOK(map[string]any{"action": "settings_save", "settings": s})
	got := e.mustOK(map[string]any{"action": "settings_get"})["settings"].(map[string]any)
	if got["maxSteps"] != float64(12) || got["providers"].([]any)[0].(map[string]any)["baseUrl"] != "http://127.0.0.1:1234/v1" {
		t.Fatalf("saved settings %v", got)
	}
}

func TestSettingsGetWarnsAboutDamagedSettings(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	_ = e.local.Set(context.Background(), map[string]json.RawMessage{protocol.KeySettings: json.RawMessage(`{"maxSteps":"many"}`)})
	reply := e.mustOK(map[string]any{"action": "settings_get"})
	if w, _ := reply["warning"].(string); !strings.Contains(w, "maxSteps") {
		t.Fatalf("warning %q", w)
	}
	if reply["settings"].(map[string]any)["activeProvider"] != settings.Defaults().ActiveProvider {
		t.Fatalf("settings %v are not the defaults", reply["settings"])
	}
}

func TestConfigExportImportRoundTrip(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	want := storedSettings(t, e)
	doc := e.mustOK(map[string]any{"action": "config_export"})["config"].(map[string]any)
	if doc["format"] != settings.Format || doc["exportedAt"] != "2026-11-30T12:00:00Z" {
		t.Fatalf("document %v", doc)
	}

	// Replace the settings, then import the export back.
	_ = settings.Save(context.Background(), e.local, settings.Defaults())
	e.mustOK(map[string]any{"action": "config_import", "config": doc})
	if got := storedSettings(t, e); got != want {
		t.Fatalf("round trip: got %s, want %s", got, want)
	}

	// The panel's "/import <json>" passes the document as text.
	text, _ := json.Marshal(doc)
	e.mustOK(map[string]any{"action": "config_import", "config": string(text)})

	bad := e.mustOK(map[string]any{"action": "config_export"})["config"].(map[string]any)
	bad["settings"].(map[string]any)["activeProvider"] = "missing"
	reply := e.send(map[string]any{"action": "config_import", "config": bad})
	if reply["ok"] != false || reply["field"] != "settings.activeProvider" {
		t.Fatalf("bad import reply %v", reply)
	}
	reply = e.send(map[string]any{"action": "config_import", "config": map[string]any{"format": "other/1"}})
	if reply["ok"] != false || reply["field"] != "format" {
		t.Fatalf("wrong format reply %v", reply)
	}
	if got := storedSettings(t, e); got != want {
		t.Fatal("a refused import changed the settings")
	}
}

func TestProviderTest(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	prov := map[string]any{"id": "t", "name": "T", "kind": "openai-chat", "baseUrl": e.srv.URL + "/v1", "tier": "mid"}
	reply := e.mustOK(map[string]any{"action": "provider_test", "provider": prov})
	if reply["model"] != llmtest.Model {
		t.Fatalf("reply %v", reply)
	}

	prov["tier"] = "huge"
	if reply := e.send(map[string]any{"action": "provider_test", "provider": prov}); reply["ok"] != false || reply["field"] != "provider.tier" {
		t.Fatalf("invalid provider reply %v", reply)
	}

	prov["tier"] = "mid"
	prov["baseUrl"] = "http://127.0.0.1:1/v1" // nothing listens there
	reply = e.send(map[string]any{"action": "provider_test", "provider": prov})
	if reply["ok"] != false || reply["error"] == "" || strings.HasPrefix(reply["error"].(string), "llm:") {
		t.Fatalf("unreachable provider reply %v", reply)
	}
}

func TestContentScriptsAreRefused(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	page := Sender{ID: "ext", URL: "https://evil.example/", TabID: 12}
	for _, action := range []string{"chat_start", "abort", "clear_conversation", "run_state", "clarify_answer",
		"settings_get", "settings_save", "provider_test", "config_export", "config_import"} {
		reply := e.sendAs(page, map[string]any{"action": action, "tabId": 12, "text": "hi", "mode": "act"})
		if reply["ok"] != false || reply["error"] == "" {
			t.Errorf("%s from a content script: %v", action, reply)
		}
	}
	if e.r.active(12) != nil || len(e.srv.Requests()) != 0 {
		t.Fatal("a content script started a run")
	}
	// An extension page opened in a tab has a tab id and is allowed.
	inTab := Sender{ID: "ext", URL: "chrome-extension://ext/settings/settings.html", TabID: 12}
	if reply := e.sendAs(inTab, map[string]any{"action": "settings_get"}); reply["ok"] != true {
		t.Fatalf("extension page in a tab: %v", reply)
	}
}

// Only senders with WebBrain's own id and origin are answered: another
// extension's pages, a page of another origin claiming WebBrain's id and a
// sender without a URL are refused.
func TestOnlyOwnPagesAreAnswered(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	refused := []Sender{
		{ID: "other", URL: "chrome-extension://other/panel.html"},
		{ID: "ext", URL: "chrome-extension://other/panel.html"},
		{ID: "other", URL: "chrome-extension://ext/sidepanel/sidepanel.html"},
		{ID: "ext", URL: "chrome-extension://ext.evil.example/x.html"},
		{ID: "ext", URL: "moz-extension://ext/sidepanel/sidepanel.html"},
		{ID: "ext", URL: "https://ext/"},
		{ID: "ext", URL: ""},
		{ID: "", URL: ""},
	}
	for _, s := range refused {
		for _, action := range []string{"settings_get", "config_export", "chat_start", "approval_answer"} {
			if reply := e.sendAs(s, map[string]any{"action": action, "tabId": 3, "text": "hi", "mode": "act"}); reply["ok"] != false {
				t.Errorf("%s from %+v: %v", action, s, reply)
			}
		}
	}
	if e.r.active(3) != nil {
		t.Fatal("a foreign sender started a run")
	}
	for _, s := range []Sender{panel, {ID: "ext", URL: "chrome-extension://ext/settings/settings.html"}} {
		if reply := e.sendAs(s, map[string]any{"action": "settings_get"}); reply["ok"] != true {
			t.Errorf("own page %+v refused: %v", s, reply)
		}
	}

	// Firefox: the add-on id is not the origin's host.
	ff := platform.Extension{ID: "webbrain@example.org", Origin: "moz-extension://0b1c-22"}
	if !(Sender{ID: ff.ID, URL: "moz-extension://0b1c-22/sidepanel/sidepanel.html"}).fromOwnPage(ff) {
		t.Error("Firefox sidebar refused")
	}
	if (Sender{ID: ff.ID, URL: "moz-extension://9999/sidepanel/sidepanel.html"}).fromOwnPage(ff) {
		t.Error("another Firefox add-on's origin accepted")
	}
	if (Sender{ID: "ext", URL: "chrome-extension://ext/a.html"}).fromOwnPage(platform.Extension{}) {
		t.Error("a platform that does not know itself must refuse everything")
	}
}

// Extension pages learn whether a provider has a key, never the key; a
// save without a key keeps the stored one only when apiKeySet says so.
func TestKeysNeverReachExtensionPages(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	s, _ := settings.Load(context.Background(), e.local)
	s.Providers[0].APIKey = "sk-secret-key-0001"
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		t.Fatal(err)
	}
	stored := func() string {
		got, _ := settings.Load(context.Background(), e.local)
		return got.Providers[0].APIKey
	}

	reply := e.mustOK(map[string]any{"action": "settings_get"})
	raw, _ := json.Marshal(reply)
	if strings.Contains(string(raw), "sk-secret") {
		t.Fatalf("settings_get carries the key: %s", raw)
	}
	view := reply["settings"].(map[string]any)
	p := view["providers"].([]any)[0].(map[string]any)
	if p["apiKey"] != "" || p["apiKeySet"] != true {
		t.Fatalf("provider view %v", p)
	}

	// Saving what settings_get returned keeps the key.
	view["maxSteps"] = 9
	e.mustOK(map[string]any{"action": "settings_save", "settings": view})
	if got := stored(); got != "sk-secret-key-0001" {
		t.Fatalf("key after saving the view: %q", got)
	}
	// provider_test with apiKeySet uses the stored key.
	var auth atomic.Value
	models := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		fmt.Fprintf(w, `{"object":"list","data":[{"id":%q,"object":"model"}]}`, llmtest.Model)
	}))
	defer models.Close()
	tested := map[string]any{}
	for k, v := range p {
		tested[k] = v
	}
	tested["baseUrl"] = models.URL + "/v1"
	e.mustOK(map[string]any{"action": "provider_test", "provider": tested})
	if got, _ := auth.Load().(string); got != "Bearer sk-secret-key-0001" {
		t.Fatalf("provider_test sent Authorization %q, want the stored key", got)
	}
	// A typed key replaces it.
	p["apiKey"] = "sk-new-key-0002"
	e.mustOK(map[string]any{"action": "settings_save", "settings": view})
	if got := stored(); got != "sk-new-key-0002" {
		t.Fatalf("key after replacing: %q", got)
	}
	// Clearing is explicit: no key and apiKeySet false.
	p["apiKey"], p["apiKeySet"] = "", false
	e.mustOK(map[string]any{"action": "settings_save", "settings": view})
	if got := stored(); got != "" {
		t.Fatalf("key after clearing: %q", got)
	}
}

// config_export carries the full document for the file and a masked copy
// for the screen.
func TestConfigExportMasksKeysForDisplay(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	s, _ := settings.Load(context.Background(), e.local)
	s.Providers[0].APIKey = "sk-secret-key-1234"
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		t.Fatal(err)
	}
	reply := e.mustOK(map[string]any{"action": "config_export"})
	key := func(doc any) any {
		return doc.(map[string]any)["settings"].(map[string]any)["providers"].([]any)[0].(map[string]any)["apiKey"]
	}
	if got := key(reply["config"]); got != "sk-secret-key-1234" {
		t.Errorf("exported file key = %v", got)
	}
	if got := key(reply["masked"]); got != "sk-…1234" {
		t.Errorf("masked key = %v", got)
	}
	masked, _ := json.Marshal(reply["masked"])
	if strings.Contains(string(masked), "secret") {
		t.Errorf("masked copy carries the key: %s", masked)
	}
}

// The CAPTCHA solver key is kept like a provider's: settings_get says only
// that one is saved, a save without a typed key keeps it when
// captchaSolverKeySet says so, the export carries it (masked on screen),
// and an import of the masked text is refused.
func TestCaptchaSolverKeyIsKeptLikeAProvidersKey(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	s, _ := settings.Load(context.Background(), e.local)
	s.CaptchaSolverKey = "CAP-secret-solver-9876"
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		t.Fatal(err)
	}
	stored := func() string {
		got, _ := settings.Load(context.Background(), e.local)
		return got.CaptchaSolverKey
	}
	reply := e.mustOK(map[string]any{"action": "settings_get"})
	raw, _ := json.Marshal(reply)
	if strings.Contains(string(raw), "secret-solver") {
		t.Fatalf("settings_get carries the solver key: %s", raw)
	}
	view := reply["settings"].(map[string]any)
	if view["captchaSolverKey"] != "" || view["captchaSolverKeySet"] != true {
		t.Fatalf("view %v", view)
	}
	e.mustOK(map[string]any{"action": "settings_save", "settings": view})
	if got := stored(); got != "CAP-secret-solver-9876" {
		t.Fatalf("key after saving the view: %q", got)
	}
	exported := e.mustOK(map[string]any{"action": "config_export"})
	key := func(doc any) any { return doc.(map[string]any)["settings"].(map[string]any)["captchaSolverKey"] }
	if key(exported["config"]) != "CAP-secret-solver-9876" || key(exported["masked"]) != "CAP…9876" {
		t.Errorf("export %v, masked %v", key(exported["config"]), key(exported["masked"]))
	}
	if rep := e.send(map[string]any{"action": "config_import", "config": exported["masked"]}); rep["ok"] != false || rep["field"] != "settings.captchaSolverKey" {
		t.Errorf("importing the masked key: %v", rep)
	}
	view["captchaSolverKeySet"] = false
	e.mustOK(map[string]any{"action": "settings_save", "settings": view})
	if got := stored(); got != "" {
		t.Fatalf("key after removing: %q", got)
	}
}

// The panel's header record names the active provider without its key or
// address; settings_get writes it when missing, a save keeps it current.
func TestPanelHeaderFollowsTheSettings(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	ctx := context.Background()
	header := func() settings.Header {
		t.Helper()
		got, err := e.local.Get(ctx, protocol.KeyPanelHeader)
		if err != nil {
			t.Fatal(err)
		}
		var h settings.Header
		if raw, ok := got[protocol.KeyPanelHeader]; ok {
			if strings.Contains(string(raw), "apiKey") || strings.Contains(string(raw), "baseUrl") {
				t.Fatalf("header record %s holds more than the header", raw)
			}
			if err := json.Unmarshal(raw, &h); err != nil {
				t.Fatal(err)
			}
		}
		return h
	}
	// Settings stored before the record existed.
	_ = e.local.Remove(ctx, protocol.KeyPanelHeader)
	s := e.mustOK(map[string]any{"action": "settings_get"})["settings"].(map[string]any)
	p := s["providers"].([]any)[0].(map[string]any)
	h := header()
	if h.ActiveProvider != s["activeProvider"] || len(h.Providers) != 1 || h.Providers[0].Model != p["model"] {
		t.Fatalf("header %+v for settings %v", h, s)
	}

	s["theme"] = protocol.ThemeDark
	p["name"] = "Renamed"
	p["model"] = "other-model"
	e.mustOK(map[string]any{"action": "settings_save", "settings": s})
	want := settings.Header{Theme: protocol.ThemeDark, ActiveProvider: p["id"].(string),
		Providers: []settings.HeaderProvider{{ID: p["id"].(string), Name: "Renamed", Model: "other-model"}}}
	if h := header(); fmt.Sprint(h) != fmt.Sprint(want) {
		t.Fatalf("after a save: header %+v, want %+v", h, want)
	}
}
