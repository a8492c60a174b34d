package llm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/platform/nativefetch"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// The spec's per-family rules: official Responses-only models go to the
// Responses API, z.ai asks for tool_stream, DashScope sends tool requests
// unstreamed, llama.cpp needs no key.
func TestProviderFamilies(t *testing.T) {
	wireOf := func(cfg Config) wire {
		p, err := New(cfg, nativefetch.Fetcher{})
		if err != nil {
			t.Fatal(err)
		}
		return p.(*client).wire
	}
	for model, responses := range map[string]bool{"gpt-5.6": true, "gpt-5-pro": true, "gpt-5.5-pro-2026-01-01": true, "o3-pro": true,
		"gpt-5-codex": true, "gpt-4o": false, "gpt-5": false, "gpt-5.5": false} {
		w := wireOf(Config{Kind: protocol.KindOpenAIChat, BaseURL: "https://api.openai.com/v1", APIKey: "sk-x", Model: model})
		if _, ok := w.(*responsesWire); ok != responses {
			t.Errorf("%s: responses %v", model, ok)
		}
	}
	// Only the official API: a proxy keeps the format the user chose.
	if _, ok := wireOf(Config{Kind: protocol.KindOpenAIChat, BaseURL: "https://proxy.example/v1", Model: "gpt-5.6"}).(*chatWire); !ok {
		t.Error("a proxy's gpt-5.6 left Chat Completions")
	}
	req := Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}, Tools: []ToolSpec{{Name: "t", Parameters: json.RawMessage(`{"type":"object"}`)}}}
	zai := wireOf(Config{Kind: protocol.KindOpenAIChat, BaseURL: "https://api.z.ai/api/paas/v4", APIKey: "k", Model: "glm-4.6"}).(*chatWire)
	b, _ := zai.encode(req, "glm-4.6", true)
	if !strings.Contains(string(b), `"tool_stream":true`) || !zai.streams(req) {
		t.Errorf("z.ai: %s", b)
	}
	dash := wireOf(Config{Kind: protocol.KindOpenAIChat, BaseURL: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", APIKey: "k", Model: "qwen-max"}).(*chatWire)
	if dash.streams(req) || !dash.streams(Request{}) {
		t.Error("DashScope streams a request with tools")
	}
	if b, _ := dash.encode(req, "qwen-max", false); strings.Contains(string(b), "tool_stream") {
		t.Errorf("DashScope body %s", b)
	}
	llama := wireOf(Config{Kind: protocol.KindOpenAIChat, BaseURL: "http://127.0.0.1:8080/v1"}).(*chatWire)
	if _, ok := llama.headers()["Authorization"]; ok {
		t.Error("llama.cpp without a key sent Authorization")
	}
}
