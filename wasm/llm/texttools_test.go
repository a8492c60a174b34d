package llm

import "testing"

func TestTextToolCalls(t *testing.T) {
	tools := []ToolSpec{{Name: "click"}, {Name: "navigate"}}
	cases := []struct {
		name, text, content string
		calls               []ToolCall
	}{
		{"hermes", "I'll click it.\n<tool_call>\n{\"name\": \"click\", \"arguments\": {\"ref\": \"e5\"}}\n</tool_call>",
			"I'll click it.", []ToolCall{{ID: "call_text_0", Name: "click", Arguments: `{"ref": "e5"}`}}},
		{"unclosed tag at end", `<tool_call>{"name":"navigate","arguments":{"url":"https://a.b"}}`,
			"", []ToolCall{{ID: "call_text_0", Name: "navigate", Arguments: `{"url":"https://a.b"}`}}},
		{"fenced json", "Sure:\n```json\n{\"name\": \"click\", \"parameters\": {\"ref\": \"e1\"}}\n```\nDone.",
			"Sure:\n\nDone.", []ToolCall{{ID: "call_text_0", Name: "click", Arguments: `{"ref": "e1"}`}}},
		{"string arguments", `{"name":"click","arguments":"{\"ref\":\"e2\"}"}`,
			"", []ToolCall{{ID: "call_text_0", Name: "click", Arguments: `{"ref":"e2"}`}}},
		{"llama function tag", `<function=click>{"ref": "e9"}</function>`,
			"", []ToolCall{{ID: "call_text_0", Name: "click", Arguments: `{"ref": "e9"}`}}},
		{"qwen parameters", "<function=navigate>\n<parameter=url>\nhttps://x.y/?q=\"a\"\n</parameter>\n<parameter=new_tab>true</parameter>\n</function>",
			"", []ToolCall{{ID: "call_text_0", Name: "navigate", Arguments: `{"url":"https://x.y/?q=\"a\"","new_tab":true}`}}},
		{"mistral list", `[TOOL_CALLS][{"name":"click","arguments":{"ref":"e1"}},{"name":"click","arguments":{"ref":"e2"}}]`,
			"", []ToolCall{{ID: "call_text_0", Name: "click", Arguments: `{"ref":"e1"}`}, {ID: "call_text_1", Name: "click", Arguments: `{"ref":"e2"}`}}},
		{"unknown tool stays text", `<tool_call>{"name":"rm_rf","arguments":{}}</tool_call>`,
			`<tool_call>{"name":"rm_rf","arguments":{}}</tool_call>`, nil},
		{"json in prose stays text", "The API returns {\"name\": \"click\", \"arguments\": {}} for clicks.",
			"The API returns {\"name\": \"click\", \"arguments\": {}} for clicks.", nil},
		{"broken json stays text", `<tool_call>{"name":"click","arguments":{"ref":</tool_call>`,
			`<tool_call>{"name":"click","arguments":{"ref":</tool_call>`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Result{Content: c.text, FinishReason: FinishStop}
			finishTextToolCalls(&res, tools)
			if res.Content != c.content || len(res.ToolCalls) != len(c.calls) {
				t.Fatalf("got %q %+v", res.Content, res.ToolCalls)
			}
			for i := range c.calls {
				if res.ToolCalls[i] != c.calls[i] {
					t.Errorf("call %d: %+v want %+v", i, res.ToolCalls[i], c.calls[i])
				}
			}
			if len(c.calls) > 0 && res.FinishReason != FinishToolCalls {
				t.Errorf("finish %q", res.FinishReason)
			}
		})
	}
}

func TestNativeCallsWinOverText(t *testing.T) {
	res := Result{Content: `<tool_call>{"name":"click","arguments":{}}</tool_call>`, ToolCalls: []ToolCall{{ID: "x", Name: "navigate"}}}
	finishTextToolCalls(&res, []ToolSpec{{Name: "click"}, {Name: "navigate"}})
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].ID != "x" {
		t.Fatalf("%+v", res)
	}
}
