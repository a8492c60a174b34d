//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// saveProvider saves one provider object as the only, active provider.
func saveProvider(t *testing.T, s *session, p map[string]any) {
	t.Helper()
	p["id"], p["name"] = "fake", "Fake"
	if p["tier"] == nil {
		p["tier"] = "mid"
	}
	settings := map[string]any{"providers": []map[string]any{p}, "activeProvider": "fake", "maxSteps": 30}
	msg, _ := json.Marshal(map[string]any{"action": "settings_save", "settings": settings})
	r := scenario.Eval[struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}](t, s, scenario.Panel, fmt.Sprintf(`chrome.runtime.sendMessage(%s)`, msg))
	if !r.OK {
		t.Fatalf("settings_save: %s", r.Error)
	}
}

// clickStationTwo is a script that reads the tree, clicks the link and
// answers.
func clickStationTwo(n int, req llmtest.Request) llmtest.Turn {
	switch n {
	case 0:
		return callTool("get_accessibility_tree", map[string]any{})
	case 1:
		ref, err := findRef(lastToolResult(req), "link", "Station Two")
		if err != nil {
			return scriptFailed(err)
		}
		return callTool("click_ax", map[string]any{"ref": ref})
	}
	return answer("Opened Station Two.")
}

// A Bedrock provider whose endpoint is a local server speaking Converse:
// every request is a signed ConverseStream call carrying the session
// token, the event-stream answer drives an Act run to the end, and the
// secret key appears nowhere in what was sent.
func TestBedrockConverseStreamRun(t *testing.T) {
	const secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
	srv := llmtest.New(clickStationTwo)
	s := openSession(t, "page1.html", srv, openAIChat)
	saveProvider(t, s, map[string]any{"kind": "bedrock", "baseUrl": srv.URL, "region": "us-west-2",
		"model": "anthropic.claude-3-5-haiku-20241022-v1:0", "apiKey": "AKIDEXAMPLE00000:" + secret + ":SESSIONTOKENEXAMPLE",
		"visionMode": "never"})
	s.send("act", "Open the Station Two page.")
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if !strings.Contains(s.text("#transcript"), "Opened Station Two.") {
		t.Fatalf("answer missing: %s", s.text("#transcript"))
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	for i, r := range reqs {
		auth := r.Header.Get("Authorization")
		if r.Path != "/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse-stream" || !r.Stream ||
			!strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE00000/") || !strings.Contains(auth, "/us-west-2/bedrock/aws4_request") ||
			!strings.Contains(auth, "x-amz-security-token") || r.Header.Get("X-Amz-Security-Token") != "SESSIONTOKENEXAMPLE" ||
			r.Header.Get("X-Amz-Date") == "" {
			t.Fatalf("request %d: %s %v", i, r.Path, r.Header)
		}
		if strings.Contains(string(r.Body), secret) || strings.Contains(auth, secret) {
			t.Fatalf("request %d carries the secret key", i)
		}
	}
	// The click's result went back as a toolResult the server read.
	if last := reqs[2].Messages[len(reqs[2].Messages)-1]; last.Role != "tool" || last.Content == "" {
		t.Fatalf("last message %+v", last)
	}
}

// A provider left on automatic vision, whose server reports "vision" in
// Ollama's /api/show, gets screenshots; provider_vision reports where
// the answer came from.
func TestVisionDetectedFromOllamaShow(t *testing.T) {
	srv := llmtest.New(clickStationTwo)
	srv.SetCapabilities([]string{"completion", "vision", "tools"})
	s := openSession(t, "page1.html", srv, openAIChat)
	saveProvider(t, s, map[string]any{"kind": "openai-chat", "baseUrl": srv.URL + "/v1", "model": llmtest.Model})
	s.send("act", "Open the Station Two page.")
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	first := userImages(reqs[0].Messages)
	if len(first) != 1 {
		t.Fatalf("first request: %d images, want 1", len(first))
	}
	checkJPEG(t, first[0])

	ask := func(mode string) map[string]any {
		p := map[string]any{"id": "fake", "name": "Fake", "kind": "openai-chat", "baseUrl": srv.URL + "/v1", "model": llmtest.Model, "tier": "mid"}
		if mode != "" {
			p["visionMode"] = mode
		}
		msg, _ := json.Marshal(map[string]any{"action": "provider_vision", "provider": p})
		return scenario.Eval[map[string]any](t, s, scenario.Panel, fmt.Sprintf(`chrome.runtime.sendMessage(%s)`, msg))
	}
	if r := ask(""); r["ok"] != true || r["vision"] != true || r["detected"] != true || r["source"] != "ollama" || r["visionMode"] != "auto" {
		t.Fatalf("provider_vision auto: %v", r)
	}
	if r := ask("never"); r["vision"] != false || r["detected"] != true || r["visionMode"] != "never" {
		t.Fatalf("provider_vision never: %v", r)
	}
	presets := scenario.Eval[map[string]any](t, s, scenario.Panel, `chrome.runtime.sendMessage({action: "provider_presets"})`)
	list, _ := presets["presets"].([]any)
	if presets["ok"] != true || len(list) < 20 {
		t.Fatalf("provider_presets: %v", presets)
	}
}
