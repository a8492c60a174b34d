package llm

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// responsesWire is the OpenAI Responses API (also served by Azure and LM
// Studio). WebBrain keeps the conversation itself, so requests are
// stateless (store: false) and carry the whole history as input items.
type responsesWire struct{ endpoints }

// streams: official models whose capability table lacks streaming
// (GPT-5.5 Pro) are asked for the whole answer (spec).
func (w *responsesWire) streams(Request) bool {
	m := strings.ToLower(w.cfg.Model)
	return !(strings.HasPrefix(m, "gpt-5.5-pro") && strings.Contains(w.url, "://api.openai.com/"))
}

func (w *responsesWire) headers() map[string]string {
	h := map[string]string{"Content-Type": "application/json"}
	if w.cfg.APIKey != "" {
		h["Authorization"] = "Bearer " + w.cfg.APIKey
	}
	return h
}

type responsesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// responsesInput maps OpenAI-form messages onto input items: leading
// system messages become instructions, tool calls function_call items and
// tool results function_call_output items.
func responsesInput(in []Message) (instructions string, items []map[string]any) {
	var sys []string
	i := 0
	for ; i < len(in) && in[i].Role == RoleSystem; i++ {
		sys = append(sys, in[i].Content)
	}
	for _, m := range in[i:] {
		switch m.Role {
		case RoleTool:
			items = append(items, map[string]any{"type": "function_call_output", "call_id": m.ToolCallID, "output": m.Content})
		case RoleAssistant:
			if m.Content != "" {
				items = append(items, map[string]any{"role": RoleAssistant, "content": m.Content})
			}
			for _, tc := range m.ToolCalls {
				items = append(items, map[string]any{"type": "function_call", "call_id": tc.ID, "name": tc.Name,
					"arguments": argsOrEmpty(tc.Arguments)})
			}
		case RoleSystem:
			items = append(items, map[string]any{"role": "developer", "content": m.Content})
		default:
			items = append(items, map[string]any{"role": RoleUser, "content": responsesContent(m)})
		}
	}
	return strings.Join(sys, "\n\n"), items
}

// responsesContent is a user message's content: its text, or with images
// an input_text part followed by one input_image part per image.
func responsesContent(m Message) any {
	if len(m.Images) == 0 {
		return m.Content
	}
	parts := []map[string]string{{"type": "input_text", "text": m.Content}}
	for _, im := range m.Images {
		parts = append(parts, map[string]string{"type": "input_image", "image_url": im.dataURL()})
	}
	return parts
}

func (w *responsesWire) encode(req Request, model string, stream bool) ([]byte, error) {
	instructions, items := responsesInput(req.Messages)
	if items == nil {
		items = []map[string]any{}
	}
	body := map[string]any{"model": model, "input": items, "stream": stream, "store": false}
	if instructions != "" {
		body["instructions"] = instructions
	}
	if len(req.Tools) > 0 {
		tools := make([]responsesTool, len(req.Tools))
		for i, t := range req.Tools {
			tools[i] = responsesTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: withSchema(t).Parameters}
		}
		body["tools"] = tools
	}
	if req.Temperature > 0 {
		body["temperature"] = req.Temperature
	}
	if req.MaxTokens > 0 {
		body["max_output_tokens"] = req.MaxTokens
	}
	return json.Marshal(body)
}

func (w *responsesWire) newStream(onText func(string)) streamParser {
	return &responsesStream{turn: turn{cfg: w.cfg, onText: onText}, byItem: map[string]int{}}
}

// responsesStream rebuilds a turn from Responses events. Output text and
// function_call items make the turn; reasoning and hosted tools (web
// search, code interpreter, MCP …) are read past. response.completed and
// response.incomplete end it; response.failed and error events fail it.
type responsesStream struct {
	turn
	byItem map[string]int // item id → position in calls
	finish string
}

func (s *responsesStream) event(ev event) (bool, error) {
	// A [DONE] a few proxies append ends nothing: response.completed does.
	data, typ, _, err := s.read(ev)
	if data == "" || err != nil {
		return false, err
	}
	switch typ {
	case "response.output_text.delta":
		s.addText(gjson.Get(data, "delta").Str)
	case "response.output_item.added", "response.output_item.done":
		s.item(gjson.Get(data, "item"), typ == "response.output_item.done")
	case "response.function_call_arguments.delta":
		if pos, ok := s.byItem[gjson.Get(data, "item_id").Str]; ok {
			s.calls[pos].Arguments += gjson.Get(data, "delta").Str
		}
	case "response.function_call_arguments.done":
		if pos, ok := s.byItem[gjson.Get(data, "item_id").Str]; ok {
			s.calls[pos].Arguments = gjson.Get(data, "arguments").Str
		}
	case "response.completed", "response.incomplete":
		s.finishWith(gjson.Get(data, "response"))
		return true, nil
	case "response.failed":
		return false, inStreamError(s.cfg, gjson.Get(data, "response.error.message").Str)
	case "error":
		return false, inStreamError(s.cfg, providerMessage([]byte(data)))
	}
	return false, nil
}

// item records a function_call output item; done items carry the final
// arguments, which win over the deltas.
func (s *responsesStream) item(it gjson.Result, done bool) {
	if it.Get("type").Str != "function_call" {
		return
	}
	id := it.Get("id").Str
	pos, ok := s.byItem[id]
	if !ok {
		pos = len(s.calls)
		s.byItem[id] = pos
		s.calls = append(s.calls, ToolCall{ID: it.Get("call_id").Str, Name: it.Get("name").Str})
	}
	if a := it.Get("arguments").Str; done || (a != "" && s.calls[pos].Arguments == "") {
		s.calls[pos].Arguments = a
	}
}

func (s *responsesStream) finishWith(resp gjson.Result) {
	if m := resp.Get("model").Str; m != "" {
		s.model = m
	}
	u := resp.Get("usage")
	s.usage = Usage{InputTokens: int(u.Get("input_tokens").Int()), OutputTokens: int(u.Get("output_tokens").Int()),
		CachedInputTokens: int(u.Get("input_tokens_details.cached_tokens").Int())}
	switch {
	case resp.Get("status").Str == "incomplete":
		s.finish = FinishLength
		if resp.Get("incomplete_details.reason").Str == "content_filter" {
			s.finish = FinishContentFilter
		}
	case len(s.calls) > 0:
		s.finish = FinishToolCalls
	default:
		s.finish = FinishStop
	}
}

func (s *responsesStream) result() Result {
	return s.answer(s.finish)
}

func (w *responsesWire) decode(body []byte) (Result, error) {
	if !gjson.ValidBytes(body) {
		return Result{}, streamError(w.cfg, streamUnreadable(), nil)
	}
	if e := gjson.GetBytes(body, "error"); e.IsObject() {
		return Result{}, inStreamError(w.cfg, e.Get("message").Str)
	}
	s := &responsesStream{turn: turn{cfg: w.cfg}, byItem: map[string]int{}}
	resp := gjson.ParseBytes(body)
	for _, it := range resp.Get("output").Array() {
		if it.Get("type").Str == "message" {
			for _, part := range it.Get("content").Array() {
				if part.Get("type").Str == "output_text" {
					s.text.WriteString(part.Get("text").Str)
				}
			}
			continue
		}
		s.item(it, true)
	}
	if resp.Get("status").Str == "failed" {
		return Result{}, inStreamError(w.cfg, resp.Get("error.message").Str)
	}
	s.finishWith(resp)
	return s.result(), nil
}
