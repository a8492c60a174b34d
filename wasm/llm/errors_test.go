package llm_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	. "github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

var hi = Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}}

func chatErr(t *testing.T, cfg Config, turns ...llmtest.Turn) (*Error, *sleeps, *llmtest.Server) {
	t.Helper()
	srv := llmtest.NewTurns(turns...)
	t.Cleanup(srv.Close)
	c, s := newClient(t, cfg, srv)
	_, err := c.Chat(context.Background(), hi)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *llm.Error, got %v", err)
	}
	return e, s, srv
}

func TestHTTPErrorClasses(t *testing.T) {
	const key = "sk-proj-SECRETKEY0123456789"
	cases := []struct {
		status    int
		body      string
		kind      string
		retryable bool
		says      []string
	}{
		{401, `{"error":{"message":"Incorrect API key provided: sk-proj-****************6789.","type":"invalid_request_error"}}`,
			KindAuth, false, []string{"HTTP 401", "Check the key", "Incorrect API key provided"}},
		{403, `{"error":{"message":"Project does not have access to model"}}`, KindAuth, false, []string{"HTTP 403", "does not have access"}},
		{404, `{"error":{"message":"The model 'm' does not exist"}}`, KindNotFound, false, []string{"404", `"m"`, "does not exist"}},
		{400, `{"error":"context length exceeded"}`, KindContextOverflow, false, []string{"HTTP 400", "too long for the model's context window", "context length exceeded"}},
		{400, `{"error":{"message":"Invalid value for 'temperature'"}}`, KindBadRequest, false, []string{"HTTP 400", "temperature"}},
		{429, `{"error":{"message":"Rate limit reached"}}`, KindRateLimit, true, []string{"HTTP 429", "Rate limit reached", "gave up"}},
		{503, `<html><body>Service Unavailable</body></html>`, KindServer, true, []string{"HTTP 503", "gave up"}},
	}
	for _, c := range cases {
		// Every turn fails the same way, so retryable errors use up their retries.
		turn := llmtest.Turn{Status: c.status, ErrorBody: c.body}
		e, s, srv := chatErr(t, Config{Kind: protocol.KindOpenAIChat, Model: "m", APIKey: key}, turn, turn, turn, turn)
		if e.Kind != c.kind || e.Status != c.status || e.Retryable != c.retryable {
			t.Errorf("%d: %+v", c.status, e)
		}
		for _, want := range c.says {
			if !strings.Contains(e.Message, want) {
				t.Errorf("%d: %q lacks %q", c.status, e.Message, want)
			}
		}
		if strings.Contains(e.Error(), key) || strings.Contains(e.Error(), "6789") || strings.Contains(e.Message, "<html>") {
			t.Errorf("%d: leaks: %s", c.status, e.Error())
		}
		wantTries := 1
		if c.retryable {
			wantTries = 3
			if !reflect.DeepEqual([]time.Duration(*s), []time.Duration{time.Second, 2 * time.Second}) {
				t.Errorf("%d: backoff %v", c.status, *s)
			}
		}
		if n := len(srv.Requests()); n != wantTries {
			t.Errorf("%d: %d requests, want %d", c.status, n, wantTries)
		}
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	srv := llmtest.NewTurns(
		llmtest.Turn{Status: 429, Header: map[string]string{"Retry-After": "3"}},
		llmtest.Turn{Status: 503, Header: map[string]string{"Retry-After-Ms": "1500"}},
		llmtest.Turn{Text: "finally"})
	defer srv.Close()
	c, s := newClient(t, Config{Kind: protocol.KindAnthropic, Model: "m", APIKey: "k"}, srv)
	res, err := c.Chat(context.Background(), hi)
	if err != nil || res.Content != "finally" {
		t.Fatalf("%+v %v", res, err)
	}
	if !reflect.DeepEqual([]time.Duration(*s), []time.Duration{3 * time.Second, 1500 * time.Millisecond}) {
		t.Fatalf("waits %v", *s)
	}
}

func TestRetryAfterTooLongGivesUp(t *testing.T) {
	e, s, srv := chatErr(t, Config{Kind: protocol.KindOpenAIChat, Model: "m"},
		llmtest.Turn{Status: 429, Header: map[string]string{"Retry-After": "120"}})
	if len(*s) != 0 || len(srv.Requests()) != 1 || e.RetryAfter != 2*time.Minute ||
		!strings.Contains(e.Message, "asks to wait 2m0s") || !strings.Contains(e.Message, "try again later") {
		t.Fatalf("%v after waits %v", e, *s)
	}
}

func TestOllama403ExplainsOrigins(t *testing.T) {
	e := HTTPErrorFor(Config{Kind: protocol.KindOpenAIChat, BaseURL: "http://localhost:11434/v1"}, 403, nil)
	if e.Kind != KindAuth || !strings.Contains(e.Message, "OLLAMA_ORIGINS=chrome-extension://*,moz-extension://*") ||
		!strings.Contains(e.Message, "restart Ollama") {
		t.Fatal(e.Message)
	}
	e = HTTPErrorFor(Config{Kind: protocol.KindOpenAIChat, BaseURL: "https://api.example.com/v1"}, 403, nil)
	if strings.Contains(e.Message, "OLLAMA") {
		t.Fatal(e.Message)
	}
}

func TestKeyEchoedInBodyIsRedacted(t *testing.T) {
	const key = "ak-live-abcdefgh12345678"
	e, _, _ := chatErr(t, Config{Kind: protocol.KindAnthropic, Model: "m", APIKey: key},
		llmtest.Turn{Status: 400, ErrorBody: `{"type":"error","error":{"type":"invalid_request_error","message":"bad key ` + key + `"}}`})
	if strings.Contains(e.Error(), key) || !strings.Contains(e.Message, "[redacted]") {
		t.Fatal(e.Error())
	}
}

func TestBrokenStreamRetriesOnceWithoutStreaming(t *testing.T) {
	for _, broken := range []llmtest.Turn{{Text: "half an ans", CutOff: true}, {Text: "some text", Garbage: true}} {
		for _, cfg := range allKinds {
			srv := llmtest.NewTurns(broken, llmtest.Turn{Text: "the whole answer"})
			c, _ := newClient(t, cfg, srv)
			retried := 0
			res, err := c.Chat(context.Background(), Request{Messages: hi.Messages, OnRetry: func() { retried++ }})
			reqs := srv.Requests()
			srv.Close()
			if err != nil || res.Content != "the whole answer" || retried != 1 || len(reqs) != 2 || !reqs[0].Stream || reqs[1].Stream {
				t.Fatalf("%s cutoff=%v: %+v %v retried=%d reqs=%d", cfg.Kind, broken.CutOff, res, err, retried, len(reqs))
			}
		}
	}
}

func TestBrokenTwiceIsAStreamError(t *testing.T) {
	for _, cfg := range allKinds {
		e, _, srv := chatErr(t, cfg, llmtest.Turn{Text: "a b c", CutOff: true}, llmtest.Turn{Text: "a b c", CutOff: true})
		if e.Kind != KindStream || len(srv.Requests()) != 2 || !strings.Contains(e.Message, "broke off") {
			t.Fatalf("%s: %+v", cfg.Kind, e)
		}
		// The panel gets the key; how it broke off is WebBrain's words too.
		if e.UI == nil || e.UI.Key != "bg_err_stream" {
			t.Fatalf("%s: no key: %+v", cfg.Kind, e)
		}
		what, ok := e.UI.Params["what"].(uitext.Msg)
		if !ok || !strings.HasPrefix(what.Key, "bg_stream_") {
			t.Fatalf("%s: what: %#v", cfg.Kind, e.UI.Params["what"])
		}
	}
}

func TestCancelMidStreamReturnsPromptly(t *testing.T) {
	for _, cfg := range allKinds {
		srv := llmtest.NewTurns(llmtest.Turn{Text: strings.Repeat("word ", 50), ChunkDelay: 200 * time.Millisecond})
		c, _ := newClient(t, cfg, srv)
		ctx, cancel := context.WithCancel(context.Background())
		got := make(chan string, 100)
		go func() {
			<-got // the first delta has arrived: the stream is open
			cancel()
		}()
		start := time.Now()
		_, err := c.Chat(ctx, Request{Messages: hi.Messages, OnText: func(d string) { got <- d }})
		elapsed := time.Since(start)
		srv.Close()
		if !errors.Is(err, context.Canceled) || elapsed > 2*time.Second || len(srv.Requests()) != 1 {
			t.Fatalf("%s: %v after %v, %d requests", cfg.Kind, err, elapsed, len(srv.Requests()))
		}
	}
}

func TestUnreachableServerIsANetworkError(t *testing.T) {
	srv := llmtest.NewTurns()
	c, _ := newClient(t, Config{Kind: protocol.KindOpenAIChat, Model: "m"}, srv)
	srv.Close()
	_, err := c.Chat(context.Background(), hi)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindNetwork || !strings.Contains(e.Message, "Could not reach 127.0.0.1:") {
		t.Fatal(err)
	}
}

func TestInStreamErrorIsNotRetried(t *testing.T) {
	body := "data: {\"error\":{\"message\":\"overloaded, try later\"}}\n\n"
	res, _, rp, err := Replay(t, protocol.KindOpenAIChat, body, "text/event-stream")
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindProvider || !strings.Contains(e.Message, "overloaded, try later") || rp.requests.Load() != 1 {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestContextOverflowIsRecognised(t *testing.T) {
	cases := []struct {
		kind   string
		status int
		body   string
	}{
		{protocol.KindOpenAIChat, 400, `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`},
		{protocol.KindOpenAIResponses, 400, `{"error":{"message":"Your input exceeds the context window of this model.","type":"invalid_request_error","code":"context_length_exceeded"}}`},
		{protocol.KindAnthropic, 400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210345 tokens > 200000 maximum"}}`},
		{protocol.KindOpenAIChat, 400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}`}, // llama.cpp
		{protocol.KindOpenAIChat, 400, `{"error":"input length exceeds the context length"}`},                                                                                     // Ollama
		{protocol.KindOpenAIChat, 413, `{"error":{"message":"Request too large: too many tokens in the prompt"}}`},
	}
	for _, c := range cases {
		e, _, srv := chatErr(t, Config{Kind: c.kind, Model: "m", APIKey: "k"}, llmtest.Turn{Status: c.status, ErrorBody: c.body})
		if e.Kind != KindContextOverflow || e.Retryable || len(srv.Requests()) != 1 {
			t.Errorf("%s %s: %+v after %d requests", c.kind, c.body, e, len(srv.Requests()))
		}
		if !strings.Contains(e.Message, "too long for the model's context window") {
			t.Errorf("%s: %q", c.kind, e.Message)
		}
		if e.UI == nil || e.UI.Key != "bg_err_provider_said" || e.UI.Params["error"].(uitext.Msg).Key != "bg_err_context_overflow" {
			t.Errorf("%s: key %+v", c.kind, e.UI)
		}
	}
}

// An error's key goes to the panel only when no secret had to be cut from
// its text: a parameter never carries the API key.
func TestHTTPErrorKeysAndRedaction(t *testing.T) {
	const key = "sk-proj-SECRETKEY0123456789"
	cfg := Config{Name: "Cloud", Kind: protocol.KindOpenAIChat, Model: "m", APIKey: key}
	e, _, _ := chatErr(t, cfg, llmtest.Turn{Status: 429, ErrorBody: `{"error":{"message":"slow down"}}`})
	text, ok := e.UIText()
	if !ok || text.Msg.Key != "bg_err_provider_said" || text.English != e.Message {
		t.Fatalf("429: %q %+v", e.Message, text.Msg)
	}
	e, _, _ = chatErr(t, cfg, llmtest.Turn{Status: 403, ErrorBody: `{"error":{"message":"key ` + key + ` is not allowed"}}`})
	if strings.Contains(e.Message, key) {
		t.Fatalf("the key leaked: %q", e.Message)
	}
	if _, ok := e.UIText(); ok {
		t.Fatal("a text the key was cut from kept its parameters")
	}
}
