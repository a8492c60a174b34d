package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// wire is one wire format: how to address, encode and decode it. The
// client around it does HTTP, retries, fallbacks and model resolution.
type wire interface {
	// chatURL is where model requests go.
	chatURL() string
	headers() map[string]string
	encode(req Request, model string, stream bool) ([]byte, error)
	// newStream returns a parser for one streamed answer.
	newStream(onText func(string)) streamParser
	// decode parses a non-streaming answer.
	decode(body []byte) (Result, error)
	// listModels returns the model ids the server offers; ok is false when
	// the format has no model list (Azure: the deployment is the model).
	modelsURL() (string, bool)
}

// Optional parts of a wire.
type (
	// signer adds headers that depend on the whole request (SigV4).
	signer interface {
		sign(method, url string, h map[string]string, body []byte) error
	}
	// framer reads a stream that is not Server-Sent Events (Bedrock's
	// AWS event stream).
	framer interface {
		newEvents(r io.Reader) eventSource
	}
	// streamURLer sends streamed and whole answers to different
	// addresses (Bedrock's converse-stream and converse).
	streamURLer interface {
		urlFor(stream bool) string
	}
	// ender is a parser whose stream may end without a terminal event
	// once it has seen enough (Bedrock's metadata after messageStop).
	ender interface {
		ended() bool
	}
	// streamChooser sends some requests unstreamed (DashScope with tools,
	// OpenAI models without streaming).
	streamChooser interface {
		streams(req Request) bool
	}
	// fixedModel is a wire whose model is part of the configuration
	// (Azure's deployment, Bedrock's model id), with no list to choose from.
	fixedModeler interface {
		fixedModel() string
	}
)

// eventSource yields the events of one streamed answer.
type eventSource interface {
	next() (event, error)
}

// streamParser consumes events; done reports the terminal event.
// endpoints are where a wire sends model requests and asks for the model
// list (none where the format has no list: Azure, whose deployment is the
// model), for the provider cfg.
type endpoints struct {
	cfg    Config
	url    string
	models string
}

func (e endpoints) chatURL() string { return e.url }

func (e endpoints) modelsURL() (string, bool) { return e.models, e.models != "" }

// turn is what a parser has rebuilt of an answer so far: text (passed on
// to onText as it comes when streaming), tool calls, usage and model, for
// the provider cfg.
type turn struct {
	cfg    Config
	onText func(string)
	text   strings.Builder
	calls  []ToolCall
	usage  Usage
	model  string
}

func (t *turn) addText(s string) {
	if s == "" {
		return
	}
	t.text.WriteString(s)
	if t.onText != nil {
		t.onText(s)
	}
}

// read takes one server-sent event of a JSON stream: its data, trimmed
// ("" for a keep-alive and for the "[DONE]" some servers end with, which
// sets done), and its type (the data's "type", else the event's name).
func (t *turn) read(ev event) (data, typ string, done bool, err error) {
	data = strings.TrimSpace(ev.Data)
	switch {
	case data == "":
		return "", "", false, nil
	case data == "[DONE]":
		return "", "", true, nil
	case !gjson.Valid(data):
		return "", "", false, streamError(t.cfg, streamMalformed(), nil)
	}
	typ = gjson.Get(data, "type").Str
	if typ == "" {
		typ = ev.Name
	}
	return data, typ, false, nil
}

// answer is the turn as a Result that ended for reason finish.
func (t *turn) answer(finish string) Result {
	return Result{Content: t.text.String(), ToolCalls: finishCalls(t.calls), Usage: t.usage, Model: t.model, FinishReason: finish}
}

type streamParser interface {
	event(ev event) (done bool, err error)
	result() Result
}

type client struct {
	cfg    Config
	wire   wire
	fetch  platform.Fetcher
	policy retryPolicy
	// textCalls: tool calls written as text are read as calls (localServer).
	textCalls bool

	mu    sync.Mutex
	model string // resolved once per provider when cfg.Model is empty
}

// Chat streams the turn; if the stream breaks (read failure, malformed
// event, no terminal event) it asks once more without streaming, as the
// spec's stream-failure rule says. HTTP and provider errors are returned
// as they are.
func (c *client) Chat(ctx context.Context, req Request) (Result, error) {
	model, err := c.resolveModel(ctx)
	if err != nil {
		return Result{}, err
	}
	stream := true
	if s, ok := c.wire.(streamChooser); ok {
		stream = s.streams(req)
	}
	res, err := c.chatOnce(ctx, req, model, stream)
	var e *Error
	if stream && errors.As(err, &e) && e.Kind == KindStream && ctx.Err() == nil {
		if req.OnRetry != nil {
			req.OnRetry()
		}
		res, err = c.chatOnce(ctx, req, model, false)
	}
	if err != nil {
		return Result{}, err
	}
	if res.Model == "" {
		res.Model = model
	}
	if c.textCalls {
		finishTextToolCalls(&res, req.Tools)
	}
	return res, nil
}

func (c *client) chatOnce(ctx context.Context, req Request, model string, stream bool) (Result, error) {
	body, err := c.wire.encode(req, model, stream)
	if err != nil {
		return Result{}, err
	}
	var res Result
	err = c.policy.run(ctx, func() error {
		url := c.wire.chatURL()
		if u, ok := c.wire.(streamURLer); ok {
			url = u.urlFor(stream)
		}
		resp, err := c.send(ctx, "POST", url, body)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if !stream || !isEventStream(resp.Header["content-type"]) {
			// Some servers ignore stream:true and answer with one JSON.
			b, err := readAll(ctx, resp.Body, maxBody)
			if err != nil {
				return c.readError(ctx, err)
			}
			if res, err = c.wire.decode(b); err != nil {
				var e *Error
				if errors.As(err, &e) {
					return err
				}
				return streamError(c.cfg, streamUnreadable(), err)
			}
			return nil
		}
		res, err = c.readStream(ctx, resp.Body, req.OnText)
		return err
	})
	return res, err
}

// send performs one request and turns HTTP failures into *Error. A
// redirect is never followed: the request carries the API key, which must
// reach only the address the user configured.
func (c *client) send(ctx context.Context, method, url string, body []byte) (*platform.Response, error) {
	h := c.wire.headers()
	if s, ok := c.wire.(signer); ok {
		if err := s.sign(method, url, h, body); err != nil {
			return nil, configError("Could not sign the request: %v", err)
		}
	}
	resp, err := c.fetch.Fetch(ctx, &platform.Request{Method: method, URL: url, Header: h, Body: body, Redirect: platform.RedirectManual})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		e := &Error{Kind: KindNetwork, Err: err}
		e.setText(uitext.T("bg_err_network", "Could not reach $host$. Check that the server is running and the base URL is right.", "host", hostOf(url)), c.cfg.APIKey)
		return nil, e
	}
	if resp.Status == 0 || resp.Status >= 300 && resp.Status <= 399 {
		resp.Body.Close()
		return nil, redirectError(c.cfg, resp.Status, resp.Header["location"])
	}
	if resp.Status < 200 || resp.Status > 299 {
		b, _ := readAll(ctx, resp.Body, 64<<10)
		resp.Body.Close()
		return nil, httpError(c.cfg, resp.Status, resp.Header, b)
	}
	return resp, nil
}

func (c *client) readStream(ctx context.Context, body io.ReadCloser, onText func(string)) (Result, error) {
	stop := closeOnCancel(ctx, body)
	defer stop()
	p := c.wire.newStream(onText)
	var er eventSource
	if f, ok := c.wire.(framer); ok {
		er = f.newEvents(body)
	} else {
		er = newEventReader(body)
	}
	for {
		ev, err := er.next()
		if err == io.EOF {
			if e, ok := p.(ender); ok && e.ended() {
				return p.result(), nil
			}
			return Result{}, streamError(c.cfg, streamEndedEarly(), nil)
		}
		var le *Error
		if errors.As(err, &le) {
			return Result{}, err
		}
		if err != nil {
			return Result{}, c.readError(ctx, err)
		}
		done, err := p.event(ev)
		if err != nil {
			return Result{}, err
		}
		if done {
			return p.result(), nil
		}
	}
}

func (c *client) readError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return streamError(c.cfg, streamReadFailed(), err)
}

// closeOnCancel closes body when ctx ends so a blocked Read returns even
// if the fetcher does not abort it; stop releases the watcher.
func closeOnCancel(ctx context.Context, body io.Closer) (stop func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			body.Close()
		case <-done:
		}
	}()
	return func() { close(done) }
}

// maxBody bounds a non-streamed answer.
const maxBody = 32 << 20

// readAll reads at most limit bytes of r, closing it if ctx ends first.
func readAll(ctx context.Context, r io.ReadCloser, limit int64) ([]byte, error) {
	stop := closeOnCancel(ctx, r)
	defer stop()
	return io.ReadAll(io.LimitReader(r, limit))
}

func isEventStream(contentType string) bool {
	ct := strings.ToLower(contentType)
	// A missing type is read as a stream: some local servers omit it.
	return ct == "" || strings.Contains(ct, "event-stream") || strings.Contains(ct, "ndjson") ||
		strings.Contains(ct, "vnd.amazon.eventstream")
}

// resolveModel returns cfg.Model, or the first model the server lists.
func (c *client) resolveModel(ctx context.Context) (string, error) {
	if c.cfg.Model != "" {
		return c.cfg.Model, nil
	}
	if _, hasList := c.wire.modelsURL(); !hasList {
		return c.fixed(), nil // Azure, Bedrock: the configuration fixes the model
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.model != "" {
		return c.model, nil
	}
	models, err := c.listModels(ctx)
	if err != nil {
		return "", err
	}
	if len(models) == 0 {
		return "", &Error{Kind: KindNotFound, Message: fmt.Sprintf(
			"%s lists no models. Load or pull a model, or enter a model name in Settings.", providerLabel(c.cfg))}
	}
	c.model = models[0]
	return c.model, nil
}

func (c *client) listModels(ctx context.Context) ([]string, error) {
	url, ok := c.wire.modelsURL()
	if !ok {
		return nil, nil
	}
	var ids []string
	err := c.policy.run(ctx, func() error {
		resp, err := c.send(ctx, "GET", url, nil)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := readAll(ctx, resp.Body, maxBody)
		if err != nil {
			return c.readError(ctx, err)
		}
		ids = parseModelList(b)
		return nil
	})
	if err == nil && len(ids) == 0 && c.textCalls {
		if m := c.propsModel(ctx); m != "" {
			ids = []string{m}
		}
	}
	return ids, err
}

// propsModel is the model a llama.cpp server loaded, from its /props
// (model_alias, else the file name of model_path), for a server whose
// model list is empty; "" when it says nothing.
func (c *client) propsModel(ctx context.Context) string {
	url := strings.TrimSuffix(strings.TrimRight(c.cfg.BaseURL, "/"), "/v1") + "/props"
	resp, err := c.send(ctx, "GET", url, nil)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	b, err := readAll(ctx, resp.Body, 1<<20)
	if err != nil {
		return ""
	}
	if a := gjson.GetBytes(b, "model_alias").Str; a != "" {
		return a
	}
	p := gjson.GetBytes(b, "model_path").Str
	return p[strings.LastIndexAny(p, `/\`)+1:]
}

// Test checks that the endpoint answers and the model exists.
func (c *client) Test(ctx context.Context) (string, error) {
	if _, hasList := c.wire.modelsURL(); !hasList {
		// Azure has no list of deployments for an API key: a one-token
		// request proves the deployment answers.
		res, err := c.chatOnce(ctx, Request{Messages: []Message{{Role: RoleUser, Content: "ping"}}, MaxTokens: 1}, c.fixed(), false)
		if err != nil {
			return "", err
		}
		if res.Model != "" {
			return res.Model, nil
		}
		return c.fixed(), nil
	}
	models, err := c.listModels(ctx)
	if err != nil {
		return "", err
	}
	if c.cfg.Model == "" {
		if len(models) == 0 {
			return "", &Error{Kind: KindNotFound, Message: fmt.Sprintf(
				"%s answers but lists no models. Load or pull a model, or enter a model name.", providerLabel(c.cfg))}
		}
		return models[0], nil
	}
	for _, m := range models {
		if m == c.cfg.Model {
			return m, nil
		}
	}
	if len(models) == 0 {
		// Some compatible servers answer the list empty yet serve any
		// model they are asked for; the endpoint works, so accept it.
		return c.cfg.Model, nil
	}
	return "", &Error{Kind: KindNotFound, Message: fmt.Sprintf("%s has no model %q. It offers: %s.",
		providerLabel(c.cfg), c.cfg.Model, strings.Join(firstN(models, 8), ", "))}
}

// fixed is the model a wire without a model list is configured with.
func (c *client) fixed() string {
	if f, ok := c.wire.(fixedModeler); ok {
		return f.fixedModel()
	}
	return c.cfg.Deployment
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "…")
	}
	return s
}
