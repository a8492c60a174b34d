package llm_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	. "github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/platform/nativefetch"
	"github.com/webbrain/webbrain/wasm/protocol"
)

const (
	testAccessKey = "AKIDEXAMPLE00000"
	testSecret    = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
	testToken     = "FwoGZXIvYXdzEXAMPLETOKEN"
	bedrockModel  = "anthropic.claude-3-5-haiku-20241022-v1:0"
)

// checkSigV4 signs the received request again with the known secret and
// compares: the client signed what it sent (method, path, host, body,
// headers) for the region and the bedrock service.
func checkSigV4(t *testing.T, req llmtest.Request, host, region string) {
	t.Helper()
	auth := req.Header.Get("Authorization")
	if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential="+testAccessKey+"/") {
		t.Fatalf("Authorization %q", auth)
	}
	_, list, _ := strings.Cut(auth, "SignedHeaders=")
	list, _, _ = strings.Cut(list, ",")
	h := map[string]string{}
	for _, name := range strings.Split(list, ";") {
		if name != "host" && name != "x-amz-date" && name != "x-amz-security-token" {
			h[name] = req.Header.Get(name)
		}
	}
	when, err := time.Parse("20060102T150405Z", req.Header.Get("X-Amz-Date"))
	if err != nil {
		t.Fatal(err)
	}
	token := req.Header.Get("X-Amz-Security-Token")
	if err := SignV4("POST", "http://"+host+req.Path, h, req.Body, testAccessKey, testSecret, token, region, "bedrock", when); err != nil {
		t.Fatal(err)
	}
	if h["Authorization"] != auth {
		t.Fatalf("signature\n got %s\nwant %s", auth, h["Authorization"])
	}
}

func TestBedrockConverseStreamSigned(t *testing.T) {
	srv := llmtest.NewTurns(
		llmtest.Turn{Text: "Clicking the button.", ToolCalls: []ToolCall{{ID: "tooluse_1", Name: "click", Arguments: `{"ref":"e7"}`}},
			Usage: &Usage{InputTokens: 300, OutputTokens: 20, CachedInputTokens: 100}},
	)
	defer srv.Close()
	cfg := Config{Kind: protocol.KindBedrock, Model: bedrockModel, Region: "eu-central-1", BaseURL: srv.URL,
		APIKey: testAccessKey + ":" + testSecret + ":" + testToken}
	p, err := New(cfg, nativefetch.Fetcher{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Chat(context.Background(), Request{Tools: []ToolSpec{clickTool}, MaxTokens: 512, Temperature: 0.2,
		Messages: []Message{{Role: RoleSystem, Content: "Be brief."}, {Role: RoleUser, Content: "Click it."}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Content != "Clicking the button." || len(res.ToolCalls) != 1 || res.ToolCalls[0] != (ToolCall{ID: "tooluse_1", Name: "click", Arguments: `{"ref":"e7"}`}) ||
		res.FinishReason != FinishToolCalls || res.Usage != (Usage{InputTokens: 300, OutputTokens: 20, CachedInputTokens: 100}) || res.Model != bedrockModel {
		t.Fatalf("result %+v", res)
	}
	req := srv.Requests()[0]
	if req.Path != "/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse-stream" || !req.Stream || req.Model != bedrockModel {
		t.Fatalf("path %s stream %v model %q", req.Path, req.Stream, req.Model)
	}
	if req.Header.Get("X-Amz-Security-Token") != testToken {
		t.Fatalf("session token header %q", req.Header.Get("X-Amz-Security-Token"))
	}
	checkSigV4(t, req, strings.TrimPrefix(srv.URL, "http://"), "eu-central-1")
	body := gjson.ParseBytes(req.Body)
	if body.Get("system.0.text").Str != "Be brief." || body.Get("inferenceConfig.maxTokens").Int() != 512 ||
		body.Get("toolConfig.tools.0.toolSpec.name").Str != "click" || body.Get("toolConfig.tools.0.toolSpec.inputSchema.json.type").Str != "object" ||
		body.Get("messages.0.role").Str != "user" || body.Get("messages.0.content.0.text").Str != "Click it." {
		t.Fatalf("body %s", req.Body)
	}
	if strings.Contains(string(req.Body), testSecret) || strings.Contains(req.Header.Get("Authorization"), testSecret) {
		t.Fatal("the secret key left the client")
	}
}

func TestBedrockRegionFromHostAndTest(t *testing.T) {
	// Test has no model list to read: it asks Converse for one token.
	srv := llmtest.NewTurns(llmtest.Turn{Text: "pong"})
	defer srv.Close()
	p, err := New(Config{Kind: protocol.KindBedrock, Model: "amazon.nova-lite-v1:0", BaseURL: srv.URL, APIKey: "ABSKbedrockapikeyexample"}, nativefetch.Fetcher{})
	if err != nil {
		t.Fatal(err)
	}
	model, err := p.Test(context.Background())
	if err != nil || model != "amazon.nova-lite-v1:0" {
		t.Fatalf("Test = %q, %v", model, err)
	}
	req := srv.Requests()[0]
	if req.Stream || !strings.HasSuffix(req.Path, "/converse") || req.Header.Get("Authorization") != "Bearer ABSKbedrockapikeyexample" {
		t.Fatalf("%s %v", req.Path, req.Header)
	}
	for _, tc := range []struct{ base, region string }{
		{"https://bedrock-runtime.ap-southeast-2.amazonaws.com", "ap-southeast-2"},
		{"https://bedrock-runtime-fips.us-west-2.amazonaws.com", "us-west-2"},
		{"http://127.0.0.1:9", "us-east-1"},
	} {
		if got := BedrockRegion(Config{BaseURL: tc.base}); got != tc.region {
			t.Errorf("region of %s = %s, want %s", tc.base, got, tc.region)
		}
	}
	if _, err := New(Config{Kind: protocol.KindBedrock, APIKey: "x"}, nativefetch.Fetcher{}); err == nil {
		t.Fatal("a Bedrock provider without a model id was accepted")
	}
}

func TestBedrockBrokenStreamFallsBack(t *testing.T) {
	for _, turn := range []llmtest.Turn{{Text: "first try", Garbage: true}, {Text: "first try", CutOff: true}} {
		srv := llmtest.NewTurns(turn, llmtest.Turn{Text: "Second try."})
		p, _ := newClient(t, Config{Kind: protocol.KindBedrock, Model: bedrockModel, APIKey: "ABSKbedrockapikeyexample"}, srv)
		retried := false
		res, err := p.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}, OnRetry: func() { retried = true }})
		srv.Close()
		if err != nil || res.Content != "Second try." || !retried {
			t.Fatalf("garbage=%v: %+v %v retried=%v", turn.Garbage, res, err, retried)
		}
		if reqs := srv.Requests(); len(reqs) != 2 || reqs[1].Stream || !strings.HasSuffix(reqs[1].Path, "/converse") {
			t.Fatalf("requests %d", len(reqs))
		}
	}
}

// bedrockFrames serves a fixed ConverseStream body.
func bedrockFrames(frames ...[]byte) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", llmtest.BedrockStreamType)
		for _, f := range frames {
			w.Write(f)
		}
	}))
}

func event(typ, payload string) []byte {
	return llmtest.EventStreamFrame(map[string]string{":event-type": typ, ":content-type": "application/json", ":message-type": "event"}, []byte(payload))
}

func TestBedrockStreamEventsAndExceptions(t *testing.T) {
	cfg := Config{Kind: protocol.KindBedrock, Model: bedrockModel, APIKey: testAccessKey + ":" + testSecret}
	// The documented ConverseStream events, reasoning included, and a
	// stream that ends after messageStop without metadata.
	srv := bedrockFrames(
		event("messageStart", `{"role":"assistant"}`),
		event("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"thinking"}}}`),
		event("contentBlockStop", `{"contentBlockIndex":0}`),
		event("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"text":"Hel"}}`),
		event("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"text":"lo"}}`),
		event("contentBlockStop", `{"contentBlockIndex":1}`),
		event("messageStop", `{"stopReason":"max_tokens"}`),
	)
	cfg.BaseURL = srv.URL
	p, _ := New(cfg, nativefetch.Fetcher{})
	res, err := p.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
	srv.Close()
	if err != nil || res.Content != "Hello" || res.FinishReason != FinishLength {
		t.Fatalf("%+v %v", res, err)
	}

	for _, tc := range []struct {
		typ, kind string
	}{{"throttlingException", KindRateLimit}, {"validationException", KindProvider}} {
		srv := bedrockFrames(
			event("messageStart", `{"role":"assistant"}`),
			llmtest.EventStreamFrame(map[string]string{":exception-type": tc.typ, ":content-type": "application/json", ":message-type": "exception"},
				[]byte(`{"message":"Something about `+testSecret+`"}`)),
		)
		cfg.BaseURL = srv.URL
		p, _ := New(cfg, nativefetch.Fetcher{})
		SetRetrySleep(p, func(ctx context.Context, d time.Duration) error { return ctx.Err() })
		_, err := p.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
		srv.Close()
		var e *Error
		if !errors.As(err, &e) || e.Kind != tc.kind || !strings.Contains(e.Message, tc.typ) || strings.Contains(e.Message, testSecret) {
			t.Fatalf("%s: %v", tc.typ, err)
		}
	}
}
