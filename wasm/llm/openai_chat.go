package llm

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/webbrain/webbrain/wasm/uitext"
)

// chatWire is OpenAI Chat Completions, spoken by OpenAI and nearly every
// compatible server (Ollama, LM Studio, llama.cpp, vLLM, OpenRouter, Groq,
// DeepSeek, xAI, Mistral, Gemini's OpenAI endpoint) and by Azure OpenAI
// deployments.
type chatWire struct {
	endpoints
	official bool // api.openai.com: max_completion_tokens
	azure    bool // api-key header, no model list
	// toolStream: z.ai streams tool calls only when asked (tool_stream).
	toolStream bool
	// noToolStream: DashScope refuses stream:true together with tools,
	// so a request with tools is sent whole.
	noToolStream bool
}

// streams says whether req is streamed (streamChooser).
func (w *chatWire) streams(req Request) bool { return !(w.noToolStream && len(req.Tools) > 0) }

func (w *chatWire) headers() map[string]string {
	h := map[string]string{"Content-Type": "application/json"}
	switch {
	case w.cfg.APIKey == "":
	case w.azure:
		h["api-key"] = w.cfg.APIKey
	default:
		h["Authorization"] = "Bearer " + w.cfg.APIKey
	}
	return h
}

type chatMessage struct {
	Role       string         `json:"role"`
	Content    any            `json:"content"` // string, parts, or nil for null
	ToolCalls  []chatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	Name       string         `json:"name,omitempty"`
}

type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type chatTool struct {
	Type     string   `json:"type"`
	Function ToolSpec `json:"function"`
}

func (w *chatWire) encode(req Request, model string, stream bool) ([]byte, error) {
	msgs := make([]chatMessage, 0, len(req.Messages))
	for _, m := range req.Messages {
		cm := chatMessage{Role: m.Role, ToolCallID: m.ToolCallID, Name: m.Name}
		// An assistant turn that only calls tools carries content null.
		if m.Content != "" || m.Role != RoleAssistant || len(m.ToolCalls) == 0 {
			cm.Content = m.Content
		}
		if m.Role == RoleUser && len(m.Images) > 0 {
			cm.Content = chatParts(m)
		}
		for _, tc := range m.ToolCalls {
			var c chatToolCall
			c.ID, c.Type = tc.ID, "function"
			c.Function.Name, c.Function.Arguments = tc.Name, argsOrEmpty(tc.Arguments)
			cm.ToolCalls = append(cm.ToolCalls, c)
		}
		msgs = append(msgs, cm)
	}
	body := map[string]any{"messages": msgs, "stream": stream}
	if !w.azure {
		body["model"] = model
	}
	if stream {
		body["stream_options"] = map[string]bool{"include_usage": true}
	}
	if len(req.Tools) > 0 {
		tools := make([]chatTool, len(req.Tools))
		for i, t := range req.Tools {
			tools[i] = chatTool{Type: "function", Function: withSchema(t)}
		}
		body["tools"] = tools
		if stream && w.toolStream {
			body["tool_stream"] = true
		}
	}
	if req.Temperature > 0 {
		body["temperature"] = req.Temperature
	}
	if req.MaxTokens > 0 {
		if w.official {
			body["max_completion_tokens"] = req.MaxTokens
		} else {
			body["max_tokens"] = req.MaxTokens
		}
	}
	return json.Marshal(body)
}

// chatPart is one entry of a content array: text or an image_url.
type chatPart struct {
	Type     string        `json:"type"`
	Text     string        `json:"text,omitempty"`
	ImageURL *chatImageURL `json:"image_url,omitempty"`
}

type chatImageURL struct {
	URL string `json:"url"`
}

// chatParts is a user message with images: its text, then each image as
// a data URL.
func chatParts(m Message) []chatPart {
	parts := []chatPart{{Type: "text", Text: m.Content}}
	for _, im := range m.Images {
		parts = append(parts, chatPart{Type: "image_url", ImageURL: &chatImageURL{URL: im.dataURL()}})
	}
	return parts
}

// withSchema gives a tool without parameters the empty object schema
// every provider requires.
func withSchema(t ToolSpec) ToolSpec {
	if len(t.Parameters) == 0 {
		t.Parameters = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return t
}

func argsOrEmpty(a string) string {
	if strings.TrimSpace(a) == "" {
		return "{}"
	}
	return a
}

func (w *chatWire) newStream(onText func(string)) streamParser {
	return &chatStream{turn: turn{cfg: w.cfg, onText: onText}, byIndex: map[int64]int{}}
}

// chatStream rebuilds a turn from chat.completion.chunk events: text from
// delta.content, tool calls from delta.tool_calls pieces keyed by index,
// usage from the final usage chunk; [DONE] ends it.
type chatStream struct {
	turn
	byIndex map[int64]int
	finish  string
}

func (s *chatStream) event(ev event) (bool, error) {
	data, _, done, err := s.read(ev)
	if done || data == "" || err != nil {
		return done, err
	}
	if e := gjson.Get(data, "error"); e.Exists() && e.Type != gjson.Null {
		return false, inStreamError(s.cfg, providerMessage([]byte(data)))
	}
	if m := gjson.Get(data, "model"); m.Str != "" {
		s.model = m.Str
	}
	if u := gjson.Get(data, "usage"); u.IsObject() {
		s.usage = chatUsage(u)
	}
	choice := gjson.Get(data, "choices.0")
	if !choice.Exists() {
		return false, nil
	}
	if c := choice.Get("delta.content"); c.Type == gjson.String {
		s.addText(c.Str)
	}
	for _, tc := range choice.Get("delta.tool_calls").Array() {
		s.addCallPiece(tc)
	}
	if f := choice.Get("finish_reason"); f.Str != "" {
		s.finish = f.Str
	}
	return false, nil
}

// addCallPiece merges one delta.tool_calls entry. The first piece of a
// call has its id and name; later ones carry only index and arguments.
// Servers that omit index send each call whole, with its own id.
func (s *chatStream) addCallPiece(tc gjson.Result) {
	id := tc.Get("id").Str
	pos := -1
	if idx := tc.Get("index"); idx.Exists() {
		if p, ok := s.byIndex[idx.Int()]; ok && (id == "" || s.calls[p].ID == "" || s.calls[p].ID == id) {
			pos = p
		} else {
			s.byIndex[idx.Int()] = len(s.calls)
		}
	} else if n := len(s.calls); n > 0 && (id == "" || s.calls[n-1].ID == id) {
		pos = n - 1
	}
	if pos < 0 {
		s.calls = append(s.calls, ToolCall{})
		pos = len(s.calls) - 1
	}
	c := &s.calls[pos]
	if id != "" {
		c.ID = id
	}
	if n := tc.Get("function.name").Str; n != "" {
		c.Name = n
	}
	args := tc.Get("function.arguments")
	if args.Type == gjson.String {
		c.Arguments += args.Str
	} else if args.IsObject() {
		c.Arguments += args.Raw // a few servers send the object itself
	}
}

func (s *chatStream) result() Result {
	return s.answer(chatFinish(s.finish, len(s.calls) > 0))
}

func (w *chatWire) decode(body []byte) (Result, error) {
	if !gjson.ValidBytes(body) {
		return Result{}, streamError(w.cfg, streamUnreadable(), nil)
	}
	if e := gjson.GetBytes(body, "error"); e.Exists() && e.Type != gjson.Null {
		return Result{}, inStreamError(w.cfg, providerMessage(body))
	}
	s := &chatStream{turn: turn{cfg: w.cfg}, byIndex: map[int64]int{}}
	msg := gjson.GetBytes(body, "choices.0.message")
	if !msg.Exists() {
		return Result{}, streamError(w.cfg, uitext.T("bg_stream_no_message", "the answer has no message"), nil)
	}
	content := msg.Get("content")
	if content.IsArray() {
		for _, part := range content.Array() {
			s.text.WriteString(part.Get("text").Str)
		}
	} else {
		s.text.WriteString(content.Str)
	}
	for i, tc := range msg.Get("tool_calls").Array() {
		s.calls = append(s.calls, ToolCall{ID: tc.Get("id").Str, Name: tc.Get("function.name").Str})
		if a := tc.Get("function.arguments"); a.Type == gjson.String {
			s.calls[i].Arguments = a.Str
		} else if a.IsObject() {
			s.calls[i].Arguments = a.Raw
		}
	}
	s.finish = gjson.GetBytes(body, "choices.0.finish_reason").Str
	s.model = gjson.GetBytes(body, "model").Str
	s.usage = chatUsage(gjson.GetBytes(body, "usage"))
	return s.result(), nil
}

// chatUsage reads a Chat Completions usage object. Cached input is
// prompt_tokens_details.cached_tokens (OpenAI, xAI, Mistral, DeepSeek) or
// DeepSeek's older prompt_cache_hit_tokens.
func chatUsage(u gjson.Result) Usage {
	cached := u.Get("prompt_tokens_details.cached_tokens")
	if !cached.Exists() {
		cached = u.Get("prompt_cache_hit_tokens")
	}
	return Usage{InputTokens: int(u.Get("prompt_tokens").Int()), OutputTokens: int(u.Get("completion_tokens").Int()),
		CachedInputTokens: int(cached.Int())}
}

// chatFinish normalises finish_reason. Some local servers say "stop"
// while calling tools; the calls decide.
func chatFinish(f string, hasCalls bool) string {
	switch {
	case hasCalls && (f == "" || f == "stop" || f == "function_call" || f == FinishToolCalls):
		return FinishToolCalls
	case f == "" || f == "eos" || f == "end_turn":
		return FinishStop
	}
	return f
}

// finishCalls gives calls without arguments the empty object.
func finishCalls(calls []ToolCall) []ToolCall {
	for i := range calls {
		calls[i].Arguments = argsOrEmpty(calls[i].Arguments)
	}
	return calls
}
