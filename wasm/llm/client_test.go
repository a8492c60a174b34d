package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	. "github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/platform/nativefetch"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// sleeps records the waits of a retry policy instead of waiting.
type sleeps []time.Duration

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	*s = append(*s, d)
	return ctx.Err()
}

// newClient builds a provider against srv with the retry waits recorded.
func newClient(t *testing.T, cfg Config, srv *llmtest.Server) (Provider, *sleeps) {
	t.Helper()
	switch cfg.Kind {
	case protocol.KindAnthropic, protocol.KindAzure, protocol.KindBedrock:
		cfg.BaseURL = srv.URL
	default:
		cfg.BaseURL = srv.URL + "/v1"
	}
	p, err := New(cfg, nativefetch.Fetcher{})
	if err != nil {
		t.Fatal(err)
	}
	var s sleeps
	SetRetrySleep(p, s.sleep)
	return p, &s
}

var clickTool = ToolSpec{Name: "click", Description: "Click an element",
	Parameters: json.RawMessage(`{"type":"object","properties":{"ref":{"type":"string"}}}`)}

var allKinds = []Config{
	{Kind: protocol.KindOpenAIChat, Model: "m"},
	{Kind: protocol.KindOpenAIResponses, Model: "m"},
	{Kind: protocol.KindAnthropic, Model: "m", APIKey: "ak-secret-123456"},
	{Kind: protocol.KindAzure, Deployment: "dep1", APIVersion: "2024-10-21", APIKey: "az-secret-123456"},
	{Kind: protocol.KindBedrock, Model: "anthropic.claude-3-5-haiku-20241022-v1:0", Region: "eu-west-1",
		APIKey: "AKIDEXAMPLE00000:wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"},
}

func TestChatRoundTripEveryKind(t *testing.T) {
	for _, cfg := range allKinds {
		t.Run(cfg.Kind, func(t *testing.T) {
			srv := llmtest.NewTurns(
				llmtest.Turn{Text: "Let me click that.", ToolCalls: []ToolCall{
					{ID: "c1", Name: "click", Arguments: `{"ref":"e12"}`},
					{ID: "c2", Name: "click", Arguments: `{"ref":"e13"}`}}},
				llmtest.Turn{Text: "Done, both are clicked."})
			defer srv.Close()
			c, _ := newClient(t, cfg, srv)
			var deltas []string
			req := Request{Tools: []ToolSpec{clickTool}, OnText: func(d string) { deltas = append(deltas, d) },
				Messages: []Message{{Role: RoleSystem, Content: "You drive a browser."}, {Role: RoleUser, Content: "Click both."}}}
			res, err := c.Chat(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != "Let me click that." || strings.Join(deltas, "") != res.Content || len(deltas) < 2 {
				t.Fatalf("content %q deltas %q", res.Content, deltas)
			}
			want := []ToolCall{{ID: "c1", Name: "click", Arguments: `{"ref":"e12"}`}, {ID: "c2", Name: "click", Arguments: `{"ref":"e13"}`}}
			if len(res.ToolCalls) != 2 || res.ToolCalls[0] != want[0] || res.ToolCalls[1] != want[1] {
				t.Fatalf("calls %+v", res.ToolCalls)
			}
			if res.FinishReason != FinishToolCalls || res.Usage.InputTokens == 0 || res.Usage.OutputTokens == 0 {
				t.Fatalf("finish %q usage %+v", res.FinishReason, res.Usage)
			}

			// The second turn carries the calls and their results back.
			req.Messages = append(req.Messages,
				Message{Role: RoleAssistant, Content: res.Content, ToolCalls: res.ToolCalls},
				Message{Role: RoleTool, ToolCallID: "c1", Name: "click", Content: "clicked e12"},
				Message{Role: RoleTool, ToolCallID: "c2", Name: "click", Content: "clicked e13"})
			res, err = c.Chat(context.Background(), req)
			if err != nil || res.Content != "Done, both are clicked." || res.FinishReason != FinishStop {
				t.Fatalf("second turn %+v %v", res, err)
			}
			got := srv.Requests()[1]
			if !got.Stream || len(got.Tools) != 1 || got.Tools[0] != "click" {
				t.Fatalf("request %+v", got)
			}
			roles := []string{}
			for _, m := range got.Messages {
				roles = append(roles, m.Role)
			}
			if strings.Join(roles, ",") != "system,user,assistant,tool,tool" {
				t.Fatalf("roles %v", roles)
			}
			if got.Messages[3].ToolCallID != "c1" || got.Messages[4].Content != "clicked e13" ||
				got.Messages[2].ToolCalls[1].Arguments != `{"ref":"e13"}` {
				t.Fatalf("history %+v", got.Messages)
			}
		})
	}
}

// A scripted usage reaches the Result through every wire format's own
// fields, cache parts included.
func TestScriptedUsageEveryKind(t *testing.T) {
	want := Usage{InputTokens: 1200, OutputTokens: 80, CachedInputTokens: 1000, CacheWriteTokens: 150}
	for _, cfg := range allKinds {
		t.Run(cfg.Kind, func(t *testing.T) {
			srv := llmtest.NewTurns(llmtest.Turn{Text: "ok", Usage: &want})
			defer srv.Close()
			c, _ := newClient(t, cfg, srv)
			res, err := c.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
			if err != nil {
				t.Fatal(err)
			}
			exp := want
			if cfg.Kind != protocol.KindAnthropic && cfg.Kind != protocol.KindBedrock {
				exp.CacheWriteTokens = 0 // only Anthropic and Bedrock report cache writes
			}
			if res.Usage != exp {
				t.Fatalf("usage %+v want %+v", res.Usage, exp)
			}
		})
	}
}

func TestWireHeadersAndPaths(t *testing.T) {
	for _, cfg := range allKinds {
		t.Run(cfg.Kind, func(t *testing.T) {
			srv := llmtest.NewTurns(llmtest.Turn{Text: "ok"})
			defer srv.Close()
			cfg.APIKey = "sk-test-key-0001"
			c, _ := newClient(t, cfg, srv)
			if _, err := c.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}}); err != nil {
				t.Fatal(err)
			}
			r := srv.Requests()[0]
			h := r.Header
			switch cfg.Kind {
			case protocol.KindAnthropic:
				if r.Path != "/v1/messages" || h.Get("x-api-key") != cfg.APIKey || h.Get("anthropic-version") != "2023-06-01" ||
					h.Get("anthropic-dangerous-direct-browser-access") != "true" || h.Get("Authorization") != "" {
					t.Fatalf("%s %v", r.Path, h)
				}
			case protocol.KindAzure:
				if r.Path != "/openai/deployments/dep1/chat/completions?api-version=2024-10-21" ||
					h.Get("api-key") != cfg.APIKey || h.Get("Authorization") != "" {
					t.Fatalf("%s %v", r.Path, h)
				}
			case protocol.KindBedrock:
				// A key without colons is a Bedrock API key: a bearer token.
				if r.Path != "/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse-stream" ||
					h.Get("Authorization") != "Bearer "+cfg.APIKey || h.Get("X-Amz-Date") != "" {
					t.Fatalf("%s %v", r.Path, h)
				}
			case protocol.KindOpenAIResponses:
				if r.Path != "/v1/responses" || h.Get("Authorization") != "Bearer "+cfg.APIKey {
					t.Fatalf("%s %v", r.Path, h)
				}
			default:
				if r.Path != "/v1/chat/completions" || h.Get("Authorization") != "Bearer "+cfg.APIKey {
					t.Fatalf("%s %v", r.Path, h)
				}
			}
		})
	}
}

func TestAnthropicMergesTurns(t *testing.T) {
	system, msgs := AnthropicMessages([]Message{
		{Role: RoleSystem, Content: "A"}, {Role: RoleSystem, Content: "B"},
		{Role: RoleUser, Content: "go"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "t1", Name: "click", Arguments: `{"ref":"e1"}`}, {ID: "t2", Name: "scroll"}}},
		{Role: RoleTool, ToolCallID: "t1", Content: "ok"},
		{Role: RoleTool, ToolCallID: "t2", Content: ""},
		{Role: RoleSystem, Content: "You are repeating yourself."},
		{Role: RoleAssistant, Content: "Finished."},
	})
	b, _ := json.Marshal(msgs)
	want := `[{"role":"user","content":[{"type":"text","text":"go"}]},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"click","input":{"ref":"e1"}},{"type":"tool_use","id":"t2","name":"scroll","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"tool_result","tool_use_id":"t2","content":"(no output)"},{"type":"text","text":"You are repeating yourself."}]},` +
		`{"role":"assistant","content":[{"type":"text","text":"Finished."}]}]`
	if system != "A\n\nB" || string(b) != want {
		t.Fatalf("system %q\n got %s\nwant %s", system, b, want)
	}
}

func TestEmptyModelUsesFirstListed(t *testing.T) {
	srv := llmtest.NewTurns(llmtest.Turn{Text: "hi"})
	defer srv.Close()
	c, _ := newClient(t, Config{Kind: protocol.KindOpenAIChat}, srv)
	res, err := c.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "x"}}})
	if err != nil || srv.Requests()[0].Model != llmtest.Model || res.Model != llmtest.Model {
		t.Fatalf("%+v %v %+v", res, err, srv.Requests())
	}
	if m, err := c.Test(context.Background()); err != nil || m != llmtest.Model {
		t.Fatalf("Test: %q %v", m, err)
	}
}

func TestTestReportsMissingModel(t *testing.T) {
	srv := llmtest.NewTurns()
	defer srv.Close()
	for _, kind := range []string{protocol.KindOpenAIChat, protocol.KindOpenAIResponses, protocol.KindAnthropic} {
		c, _ := newClient(t, Config{Kind: kind, Model: "gpt-nope", APIKey: "k"}, srv)
		_, err := c.Test(context.Background())
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindNotFound || !strings.Contains(e.Message, `"gpt-nope"`) || !strings.Contains(e.Message, llmtest.Model) {
			t.Fatalf("%s: %v", kind, err)
		}
		c, _ = newClient(t, Config{Kind: kind, Model: llmtest.Model, APIKey: "k"}, srv)
		if m, err := c.Test(context.Background()); err != nil || m != llmtest.Model {
			t.Fatalf("%s: %q %v", kind, m, err)
		}
	}
}

func TestAzureTestSendsOneTokenRequest(t *testing.T) {
	srv := llmtest.NewTurns(llmtest.Turn{Text: "p"})
	defer srv.Close()
	c, _ := newClient(t, Config{Kind: protocol.KindAzure, Deployment: "dep1", APIKey: "k"}, srv)
	if _, err := c.Test(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := srv.Requests()[0]; r.Stream || !strings.Contains(string(r.Body), `"max_tokens":1`) {
		t.Fatalf("%s", r.Body)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{}, "no kind"},
		{Config{Kind: "gemini-native"}, `Unknown provider kind "gemini-native"`},
		{Config{Kind: protocol.KindOpenAIChat, BaseURL: "localhost:11434/v1"}, "not an http(s) address"},
		{Config{Kind: protocol.KindOpenAIChat, BaseURL: "ftp://x/v1"}, "not an http(s) address"},
		{Config{Kind: protocol.KindOpenAIChat}, "api.openai.com needs an API key"},
		{Config{Kind: protocol.KindAnthropic}, "api.anthropic.com needs an API key"},
		{Config{Kind: protocol.KindAzure, APIKey: "k"}, "base URL"},
		{Config{Kind: protocol.KindAzure, APIKey: "k", BaseURL: "https://r.openai.azure.com"}, "deployment name"},
	}
	for _, c := range cases {
		_, err := New(c.cfg, nativefetch.Fetcher{})
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindConfig || !strings.Contains(e.Message, c.want) {
			t.Errorf("%+v: %v", c.cfg, err)
		}
	}
	if _, err := New(Config{Kind: protocol.KindOpenAIChat, BaseURL: "http://127.0.0.1:11434/v1"}, nativefetch.Fetcher{}); err != nil {
		t.Errorf("local server without key: %v", err)
	}
}

func TestChatDecodeAcceptsObjectArguments(t *testing.T) {
	res, err := DecodeChat([]byte(`{"model":"x","choices":[{"message":{"content":"whole","tool_calls":[{"id":"a","function":{"name":"f","arguments":{"k":1}}}]},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":4}}`))
	if err != nil || res.Content != "whole" || res.ToolCalls[0].Arguments != `{"k":1}` || res.FinishReason != FinishToolCalls || res.Usage.OutputTokens != 4 {
		t.Fatalf("%+v %v", res, err)
	}
}

// A tool call written as text becomes a call only for a chat-completions
// server on this machine, and only when it is the whole reply; a hosted
// provider's text, or an answer quoting a page's injected call, stays text.
func TestTextToolCallsOnlyFromLocalServers(t *testing.T) {
	const call = `<tool_call>{"name":"click","arguments":{"ref":"e4"}}</tool_call>`
	const quoted = "The page says: \"" + call + "\". I did not click anything."
	for _, c := range []struct {
		cfg   Config
		text  string
		calls int
	}{
		{Config{Kind: protocol.KindOpenAIChat, Model: "m"}, call, 1},
		{Config{Kind: protocol.KindOpenAIChat, Model: "m"}, quoted, 0},
		{Config{Kind: protocol.KindOpenAIResponses, Model: "m"}, call, 0},
		{Config{Kind: protocol.KindAnthropic, Model: "m", APIKey: "ak-secret-123456"}, call, 0},
	} {
		srv := llmtest.NewTurns(llmtest.Turn{Text: c.text})
		p, _ := newClient(t, c.cfg, srv)
		res, err := p.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "go"}}, Tools: []ToolSpec{clickTool}})
		srv.Close()
		if err != nil || len(res.ToolCalls) != c.calls || (c.calls == 0) != (res.Content == c.text) {
			t.Errorf("%s %.30q: %+v %v", c.cfg.Kind, c.text, res, err)
		}
	}
}
