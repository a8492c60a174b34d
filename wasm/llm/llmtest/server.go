// Package llmtest is a scripted fake LLM server for tests. It speaks the
// real wire formats (OpenAI Chat Completions, OpenAI Responses, Azure
// OpenAI deployments, Anthropic Messages and Amazon Bedrock's Converse,
// streaming and not) so the
// clients in package llm and end-to-end tests run against what a provider
// actually sends.
//
// It imports net/http: only tests and commands may import it, never code
// linked into the wasm module.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
)

// Model is the one model the server lists.
const Model = "test-model"

// Turn is the scripted answer to one model request.
type Turn struct {
	Text      string
	ToolCalls []llm.ToolCall // an empty ID gets "call_<n>_<i>"
	// Status, when not 0 or 200, answers with that HTTP status and
	// ErrorBody (default: an OpenAI-style {"error":{"message":...}}).
	Status    int
	ErrorBody string
	Header    map[string]string // added to the response (e.g. Retry-After)
	// CutOff ends the stream after the content without a terminal event.
	CutOff bool
	// Garbage puts a malformed event into the stream.
	Garbage bool
	// Delay waits before answering; a cancelled request ends the wait.
	Delay time.Duration
	// ChunkDelay waits between streamed events.
	ChunkDelay time.Duration
	// Usage, when set, is the token count the answer reports, in the wire
	// format's own fields; otherwise about four bytes a token.
	Usage *llm.Usage
}

// Request is one request the server received.
type Request struct {
	Path   string // including the query, e.g. "/v1/chat/completions"
	Header http.Header
	Body   []byte
	// Messages is the conversation normalised to OpenAI form, whatever
	// wire format carried it (Anthropic system prompt → system message,
	// tool_result blocks → tool messages, Responses items → messages).
	Messages []llm.Message
	Tools    []string // names of the tools offered
	Model    string
	Stream   bool
}

// Server is a running fake provider.
type Server struct {
	// URL is the base URL (http://127.0.0.1:port); OpenAI-style clients
	// use URL+"/v1".
	URL string

	// Planner answers the planner's requests (IsPlannerRequest), which
	// the script never sees: they are neither counted in its n nor listed
	// by Requests. nil answers every one with ExecutePlan. Set it before
	// the first request.
	Planner func(req Request) Turn
	// Decider answers closed questions (IsDecisionRequest) the same way,
	// apart from the script; nil answers each with NoDecision.
	Decider func(req Request) Turn
	// Memory answers the memory learner's requests (IsMemoryRequest) the
	// same way; nil answers each with NothingToLearn.
	Memory func(req Request) Turn

	srv    *httptest.Server
	script func(n int, req Request) Turn

	mu       sync.Mutex
	caps     []string // SetCapabilities
	reqs     []Request
	planReqs []Request
	decReqs  []Request
	memReqs  []Request
}

// PlannerMarker is in the system prompt of both planner requests (the
// intent check and the full plan); the planner's tests hold it there.
const PlannerMarker = "before WebBrain, a browser agent, starts on it"

// IsPlannerRequest reports whether req is a planner request.
func IsPlannerRequest(req Request) bool {
	return len(req.Tools) == 0 && len(req.Messages) > 0 && req.Messages[0].Role == llm.RoleSystem &&
		strings.Contains(req.Messages[0].Content, PlannerMarker)
}

// DecisionMarker begins the system prompt of every closed question
// (package decide); its tests hold it there.
const DecisionMarker = "You answer one closed question about what a user's request"

// IsDecisionRequest reports whether req is a closed question.
func IsDecisionRequest(req Request) bool {
	return len(req.Tools) == 0 && len(req.Messages) > 0 && req.Messages[0].Role == llm.RoleSystem &&
		strings.HasPrefix(req.Messages[0].Content, DecisionMarker)
}

// NoDecision is a closed question's reply that picks nothing.
const NoDecision = `{"choice":"","confidence":0,"quote":""}`

// DecisionRequests returns the closed questions received so far.
func (s *Server) DecisionRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.decReqs...)
}

// MemoryMarker begins the system prompt of the memory learner's requests
// (package memory); its tests hold it there.
const MemoryMarker = "You pick out what a user said about themselves"

// IsMemoryRequest reports whether req is the memory learner's.
func IsMemoryRequest(req Request) bool {
	return len(req.Tools) == 0 && len(req.Messages) > 0 && req.Messages[0].Role == llm.RoleSystem &&
		strings.HasPrefix(req.Messages[0].Content, MemoryMarker)
}

// NothingToLearn is a memory learner's reply that finds nothing.
const NothingToLearn = `{"records":[]}`

// MemoryRequests returns the memory learner's requests received so far.
func (s *Server) MemoryRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.memReqs...)
}

// ExecutePlan is a planner reply that lets the run start at once.
const ExecutePlan = `{"action":"execute","summary":"Do what the user asked.","steps":[],"risks":[],"question":null,"recipients":[],"localized":null}`

// PlannerRequests returns the planner requests received so far.
func (s *Server) PlannerRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.planReqs...)
}

// New starts a server that answers model request n (counted from 0) with
// script(n, req).
func New(script func(n int, req Request) Turn) *Server {
	s := &Server{script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// NewTurns starts a server that plays turns in order and answers a 400
// error once they run out.
func NewTurns(turns ...Turn) *Server {
	return New(func(n int, _ Request) Turn {
		if n < len(turns) {
			return turns[n]
		}
		return Turn{Status: http.StatusBadRequest,
			ErrorBody: errorJSON(fmt.Sprintf("llmtest: no scripted turn for request %d", n))}
	})
}

// Requests returns the model requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// SetCapabilities makes the server answer Ollama's POST /api/show with
// caps (Ollama lists "vision" for a model that reads images); nil answers
// 404, as a server that is not Ollama.
func (s *Server) SetCapabilities(caps []string) {
	s.mu.Lock()
	s.caps = caps
	s.mu.Unlock()
}

// Close shuts the server down, ending open streams.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"object":"list","data":[{"id":%q,"object":"model","type":"model","owned_by":"llmtest"}]}`, Model)
		return
	}
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	if r.Method == http.MethodPost && r.URL.Path == "/api/show" && caps != nil {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, jsonText(obj{"capabilities": caps, "details": obj{"format": "gguf"}}))
		return
	}
	if r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	format := formatOf(r.URL.Path)
	if format == "" {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	req, err := decodeRequest(format, body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, errorJSON("llmtest: "+err.Error()))
		return
	}
	req.Path = r.URL.RequestURI()
	req.Header = r.Header.Clone()
	if format == formatBedrock {
		req.Model, req.Stream, _ = bedrockPath(r.URL.EscapedPath())
	}

	var turn Turn
	s.mu.Lock()
	n := len(s.reqs)
	switch {
	case IsDecisionRequest(req):
		s.decReqs = append(s.decReqs, req)
		s.mu.Unlock()
		turn = Turn{Text: NoDecision}
		if s.Decider != nil {
			turn = s.Decider(req)
		}
	case IsMemoryRequest(req):
		s.memReqs = append(s.memReqs, req)
		s.mu.Unlock()
		turn = Turn{Text: NothingToLearn}
		if s.Memory != nil {
			turn = s.Memory(req)
		}
	case IsPlannerRequest(req):
		s.planReqs = append(s.planReqs, req)
		s.mu.Unlock()
		turn = Turn{Text: ExecutePlan}
		if s.Planner != nil {
			turn = s.Planner(req)
		}
	default:
		s.reqs = append(s.reqs, req)
		s.mu.Unlock()
		turn = s.script(n, req)
	}
	if !wait(r, turn.Delay) {
		return
	}
	for k, v := range turn.Header {
		w.Header().Set(k, v)
	}
	if turn.Status != 0 && turn.Status != http.StatusOK {
		body := turn.ErrorBody
		if body == "" {
			body = errorJSON(http.StatusText(turn.Status))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(turn.Status)
		io.WriteString(w, body)
		return
	}
	calls := withIDs(turn.ToolCalls, n)
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, nonStreaming(format, req, turn, calls, usageOf(body, turn, calls)))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	if format == formatBedrock {
		w.Header().Set("Content-Type", BedrockStreamType)
	}
	w.Header().Set("Cache-Control", "no-cache")
	events := streamEvents(format, req, turn, calls, usageOf(body, turn, calls))
	flusher, _ := w.(http.Flusher)
	for i, ev := range events {
		if i > 0 && !wait(r, turn.ChunkDelay) {
			return
		}
		if _, err := io.WriteString(w, ev); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// wait sleeps d unless the request is cancelled first; it reports whether
// to go on.
func wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return r.Context().Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

func withIDs(calls []llm.ToolCall, n int) []llm.ToolCall {
	out := make([]llm.ToolCall, len(calls))
	for i, c := range calls {
		if c.ID == "" {
			c.ID = fmt.Sprintf("call_%d_%d", n, i)
		}
		if c.Arguments == "" {
			c.Arguments = "{}"
		}
		out[i] = c
	}
	return out
}

// usage is what an answer reports: the turn's scripted Usage, else a
// deterministic stand-in of four bytes a token. in counts all input;
// cached and written are the parts read from and written to a cache.
type usage struct{ in, out, cached, written int }

func usageOf(body []byte, turn Turn, calls []llm.ToolCall) usage {
	if u := turn.Usage; u != nil {
		return usage{in: u.InputTokens, out: u.OutputTokens, cached: u.CachedInputTokens, written: u.CacheWriteTokens}
	}
	out := len(turn.Text)
	for _, c := range calls {
		out += len(c.Name) + len(c.Arguments)
	}
	return usage{in: len(body)/4 + 1, out: out/4 + 1}
}

func errorJSON(msg string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "llmtest_error"}})
	return string(b)
}
