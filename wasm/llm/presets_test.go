package llm_test

import (
	"net/url"
	"testing"

	. "github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform/nativefetch"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Every preset makes a provider New accepts (a placeholder key where one
// is needed), with unique ids, and the spec's families are there.
func TestPresets(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Presets {
		if seen[p.ID] {
			t.Errorf("duplicate id %s", p.ID)
		}
		seen[p.ID] = true
		u, err := url.Parse(p.BaseURL)
		if err != nil || u.Host == "" {
			t.Errorf("%s: base URL %q", p.ID, p.BaseURL)
		}
		if p.Local != (u.Scheme == "http") || p.Local != (p.Auth == AuthNone) || p.Local != (p.Tier == protocol.TierMid) {
			t.Errorf("%s: local %v, scheme %s, auth %s, tier %s", p.ID, p.Local, u.Scheme, p.Auth, p.Tier)
		}
		cfg := Config{Kind: p.Kind, BaseURL: p.BaseURL, Model: "m", APIKey: "placeholder-key", Deployment: "d", APIVersion: "2024-10-21"}
		if p.Kind == protocol.KindAzure {
			cfg.BaseURL = "https://example.openai.azure.com"
		}
		if _, err := New(cfg, nativefetch.Fetcher{}); err != nil {
			t.Errorf("%s: %v", p.ID, err)
		}
	}
	for _, id := range []string{"openai", "anthropic", "azure", "bedrock", "gemini", "deepseek", "xai", "mistral", "nvidia", "groq",
		"together", "fireworks", "zai", "openrouter", "alibaba", "ollama", "lmstudio", "llamacpp", "jan", "vllm", "sglang", "localai"} {
		if !seen[id] {
			t.Errorf("no preset %s", id)
		}
	}
}
