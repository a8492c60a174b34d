package llm

import (
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/webbrain/webbrain/wasm/uitext"
)

// bedrockService is the SigV4 service name of the Bedrock runtime.
const bedrockService = "bedrock"

// defaultBedrockRegion is used when neither the region field nor the base
// URL names one.
const defaultBedrockRegion = "us-east-1"

// bedrockWire is Amazon Bedrock's Converse API: one request shape for
// every model on Bedrock, streamed by ConverseStream in the AWS event
// stream framing (eventstream.go). It authenticates with a Bedrock API key
// (a bearer token) or signs each request with SigV4 (sigv4.go).
type bedrockWire struct {
	cfg    Config
	base   string
	region string
	bearer string
	creds  awsCreds
	now    func() time.Time
}

// bedrockAuth reads the key field: "ACCESS_KEY_ID:SECRET_ACCESS_KEY" or
// "ACCESS_KEY_ID:SECRET_ACCESS_KEY:SESSION_TOKEN" is an access key pair
// to sign with (no part of an AWS key or token contains a colon); any
// other value is a Bedrock API key.
func bedrockAuth(key string) (creds awsCreds, bearer string) {
	key = strings.TrimSpace(key)
	parts := strings.SplitN(key, ":", 3)
	if len(parts) >= 2 && awsKeyID(parts[0]) && parts[1] != "" {
		creds = awsCreds{AccessKeyID: parts[0], SecretKey: parts[1]}
		if len(parts) == 3 {
			creds.SessionToken = parts[2]
		}
		return creds, ""
	}
	return awsCreds{}, key
}

// awsKeyID reports whether s has the shape of an access key id: upper-case
// letters and digits, 16 to 128 of them.
func awsKeyID(s string) bool {
	if len(s) < 16 || len(s) > 128 {
		return false
	}
	for _, c := range s {
		if !('A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// bedrockRegion is cfg's region, else the one in a bedrock-runtime host
// name, else us-east-1.
func bedrockRegion(cfg Config) string {
	if r := strings.TrimSpace(cfg.Region); r != "" {
		return r
	}
	if u, err := url.Parse(cfg.BaseURL); err == nil {
		labels := strings.Split(u.Hostname(), ".")
		if len(labels) >= 4 && strings.HasPrefix(labels[0], "bedrock-runtime") && labels[len(labels)-2] == "amazonaws" {
			return labels[1]
		}
	}
	return defaultBedrockRegion
}

func newBedrockWire(cfg Config) *bedrockWire {
	w := &bedrockWire{cfg: cfg, region: bedrockRegion(cfg), now: time.Now}
	w.creds, w.bearer = bedrockAuth(cfg.APIKey)
	w.base = strings.TrimRight(cfg.BaseURL, "/")
	if w.base == "" {
		w.base = "https://bedrock-runtime." + w.region + ".amazonaws.com"
	}
	return w
}

// chatURL is the ConverseStream address; urlFor picks Converse when the
// answer is not streamed.
func (w *bedrockWire) chatURL() string { return w.urlFor(true) }

func (w *bedrockWire) urlFor(stream bool) string {
	op := "converse"
	if stream {
		op = "converse-stream"
	}
	// The model id is one path segment: ":" in a versioned id and "/" in
	// an inference profile ARN are escaped.
	return w.base + "/model/" + awsEscape(w.cfg.Model) + "/" + op
}

// modelsURL: the runtime endpoint lists no models (the model id is
// required, like Azure's deployment).
func (w *bedrockWire) modelsURL() (string, bool) { return "", false }

func (w *bedrockWire) headers() map[string]string {
	h := map[string]string{"Content-Type": "application/json"}
	if w.bearer != "" {
		h["Authorization"] = "Bearer " + w.bearer
	}
	return h
}

// sign adds the SigV4 headers to a request signed with an access key.
func (w *bedrockWire) sign(method, rawURL string, h map[string]string, body []byte) error {
	if w.creds.AccessKeyID == "" {
		return nil
	}
	return signV4(method, rawURL, h, body, w.creds, w.region, bedrockService, w.now())
}

type bedrockBlock struct {
	Text       string             `json:"text,omitempty"`
	Image      *bedrockImage      `json:"image,omitempty"`
	ToolUse    *bedrockToolUse    `json:"toolUse,omitempty"`
	ToolResult *bedrockToolResult `json:"toolResult,omitempty"`
}

type bedrockImage struct {
	Format string `json:"format"` // jpeg, png, gif, webp
	Source struct {
		Bytes string `json:"bytes"` // base64
	} `json:"source"`
}

type bedrockToolUse struct {
	ToolUseID string          `json:"toolUseId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

type bedrockToolResult struct {
	ToolUseID string         `json:"toolUseId"`
	Content   []bedrockBlock `json:"content"`
}

type bedrockMessage struct {
	Role    string         `json:"role"`
	Content []bedrockBlock `json:"content"`
}

// bedrockMessages maps OpenAI-form messages onto Converse turns like the
// Anthropic mapping: leading system messages become system blocks, tool
// results toolResult blocks in a user turn, same-role turns merge, and a
// later system message stays in place as user text. Without tools in the
// request, earlier calls and results travel as text: Converse refuses
// toolUse blocks without a toolConfig.
func bedrockMessages(in []Message, withTools bool) (system []bedrockBlock, out []bedrockMessage) {
	i := 0
	for ; i < len(in) && in[i].Role == RoleSystem; i++ {
		if strings.TrimSpace(in[i].Content) != "" {
			system = append(system, bedrockBlock{Text: in[i].Content})
		}
	}
	for _, m := range in[i:] {
		role := RoleUser
		var blocks []bedrockBlock
		switch m.Role {
		case RoleAssistant:
			role = RoleAssistant
			if strings.TrimSpace(m.Content) != "" {
				blocks = append(blocks, bedrockBlock{Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				input := json.RawMessage(argsOrEmpty(tc.Arguments))
				if !gjson.ValidBytes(input) || !gjson.ParseBytes(input).IsObject() {
					input = json.RawMessage(`{}`)
				}
				if withTools {
					blocks = append(blocks, bedrockBlock{ToolUse: &bedrockToolUse{ToolUseID: tc.ID, Name: tc.Name, Input: input}})
				} else {
					blocks = append(blocks, bedrockBlock{Text: "[called " + tc.Name + " " + string(input) + "]"})
				}
			}
		case RoleTool:
			content := m.Content
			if strings.TrimSpace(content) == "" {
				content = "(no output)"
			}
			if withTools {
				blocks = append(blocks, bedrockBlock{ToolResult: &bedrockToolResult{ToolUseID: m.ToolCallID, Content: []bedrockBlock{{Text: content}}}})
			} else {
				blocks = append(blocks, bedrockBlock{Text: "[result of " + m.Name + "] " + content})
			}
		default:
			if strings.TrimSpace(m.Content) != "" {
				blocks = append(blocks, bedrockBlock{Text: m.Content})
			}
			if m.Role == RoleUser {
				for _, im := range m.Images {
					b := &bedrockImage{Format: strings.TrimPrefix(im.MediaType, "image/")}
					b.Source.Bytes = im.Data
					blocks = append(blocks, bedrockBlock{Image: b})
				}
			}
		}
		if len(blocks) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			continue
		}
		out = append(out, bedrockMessage{Role: role, Content: blocks})
	}
	return system, out
}

type bedrockToolSpec struct {
	ToolSpec struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
		InputSchema struct {
			JSON json.RawMessage `json:"json"`
		} `json:"inputSchema"`
	} `json:"toolSpec"`
}

func (w *bedrockWire) encode(req Request, _ string, _ bool) ([]byte, error) {
	system, msgs := bedrockMessages(req.Messages, len(req.Tools) > 0)
	body := map[string]any{"messages": msgs}
	if len(system) > 0 {
		body["system"] = system
	}
	inf := map[string]any{}
	if req.MaxTokens > 0 {
		inf["maxTokens"] = req.MaxTokens
	}
	if req.Temperature > 0 {
		inf["temperature"] = req.Temperature
	}
	if len(inf) > 0 {
		body["inferenceConfig"] = inf
	}
	if len(req.Tools) > 0 {
		tools := make([]bedrockToolSpec, len(req.Tools))
		for i, t := range req.Tools {
			tools[i].ToolSpec.Name = t.Name
			tools[i].ToolSpec.Description = t.Description
			tools[i].ToolSpec.InputSchema.JSON = withSchema(t).Parameters
		}
		body["toolConfig"] = map[string]any{"tools": tools}
	}
	return json.Marshal(body)
}

// newEvents reads ConverseStream's event-stream frames as events named by
// their :event-type. An exception frame is the provider's error.
func (w *bedrockWire) newEvents(r io.Reader) eventSource {
	return &bedrockEvents{r: newESReader(r), cfg: w.cfg}
}

type bedrockEvents struct {
	r   *esReader
	cfg Config
}

func (b *bedrockEvents) next() (event, error) {
	m, err := b.r.readMessage()
	if err != nil {
		if errors.Is(err, errFrame) {
			return event{}, streamError(b.cfg, streamMalformed(), err)
		}
		return event{}, err
	}
	switch m.Headers[":message-type"] {
	case "exception":
		return event{}, bedrockException(b.cfg, m.Headers[":exception-type"], providerMessage(m.Payload))
	case "error":
		return event{}, bedrockException(b.cfg, m.Headers[":error-code"], m.Headers[":error-message"])
	}
	return event{Name: m.Headers[":event-type"], Data: string(m.Payload)}, nil
}

// bedrockException is an error frame inside a stream: throttling and a
// model's broken stream may pass on a later try, the rest are the
// provider's answer.
func bedrockException(cfg Config, typ, msg string) error {
	switch strings.ToLower(typ) {
	case "modelstreamerrorexception":
		return streamError(cfg, uitext.T("bg_stream_failed_with", "the model's stream failed: $error$", "error", msg), nil)
	case "throttlingexception", "servicequotaexceededexception":
		e := inStreamError(cfg, typ+": "+msg)
		e.Kind, e.Retryable = KindRateLimit, true
		return e
	case "internalserverexception", "serviceunavailableexception", "modeltimeoutexception":
		e := inStreamError(cfg, typ+": "+msg)
		e.Kind, e.Retryable = KindServer, true
		return e
	}
	if typ != "" {
		msg = typ + ": " + msg
	}
	return inStreamError(cfg, msg)
}

func (w *bedrockWire) newStream(onText func(string)) streamParser {
	return &bedrockStream{turn: turn{cfg: w.cfg, onText: onText}}
}

// bedrockStream rebuilds a turn from ConverseStream events: messageStart,
// contentBlockStart (a tool use's id and name), contentBlockDelta (text,
// a tool use's input in pieces, reasoning, which is read past),
// contentBlockStop, messageStop (the stop reason) and metadata (usage),
// the last event of a complete stream.
type bedrockStream struct {
	turn
	blocks  map[int64]int // content block index → position in calls
	stop    string
	stopped bool
}

func (s *bedrockStream) event(ev event) (bool, error) {
	data := strings.TrimSpace(ev.Data)
	if data != "" && !gjson.Valid(data) {
		return false, streamError(s.cfg, streamMalformed(), nil)
	}
	switch ev.Name {
	case "contentBlockStart":
		if tu := gjson.Get(data, "start.toolUse"); tu.Exists() {
			if s.blocks == nil {
				s.blocks = map[int64]int{}
			}
			s.blocks[gjson.Get(data, "contentBlockIndex").Int()] = len(s.calls)
			s.calls = append(s.calls, ToolCall{ID: tu.Get("toolUseId").Str, Name: tu.Get("name").Str})
		}
	case "contentBlockDelta":
		d := gjson.Get(data, "delta")
		if t := d.Get("text"); t.Exists() {
			s.addText(t.Str)
		}
		if in := d.Get("toolUse.input"); in.Exists() {
			if pos, ok := s.blocks[gjson.Get(data, "contentBlockIndex").Int()]; ok {
				s.calls[pos].Arguments += in.Str
			}
		}
	case "messageStop":
		s.stop, s.stopped = gjson.Get(data, "stopReason").Str, true
	case "metadata":
		s.usage = bedrockUsage(gjson.Get(data, "usage"))
		return s.stopped, nil
	}
	return false, nil
}

// ended: a stream may close after messageStop without metadata.
func (s *bedrockStream) ended() bool { return s.stopped }

func (s *bedrockStream) result() Result {
	return s.answer(bedrockFinish(s.stop, len(s.calls) > 0))
}

// bedrockUsage counts cache reads and writes as input, as the Anthropic
// mapping does (Converse's inputTokens is the uncached rest).
func bedrockUsage(u gjson.Result) Usage {
	r, w := int(u.Get("cacheReadInputTokens").Int()), int(u.Get("cacheWriteInputTokens").Int())
	return Usage{InputTokens: int(u.Get("inputTokens").Int()) + r + w, OutputTokens: int(u.Get("outputTokens").Int()),
		CachedInputTokens: r, CacheWriteTokens: w}
}

func bedrockFinish(stop string, hasCalls bool) string {
	switch stop {
	case "tool_use":
		return FinishToolCalls
	case "max_tokens", "model_context_window_exceeded":
		return FinishLength
	case "guardrail_intervened", "content_filtered":
		return FinishContentFilter
	}
	if hasCalls {
		return FinishToolCalls
	}
	return FinishStop
}

// decode reads Converse's answer: output.message.content, stopReason,
// usage.
func (w *bedrockWire) decode(body []byte) (Result, error) {
	if !gjson.ValidBytes(body) {
		return Result{}, streamError(w.cfg, streamUnreadable(), nil)
	}
	s := &bedrockStream{stop: gjson.GetBytes(body, "stopReason").Str, turn: turn{cfg: w.cfg,
		usage: bedrockUsage(gjson.GetBytes(body, "usage"))}}
	for _, b := range gjson.GetBytes(body, "output.message.content").Array() {
		if t := b.Get("text"); t.Exists() {
			s.text.WriteString(t.Str)
		}
		if tu := b.Get("toolUse"); tu.Exists() {
			s.calls = append(s.calls, ToolCall{ID: tu.Get("toolUseId").Str, Name: tu.Get("name").Str, Arguments: tu.Get("input").Raw})
		}
	}
	return s.result(), nil
}

func (w *bedrockWire) fixedModel() string { return w.cfg.Model }
