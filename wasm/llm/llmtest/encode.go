package llmtest

import (
	"encoding/json"
	"fmt"

	"github.com/webbrain/webbrain/wasm/llm"
)

// obj is a JSON object under construction.
type obj = map[string]any

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only maps of plain values reach here
	}
	return string(b)
}

// chunks splits text at word starts so a stream carries several deltas.
func chunks(text string) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if text[i] == ' ' && text[i-1] != ' ' {
			out = append(out, text[start:i])
			start = i
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// thirds splits s into up to three byte pieces, mid-token on purpose:
// real servers split tool arguments anywhere.
func thirds(s string) []string {
	if len(s) < 3 {
		return []string{s}
	}
	a, b := len(s)/3, 2*len(s)/3
	return []string{s[:a], s[a:b], s[b:]}
}

func finishReason(calls []llm.ToolCall) string {
	if len(calls) > 0 {
		return llm.FinishToolCalls
	}
	return llm.FinishStop
}

// truncate cuts a JSON document in half: a malformed body.
func truncate(s string) string { return s[:len(s)/2] }

func nonStreaming(format string, req Request, turn Turn, calls []llm.ToolCall, u usage) string {
	var body string
	switch format {
	case formatChat:
		body = chatCompletion(req, turn.Text, calls, u)
	case formatAnthropic:
		body = jsonText(anthropicMessage(req, turn.Text, calls, u, true))
	case formatResponses:
		body = jsonText(responseObject(req, turn.Text, calls, u, "completed"))
	case formatBedrock:
		body = bedrockResponse(turn.Text, calls, u)
	}
	if turn.CutOff || turn.Garbage {
		return truncate(body)
	}
	return body
}

func streamEvents(format string, req Request, turn Turn, calls []llm.ToolCall, u usage) []string {
	switch format {
	case formatAnthropic:
		return anthropicStream(req, turn, calls, u)
	case formatResponses:
		return responsesStream(req, turn, calls, u)
	case formatBedrock:
		return bedrockStream(turn, calls, u)
	}
	return chatStream(req, turn, calls, u)
}

func modelOf(req Request) string {
	if req.Model != "" {
		return req.Model
	}
	return Model
}

// --- OpenAI Chat Completions ---

func chatUsage(u usage) obj {
	return obj{"prompt_tokens": u.in, "completion_tokens": u.out, "total_tokens": u.in + u.out,
		"prompt_tokens_details": obj{"cached_tokens": u.cached}}
}

func chatCompletion(req Request, text string, calls []llm.ToolCall, u usage) string {
	msg := obj{"role": "assistant", "content": nil}
	if text != "" {
		msg["content"] = text
	}
	if len(calls) > 0 {
		var tc []obj
		for _, c := range calls {
			tc = append(tc, obj{"id": c.ID, "type": "function", "function": obj{"name": c.Name, "arguments": c.Arguments}})
		}
		msg["tool_calls"] = tc
	}
	return jsonText(obj{
		"id": "chatcmpl-llmtest", "object": "chat.completion", "created": 0, "model": modelOf(req),
		"choices": []obj{{"index": 0, "message": msg, "finish_reason": finishReason(calls)}},
		"usage":   chatUsage(u),
	})
}

func chatStream(req Request, turn Turn, calls []llm.ToolCall, u usage) []string {
	var ev []string
	chunk := func(delta obj, finish any) {
		ev = append(ev, "data: "+jsonText(obj{
			"id": "chatcmpl-llmtest", "object": "chat.completion.chunk", "created": 0, "model": modelOf(req),
			"choices": []obj{{"index": 0, "delta": delta, "finish_reason": finish}},
		})+"\n\n")
	}
	chunk(obj{"role": "assistant", "content": ""}, nil)
	for _, piece := range chunks(turn.Text) {
		chunk(obj{"content": piece}, nil)
	}
	if turn.Garbage {
		ev = append(ev, `data: {"id":"chatcmpl-llmtest","choices":[{"index":0,"delta":{"content":"`+"\n\n")
	}
	for i, c := range calls {
		chunk(obj{"tool_calls": []obj{{"index": i, "id": c.ID, "type": "function",
			"function": obj{"name": c.Name, "arguments": ""}}}}, nil)
		for _, piece := range thirds(c.Arguments) {
			chunk(obj{"tool_calls": []obj{{"index": i, "function": obj{"arguments": piece}}}}, nil)
		}
	}
	if turn.CutOff {
		return ev
	}
	chunk(obj{}, finishReason(calls))
	ev = append(ev, "data: "+jsonText(obj{"id": "chatcmpl-llmtest", "object": "chat.completion.chunk",
		"model": modelOf(req), "choices": []obj{}, "usage": chatUsage(u)})+"\n\n")
	return append(ev, "data: [DONE]\n\n")
}

// --- Anthropic Messages ---

func anthropicMessage(req Request, text string, calls []llm.ToolCall, u usage, done bool) obj {
	content := []obj{}
	if done {
		if text != "" {
			content = append(content, obj{"type": "text", "text": text})
		}
		for _, c := range calls {
			content = append(content, obj{"type": "tool_use", "id": c.ID, "name": c.Name, "input": json.RawMessage(c.Arguments)})
		}
	}
	m := obj{"id": "msg_llmtest", "type": "message", "role": "assistant", "model": modelOf(req),
		"content": content, "stop_reason": nil, "stop_sequence": nil,
		"usage": anthropicUsage(u, 1)}
	if done {
		stop := "end_turn"
		if len(calls) > 0 {
			stop = "tool_use"
		}
		m["stop_reason"] = stop
		m["usage"] = anthropicUsage(u, u.out)
	}
	return m
}

func anthropicStream(req Request, turn Turn, calls []llm.ToolCall, u usage) []string {
	var ev []string
	event := func(typ string, data obj) {
		data["type"] = typ
		ev = append(ev, "event: "+typ+"\ndata: "+jsonText(data)+"\n\n")
	}
	event("message_start", obj{"message": anthropicMessage(req, "", nil, u, false)})
	event("ping", obj{})
	index := 0
	if turn.Text != "" {
		event("content_block_start", obj{"index": 0, "content_block": obj{"type": "text", "text": ""}})
		for _, piece := range chunks(turn.Text) {
			event("content_block_delta", obj{"index": 0, "delta": obj{"type": "text_delta", "text": piece}})
		}
		event("content_block_stop", obj{"index": 0})
		index++
	}
	if turn.Garbage {
		ev = append(ev, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\n\n")
	}
	for _, c := range calls {
		event("content_block_start", obj{"index": index,
			"content_block": obj{"type": "tool_use", "id": c.ID, "name": c.Name, "input": obj{}}})
		for _, piece := range thirds(c.Arguments) {
			event("content_block_delta", obj{"index": index, "delta": obj{"type": "input_json_delta", "partial_json": piece}})
		}
		event("content_block_stop", obj{"index": index})
		index++
	}
	if turn.CutOff {
		return ev
	}
	done := anthropicMessage(req, "", calls, u, true)
	event("message_delta", obj{"delta": obj{"stop_reason": done["stop_reason"], "stop_sequence": nil},
		"usage": obj{"output_tokens": u.out}})
	event("message_stop", obj{})
	return ev
}

// anthropicUsage reports input as Anthropic does: input_tokens is only
// the part neither read from nor written to the cache.
func anthropicUsage(u usage, out int) obj {
	return obj{"input_tokens": u.in - u.cached - u.written, "cache_read_input_tokens": u.cached,
		"cache_creation_input_tokens": u.written, "output_tokens": out}
}

// --- OpenAI Responses ---

func responseItems(text string, calls []llm.ToolCall) []obj {
	items := []obj{}
	if text != "" {
		items = append(items, obj{"type": "message", "id": "msg_llmtest", "status": "completed", "role": "assistant",
			"content": []obj{{"type": "output_text", "text": text, "annotations": []obj{}}}})
	}
	for i, c := range calls {
		items = append(items, obj{"type": "function_call", "id": fmt.Sprintf("fc_llmtest_%d", i),
			"status": "completed", "call_id": c.ID, "name": c.Name, "arguments": c.Arguments})
	}
	return items
}

func responseObject(req Request, text string, calls []llm.ToolCall, u usage, status string) obj {
	r := obj{"id": "resp_llmtest", "object": "response", "status": status, "model": modelOf(req), "output": []obj{}}
	if status == "completed" {
		r["output"] = responseItems(text, calls)
		r["usage"] = obj{"input_tokens": u.in, "output_tokens": u.out, "total_tokens": u.in + u.out,
			"input_tokens_details": obj{"cached_tokens": u.cached}}
	}
	return r
}

func responsesStream(req Request, turn Turn, calls []llm.ToolCall, u usage) []string {
	var ev []string
	seq := 0
	event := func(typ string, data obj) {
		data["type"] = typ
		data["sequence_number"] = seq
		seq++
		ev = append(ev, "event: "+typ+"\ndata: "+jsonText(data)+"\n\n")
	}
	event("response.created", obj{"response": responseObject(req, "", nil, u, "in_progress")})
	items := responseItems(turn.Text, calls)
	out := 0
	if turn.Text != "" {
		item := items[0]
		event("response.output_item.added", obj{"output_index": 0, "item": obj{"type": "message", "id": item["id"],
			"status": "in_progress", "role": "assistant", "content": []obj{}}})
		event("response.content_part.added", obj{"item_id": item["id"], "output_index": 0, "content_index": 0,
			"part": obj{"type": "output_text", "text": "", "annotations": []obj{}}})
		for _, piece := range chunks(turn.Text) {
			event("response.output_text.delta", obj{"item_id": item["id"], "output_index": 0, "content_index": 0, "delta": piece})
		}
		event("response.output_text.done", obj{"item_id": item["id"], "output_index": 0, "content_index": 0, "text": turn.Text})
		event("response.output_item.done", obj{"output_index": 0, "item": item})
		out++
	}
	if turn.Garbage {
		ev = append(ev, "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\n\n")
	}
	for _, item := range items[out:] {
		added := obj{}
		for k, v := range item {
			added[k] = v
		}
		added["arguments"], added["status"] = "", "in_progress"
		event("response.output_item.added", obj{"output_index": out, "item": added})
		args, _ := item["arguments"].(string)
		for _, piece := range thirds(args) {
			event("response.function_call_arguments.delta", obj{"item_id": item["id"], "output_index": out, "delta": piece})
		}
		event("response.function_call_arguments.done", obj{"item_id": item["id"], "output_index": out, "arguments": args})
		event("response.output_item.done", obj{"output_index": out, "item": item})
		out++
	}
	if turn.CutOff {
		return ev
	}
	event("response.completed", obj{"response": responseObject(req, turn.Text, calls, u, "completed")})
	return ev
}
