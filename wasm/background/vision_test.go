package background

import (
	"context"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// provider_vision reports the detection and the mode in effect, with the
// stored key when the page has none typed; a run uses the cached answer.
func TestProviderVisionAndCache(t *testing.T) {
	srv := llmtest.NewTurns()
	srv.SetCapabilities([]string{"completion", "vision"})
	e := newEnv(t, srv)
	p := map[string]any{"id": "test", "name": "Test", "kind": "openai-chat", "baseUrl": srv.URL + "/v1", "model": llmtest.Model, "tier": "mid"}
	r := e.mustOK(map[string]any{"action": protocol.ActionProviderVision, "provider": p})
	if r["vision"] != true || r["detected"] != true || r["source"] != llm.VisionFromOllama || r["visionMode"] != llm.VisionAuto || r["model"] != llmtest.Model {
		t.Fatalf("auto: %v", r)
	}
	p["vision"] = true // the older switch reads as always
	if r := e.mustOK(map[string]any{"action": protocol.ActionProviderVision, "provider": p}); r["visionMode"] != llm.VisionAlways || r["vision"] != true {
		t.Fatalf("legacy: %v", r)
	}
	p["visionMode"] = llm.VisionNever
	if r := e.mustOK(map[string]any{"action": protocol.ActionProviderVision, "provider": p}); r["vision"] != false || r["detected"] != true {
		t.Fatalf("never: %v", r)
	}
	if r := e.send(map[string]any{"action": protocol.ActionProviderVision}); r["ok"] != false {
		t.Fatalf("no provider: %v", r)
	}
	// A half-filled form may ask; a remote plain-http address may not.
	if r := e.mustOK(map[string]any{"action": protocol.ActionProviderVision, "provider": map[string]any{"kind": "openai-chat", "baseUrl": "https://api.openai.com/v1", "model": "gpt-4o"}}); r["detected"] != true || r["source"] != llm.VisionFromModelName {
		t.Fatalf("half-filled: %v", r)
	}
	if r := e.send(map[string]any{"action": protocol.ActionProviderVision, "provider": map[string]any{"kind": "openai-chat", "baseUrl": "http://example.com/v1"}}); r["ok"] != false || r["field"] != "provider.baseUrl" {
		t.Fatalf("remote http: %v", r)
	}

	// The server stops saying vision: the cached answer stands for the
	// same provider and model; an empty model asks again.
	srv.SetCapabilities([]string{"completion"})
	cfg := llm.Config{Kind: protocol.KindOpenAIChat, BaseURL: srv.URL + "/v1", Model: llmtest.Model}
	if !e.r.vision(context.Background(), cfg).Vision {
		t.Fatal("the cached detection was not used")
	}
	cfg.Model = ""
	if e.r.vision(context.Background(), cfg).Vision {
		t.Fatal("an empty model was not asked again")
	}
}

func TestProviderPresets(t *testing.T) {
	e := newEnv(t, llmtest.NewTurns())
	list, _ := e.mustOK(map[string]any{"action": protocol.ActionProviderPresets})["presets"].([]any)
	if len(list) != len(llm.Presets) {
		t.Fatalf("%d presets, want %d", len(list), len(llm.Presets))
	}
	first := list[0].(map[string]any)
	if first["id"] != llm.Presets[0].ID || first["kind"] != llm.Presets[0].Kind || first["auth"] == "" || first["tier"] == "" {
		t.Fatalf("first preset %v", first)
	}
}
