package llm_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/webbrain/webbrain/wasm/llm"
)

// BenchmarkChatStream parses the longest recorded Chat Completions stream.
func BenchmarkChatStream(b *testing.B) {
	body, err := os.ReadFile(filepath.Join(fixtures(b), "openai-chat",
		"d615580118391ee13492193e3a8bb74642d23ac1ca13fe37cb6e889b66f759f6.bin"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := ParseChatStream(strings.NewReader(string(body))); err != nil {
			b.Fatal(err)
		}
	}
}
