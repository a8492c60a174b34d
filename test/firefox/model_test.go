//go:build firefox

package firefox

import (
	"encoding/json"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// toolDescription returns the description of the named tool in the
// request body (OpenAI chat form), or "" when it was not offered.
func toolDescription(req llmtest.Request, name string) string {
	var body struct {
		Tools []struct {
			Function struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"function"`
		} `json:"tools"`
	}
	if json.Unmarshal(req.Body, &body) != nil {
		return ""
	}
	for _, t := range body.Tools {
		if t.Function.Name == name {
			return t.Function.Description
		}
	}
	return ""
}
