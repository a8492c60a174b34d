package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
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
	if w := wireOf(Config{Kind: protocol.KindOpenAIChat, BaseURL: "https://api.openai.com/v1", APIKey: "sk-x", Model: "gpt-5.5-pro"}).(*responsesWire); w.streams(Request{}) {
		t.Error("GPT-5.5 Pro streams")
	}
	if w := wireOf(Config{Kind: protocol.KindOpenAIResponses, BaseURL: "https://api.openai.com/v1", APIKey: "sk-x", Model: "gpt-5.6"}).(*responsesWire); !w.streams(Request{}) {
		t.Error("GPT-5.6 does not stream")
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

// A llama.cpp server whose model list is empty names its model in /props.
func TestLlamaCppModelFromProps(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			io.WriteString(w, `{"object":"list","data":[]}`)
		case "/props":
			io.WriteString(w, `{"model_path":"/models/Qwen3-8B-Q4_K_M.gguf","modalities":{"vision":false}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	p, err := New(Config{Kind: protocol.KindOpenAIChat, BaseURL: srv.URL + "/v1"}, nativefetch.Fetcher{})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := p.Test(context.Background()); err != nil || m != "Qwen3-8B-Q4_K_M.gguf" {
		t.Fatalf("Test = %q, %v", m, err)
	}
}
