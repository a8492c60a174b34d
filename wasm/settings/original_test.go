package settings

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func importOriginalFile(t *testing.T) (Settings, Report) {
	t.Helper()
	raw, err := os.ReadFile("testdata/original-config.json")
	if err != nil {
		t.Fatal(err)
	}
	s, rep, err := ImportWithReport(raw)
	if err != nil {
		t.Fatalf("ImportWithReport: %v", err)
	}
	return s, rep
}

func reasonOf(rep Report, field string) string {
	for _, it := range rep.Skipped {
		if it.Field == field {
			return it.Reason
		}
	}
	return ""
}

func importedTo(rep Report, field string) (ReportItem, bool) {
	for _, it := range rep.Imported {
		if it.Field == field {
			return it, true
		}
	}
	return ReportItem{}, false
}

func TestImportOriginalMapsProviders(t *testing.T) {
	s, rep := importOriginalFile(t)
	if rep.Source != "original" || rep.SourceVersion != "25.8.5" {
		t.Errorf("source = %q %q", rep.Source, rep.SourceVersion)
	}
	byID := map[string]int{}
	for i, p := range s.Providers {
		byID[p.ID] = i
	}
	want := []string{"anthropic", "azure-openai", "llamacpp", "ollama"}
	if len(s.Providers) != len(want) {
		t.Fatalf("providers = %+v, want ids %v", s.Providers, want)
	}
	for _, id := range want {
		if _, ok := byID[id]; !ok {
			t.Errorf("provider %q missing: %+v", id, s.Providers)
		}
	}
	a := s.Providers[byID["anthropic"]]
	if a.Kind != protocol.KindAnthropic || a.APIKey != "sk-ant-test-secret-1234" || a.Tier != protocol.TierFull || a.Vision() != llm.VisionAlways || a.Model != "claude-sonnet-4-6" {
		t.Errorf("anthropic = %+v", a)
	}
	az := s.Providers[byID["azure-openai"]]
	if az.Kind != protocol.KindAzure || az.Deployment != "gpt4o-prod" || az.APIVersion != "2024-10-21" || az.Model != "" {
		t.Errorf("azure = %+v", az)
	}
	l := s.Providers[byID["llamacpp"]]
	if l.Kind != protocol.KindOpenAIChat || l.BaseURL != "http://localhost:8080/v1" || l.Tier != protocol.TierCompact || l.Vision() == llm.VisionAlways {
		t.Errorf("llamacpp = %+v", l)
	}
	o := s.Providers[byID["ollama"]]
	if o.APIKey != "" || o.Tier != protocol.TierMid || o.ContextWindow != 32768 || o.Model != "qwen3:8b" || o.Vision() != llm.VisionNever {
		t.Errorf("ollama = %+v (the placeholder key must not be kept)", o)
	}
	if it, _ := importedTo(rep, "providers.ollama"); !strings.Contains(it.Note, "Vision: Never") {
		t.Errorf("ollama note = %q", it.Note)
	}
	if it, ok := importedTo(rep, "wb_user_memory_v1"); !ok || it.To != "memory" || !strings.Contains(string(rep.Memory), "metric") {
		t.Errorf("memory: %+v, raw %s", it, rep.Memory)
	}
	if s.ActiveProvider != "anthropic" {
		t.Errorf("active = %q", s.ActiveProvider)
	}
	for field, want := range map[string]string{
		"providers.aws_bedrock":         "Bedrock",
		"providers.webbrain_cloud":      "WebBrain Cloud",
		"providers.remote_http":         "https://",
		"providers.lmstudio":            "Never set up",
		"wbLocale":                      "language",
		"twoCaptchaApiKey":              "does not use",
		"completionConfetti":            "no such setting",
		"costAllowanceSessionUsd":       "per day and per run",
		"planReviewConfidenceThreshold": "confidence",
		"planBeforeAct":                 "older form",
	} {
		if got := reasonOf(rep, field); !strings.Contains(got, want) {
			t.Errorf("skipped %s: reason %q, want it to mention %q", field, got, want)
		}
	}
}

func TestImportOriginalMapsSettings(t *testing.T) {
	s, rep := importOriginalFile(t)
	if s.MaxSteps != 130 || s.SiteAdapters || !s.AskBeforeActions || s.Planner != protocol.PlannerStrict ||
		s.PlanReview != protocol.ReviewStrict || !s.ResearchEscalation || !s.ExperimentalWebMCP || !s.Traces ||
		s.ScheduledTasks || !s.Memory || s.MemoryAutoLearn || s.Theme != protocol.ThemeDark || s.CaptchaSolverKey != "CAP-0123456789abcdef" {
		t.Errorf("settings = %+v", s)
	}
	if err := s.Validate(); err != nil {
		t.Errorf("imported settings do not validate: %v", err)
	}
	// Every key of the file is accounted for, imported or skipped.
	raw, _ := os.ReadFile("testdata/original-config.json")
	var doc struct {
		Settings map[string]json.RawMessage `json:"settings"`
	}
	_ = json.Unmarshal(raw, &doc)
	seen := map[string]bool{}
	for _, it := range append(append([]ReportItem{}, rep.Imported...), rep.Skipped...) {
		seen[it.Field] = true
		if !strings.HasPrefix(it.Field, "providers") && it.Field != "" {
			continue
		}
		for _, id := range strings.Split(strings.TrimPrefix(it.Field, "providers."), ", ") {
			seen["providers."+id] = true
		}
	}
	for k := range doc.Settings {
		if k != "providers" && !seen[k] {
			t.Errorf("key %q is neither imported nor skipped", k)
		}
	}
	for _, id := range []string{"webbrain_cloud", "ollama", "llamacpp", "lmstudio", "anthropic", "azure_openai", "aws_bedrock", "remote_http"} {
		if !seen["providers."+id] {
			t.Errorf("provider %q is neither imported nor skipped", id)
		}
	}
	// The report names fields, never their values.
	out, _ := json.Marshal(rep)
	for _, secret := range []string{"sk-ant-test-secret-1234", "CAP-0123456789abcdef", "two-captcha-secret-value", "bedrock-secret", "azure-secret-key-5678"} {
		if strings.Contains(string(out), secret) {
			t.Errorf("report shows the secret %q: %s", secret, out)
		}
	}
}

func TestImportOriginalEdgeCases(t *testing.T) {
	cases := []struct {
		name, doc string
		check     func(t *testing.T, s Settings, rep Report, err error)
	}{
		{"no providers keeps the default one", `{"schema":"webbrain-config/1","settings":{"maxAgentSteps":500,"activeProvider":"webbrain_cloud","providers":{}}}`,
			func(t *testing.T, s Settings, rep Report, err error) {
				if err != nil || len(s.Providers) != 1 || s.ActiveProvider != "ollama" || s.MaxSteps != 200 {
					t.Errorf("s = %+v, err %v", s, err)
				}
				if it, _ := importedTo(rep, "maxAgentSteps"); !strings.Contains(it.Note, "200") {
					t.Errorf("maxAgentSteps note = %q", it.Note)
				}
				if !strings.Contains(reasonOf(rep, "activeProvider"), "default provider") {
					t.Errorf("activeProvider reason = %q", reasonOf(rep, "activeProvider"))
				}
			}},
		{"wrong types are skipped, not fatal", `{"schema":"webbrain-config/1","settings":{"useSiteAdapters":"yes","themeMode":"pink","providers":{"x":"nope"}}}`,
			func(t *testing.T, s Settings, rep Report, err error) {
				if err != nil || !s.SiteAdapters || s.Theme != "" {
					t.Errorf("s = %+v, err %v", s, err)
				}
				for _, f := range []string{"useSiteAdapters", "themeMode", "providers.x"} {
					if reasonOf(rep, f) == "" {
						t.Errorf("%s not reported as skipped: %+v", f, rep.Skipped)
					}
				}
			}},
		{"settings not an object", `{"schema":"webbrain-config/1","settings":[]}`,
			func(t *testing.T, s Settings, rep Report, err error) {
				if err == nil {
					t.Error("want an error")
				}
			}},
		{"legacy planBeforeAct off", `{"schema":"webbrain-config/1","settings":{"planBeforeAct":false}}`,
			func(t *testing.T, s Settings, rep Report, err error) {
				if err != nil || s.Planner != protocol.PlannerOff {
					t.Errorf("planner = %q, err %v", s.Planner, err)
				}
			}},
		{"solver off keeps its key out", `{"schema":"webbrain-config/1","settings":{"captchaSolverEnabled":false,"capsolverApiKey":"CAP-x"}}`,
			func(t *testing.T, s Settings, rep Report, err error) {
				if err != nil || s.CaptchaSolverKey != "" || reasonOf(rep, "capsolverApiKey") == "" {
					t.Errorf("key = %q, report %+v, err %v", s.CaptchaSolverKey, rep, err)
				}
			}},
		{"own format reports its providers", `{"format":"webbrain-config/1","settings":{"providers":[{"id":"a","name":"A","kind":"anthropic","baseUrl":"https://api.anthropic.com","tier":"full","apiKey":"k"}],"activeProvider":"a","maxSteps":5}}`,
			func(t *testing.T, s Settings, rep Report, err error) {
				if err != nil || rep.Source != "webbrain" {
					t.Fatalf("rep %+v, err %v", rep, err)
				}
				if it, ok := importedTo(rep, "settings.providers.a"); !ok || it.Note != "API key included." {
					t.Errorf("rep = %+v", rep)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, rep, err := ImportWithReport(json.RawMessage(c.doc))
			c.check(t, s, rep, err)
		})
	}
}

func TestOriginalIDShape(t *testing.T) {
	for in, want := range map[string]string{"azure_openai": "azure-openai", "My  Provider!": "my-provider", "__": "provider", "Ünï_x": "n-x", "a--b": "a--b"} {
		if got := originalID(in); got != want {
			t.Errorf("originalID(%q) = %q, want %q", in, got, want)
		}
	}
}
