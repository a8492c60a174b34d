package llm

import (
	"strings"
	"sync"

	"github.com/webbrain/webbrain/wasm/ascii"
)

// namePrefix matches pattern against the start of s (a lower-case model
// name) and returns how much of s it took. Bytes match themselves, except:
// '#' one or more digits, '%' one digit, '~' any run of digits and dots,
// '$' the end of s; a byte followed by '?' is optional.
func namePrefix(pattern, s string) (int, bool) {
	i := 0
	for p := 0; p < len(pattern); p++ {
		c := pattern[p]
		optional := p+1 < len(pattern) && pattern[p+1] == '?'
		if optional {
			p++
		}
		switch {
		case c == '#':
			n := ascii.Span(s[i:], ascii.Digit)
			if n == 0 {
				return 0, false
			}
			i += n
		case c == '%':
			if i >= len(s) || !ascii.Digit(s[i]) {
				return 0, false
			}
			i++
		case c == '~':
			i += ascii.Span(s[i:], ascii.Or(ascii.Digit, ascii.Bytes(".")))
		case c == '$':
			if i != len(s) {
				return 0, false
			}
		case i < len(s) && s[i] == c:
			i++
		case !optional:
			return 0, false
		}
	}
	return i, true
}

// expand writes each pattern once per choice in place of "{}".
func expand(pattern string, choices ...string) []string {
	out := make([]string, len(choices))
	for i, c := range choices {
		out[i] = strings.Replace(pattern, "{}", c, 1)
	}
	return out
}

// visionFamilies are model names of cloud APIs known to read images; they
// match at the start of the name or after '/', '.' or ':'
// ("meta-llama/llama-4-scout", "us.amazon.nova-pro-v1:0"). Built on first
// use, not at every wake.
var visionFamilies = sync.OnceValue(func() []string {
	out := []string{"gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-4-turbo", "gpt-4-vision", "gpt-5", "chatgpt-4o",
		"o1-%", "o1$", "o1-pro", "o3-%", "o3$", "o3-pro", "o4-mini",
		"claude-3", "gemini", "gemma-3", "grok-vision", "grok-#-vision", "grok-4", "pixtral",
		"mistral-small-3", "mistral-small-latest", "mistral-medium",
		"llama-?3.2-#b-vision", "llama-?4", "meta-llama-4",
		"qwen~-?vl", "qvq", "glm-4v", "glm-4.%v", "kimi-vl", "kimi-k2.5",
		"nova-lite", "nova-pro", "nova-premier", "llava", "minicpm-v", "internvl"}
	digits := []string{"4", "5", "6", "7", "8", "9"}
	for _, family := range []string{"opus", "sonnet", "haiku"} {
		out = append(out, expand("claude-"+family+"-{}", digits...)...)
	}
	out = append(out, expand("claude-{}", digits...)...)
	out = append(out, expand("mistral-small-2{}", "5", "6", "7", "8", "9")...)
	for _, kind := range []string{"multimodal", "vision"} {
		out = append(out, expand("phi-{}-"+kind, "3", "4", "3.%", "4.%")...)
	}
	return out
})

// textOnly are parts of model names that mark a variant without image
// input (mini reasoning models, coder and audio variants); they win over
// visionFamilies.
var textOnly = []string{"o1-mini", "o3-mini", "-audio", "-transcribe", "-tts", "-embedding", "-search-preview", "codestral", "-coder",
	"deepseek-chat", "deepseek-reasoner", "deepseek-r1", "deepseek-v3"}

// visionFamily reports whether a cloud model's name says it reads images.
func visionFamily(model string) bool {
	s := strings.ToLower(model)
	for _, part := range textOnly {
		if strings.Contains(s, part) {
			return false
		}
	}
	for i := 0; i < len(s); i++ {
		if i > 0 && !strings.ContainsRune("/.:", rune(s[i-1])) {
			continue
		}
		for _, p := range visionFamilies() {
			if _, ok := namePrefix(p, s[i:]); ok {
				return true
			}
		}
	}
	return false
}

// responsesOnly are official OpenAI models that WebBrain sends to the
// Responses API (spec: GPT-5.6 and the Responses-only Pro, deep-research
// and Codex variants), by themselves or followed by '-' or '.' and more.
var responsesOnly = []string{"gpt-5.6", "gpt-5-pro", "gpt-5.#-pro", "o1-pro", "o3-pro", "o3-deep-research", "o4-mini-deep-research",
	"codex-mini", "gpt-5-codex", "gpt-5.#-codex"}

// ResponsesOnly reports whether an official OpenAI model goes to the
// Responses API even when the provider says Chat Completions.
func ResponsesOnly(model string) bool {
	s := strings.ToLower(strings.TrimSpace(model))
	for _, p := range responsesOnly {
		if n, ok := namePrefix(p, s); ok && (n == len(s) || s[n] == '-' || s[n] == '.') {
			return true
		}
	}
	return false
}
