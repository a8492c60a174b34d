package llmtest

import (
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"net/url"
	"strings"

	"github.com/webbrain/webbrain/wasm/llm"
)

// Amazon Bedrock's Converse API: POST /model/<model id>/converse answers
// one JSON object, /converse-stream answers AWS event-stream frames
// (application/vnd.amazon.eventstream), the model id is in the path.

const formatBedrock = "bedrock"

// BedrockStreamType is the content type of a ConverseStream answer.
const BedrockStreamType = "application/vnd.amazon.eventstream"

// bedrockPath returns the unescaped model id of a Converse path and
// whether it streams; ok is false for any other path.
func bedrockPath(path string) (model string, stream, ok bool) {
	rest, found := strings.CutPrefix(path, "/model/")
	if !found {
		if i := strings.Index(path, "/model/"); i >= 0 {
			rest = path[i+len("/model/"):]
		} else {
			return "", false, false
		}
	}
	id, op, found := strings.Cut(rest, "/")
	if !found || (op != "converse" && op != "converse-stream") {
		return "", false, false
	}
	model, err := url.PathUnescape(id)
	if err != nil {
		return "", false, false
	}
	return model, op == "converse-stream", true
}

type bedrockRaw struct {
	System []struct {
		Text string `json:"text"`
	} `json:"system"`
	Messages []struct {
		Role    string         `json:"role"`
		Content []bedrockBlock `json:"content"`
	} `json:"messages"`
	ToolConfig struct {
		Tools []struct {
			ToolSpec struct {
				Name string `json:"name"`
			} `json:"toolSpec"`
		} `json:"tools"`
	} `json:"toolConfig"`
}

type bedrockBlock struct {
	Text  *string `json:"text"`
	Image *struct {
		Format string `json:"format"`
		Source struct {
			Bytes string `json:"bytes"`
		} `json:"source"`
	} `json:"image"`
	ToolUse *struct {
		ToolUseID string          `json:"toolUseId"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
	} `json:"toolUse"`
	ToolResult *struct {
		ToolUseID string         `json:"toolUseId"`
		Content   []bedrockBlock `json:"content"`
	} `json:"toolResult"`
}

// decodeBedrock normalises a Converse request to OpenAI form.
func decodeBedrock(body []byte) (Request, error) {
	var raw bedrockRaw
	if err := json.Unmarshal(body, &raw); err != nil {
		return Request{}, err
	}
	req := Request{Body: body}
	for _, t := range raw.ToolConfig.Tools {
		req.Tools = append(req.Tools, t.ToolSpec.Name)
	}
	var sys []string
	for _, s := range raw.System {
		sys = append(sys, s.Text)
	}
	if len(sys) > 0 {
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleSystem, Content: strings.Join(sys, "\n\n")})
	}
	for _, m := range raw.Messages {
		msg := llm.Message{Role: m.Role}
		for _, b := range m.Content {
			switch {
			case b.Text != nil:
				msg.Content += *b.Text
			case b.Image != nil:
				msg.Images = append(msg.Images, llm.Image{MediaType: "image/" + b.Image.Format, Data: b.Image.Source.Bytes})
			case b.ToolUse != nil:
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: b.ToolUse.ToolUseID, Name: b.ToolUse.Name, Arguments: string(b.ToolUse.Input)})
			case b.ToolResult != nil:
				var text string
				for _, c := range b.ToolResult.Content {
					if c.Text != nil {
						text += *c.Text
					}
				}
				req.Messages = append(req.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: b.ToolResult.ToolUseID, Content: text})
			}
		}
		if msg.Content != "" || len(msg.ToolCalls) > 0 || len(msg.Images) > 0 {
			req.Messages = append(req.Messages, msg)
		}
	}
	return req, nil
}

func bedrockStop(calls []llm.ToolCall) string {
	if len(calls) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

func bedrockUsage(u usage) obj {
	return obj{"inputTokens": u.in - u.cached - u.written, "outputTokens": u.out, "totalTokens": u.in + u.out,
		"cacheReadInputTokens": u.cached, "cacheWriteInputTokens": u.written}
}

func bedrockResponse(text string, calls []llm.ToolCall, u usage) string {
	content := []obj{}
	if text != "" {
		content = append(content, obj{"text": text})
	}
	for _, c := range calls {
		content = append(content, obj{"toolUse": obj{"toolUseId": c.ID, "name": c.Name, "input": json.RawMessage(c.Arguments)}})
	}
	return jsonText(obj{"output": obj{"message": obj{"role": "assistant", "content": content}},
		"stopReason": bedrockStop(calls), "usage": bedrockUsage(u), "metrics": obj{"latencyMs": 1}})
}

// bedrockStream is ConverseStream's frames: messageStart, a text block,
// one block per tool use with its input in thirds, messageStop, metadata.
func bedrockStream(turn Turn, calls []llm.ToolCall, u usage) []string {
	var ev []string
	event := func(typ string, payload obj) {
		ev = append(ev, string(EventStreamFrame(map[string]string{
			":event-type": typ, ":content-type": "application/json", ":message-type": "event"}, []byte(jsonText(payload)))))
	}
	event("messageStart", obj{"role": "assistant"})
	idx := 0
	if turn.Text != "" {
		for _, piece := range chunks(turn.Text) {
			event("contentBlockDelta", obj{"contentBlockIndex": idx, "delta": obj{"text": piece}})
		}
		event("contentBlockStop", obj{"contentBlockIndex": idx})
		idx++
	}
	if turn.Garbage {
		bad := EventStreamFrame(map[string]string{":event-type": "contentBlockDelta", ":message-type": "event"}, []byte(`{"delta":{"text":"x"}}`))
		bad[len(bad)-1] ^= 0xff // a wrong message checksum
		ev = append(ev, string(bad))
	}
	for _, c := range calls {
		event("contentBlockStart", obj{"contentBlockIndex": idx, "start": obj{"toolUse": obj{"toolUseId": c.ID, "name": c.Name}}})
		for _, piece := range thirds(c.Arguments) {
			event("contentBlockDelta", obj{"contentBlockIndex": idx, "delta": obj{"toolUse": obj{"input": piece}}})
		}
		event("contentBlockStop", obj{"contentBlockIndex": idx})
		idx++
	}
	if turn.CutOff {
		return ev
	}
	event("messageStop", obj{"stopReason": bedrockStop(calls)})
	event("metadata", obj{"usage": bedrockUsage(u), "metrics": obj{"latencyMs": 1}})
	return ev
}

// EventStreamFrame encodes one AWS event-stream message with string
// headers (written in sorted order) and both CRCs.
func EventStreamFrame(headers map[string]string, payload []byte) []byte {
	names := make([]string, 0, len(headers))
	for k := range headers {
		names = append(names, k)
	}
	sortStrings(names)
	var hb []byte
	for _, k := range names {
		hb = append(hb, byte(len(k)))
		hb = append(hb, k...)
		hb = append(hb, 7)
		hb = binary.BigEndian.AppendUint16(hb, uint16(len(headers[k])))
		hb = append(hb, headers[k]...)
	}
	return EventStreamRaw(hb, payload)
}

// EventStreamRaw frames an already encoded header block and a payload.
func EventStreamRaw(headerBlock, payload []byte) []byte {
	total := 12 + len(headerBlock) + len(payload) + 4
	b := binary.BigEndian.AppendUint32(nil, uint32(total))
	b = binary.BigEndian.AppendUint32(b, uint32(len(headerBlock)))
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = append(b, headerBlock...)
	b = append(b, payload...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
