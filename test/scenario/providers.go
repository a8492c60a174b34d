package scenario

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// SaveProvider saves p (given an id, a name and a Mid tier) as the only,
// active provider, through settings_save.
func SaveProvider(t testing.TB, s Session, p map[string]any) {
	t.Helper()
	p["id"], p["name"] = "fake", "Fake"
	if p["tier"] == nil {
		p["tier"] = "mid"
	}
	settings := map[string]any{"providers": []map[string]any{p}, "activeProvider": "fake", "maxSteps": 30}
	msg, _ := json.Marshal(map[string]any{"action": "settings_save", "settings": settings})
	if r := Eval[reply](t, s, Panel, fmt.Sprintf(`%s.runtime.sendMessage(%s)`, extAPI, msg)); !r.OK {
		t.Fatalf("settings_save: %s (field %q)", r.Error, r.Field)
	}
}

// readLanterns is a script that reads the article and answers its count.
func readLanterns(n int, req llmtest.Request) llmtest.Turn {
	if n == 0 {
		return CallTool("read_page", map[string]any{})
	}
	m := lanterns.FindStringSubmatch(LastToolResult(req))
	if m == nil {
		return Answer("SCRIPT FAILED: read_page did not return the lantern count")
	}
	return Answer("Lanterns: " + m[1])
}

// BedrockConverseStream: a bedrock provider whose endpoint override is a
// local server speaking Converse. Every model request is a SigV4-signed
// ConverseStream call for the region, with the session token; the AWS
// event-stream answers drive the run (a tool call, its result back as a
// toolResult, the answer) and the secret key is in no request.
func BedrockConverseStream(t *testing.T, d Driver) {
	const secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
	srv := llmtest.New(readLanterns)
	s := d.Open(t, "article.html", srv, OpenAIChat)
	SaveProvider(t, s, map[string]any{"kind": "bedrock", "baseUrl": srv.URL, "region": "us-west-2",
		"model": "anthropic.claude-3-5-haiku-20241022-v1:0", "apiKey": "AKIDEXAMPLE00000:" + secret + ":SESSIONTOKENEXAMPLE",
		"visionMode": "never"})
	s.Send("ask", "How many lanterns will float this year?")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	m := lanterns.FindStringSubmatch(LastToolResult(reqs[1]))
	if m == nil || !strings.Contains(Text(t, s, "#transcript"), "Lanterns: "+m[1]) {
		t.Fatalf("answer missing: %s", Text(t, s, "#transcript"))
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
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; last.Role != llm.RoleTool || last.Content == "" {
		t.Fatalf("the tool result did not go back: %+v", last)
	}
}

// VisionDetectedFromOllamaShow: a provider on automatic vision whose
// server lists "vision" in Ollama's /api/show gets a screenshot with the
// task; provider_vision says so and where from, and follows never;
// provider_presets lists the presets.
func VisionDetectedFromOllamaShow(t *testing.T, d Driver) {
	srv := llmtest.New(readLanterns)
	srv.SetCapabilities([]string{"completion", "vision", "tools"})
	s := d.Open(t, "article.html", srv, OpenAIChat)
	s.Send("ask", "How many lanterns will float this year?")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	var images []llm.Image
	for _, m := range reqs[0].Messages {
		if m.Role == llm.RoleUser {
			images = append(images, m.Images...)
		}
	}
	if len(images) != 1 {
		t.Fatalf("first request: %d images, want 1", len(images))
	}
	b, err := base64.StdEncoding.DecodeString(images[0].Data)
	if err != nil || images[0].MediaType != "image/jpeg" || len(b) < 1000 || !bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}) {
		t.Fatalf("not a JPEG screenshot: %s, %d bytes, %v", images[0].MediaType, len(b), err)
	}

	ask := func(mode string) map[string]any {
		p := map[string]any{"id": "fake", "name": "Fake", "kind": "openai-chat", "baseUrl": srv.URL + "/v1", "model": llmtest.Model, "tier": "mid"}
		if mode != "" {
			p["visionMode"] = mode
		}
		msg, _ := json.Marshal(map[string]any{"action": "provider_vision", "provider": p})
		return Eval[map[string]any](t, s, Panel, fmt.Sprintf(`%s.runtime.sendMessage(%s)`, extAPI, msg))
	}
	if r := ask(""); r["ok"] != true || r["vision"] != true || r["detected"] != true || r["source"] != "ollama" || r["visionMode"] != "auto" {
		t.Fatalf("provider_vision auto: %v", r)
	}
	if r := ask("never"); r["vision"] != false || r["detected"] != true || r["visionMode"] != "never" {
		t.Fatalf("provider_vision never: %v", r)
	}
	presets := Eval[map[string]any](t, s, Panel, extAPI+`.runtime.sendMessage({action: "provider_presets"})`)
	if list, _ := presets["presets"].([]any); presets["ok"] != true || len(list) != len(llm.Presets) {
		t.Fatalf("provider_presets: %v", presets)
	}
}
