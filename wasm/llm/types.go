// Package llm holds the provider-neutral conversation model (OpenAI-form
// messages) and the clients for each wire format: OpenAI Chat Completions
// and its compatible servers, OpenAI Responses, Anthropic Messages and
// Azure OpenAI. Every client streams through platform.Fetcher and rebuilds
// the same Result, so the agent loop never sees a wire format.
package llm

import (
	"context"
	"encoding/json"
	"unicode/utf8"
)

// Roles of a Message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one conversation entry in OpenAI Chat Completions form.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`   // assistant
	ToolCallID string     `json:"tool_call_id,omitempty"` // tool
	Name       string     `json:"name,omitempty"`         // tool: the tool's name
	Images     []Image    `json:"images,omitempty"`       // user: screenshots of the tab
}

// Image is a picture sent with a user message; Data is base64 without
// the data: URL prefix.
type Image struct {
	MediaType string `json:"mediaType"` // image/jpeg or image/png
	Data      string `json:"data"`
}

// dataURL is the image as the OpenAI formats take it.
func (im Image) dataURL() string { return "data:" + im.MediaType + ";base64," + im.Data }

// ToolCall is one function call requested by the model. Arguments is the
// complete JSON object text.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolSpec describes a callable tool; Parameters is a JSON Schema object.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Usage counts tokens as the provider reported them. InputTokens is the
// whole prompt, cached parts included (they fill the context window all
// the same); the cache fields say how much of it the provider billed
// differently.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// CachedInputTokens of the input were read from the provider's prompt
	// cache (OpenAI cached_tokens, Anthropic cache_read_input_tokens,
	// DeepSeek prompt_cache_hit_tokens).
	CachedInputTokens int `json:"cached_input_tokens,omitempty"`
	// CacheWriteTokens of the input were written to the cache (Anthropic
	// cache_creation_input_tokens).
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
}

// Finish reasons, normalised across wire formats.
const (
	FinishStop          = "stop"
	FinishToolCalls     = "tool_calls"
	FinishLength        = "length"
	FinishContentFilter = "content_filter"
	FinishRefusal       = "refusal"
)

// Result is one complete model turn.
type Result struct {
	Content      string     `json:"content"`
	ToolCalls    []ToolCall `json:"tool_calls,omitempty"`
	FinishReason string     `json:"finish_reason"`
	Usage        Usage      `json:"usage"`
	Model        string     `json:"model,omitempty"`
}

// Request is one model call.
type Request struct {
	Messages    []Message
	Tools       []ToolSpec
	Temperature float64
	MaxTokens   int
	// OnText receives output-text deltas as they stream; may be nil.
	OnText func(delta string)
	// OnRetry is called when a broken stream is asked again without
	// streaming: the text OnText delivered so far is void. May be nil.
	OnRetry func()
}

// Provider is one configured model endpoint.
type Provider interface {
	// Chat sends the request and returns the complete turn. It streams when
	// the server supports it and calls req.OnText for each text delta.
	Chat(ctx context.Context, req Request) (Result, error)
	// Test checks that the endpoint answers and the model exists.
	Test(ctx context.Context) (model string, err error)
}

// ConversationChars is the text size of msgs in characters: contents,
// and the names and arguments of tool calls.
func ConversationChars(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += utf8.RuneCountInString(m.Content)
		for _, c := range m.ToolCalls {
			n += utf8.RuneCountInString(c.Name) + utf8.RuneCountInString(c.Arguments)
		}
	}
	return n
}
