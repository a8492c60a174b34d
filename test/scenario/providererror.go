package scenario

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// secretKey is the API key saved for these runs; it must never be shown.
const secretKey = "sk-scenario-secret-key-4242"

// ProviderErrorShown: a failing provider ends the run with a plain-language
// error in the panel, never with raw JSON or the user's key.
func ProviderErrorShown(t *testing.T, d Driver) {
	for _, tc := range []struct {
		name string
		turn llmtest.Turn
		want *regexp.Regexp // the plain-language reason
	}{
		{
			name: "unauthorized",
			turn: llmtest.Turn{Status: http.StatusUnauthorized,
				ErrorBody: `{"error":{"message":"Incorrect API key provided: sk-sce****4242.","type":"invalid_request_error","code":"invalid_api_key"}}`},
			want: regexp.MustCompile(`(?i)api key|authenticat|unauthori`),
		},
		{
			name: "server error every time",
			turn: llmtest.Turn{Status: http.StatusInternalServerError},
			want: regexp.MustCompile(`(?i)server|provider|unavailable|try again`),
		},
		{
			name: "stream cut off every time",
			turn: llmtest.Turn{Text: "The answer is", CutOff: true},
			want: regexp.MustCompile(`(?i)stream|connection|incomplete|cut|ended|interrupted|broke off`),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(func(int, llmtest.Request) llmtest.Turn { return tc.turn })
			s := d.Open(t, "article.html", srv, Provider{Kind: "openai-chat", APIKey: secretKey})
			s.Send("ask", "What is this page about?")

			if got := WaitRunEnd(t, s); got != "error" {
				t.Fatalf("run status %q, want error", got)
			}
			msg := Text(t, s, "#transcript .msg.error")
			if msg == "" {
				t.Fatal("no .msg.error in the transcript")
			}
			t.Logf("the panel says: %s", msg)
			if !tc.want.MatchString(msg) {
				t.Errorf("error %q does not say what went wrong in plain words (%v)", msg, tc.want)
			}
			if strings.Contains(msg, "{") || strings.Contains(msg, "llmtest_error") {
				t.Errorf("error %q shows the provider's raw response", msg)
			}
			if html := Eval[string](t, s, Panel, `document.documentElement.outerHTML`); strings.Contains(html, secretKey) {
				t.Error("the API key appears in the panel's HTML")
			}
			journal := StoredJournal(t, s)
			if !strings.Contains(journal, `"status":"error"`) {
				t.Errorf("run journal %s, want status error", Clip(journal, 400))
			}
			if strings.Contains(journal, secretKey) {
				t.Error("the API key appears in the run journal")
			}
		})
	}
}
