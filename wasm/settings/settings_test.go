package settings

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/cost"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform/platformtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func twoProviders() Settings {
	s := Defaults()
	s.Providers = append(s.Providers, llm.Config{
		ID: "az", Name: "Azure", Kind: protocol.KindAzure, BaseURL: "https://x.openai.azure.com",
		APIKey: "k", Model: "gpt", Tier: protocol.TierFull, ContextWindow: 128000,
		Deployment: "dep", APIVersion: "2024-10-21",
	})
	s.ActiveProvider = "az"
	return s
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*Settings)
		field string
	}{
		{"defaults are valid", func(s *Settings) { *s = Defaults() }, ""},
		{"two providers valid", func(*Settings) {}, ""},
		{"no providers", func(s *Settings) { s.Providers = nil }, "providers"},
		{"empty id", func(s *Settings) { s.Providers[1].ID = " " }, "providers[1].id"},
		{"duplicate id", func(s *Settings) { s.Providers[1].ID = "ollama" }, "providers[1].id"},
		{"empty name", func(s *Settings) { s.Providers[0].Name = "" }, "providers[0].name"},
		{"unknown kind", func(s *Settings) { s.Providers[0].Kind = "gemini" }, "providers[0].kind"},
		{"relative base URL", func(s *Settings) { s.Providers[1].BaseURL = "/v1" }, "providers[1].baseUrl"},
		{"ftp base URL", func(s *Settings) { s.Providers[1].BaseURL = "ftp://host/v1" }, "providers[1].baseUrl"},
		{"base URL without host", func(s *Settings) { s.Providers[1].BaseURL = "http://" }, "providers[1].baseUrl"},
		{"empty base URL", func(s *Settings) { s.Providers[0].BaseURL = "" }, "providers[0].baseUrl"},
		{"unknown tier", func(s *Settings) { s.Providers[0].Tier = "large" }, "providers[0].tier"},
		{"empty tier", func(s *Settings) { s.Providers[0].Tier = "" }, "providers[0].tier"},
		{"negative context window", func(s *Settings) { s.Providers[1].ContextWindow = -1 }, "providers[1].contextWindow"},
		{"azure without deployment", func(s *Settings) { s.Providers[1].Deployment = "" }, "providers[1].deployment"},
		{"azure without apiVersion", func(s *Settings) { s.Providers[1].APIVersion = "" }, "providers[1].apiVersion"},
		{"active provider missing", func(s *Settings) { s.ActiveProvider = "nope" }, "activeProvider"},
		{"active provider empty", func(s *Settings) { s.ActiveProvider = "" }, "activeProvider"},
		{"maxSteps 0", func(s *Settings) { s.MaxSteps = 0 }, "maxSteps"},
		{"maxSteps 201", func(s *Settings) { s.MaxSteps = 201 }, "maxSteps"},
		{"maxSteps 1", func(s *Settings) { s.MaxSteps = 1 }, ""},
		{"maxSteps 200", func(s *Settings) { s.MaxSteps = 200 }, ""},
		{"dark theme", func(s *Settings) { s.Theme = protocol.ThemeDark }, ""},
		{"unknown theme", func(s *Settings) { s.Theme = "sepia" }, "theme"},
		{"daily allowance", func(s *Settings) { s.DailyAllowanceUSD, s.RunAllowanceUSD = 2.5, 0.5 }, ""},
		{"negative daily allowance", func(s *Settings) { s.DailyAllowanceUSD = -1 }, "dailyAllowanceUsd"},
		{"huge run allowance", func(s *Settings) { s.RunAllowanceUSD = 1e9 }, "runAllowanceUsd"},
		{"own price", func(s *Settings) { s.Prices = map[string]cost.Price{"my-model": {Input: 1, Output: 2}} }, ""},
		{"negative price", func(s *Settings) { s.Prices = map[string]cost.Price{"my-model": {Input: -1}} }, "prices.my-model"},
		{"price without model", func(s *Settings) { s.Prices = map[string]cost.Price{" ": {Input: 1}} }, "prices"},
		{"https base URL with port", func(s *Settings) { s.Providers[0].BaseURL = "https://127.0.0.1:8080/v1" }, ""},
		{"http to a remote name", func(s *Settings) { s.Providers[1].BaseURL = "http://x.openai.azure.com" }, "providers[1].baseUrl"},
		{"http to a public address", func(s *Settings) { s.Providers[0].BaseURL = "http://203.0.113.9:11434/v1" }, "providers[0].baseUrl"},
		{"http to a public address in decimal", func(s *Settings) { s.Providers[0].BaseURL = "http://3405803785/v1" }, "providers[0].baseUrl"},
		{"http to localhost", func(s *Settings) { s.Providers[0].BaseURL = "http://localhost:1234/v1" }, ""},
		{"http to IPv6 loopback", func(s *Settings) { s.Providers[0].BaseURL = "http://[::1]:8080/v1" }, ""},
		{"http to a LAN address", func(s *Settings) { s.Providers[0].BaseURL = "http://192.168.1.20:11434/v1" }, ""},
		{"http to a VPN (CGNAT) address", func(s *Settings) { s.Providers[0].BaseURL = "http://100.101.102.103:11434/v1" }, ""},
		{"http to a .local name", func(s *Settings) { s.Providers[0].BaseURL = "http://gpu.local:8080/v1" }, ""},
		{"http to a .lan name", func(s *Settings) { s.Providers[0].BaseURL = "http://gpu.lan:8080/v1" }, ""},
		{"http to an intranet name", func(s *Settings) { s.Providers[0].BaseURL = "http://gpu-box:8080/v1" }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := twoProviders()
			c.edit(&s)
			err := s.Validate()
			if c.field == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("want FieldError for %s, got %v", c.field, err)
			}
			if fe.Field != c.field || fe.Message == "" {
				t.Fatalf("field %q message %q, want field %q", fe.Field, fe.Message, c.field)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	d := Defaults()
	if len(d.Providers) != 1 || d.Providers[0].BaseURL != "http://127.0.0.1:11434/v1" ||
		d.Providers[0].Kind != protocol.KindOpenAIChat || d.Providers[0].Model != "" ||
		d.Providers[0].Tier != protocol.TierMid || d.MaxSteps != 130 {
		t.Fatalf("unexpected defaults %+v", d)
	}
	if a, err := d.Active(); err != nil || a.ID != d.ActiveProvider {
		t.Fatalf("Active() = %+v, %v", a, err)
	}
}

func TestLoadSave(t *testing.T) {
	ctx := context.Background()
	st := platformtest.NewStorage()

	s, err := Load(ctx, st)
	if err != nil || s.ActiveProvider != "ollama" {
		t.Fatalf("absent settings: %+v, %v", s, err)
	}

	want := twoProviders()
	if err := Save(ctx, st, want); err != nil {
		t.Fatal(err)
	}
	got, err := Load(ctx, st)
	if err != nil || got.ActiveProvider != "az" || len(got.Providers) != 2 || got.Providers[1] != want.Providers[1] {
		t.Fatalf("round trip: %+v, %v", got, err)
	}

	bad := want
	bad.MaxSteps = 0
	if err := Save(ctx, st, bad); err == nil {
		t.Fatal("saved an invalid value")
	}
	if got, _ := Load(ctx, st); got.MaxSteps != want.MaxSteps {
		t.Fatalf("invalid save changed storage: %+v", got)
	}
}

func TestLoadCorrupt(t *testing.T) {
	for _, raw := range []string{`{"providers": 5}`, `not json`, `{"providers":[],"activeProvider":"x","maxSteps":3}`} {
		st := platformtest.NewStorage()
		_ = st.Set(context.Background(), map[string]json.RawMessage{protocol.KeySettings: json.RawMessage(raw)})
		s, err := Load(context.Background(), st)
		if err == nil {
			t.Errorf("%s: no problem reported", raw)
		}
		if s.ActiveProvider != "ollama" || s.MaxSteps != DefaultMaxSteps {
			t.Errorf("%s: not the defaults: %+v", raw, s)
		}
	}
}

func TestDecodeIgnoresUnknownFieldsAndNamesWrongTypes(t *testing.T) {
	s, err := Decode(json.RawMessage(`{"providers":[{"id":"a","name":"A","kind":"anthropic","baseUrl":"https://api.anthropic.com","tier":"full","color":"red"}],"activeProvider":"a","maxSteps":5,"fontSize":14}`))
	if err != nil || s.Validate() != nil {
		t.Fatalf("decode: %v / %v", err, s.Validate())
	}
	out, _ := json.Marshal(s)
	if strings.Contains(string(out), "fontSize") || strings.Contains(string(out), "color") {
		t.Fatalf("unknown fields kept: %s", out)
	}

	_, err = Decode(json.RawMessage(`{"providers":[],"activeProvider":"a","maxSteps":"5"}`))
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "maxSteps" {
		t.Fatalf("wrong-type error: %v", err)
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	want := twoProviders()
	doc := Export(want, time.Date(2026, 11, 30, 13, 0, 0, 0, time.FixedZone("CET", 3600)))
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"format":"webbrain-config/1"`) || !strings.Contains(string(raw), `"exportedAt":"2026-11-30T12:00:00Z"`) {
		t.Fatalf("document head: %s", raw)
	}
	if !strings.Contains(string(raw), `"apiKey":"k"`) {
		t.Fatalf("API key must travel in plain text: %s", raw)
	}
	got, err := Import(raw)
	if err != nil {
		t.Fatal(err)
	}
	if got.ActiveProvider != want.ActiveProvider || got.MaxSteps != want.MaxSteps || len(got.Providers) != 2 ||
		got.Providers[0] != want.Providers[0] || got.Providers[1] != want.Providers[1] {
		t.Fatalf("round trip changed settings: %+v", got)
	}
}

func TestImportRejects(t *testing.T) {
	cases := []struct{ doc, field string }{
		{`[1,2]`, ""},
		{`{"settings":{}}`, "format"},
		{`{"format":"webbrain-config/2","settings":{}}`, "format"},
		{`{"format":"webbrain-config/1"}`, "settings"},
		{`{"format":"webbrain-config/1","settings":{"providers":[{"id":"a","name":"A","kind":"openai-chat","baseUrl":"localhost:1234","tier":"mid"}],"activeProvider":"a","maxSteps":3}}`, "settings.providers[0].baseUrl"},
		{`{"format":"webbrain-config/1","settings":{"providers":[],"activeProvider":"a","maxSteps":3}}`, "settings.providers"},
		{`{"format":"webbrain-config/1","settings":{"providers":"x"}}`, "settings.providers"},
	}
	for _, c := range cases {
		_, err := Import(json.RawMessage(c.doc))
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Message == "" {
			t.Errorf("%s: got %v, want field %q", c.doc, err, c.field)
		}
	}
}

// Settings stored before https was required for remote providers still
// load, so the user sees and fixes them; running with one is refused, and
// saving or importing one is an error on the field.
func TestRemoteHTTPLoadsButDoesNotRun(t *testing.T) {
	const stored = `{"providers":[{"id":"a","name":"A","kind":"openai-chat","baseUrl":"https://api.example.com/v1","tier":"mid"},` +
		`{"id":"b","name":"B","kind":"openai-chat","baseUrl":"http://api.example.com/v1","apiKey":"sk-secret","tier":"mid"}],"activeProvider":"b","maxSteps":5}`
	st := platformtest.NewStorage()
	if err := st.Set(context.Background(), map[string]json.RawMessage{protocol.KeySettings: json.RawMessage(stored)}); err != nil {
		t.Fatal(err)
	}
	s, err := Load(context.Background(), st)
	if err != nil || len(s.Providers) != 2 {
		t.Fatalf("Load = %+v, %v; want the stored settings", s, err)
	}
	var fe *FieldError
	if _, err := s.Active(); !errors.As(err, &fe) || fe.Field != "providers[1].baseUrl" || !strings.Contains(fe.Message, "https://") {
		t.Errorf("Active: %v", err)
	}
	if err := Save(context.Background(), st, s); !errors.As(err, &fe) || fe.Field != "providers[1].baseUrl" {
		t.Errorf("Save: %v", err)
	}
	s.ActiveProvider = "a"
	if _, err := s.Active(); err != nil {
		t.Errorf("Active with the https provider: %v", err)
	}
	_, err = Import(json.RawMessage(`{"format":"webbrain-config/1","settings":` + stored + `}`))
	if !errors.As(err, &fe) || fe.Field != "settings.providers[1].baseUrl" {
		t.Errorf("Import: %v", err)
	}
}

func TestSiteAdaptersDefaultOnAndTravel(t *testing.T) {
	if !Defaults().SiteAdapters {
		t.Fatal("site adapters are off by default")
	}
	// Settings stored before the field existed keep adapters on.
	old, err := Decode(json.RawMessage(`{"providers":[{"id":"a","name":"A","kind":"anthropic","baseUrl":"https://api.anthropic.com","tier":"full"}],"activeProvider":"a","maxSteps":5}`))
	if err != nil || !old.SiteAdapters {
		t.Fatalf("absent siteAdapters: %+v, %v", old, err)
	}
	off := twoProviders()
	off.SiteAdapters = false
	ctx := context.Background()
	st := platformtest.NewStorage()
	if err := Save(ctx, st, off); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(ctx, st); err != nil || got.SiteAdapters {
		t.Fatalf("stored false came back as %+v, %v", got, err)
	}
	raw, _ := json.Marshal(Export(off, time.Unix(0, 0)))
	if !strings.Contains(string(raw), `"siteAdapters":false`) {
		t.Fatalf("export lacks siteAdapters: %s", raw)
	}
	if got, err := Import(raw); err != nil || got.SiteAdapters {
		t.Fatalf("import: %+v, %v", got, err)
	}
	if _, err := Decode(json.RawMessage(`{"providers":[],"activeProvider":"a","maxSteps":5,"siteAdapters":"yes"}`)); err == nil {
		t.Fatal("a string siteAdapters was accepted")
	}
}

func TestVisionModeDefaultsAutoAndTravels(t *testing.T) {
	s, err := Decode(json.RawMessage(`{"providers":[{"id":"a","name":"A","kind":"openai-chat","baseUrl":"http://127.0.0.1:1/v1","tier":"mid"}],"activeProvider":"a","maxSteps":5}`))
	if err != nil || s.Providers[0].Vision() != llm.VisionAuto {
		t.Fatalf("a provider without a vision setting detects it: %+v %v", s.Providers[0], err)
	}
	// The older boolean loads as its mode and is saved as visionMode only.
	for legacy, want := range map[string]string{"true": llm.VisionAlways, "false": llm.VisionAuto} {
		s, err := Decode(json.RawMessage(`{"providers":[{"id":"a","name":"A","kind":"openai-chat","baseUrl":"http://127.0.0.1:1/v1","tier":"mid","vision":` + legacy + `}],"activeProvider":"a","maxSteps":5}`))
		if err != nil || s.Providers[0].Vision() != want {
			t.Fatalf("vision %s loads as %+v %v", legacy, s.Providers[0], err)
		}
		raw, _ := json.Marshal(s)
		if strings.Contains(string(raw), `"vision":`) || want == llm.VisionAlways && !strings.Contains(string(raw), `"visionMode":"always"`) {
			t.Fatalf("saved as %s", raw)
		}
	}
	s.Providers[0].VisionMode = llm.VisionNever
	raw, err := json.Marshal(Export(s, time.Unix(0, 0)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Import(raw)
	if err != nil || got.Providers[0].VisionMode != llm.VisionNever {
		t.Fatalf("import lost the vision mode: %+v %v", got.Providers, err)
	}
	s.Providers[0].VisionMode = "sometimes"
	var fe0 *FieldError
	if err := s.Validate(); !errors.As(err, &fe0) || fe0.Field != "providers[0].visionMode" {
		t.Fatalf("unknown vision mode: %v", err)
	}

	_, err = Decode(json.RawMessage(`{"providers":[{"id":"a","name":"A","kind":"openai-chat","baseUrl":"http://127.0.0.1:1/v1","tier":"mid","vision":"yes"}],"activeProvider":"a","maxSteps":5}`))
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "providers.vision" && fe.Field != "providers[0].vision" {
		t.Fatalf("wrong-type vision: %v", err)
	}
}

func TestAskBeforeActionsDefaultOnAndTravels(t *testing.T) {
	if !Defaults().AskBeforeActions {
		t.Fatal("asking before actions is off by default")
	}
	// Settings stored or exported before the field existed keep it on.
	old, err := Decode(json.RawMessage(`{"providers":[{"id":"a","name":"A","kind":"anthropic","baseUrl":"https://api.anthropic.com","tier":"full"}],"activeProvider":"a","maxSteps":5}`))
	if err != nil || !old.AskBeforeActions {
		t.Fatalf("absent askBeforeActions: %+v, %v", old, err)
	}
	imported, err := Import(json.RawMessage(`{"format":"webbrain-config/1","settings":{"providers":[{"id":"a","name":"A","kind":"anthropic","baseUrl":"https://api.anthropic.com","tier":"full"}],"activeProvider":"a","maxSteps":5}}`))
	if err != nil || !imported.AskBeforeActions {
		t.Fatalf("import without askBeforeActions: %+v, %v", imported, err)
	}
	off := twoProviders()
	off.AskBeforeActions = false
	ctx := context.Background()
	st := platformtest.NewStorage()
	if err := Save(ctx, st, off); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(ctx, st); err != nil || got.AskBeforeActions {
		t.Fatalf("stored false came back as %+v, %v", got, err)
	}
	raw, _ := json.Marshal(Export(off, time.Unix(0, 0)))
	if !strings.Contains(string(raw), `"askBeforeActions":false`) {
		t.Fatalf("export lacks askBeforeActions: %s", raw)
	}
	if got, err := Import(raw); err != nil || got.AskBeforeActions {
		t.Fatalf("import: %+v, %v", got, err)
	}
	var fe *FieldError
	if _, err := Decode(json.RawMessage(`{"providers":[],"activeProvider":"a","maxSteps":5,"askBeforeActions":"yes"}`)); !errors.As(err, &fe) || fe.Field != "askBeforeActions" {
		t.Fatalf("a string askBeforeActions: %v", err)
	}
}

func TestMaskKey(t *testing.T) {
	for key, want := range map[string]string{
		"":                    "",
		"short":               "…",
		"sk-proj-abcdef1234":  "sk-…1234",
		"sk-ant-ключ-secret9": "sk-…ret9",
	} {
		if got := MaskKey(key); got != want {
			t.Errorf("MaskKey(%q) = %q, want %q", key, got, want)
		}
	}
}

// The masked copy the panel shows cannot be imported as if it held keys.
func TestImportRefusesMaskedKeys(t *testing.T) {
	s := twoProviders()
	s.Providers[1].APIKey = MaskKey("sk-secret-key-1234")
	raw, _ := json.Marshal(Export(s, time.Unix(0, 0)))
	_, err := Import(raw)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "settings.providers[1].apiKey" || !strings.Contains(fe.Message, "masked") {
		t.Fatalf("import of a masked key: %v", err)
	}
}
