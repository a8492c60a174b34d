package llm

import (
	"context"
	"io"
	"time"

	"github.com/webbrain/webbrain/wasm/platform"
)

// Hooks for the external tests (package llm_test, which may import
// llmtest without an import cycle).

// SetRetrySleep replaces the waits of p's retry policy.
func SetRetrySleep(p Provider, sleep func(ctx context.Context, d time.Duration) error) {
	p.(*client).policy.sleep = sleep
}

var AnthropicMessages = anthropicMessages

// DecodeChat parses a non-streamed Chat Completions answer.
func DecodeChat(body []byte) (Result, error) { return (&chatWire{}).decode(body) }

// HTTPErrorFor builds the error for an HTTP status without a body.
func HTTPErrorFor(cfg Config, status int, header map[string]string) *Error {
	return httpError(cfg, status, header, nil)
}

// ParseChatStream runs the Chat Completions stream parser over r alone,
// without HTTP.
func ParseChatStream(r io.Reader) (Result, error) {
	p := (&chatWire{}).newStream(func(string) {})
	er := newEventReader(r)
	for {
		ev, err := er.next()
		if err != nil {
			return Result{}, err
		}
		if done, err := p.event(ev); err != nil || done {
			return p.result(), err
		}
	}
}

// SignV4 signs like the Bedrock client, for a test server to check.
func SignV4(method, rawURL string, h map[string]string, body []byte, accessKey, secret, token, region, service string, now time.Time) error {
	return signV4(method, rawURL, h, body, awsCreds{AccessKeyID: accessKey, SecretKey: secret, SessionToken: token}, region, service, now)
}

var BedrockRegion = bedrockRegion

// VisionByName judges a model name; OpenRouterVision reads a model list.
var VisionByName = byName

func OpenRouterVision(ctx context.Context, f platform.Fetcher, base, model string) (VisionResult, bool) {
	return detector{cfg: Config{Kind: "openai-chat"}, f: f}.openRouter(ctx, base, model)
}
