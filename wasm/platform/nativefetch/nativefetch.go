// Package nativefetch implements platform.Fetcher over net/http for native
// tests and tools. It must never be linked into the wasm module (net/http
// triples its size): only _test files and commands import it.
package nativefetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/webbrain/webbrain/wasm/platform"
)

// errRedirect fails a RedirectError request that met a redirect, as the
// browser's fetch rejects it.
var errRedirect = errors.New("nativefetch: the server answered with a redirect, which this request does not follow")

// Fetcher is a platform.Fetcher backed by an http.Client.
type Fetcher struct{ Client *http.Client }

// Fetch performs req; the response body streams. Unlike a browser it
// shows a manual redirect's status and location (platform.RedirectManual).
func (f Fetcher) Fetch(ctx context.Context, req *platform.Request) (*platform.Response, error) {
	cancel := context.CancelFunc(func() {})
	if req.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	hr, err := http.NewRequestWithContext(ctx, method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		cancel()
		return nil, err
	}
	for k, v := range req.Header {
		hr.Header.Set(k, v)
	}
	c := f.Client
	if c == nil {
		c = http.DefaultClient
	}
	if req.Redirect != platform.RedirectFollow {
		// A copy: the caller's client keeps its own redirect policy.
		stop := *c
		stop.CheckRedirect = func(*http.Request, []*http.Request) error {
			if req.Redirect == platform.RedirectManual {
				return http.ErrUseLastResponse
			}
			return errRedirect
		}
		c = &stop
	}
	resp, err := c.Do(hr)
	if err != nil {
		cancel()
		return nil, err
	}
	h := map[string]string{}
	for k, v := range resp.Header {
		h[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	return &platform.Response{Status: resp.StatusCode, URL: resp.Request.URL.String(), Header: h, Body: cancelOnClose{resp.Body, cancel}}, nil
}

// cancelOnClose releases the request's timeout when the body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}
