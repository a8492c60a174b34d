//go:build js

package jsplatform

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync/atomic"
	"syscall/js"

	"github.com/webbrain/webbrain/wasm/platform"
)

// Fetcher implements platform.Fetcher over the browser's fetch through
// wbHost.fetch. The body streams chunk by chunk as Go reads it.
type Fetcher struct {
	host js.Value // wbHost.fetch: start(req), read(id), cancel(id)
}

// fetchIDs numbers fetches for the whole module: wbHost.fetch keeps one
// table, so two Fetchers must never hand it the same id.
var fetchIDs atomic.Int64

// errClosed is returned by a Read after Close.
var errClosed = errors.New("jsplatform: read on closed response body")

// Fetch starts req and returns once the response headers are in. A
// redirect met with platform.RedirectManual comes back as the browser
// gives it: Status 0, no headers, URL the one requested. Ending
// ctx (or reaching req.Timeout) aborts the fetch, also mid-body.
func (f *Fetcher) Fetch(ctx context.Context, req *platform.Request) (*platform.Response, error) {
	var cancel context.CancelFunc
	if req.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	// The id is ours so an abort can reach a fetch still waiting for headers.
	id := fetchIDs.Add(1)
	context.AfterFunc(ctx, func() { _, _ = invoke(f.host, "cancel", id) })

	jsReq, err := f.request(id, req)
	if err != nil {
		cancel()
		return nil, err
	}
	// A deadline that passed already would find no fetch to abort and
	// leave this one running: give up before starting it. Nothing yields
	// between this check and the synchronous part of start, which
	// registers the fetch for cancel.
	if err := ctx.Err(); err != nil {
		cancel()
		return nil, err
	}
	v, err := call(ctx, f.host, "start", jsReq)
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err() // the abort we caused, not a network failure
		}
		cancel()
		return nil, err
	}
	header := map[string]string{}
	if err := json.Unmarshal(toJSON(v.Get("headers")), &header); err != nil {
		cancel()
		return nil, err
	}
	return &platform.Response{
		Status: v.Get("status").Int(),
		URL:    v.Get("url").String(),
		Header: header,
		Body:   &body{host: f.host, id: id, ctx: ctx, cancel: cancel},
	}, nil
}

func (f *Fetcher) request(id int64, req *platform.Request) (js.Value, error) {
	headers, err := valueOf(req.Header)
	if err != nil {
		return js.Undefined(), err
	}
	r := jsObject.New()
	r.Set("id", id)
	r.Set("method", req.Method)
	r.Set("url", req.URL)
	r.Set("headers", headers)
	r.Set("redirect", req.Redirect)
	if len(req.Body) > 0 {
		b := js.Global().Get("Uint8Array").New(len(req.Body))
		js.CopyBytesToJS(b, req.Body)
		r.Set("body", b)
	}
	return r, nil
}

// body pulls chunks from wbHost.fetch.read; Close aborts the fetch.
type body struct {
	host   js.Value
	id     int64
	ctx    context.Context
	cancel context.CancelFunc
	buf    []byte
	eof    bool
	closed atomic.Bool
}

func (b *body) Read(p []byte) (int, error) {
	if b.closed.Load() {
		return 0, errClosed
	}
	for len(b.buf) == 0 {
		if b.eof {
			return 0, io.EOF
		}
		v, err := call(b.ctx, b.host, "read", b.id)
		switch {
		case b.closed.Load():
			return 0, errClosed
		case err != nil && b.ctx.Err() != nil:
			return 0, b.ctx.Err()
		case err != nil:
			return 0, err
		case v.IsNull() || v.IsUndefined():
			b.eof = true
			b.cancel() // releases the context; the stream is already gone
		default:
			b.buf = make([]byte, v.Get("length").Int())
			js.CopyBytesToGo(b.buf, v)
		}
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

// Close aborts the fetch if the body was not read to the end. It may be
// called while a Read waits, which then returns.
func (b *body) Close() error {
	b.closed.Store(true)
	b.cancel()
	return nil
}
