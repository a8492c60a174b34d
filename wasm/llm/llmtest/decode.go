package llmtest

import (
	"encoding/json"
	"strings"

	"github.com/webbrain/webbrain/wasm/llm"
)

// Wire formats the server recognises by path.
const (
	formatChat      = "chat"
	formatResponses = "responses"
	formatAnthropic = "anthropic"
)

func formatOf(path string) string {
	if _, _, ok := bedrockPath(path); ok {
		return formatBedrock
	}
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return formatChat // also Azure's /openai/deployments/<d>/chat/completions
	case strings.HasSuffix(path, "/responses"):
		return formatResponses
	case strings.HasSuffix(path, "/messages"):
		return formatAnthropic
	}
	return ""
}

// rawRequest covers the request fields of all three formats.
type rawRequest struct {
	Model        string            `json:"model"`
	Stream       bool              `json:"stream"`
	Messages     []json.RawMessage `json:"messages"`
	System       json.RawMessage   `json:"system"`       // anthropic
	Instructions string            `json:"instructions"` // responses
	Input        json.RawMessage   `json:"input"`        // responses
	Tools        []struct {
		Name     string `json:"name"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func decodeRequest(format string, body []byte) (Request, error) {
	if format == formatBedrock {
		return decodeBedrock(body)
	}
	var raw rawRequest
	if err := json.Unmarshal(body, &raw); err != nil {
		return Request{}, err
	}
	req := Request{Body: body, Model: raw.Model, Stream: raw.Stream}
	for _, t := range raw.Tools {
		name := t.Function.Name
		if name == "" {
			name = t.Name
		}
		req.Tools = append(req.Tools, name)
	}
	var err error
	switch format {
	case formatChat:
		for _, m := range raw.Messages {
			var msg llm.Message
			if err = decodeChatMessage(m, &msg); err != nil {
				break
			}
			req.Messages = append(req.Messages, msg)
		}
	case formatAnthropic:
		req.Messages, err = anthropicMessages(raw.System, raw.Messages)
	case formatResponses:
		req.Messages, err = responsesMessages(raw.Instructions, raw.Input)
	}
	return req, err
}

// decodeChatMessage accepts content as a string or as an array of parts.
func decodeChatMessage(raw json.RawMessage, msg *llm.Message) error {
	var m struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		Name       string          `json:"name"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	*msg = llm.Message{Role: m.Role, Content: textOf(m.Content), Images: imagesOf(m.Content), ToolCallID: m.ToolCallID, Name: m.Name}
	for _, c := range m.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
	}
	return nil
}

// textOf joins the text of a string or an array of {type, text} parts.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// imagesOf decodes the image parts of a Chat Completions (image_url) or
// Responses (input_image) content array; both carry a data URL.
func imagesOf(raw json.RawMessage) []llm.Image {
	var parts []struct {
		Type     string          `json:"type"`
		ImageURL json.RawMessage `json:"image_url"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return nil
	}
	var out []llm.Image
	for _, p := range parts {
		var url string
		switch p.Type {
		case "image_url":
			var v struct {
				URL string `json:"url"`
			}
			json.Unmarshal(p.ImageURL, &v)
			url = v.URL
		case "input_image":
			json.Unmarshal(p.ImageURL, &url)
		default:
			continue
		}
		out = append(out, imageFromDataURL(url))
	}
	return out
}

// imageFromDataURL splits data:<type>;base64,<data>; anything else is
// kept whole as Data with no media type, for a test to reject.
func imageFromDataURL(u string) llm.Image {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return llm.Image{Data: u}
	}
	mediaType, data, ok := strings.Cut(rest, ";base64,")
	if !ok {
		return llm.Image{Data: u}
	}
	return llm.Image{MediaType: mediaType, Data: data}
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	Source    struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
}

func anthropicMessages(system json.RawMessage, msgs []json.RawMessage) ([]llm.Message, error) {
	var out []llm.Message
	if sys := textOf(system); sys != "" {
		out = append(out, llm.Message{Role: llm.RoleSystem, Content: sys})
	}
	for _, raw := range msgs {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, err
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			out = append(out, llm.Message{Role: m.Role, Content: s})
			continue
		}
		var blocks []anthropicBlock
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			return nil, err
		}
		msg := llm.Message{Role: m.Role}
		for _, b := range blocks {
			switch b.Type {
			case "text":
				msg.Content += b.Text
			case "image":
				msg.Images = append(msg.Images, llm.Image{MediaType: b.Source.MediaType, Data: b.Source.Data})
			case "tool_use":
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Arguments: string(b.Input)})
			case "tool_result":
				out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: b.ToolUseID, Content: textOf(b.Content)})
			}
		}
		if msg.Content != "" || len(msg.ToolCalls) > 0 || len(msg.Images) > 0 {
			out = append(out, msg)
		}
	}
	return out, nil
}

func responsesMessages(instructions string, input json.RawMessage) ([]llm.Message, error) {
	var out []llm.Message
	if instructions != "" {
		out = append(out, llm.Message{Role: llm.RoleSystem, Content: instructions})
	}
	var s string
	if json.Unmarshal(input, &s) == nil {
		return append(out, llm.Message{Role: llm.RoleUser, Content: s}), nil
	}
	var items []struct {
		Type      string          `json:"type"`
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		CallID    string          `json:"call_id"`
		Name      string          `json:"name"`
		Arguments string          `json:"arguments"`
		Output    string          `json:"output"`
	}
	if len(input) > 0 {
		if err := json.Unmarshal(input, &items); err != nil {
			return nil, err
		}
	}
	for _, it := range items {
		switch it.Type {
		case "function_call":
			call := llm.ToolCall{ID: it.CallID, Name: it.Name, Arguments: it.Arguments}
			if n := len(out); n > 0 && out[n-1].Role == llm.RoleAssistant {
				out[n-1].ToolCalls = append(out[n-1].ToolCalls, call)
			} else {
				out = append(out, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}})
			}
		case "function_call_output":
			out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: it.CallID, Content: it.Output})
		case "", "message":
			role := it.Role
			if role == "developer" {
				role = llm.RoleSystem
			}
			out = append(out, llm.Message{Role: role, Content: textOf(it.Content), Images: imagesOf(it.Content)})
		}
	}
	return out, nil
}
