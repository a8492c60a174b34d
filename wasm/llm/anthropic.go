package llm

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// anthropicDefaultMaxTokens is sent when the request sets none: the
// Messages API requires max_tokens.
const anthropicDefaultMaxTokens = 8192

// anthropicWire is the Anthropic Messages API.
type anthropicWire struct{ endpoints }

func (w *anthropicWire) headers() map[string]string {
	return map[string]string{
		"Content-Type":      "application/json",
		"x-api-key":         w.cfg.APIKey,
		"anthropic-version": anthropicVersion,
		// Without it the API refuses requests that carry a browser Origin.
		"anthropic-dangerous-direct-browser-access": "true",
	}
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	Source    *anthropicImage `json:"source,omitempty"`
}

// anthropicImage is the base64 source of an image block.
type anthropicImage struct {
	Type      string `json:"type"` // base64
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type anthropicMessage struct {
	Role    string           `json:"role"`
	Content []anthropicBlock `json:"content"`
}

type anthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// anthropicMessages maps OpenAI-form messages onto Messages API turns:
// leading system messages become the system prompt, tool results become
// tool_result blocks in a user turn, and consecutive turns of one role
// merge, since the API wants user and assistant to alternate. A system
// message later in the conversation (a nudge from the loop) is kept in
// place as user text.
func anthropicMessages(in []Message) (system string, out []anthropicMessage) {
	var sys []string
	i := 0
	for ; i < len(in) && in[i].Role == RoleSystem; i++ {
		sys = append(sys, in[i].Content)
	}
	for _, m := range in[i:] {
		role := RoleUser
		var blocks []anthropicBlock
		switch m.Role {
		case RoleAssistant:
			role = RoleAssistant
			if strings.TrimSpace(m.Content) != "" {
				blocks = append(blocks, anthropicBlock{Type: "text", Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				input := json.RawMessage(argsOrEmpty(tc.Arguments))
				if !gjson.ValidBytes(input) || !gjson.ParseBytes(input).IsObject() {
					input = json.RawMessage(`{}`)
				}
				blocks = append(blocks, anthropicBlock{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: input})
			}
		case RoleTool:
			content := m.Content
			if content == "" {
				content = "(no output)"
			}
			blocks = append(blocks, anthropicBlock{Type: "tool_result", ToolUseID: m.ToolCallID, Content: content})
		default:
			if strings.TrimSpace(m.Content) != "" {
				blocks = append(blocks, anthropicBlock{Type: "text", Text: m.Content})
			}
			if m.Role == RoleUser {
				for _, im := range m.Images {
					blocks = append(blocks, anthropicBlock{Type: "image", Source: &anthropicImage{Type: "base64", MediaType: im.MediaType, Data: im.Data}})
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
		out = append(out, anthropicMessage{Role: role, Content: blocks})
	}
	return strings.Join(sys, "\n\n"), out
}

func (w *anthropicWire) encode(req Request, model string, stream bool) ([]byte, error) {
	system, msgs := anthropicMessages(req.Messages)
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = anthropicDefaultMaxTokens
	}
	body := map[string]any{"model": model, "max_tokens": maxTokens, "messages": msgs, "stream": stream}
	if system != "" {
		body["system"] = system
	}
	if len(req.Tools) > 0 {
		tools := make([]anthropicTool, len(req.Tools))
		for i, t := range req.Tools {
			tools[i] = anthropicTool{Name: t.Name, Description: t.Description, InputSchema: withSchema(t).Parameters}
		}
		body["tools"] = tools
	}
	if req.Temperature > 0 {
		body["temperature"] = req.Temperature
	}
	return json.Marshal(body)
}

func (w *anthropicWire) newStream(onText func(string)) streamParser {
	return &anthropicStream{turn: turn{cfg: w.cfg, onText: onText}}
}

// anthropicStream rebuilds a turn from Messages API events. Thinking and
// server-tool blocks (web search, code execution …) are read past: only
// text and client tool_use blocks make the turn.
type anthropicStream struct {
	turn
	blocks map[int64]int // content block index → position in calls
	stop   string
}

func (s *anthropicStream) event(ev event) (bool, error) {
	data, typ, _, err := s.read(ev)
	if data == "" || err != nil {
		return false, err
	}
	switch typ {
	case "message_start":
		// A second message_start means the server spliced a new attempt
		// in: what came before is void.
		msg := gjson.Get(data, "message")
		*s = anthropicStream{turn: turn{cfg: s.cfg, onText: s.onText, model: msg.Get("model").Str,
			usage: anthropicUsage(msg.Get("usage"), Usage{})}}
	case "content_block_start":
		block := gjson.Get(data, "content_block")
		switch block.Get("type").Str {
		case "text":
			s.addText(block.Get("text").Str)
		case "tool_use":
			if s.blocks == nil {
				s.blocks = map[int64]int{}
			}
			s.blocks[gjson.Get(data, "index").Int()] = len(s.calls)
			call := ToolCall{ID: block.Get("id").Str, Name: block.Get("name").Str}
			if in := block.Get("input"); in.IsObject() && in.Raw != "{}" {
				call.Arguments = in.Raw // non-streamed input arrives whole
			}
			s.calls = append(s.calls, call)
		}
	case "content_block_delta":
		delta := gjson.Get(data, "delta")
		switch delta.Get("type").Str {
		case "text_delta":
			s.addText(delta.Get("text").Str)
		case "input_json_delta":
			if pos, ok := s.blocks[gjson.Get(data, "index").Int()]; ok {
				s.calls[pos].Arguments += delta.Get("partial_json").Str
			}
		}
	case "message_delta":
		if r := gjson.Get(data, "delta.stop_reason"); r.Str != "" {
			s.stop = r.Str
		}
		s.usage = anthropicUsage(gjson.Get(data, "usage"), s.usage)
	case "message_stop":
		return true, nil
	case "error":
		return false, inStreamError(s.cfg, providerMessage([]byte(data)))
	}
	return false, nil
}

// anthropicUsage counts cached input as input: it fills the context
// window all the same (Anthropic's input_tokens is only the uncached
// rest). Fields absent from u keep their value in prev.
func anthropicUsage(u gjson.Result, prev Usage) Usage {
	if r := u.Get("cache_read_input_tokens"); r.Exists() {
		prev.CachedInputTokens = int(r.Int())
	}
	if w := u.Get("cache_creation_input_tokens"); w.Exists() {
		prev.CacheWriteTokens = int(w.Int())
	}
	if in := u.Get("input_tokens"); in.Exists() {
		prev.InputTokens = int(in.Int()) + prev.CachedInputTokens + prev.CacheWriteTokens
	}
	if out := u.Get("output_tokens"); out.Exists() {
		prev.OutputTokens = int(out.Int())
	}
	return prev
}

func (s *anthropicStream) result() Result {
	return s.answer(anthropicFinish(s.stop, len(s.calls) > 0))
}

func anthropicFinish(stop string, hasCalls bool) string {
	switch stop {
	case "tool_use":
		return FinishToolCalls
	case "max_tokens", "model_context_window_exceeded":
		return FinishLength
	case "refusal":
		return FinishRefusal
	}
	if hasCalls {
		return FinishToolCalls
	}
	return FinishStop // end_turn, stop_sequence, pause_turn
}

func (w *anthropicWire) decode(body []byte) (Result, error) {
	if !gjson.ValidBytes(body) {
		return Result{}, streamError(w.cfg, streamUnreadable(), nil)
	}
	if gjson.GetBytes(body, "type").Str == "error" {
		return Result{}, inStreamError(w.cfg, providerMessage(body))
	}
	s := &anthropicStream{stop: gjson.GetBytes(body, "stop_reason").Str, turn: turn{cfg: w.cfg,
		model: gjson.GetBytes(body, "model").Str, usage: anthropicUsage(gjson.GetBytes(body, "usage"), Usage{})}}
	for _, b := range gjson.GetBytes(body, "content").Array() {
		switch b.Get("type").Str {
		case "text":
			s.text.WriteString(b.Get("text").Str)
		case "tool_use":
			s.calls = append(s.calls, ToolCall{ID: b.Get("id").Str, Name: b.Get("name").Str, Arguments: b.Get("input").Raw})
		}
	}
	return s.result(), nil
}
