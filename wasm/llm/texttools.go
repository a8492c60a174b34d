package llm

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// Local models often write tool calls into their text instead of using the
// API's tool_calls field. finishTextToolCalls recognises the common
// shapes and turns them into real calls:
//
//	<tool_call>{"name": "click", "arguments": {...}}</tool_call>   (Hermes, Qwen)
//	```json {"name": "click", "arguments": {...}} ```               (fenced)
//	<function=click>{...}</function>                                (Llama 3.x)
//	<function=click><parameter=ref>e1</parameter></function>        (Qwen3-Coder)
//	[TOOL_CALLS][{"name": "click", "arguments": {...}}]              (Mistral)
//	{"name": "click", "arguments": {...}}                           (the whole reply)
//
// The reply must be nothing but calls (and whitespace), and only names
// among the request's tools count: a reply that quotes a page with
// call-shaped text in it, or prose that shows JSON, stays text. Only
// clients of local servers call it (localServer).
func finishTextToolCalls(res *Result, tools []ToolSpec) {
	if len(res.ToolCalls) > 0 || len(tools) == 0 || res.Content == "" {
		return
	}
	known := make(map[string]bool, len(tools))
	for _, t := range tools {
		known[t.Name] = true
	}
	calls := textToolCalls(res.Content, known)
	if len(calls) == 0 {
		return
	}
	for i := range calls {
		calls[i].ID = fmt.Sprintf("call_text_%d", i)
	}
	res.Content, res.ToolCalls = "", calls
	if res.FinishReason == "" || res.FinishReason == FinishStop {
		res.FinishReason = FinishToolCalls
	}
}

// textToolCalls returns the calls text consists of, or nil when anything
// else is in it.
func textToolCalls(text string, known map[string]bool) []ToolCall {
	t := strings.TrimSpace(text)
	if c, ok := callFromJSON(t, known); ok && jsonEnd(t, 0) == len(t) {
		return []ToolCall{c}
	}
	var calls []ToolCall
	for i := 0; i < len(t); i = skipSpace(t, i) {
		call, end, ok := callAt(t, i, known)
		if !ok {
			return nil
		}
		calls = append(calls, call...)
		i = end
	}
	return calls
}

// callAt recognises a call starting at text[i]; end is just past it.
func callAt(text string, i int, known map[string]bool) ([]ToolCall, int, bool) {
	s := text[i:]
	switch {
	case strings.HasPrefix(s, "<tool_call>"):
		return wrappedJSON(text, i+len("<tool_call>"), "</tool_call>", known)
	case strings.HasPrefix(s, "```"):
		body := i + 3
		if nl := strings.IndexByte(s, '\n'); nl > 0 && nl < 16 && !strings.ContainsAny(s[3:nl], "{ ") {
			body = i + nl + 1 // skip the fence's language tag
		}
		return wrappedJSON(text, body, "```", known)
	case strings.HasPrefix(s, "[TOOL_CALLS]"):
		return wrappedJSON(text, i+len("[TOOL_CALLS]"), "", known)
	case strings.HasPrefix(s, "<function="):
		return functionTag(text, i, known)
	}
	return nil, 0, false
}

// wrappedJSON reads one JSON object or array of call objects at start,
// then the closing marker (optional at the end of the text, as models
// often stop before writing it).
func wrappedJSON(text string, start int, closing string, known map[string]bool) ([]ToolCall, int, bool) {
	j := skipSpace(text, start)
	end := jsonEnd(text, j)
	if end < 0 {
		return nil, 0, false
	}
	doc := text[j:end]
	var calls []ToolCall
	if strings.HasPrefix(doc, "[") {
		for _, v := range gjson.Parse(doc).Array() {
			c, ok := callFromJSON(v.Raw, known)
			if !ok {
				return nil, 0, false
			}
			calls = append(calls, c)
		}
	} else if c, ok := callFromJSON(doc, known); ok {
		calls = []ToolCall{c}
	}
	if len(calls) == 0 {
		return nil, 0, false
	}
	k := skipSpace(text, end)
	if closing != "" && strings.HasPrefix(text[k:], closing) {
		k += len(closing)
	} else if closing != "" && strings.TrimSpace(text[k:]) != "" {
		return nil, 0, false
	}
	return calls, k, true
}

// callFromJSON reads {"name", "arguments"|"parameters"} or the same under
// "function".
func callFromJSON(doc string, known map[string]bool) (ToolCall, bool) {
	v := gjson.Parse(doc)
	if !v.IsObject() {
		return ToolCall{}, false
	}
	if f := v.Get("function"); f.IsObject() {
		v = f
	}
	name := v.Get("name").Str
	if !known[name] {
		return ToolCall{}, false
	}
	args := v.Get("arguments")
	if !args.Exists() {
		args = v.Get("parameters")
	}
	switch {
	case args.IsObject():
		return ToolCall{Name: name, Arguments: args.Raw}, true
	case args.Type == gjson.String && gjson.Valid(args.Str) && gjson.Parse(args.Str).IsObject():
		return ToolCall{Name: name, Arguments: args.Str}, true
	case !args.Exists():
		return ToolCall{Name: name, Arguments: "{}"}, true
	}
	return ToolCall{}, false
}

// functionTag reads <function=name>{json}</function> or
// <function=name><parameter=k>v</parameter>…</function>.
func functionTag(text string, i int, known map[string]bool) ([]ToolCall, int, bool) {
	s := text[i+len("<function="):]
	gt := strings.IndexByte(s, '>')
	if gt < 0 {
		return nil, 0, false
	}
	name := strings.TrimSpace(s[:gt])
	if !known[name] {
		return nil, 0, false
	}
	body := s[gt+1:]
	closeAt := strings.Index(body, "</function>")
	end := len(text)
	if closeAt >= 0 {
		end = i + len("<function=") + gt + 1 + closeAt + len("</function>")
		body = body[:closeAt]
	}
	body = strings.TrimSpace(body)
	if gjson.Parse(body).IsObject() && jsonEnd(body, 0) == len(body) {
		return []ToolCall{{Name: name, Arguments: body}}, end, true
	}
	args := map[string]string{}
	var order []string
	for {
		p := strings.Index(body, "<parameter=")
		if p < 0 {
			break
		}
		body = body[p+len("<parameter="):]
		gt := strings.IndexByte(body, '>')
		stop := strings.Index(body, "</parameter>")
		if gt < 0 || stop < gt {
			return nil, 0, false
		}
		key := strings.TrimSpace(body[:gt])
		args[key] = strings.TrimSpace(body[gt+1 : stop])
		order = append(order, key)
		body = body[stop+len("</parameter>"):]
	}
	if strings.TrimSpace(body) != "" {
		return nil, 0, false
	}
	return []ToolCall{{Name: name, Arguments: paramsJSON(args, order)}}, end, true
}

// paramsJSON encodes tag parameters; values that are JSON (numbers,
// booleans, objects) keep their type, the rest are strings.
func paramsJSON(args map[string]string, order []string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range order {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(quote(k))
		b.WriteByte(':')
		v := args[k]
		if gjson.Valid(v) && v != "" && !strings.HasPrefix(v, `"`) {
			b.WriteString(v)
		} else {
			b.WriteString(quote(v))
		}
	}
	b.WriteByte('}')
	return b.String()
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func skipSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\r\n", s[i]) >= 0 {
		i++
	}
	return i
}

// FirstObject returns the first JSON object in text that parses: models
// often wrap the JSON they were asked for in prose or a code fence.
func FirstObject(text string) (string, bool) {
	for i := 0; i < len(text); i++ {
		if text[i] != '{' {
			continue
		}
		if end := jsonEnd(text, i); end > 0 {
			return text[i:end], true
		}
	}
	return "", false
}

// jsonEnd returns the index just past the JSON object or array that starts
// at s[i], or -1 if there is none or it does not close.
func jsonEnd(s string, i int) int {
	if i >= len(s) || (s[i] != '{' && s[i] != '[') {
		return -1
	}
	depth, inStr, esc := 0, false, false
	for j := i; j < len(s); j++ {
		c := s[j]
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				if !gjson.Valid(s[i : j+1]) {
					return -1
				}
				return j + 1
			}
		}
	}
	return -1
}
