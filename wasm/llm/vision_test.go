package llm_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	. "github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform/nativefetch"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// metadataServer answers like one local server family.
func metadataServer(t *testing.T, family string, vision bool) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/v1/models":
			io.WriteString(w, `{"object":"list","data":[{"id":"loaded-model"}]}`)
		case family == "ollama" && r.URL.Path == "/api/show" && r.Method == "POST":
			if !strings.Contains(string(body), `"model":"loaded-model"`) && !strings.Contains(string(body), `"model":"gemma3:4b"`) {
				http.NotFound(w, r)
				return
			}
			caps := `["completion","tools"]`
			if vision {
				caps = `["completion","vision","tools"]`
			}
			io.WriteString(w, `{"details":{"family":"gemma3"},"capabilities":`+caps+`}`)
		case family == "llama.cpp" && r.URL.Path == "/props":
			if vision {
				io.WriteString(w, `{"model_path":"m.gguf","modalities":{"vision":true,"audio":false}}`)
			} else {
				io.WriteString(w, `{"model_path":"m.gguf","modalities":{"vision":false,"audio":false}}`)
			}
		case family == "lmstudio" && strings.HasPrefix(r.URL.Path, "/api/v0/models/"):
			typ := "llm"
			if vision {
				typ = "vlm"
			}
			io.WriteString(w, `{"id":"loaded-model","object":"model","type":"`+typ+`"}`)
		case family == "slow":
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		default:
			http.NotFound(w, r)
		}
	}))
}

func TestDetectVisionFromLocalServers(t *testing.T) {
	for _, family := range []string{"ollama", "llama.cpp", "lmstudio"} {
		for _, vision := range []bool{true, false} {
			srv := metadataServer(t, family, vision)
			for _, model := range []string{"", "gemma3:4b"} {
				if family != "ollama" && model != "" {
					continue
				}
				cfg := Config{Kind: protocol.KindOpenAIChat, BaseURL: srv.URL + "/v1", Model: model}
				got := DetectVision(context.Background(), cfg, nativefetch.Fetcher{})
				if got.Vision != vision || got.Source != family {
					t.Errorf("%s vision=%v model %q: %+v", family, vision, model, got)
				}
			}
			srv.Close()
		}
	}
}

func TestDetectVisionOverridesAndFailsClosed(t *testing.T) {
	srv := metadataServer(t, "ollama", true)
	defer srv.Close()
	cfg := Config{Kind: protocol.KindOpenAIChat, BaseURL: srv.URL + "/v1", VisionMode: VisionNever}
	if got := DetectVision(context.Background(), cfg, nativefetch.Fetcher{}); got.Vision || got.Source != VisionFromSetting {
		t.Fatalf("never: %+v", got)
	}
	cfg = Config{Kind: protocol.KindOpenAIChat, BaseURL: "http://127.0.0.1:1/v1", LegacyVision: true}
	if got := DetectVision(context.Background(), cfg, nativefetch.Fetcher{}); !got.Vision || got.Source != VisionFromSetting {
		t.Fatalf("legacy vision: true: %+v", got)
	}
	// Nothing answers: no vision, not an error.
	cfg = Config{Kind: protocol.KindOpenAIChat, BaseURL: "http://127.0.0.1:1/v1", Model: "gemma3"}
	if got := DetectVision(context.Background(), cfg, nativefetch.Fetcher{}); got.Vision || got.Source != VisionFromUnknown {
		t.Fatalf("no server: %+v", got)
	}
	slow := metadataServer(t, "slow", true)
	defer slow.Close()
	start := time.Now()
	got := DetectVision(context.Background(), Config{Kind: protocol.KindOpenAIChat, BaseURL: slow.URL + "/v1", Model: "m"}, nativefetch.Fetcher{})
	if got.Vision || time.Since(start) > VisionTimeout+time.Second {
		t.Fatalf("slow server: %+v after %v", got, time.Since(start))
	}
}

func TestVisionByModelName(t *testing.T) {
	for model, want := range map[string]bool{
		"gpt-4o": true, "gpt-4o-mini": true, "gpt-4.1-nano": true, "gpt-5.6": true, "o3": true, "o1-mini": false, "o3-mini": false,
		"gpt-3.5-turbo": false, "gpt-4o-audio-preview": false,
		"claude-3-5-sonnet-20241022": true, "claude-sonnet-4-5": true, "claude-opus-4-1-20250805": true,
		"anthropic.claude-3-5-haiku-20241022-v1:0": true, "us.amazon.nova-pro-v1:0": true, "amazon.nova-micro-v1:0": false,
		"gemini-2.5-flash": true, "grok-4": true, "grok-3-mini": false, "pixtral-large-latest": true,
		"mistral-large-latest": false, "deepseek-chat": false, "meta-llama/llama-4-scout": true,
		"qwen2.5-vl-72b-instruct": true, "llama-3.1-8b-instant": false, "": false,
		"o1": true, "o10": false, "x:o1-mini": false, "glm-4.5v": true, "glm-4.55v": false, "llama3.2-11b-vision": true,
		"grok-2-vision-1212": true, "mistral-small-2503": true, "mistral-small-2409": false, "phi-3.5-vision": true,
		"claude-sonnet-3": false, "Claude-3-Opus": true, "gemini-embedding-001": false, "ollama/llava:13b": true,
	} {
		if got := VisionByName(model); got.Vision != want {
			t.Errorf("%q: vision %v, want %v", model, got.Vision, want)
		}
	}
}

func TestVisionFromOpenRouterModelList(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"data":[{"id":"a/text","architecture":{"input_modalities":["text"]}},{"id":"b/vl","architecture":{"input_modalities":["text","image"]}}]}`)
	}))
	defer srv.Close()
	for model, want := range map[string]bool{"a/text": false, "b/vl": true} {
		r, ok := OpenRouterVision(context.Background(), nativefetch.Fetcher{}, srv.URL+"/api/v1", model)
		if !ok || r.Vision != want || r.Source != VisionFromOpenRouter {
			t.Errorf("%s: %+v %v", model, r, ok)
		}
	}
	if _, ok := OpenRouterVision(context.Background(), nativefetch.Fetcher{}, srv.URL+"/api/v1", "c/missing"); ok {
		t.Error("a model missing from the list was judged")
	}
}

func TestResponsesOnlyModels(t *testing.T) {
	for model, want := range map[string]bool{
		"gpt-5.6": true, "gpt-5.6-mini": true, " GPT-5.6 ": true, "gpt-5.60": false, "gpt-5.1-pro": true, "gpt-5-pro-2025": true,
		"gpt-5.12-codex": true, "codex-mini-latest": true, "o3-deep-research": true, "o1-pro": true,
		"gpt-5": false, "gpt-5.1": false, "o3": false, "o1-proto": false, "my-gpt-5.6": false,
	} {
		if got := ResponsesOnly(model); got != want {
			t.Errorf("ResponsesOnly(%q) = %v, want %v", model, got, want)
		}
	}
}
