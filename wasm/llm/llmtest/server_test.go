package llmtest

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
)

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestChatStreamCarriesSplitToolArguments(t *testing.T) {
	s := NewTurns(Turn{Text: "Hello there world", ToolCalls: []llm.ToolCall{{Name: "click", Arguments: `{"ref":"e12"}`}}})
	defer s.Close()
	_, body := post(t, s.URL+"/v1/chat/completions",
		`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"click"}}]}`)
	for _, want := range []string{`"content":"Hello"`, `"content":" there"`, `"name":"click"`, `"arguments":"{\"re"`,
		`"finish_reason":"tool_calls"`, `"prompt_tokens"`, "data: [DONE]\n\n"} {
		if !strings.Contains(body, want) {
			t.Errorf("stream lacks %s:\n%s", want, body)
		}
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].Tools[0] != "click" || reqs[0].Messages[0].Content != "hi" || !reqs[0].Stream {
		t.Fatalf("recorded %+v", reqs)
	}
}

func TestAnthropicRequestIsNormalised(t *testing.T) {
	s := NewTurns(Turn{Text: "ok"})
	defer s.Close()
	_, body := post(t, s.URL+"/v1/messages", `{"model":"m","stream":true,"system":"be brief","messages":[
		{"role":"user","content":"go"},
		{"role":"assistant","content":[{"type":"text","text":"sure"},{"type":"tool_use","id":"t1","name":"scroll","input":{"y":1}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"done"}]}]}`)
	for _, want := range []string{"event: message_start", "event: ping", `"text_delta"`, `"stop_reason":"end_turn"`, "event: message_stop"} {
		if !strings.Contains(body, want) {
			t.Errorf("stream lacks %s", want)
		}
	}
	got := s.Requests()[0].Messages
	if len(got) != 4 || got[0].Role != llm.RoleSystem || got[2].ToolCalls[0].Arguments != `{"y":1}` ||
		got[3].Role != llm.RoleTool || got[3].ToolCallID != "t1" || got[3].Content != "done" {
		t.Fatalf("normalised %+v", got)
	}
}

func TestCutOffAndErrors(t *testing.T) {
	s := NewTurns(Turn{Text: "partial", CutOff: true}, Turn{Status: 429, Header: map[string]string{"Retry-After": "3"}})
	defer s.Close()
	_, body := post(t, s.URL+"/v1/chat/completions", `{"stream":true,"messages":[]}`)
	if strings.Contains(body, "[DONE]") || strings.Contains(body, "finish_reason\":\"stop") {
		t.Fatalf("cut-off stream ended properly:\n%s", body)
	}
	resp, err := http.Post(s.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" {
		t.Fatalf("got %d %v", resp.StatusCode, resp.Header)
	}
	if code, body := post(t, s.URL+"/v1/chat/completions", `{}`); code != 400 || !strings.Contains(body, "no scripted turn") {
		t.Fatalf("ran out: %d %s", code, body)
	}
}

func TestDelayHonoursCancel(t *testing.T) {
	s := NewTurns(Turn{Text: "late", Delay: 10 * time.Second})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", s.URL+"/v1/chat/completions", strings.NewReader(`{}`))
	start := time.Now()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("expected a cancelled request")
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("cancel was not prompt")
	}
}

func TestModelsList(t *testing.T) {
	s := NewTurns()
	defer s.Close()
	resp, err := http.Get(s.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), `"id":"test-model"`) {
		t.Fatal(string(b))
	}
}
