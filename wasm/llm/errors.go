package llm

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Error kinds.
const (
	KindConfig     = "config"      // the provider settings cannot work
	KindNetwork    = "network"     // the server could not be reached
	KindAuth       = "auth"        // 401, 403
	KindNotFound   = "not_found"   // 404: wrong URL or model
	KindRateLimit  = "rate_limit"  // 429
	KindServer     = "server"      // 5xx
	KindBadRequest = "bad_request" // other 4xx
	KindStream     = "stream"      // malformed stream, or it ended without its terminal event
	KindProvider   = "provider"    // an error the provider reported inside a 200 response
	// KindContextOverflow: the request does not fit the model's context
	// window; sending less may succeed.
	KindContextOverflow = "context_overflow"
)

// Error is a failed model call. Message is plain language for the user and
// never contains the API key.
type Error struct {
	Kind      string
	Status    int  // HTTP status; 0 when there was no HTTP answer
	Retryable bool // trying again later may succeed
	// RetryAfter is how long the provider asked to wait (429, 503).
	RetryAfter time.Duration
	Message    string
	Err        error // the underlying error, if any
	// UI is Message as a catalog key for the panel; nil when it has none.
	UI *uitext.Msg
}

func (e *Error) Error() string { return "llm: " + e.Message }

// UIText is the error's message with its key, for the panel.
func (e *Error) UIText() (uitext.Text, bool) {
	return uitext.Text{English: e.Message, Msg: e.UI}, e.UI != nil
}

// setText sets Message from t, keeping the key only when no secret had
// to be removed from the text (a key never reaches the panel as a
// parameter).
func (e *Error) setText(t uitext.Text, apiKey string) {
	e.Message = redact(t.English, apiKey)
	e.UI = nil
	if e.Message == t.English {
		e.UI = t.Msg
	}
}

func (e *Error) Unwrap() error { return e.Err }

// providerMessage pulls the human text out of an error body such as
// {"error":{"message":...}} (OpenAI, Anthropic, Azure), {"error":"..."}
// (Ollama, llama.cpp) or {"message":...}.
func providerMessage(body []byte) string {
	if !gjson.ValidBytes(body) {
		s := strings.TrimSpace(string(body))
		if len(s) > 300 || strings.HasPrefix(s, "<") {
			return "" // an HTML error page says nothing useful
		}
		return s
	}
	for _, path := range []string{"error.message", "error", "message", "detail"} {
		if v := gjson.GetBytes(body, path); v.Type == gjson.String && v.Str != "" {
			return v.Str
		}
	}
	return ""
}

// httpError builds the error for a non-2xx answer.
func httpError(cfg Config, status int, header map[string]string, body []byte) *Error {
	e := &Error{Status: status}
	detail := providerMessage(body)
	who, code := providerText(cfg), strconv.Itoa(status)
	var t uitext.Text
	switch {
	case status == 401:
		e.Kind = KindAuth
		t = uitext.T("bg_err_auth", "$provider$ rejected the API key (HTTP 401). Check the key in Settings.", "provider", who)
	case status == 403 && isLocalOllama(cfg.BaseURL):
		e.Kind = KindAuth
		t = uitext.T("bg_err_ollama_origins", "Ollama refused the request from the browser extension (HTTP 403). Ollama only accepts extensions it is told to trust: set OLLAMA_ORIGINS=chrome-extension://*,moz-extension://* in Ollama's environment and restart Ollama.")
	case status == 403:
		e.Kind = KindAuth
		t = uitext.T("bg_err_forbidden", "$provider$ refused access (HTTP 403). The API key may lack permission for this model, or the server does not accept requests from a browser extension.", "provider", who)
	case status == 404:
		e.Kind = KindNotFound
		t = uitext.T("bg_err_not_found", "$provider$ answered 404 Not Found. Check the base URL and the model name \"$model$\".", "provider", who, "model", modelLabel(cfg))
	case (status == 400 || status == 413 || status == 422) && isContextOverflow(string(body)):
		e.Kind = KindContextOverflow
		t = uitext.T("bg_err_context_overflow", "The conversation is too long for the model's context window ($provider$ answered HTTP $status$).", "provider", providerTextIn(cfg), "status", code)
	case status == 429:
		e.Kind, e.Retryable = KindRateLimit, true
		t = uitext.T("bg_err_rate_limit", "$provider$ is limiting requests (HTTP 429).", "provider", who)
	case status >= 500:
		e.Kind, e.Retryable = KindServer, true
		t = uitext.T("bg_err_server", "$provider$ had a server error (HTTP $status$).", "provider", who, "status", code)
	default:
		e.Kind = KindBadRequest
		t = uitext.T("bg_err_bad_request", "$provider$ did not accept the request (HTTP $status$).", "provider", who, "status", code)
	}
	e.RetryAfter = retryAfter(header)
	if detail != "" {
		t = uitext.T("bg_err_provider_said", "$error$ The provider said: $detail$", "error", t, "detail", endSentence(strings.TrimSpace(detail)))
	}
	e.setText(t, cfg.APIKey)
	return e
}

// streamError reports a stream that cannot be trusted.
func streamError(cfg Config, what uitext.Text, err error) *Error {
	e := &Error{Kind: KindStream, Retryable: true, Err: err}
	e.setText(uitext.T("bg_err_stream", "The answer from $provider$ broke off ($what$). Try again; if it keeps happening, the server or a proxy is cutting streamed answers.",
		"provider", providerTextIn(cfg), "what", what), cfg.APIKey)
	return e
}

// The ways a streamed answer breaks off, for streamError.
func streamUnreadable() uitext.Text {
	return uitext.T("bg_stream_unreadable", "part of it could not be read")
}

func streamEndedEarly() uitext.Text {
	return uitext.T("bg_stream_ended_early", "the stream ended before the answer was complete")
}

func streamReadFailed() uitext.Text {
	return uitext.T("bg_stream_read_failed", "reading the answer failed")
}

// inStreamError reports an error event inside a successful response.
func inStreamError(cfg Config, msg string) *Error {
	if msg == "" {
		msg = "no details given"
	}
	kind := KindProvider
	if isContextOverflow(msg) {
		kind = KindContextOverflow
	}
	e := &Error{Kind: kind}
	e.setText(uitext.T("bg_err_provider_reported", "$provider$ reported an error: $error$", "provider", providerText(cfg), "error", msg), cfg.APIKey)
	return e
}

// overflowPhrases are how providers say the prompt exceeds the context
// window: OpenAI and Azure (code context_length_exceeded, "maximum context
// length"), Anthropic ("prompt is too long"), llama.cpp ("exceeds the
// available context size", exceed_context_size_error), Ollama and LM
// Studio ("context length", "context window"), Mistral, Groq and Gemini's
// compatible endpoints ("too many tokens", "input token count exceeds").
var overflowPhrases = []string{
	"context_length_exceeded",
	"exceed_context_size",
	"maximum context length",
	"context length",
	"context window",
	"context size",
	"too many tokens",
	"prompt is too long",
	"input is too long",
	"input token count",
	"reduce the length of the messages",
}

// isContextOverflow reports whether an error body or message says the
// request was too long for the model.
func isContextOverflow(body string) bool {
	s := strings.ToLower(body)
	for _, p := range overflowPhrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

func configError(format string, args ...any) *Error {
	return &Error{Kind: KindConfig, Message: fmt.Sprintf(format, args...)}
}

// lowerFirst puts a sentence-initial label inside a sentence.
func lowerFirst(s string) string {
	if strings.HasPrefix(s, "The ") {
		return "the " + s[4:]
	}
	return s
}

// endSentence adds a full stop to provider text that lacks one, so that
// WebBrain's own advice after it reads as a new sentence.
func endSentence(s string) string {
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?") {
		return s
	}
	return s + "."
}

// redirectError reports a redirect the client did not follow. Status 0
// is a browser's opaque redirect, whose location is hidden; a runtime that
// shows the location gets it named.
func redirectError(cfg Config, status int, location string) *Error {
	to := ""
	if location != "" {
		to = " to " + location
	}
	return &Error{Kind: KindConfig, Status: status, Message: redact(fmt.Sprintf(
		"%s answered with a redirect%s. WebBrain does not follow redirects from a model server, so your API key only ever goes to the address in Settings: put the address the server redirects to in the base URL.",
		providerLabel(cfg), to), cfg.APIKey)}
}

// providerText is providerLabel with its key.
func providerText(cfg Config) uitext.Text {
	if cfg.Name != "" {
		return uitext.T("bg_provider_named", "The provider $name$", "name", cfg.Name)
	}
	if u, err := url.Parse(cfg.BaseURL); err == nil && u.Host != "" {
		return uitext.T("bg_provider_host", "The server at $host$", "host", u.Host)
	}
	return uitext.T("bg_provider", "The provider")
}

// providerTextIn is providerText inside a sentence ("the provider Local").
func providerTextIn(cfg Config) uitext.Text {
	if cfg.Name != "" {
		return uitext.T("bg_provider_named_in", "the provider $name$", "name", cfg.Name)
	}
	if u, err := url.Parse(cfg.BaseURL); err == nil && u.Host != "" {
		return uitext.T("bg_provider_host_in", "the server at $host$", "host", u.Host)
	}
	return uitext.T("bg_provider_in", "the provider")
}

func providerLabel(cfg Config) string {
	if cfg.Name != "" {
		return "The provider " + cfg.Name
	}
	if u, err := url.Parse(cfg.BaseURL); err == nil && u.Host != "" {
		return "The server at " + u.Host
	}
	return "The provider"
}

func modelLabel(cfg Config) string {
	if cfg.Kind == protocol.KindAzure && cfg.Deployment != "" {
		return cfg.Deployment
	}
	return cfg.Model
}

// isLocalOllama reports whether base points at Ollama's default port on
// this machine, where a 403 almost always means OLLAMA_ORIGINS.
func isLocalOllama(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1", "0.0.0.0":
		return u.Port() == "11434"
	}
	return false
}

// redact removes the API key, and the masked fragments of it some
// providers echo back ("sk-abc…****…wxyz"), from text shown to the user.
func redact(msg, key string) string {
	if strings.Contains(key, ":") {
		// An access key pair and token (Bedrock): each part on its own.
		for _, part := range strings.Split(key, ":") {
			msg = redact(msg, part)
		}
	}
	if len(key) < 6 {
		return msg // too short to be a real key, or to replace safely
	}
	msg = strings.ReplaceAll(msg, key, "[redacted]")
	if len(key) < 8 {
		return msg
	}
	fields := strings.Fields(msg)
	changed := false
	for i, f := range fields {
		core := strings.Trim(f, ".,;:'\"()")
		if strings.Contains(core, "*") && (strings.HasPrefix(core, key[:3]) || strings.HasSuffix(core, key[len(key)-4:])) {
			fields[i] = strings.Replace(f, core, "[redacted]", 1)
			changed = true
		}
	}
	if changed {
		msg = strings.Join(fields, " ")
	}
	return msg
}

func streamMalformed() uitext.Text {
	return uitext.T("bg_stream_malformed", "the server sent a malformed event")
}
