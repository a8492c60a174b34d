//go:build js

package jsplatform

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/platform"
)

// testModuleURL is the URL of this test's own .wasm, served by
// wasmbrowsertest: a real HTTP response of several megabytes.
func testModuleURL(t *testing.T) string {
	entries := js.Global().Get("performance").Call("getEntriesByType", "resource")
	for i := range entries.Length() {
		if name := entries.Index(i).Get("name").String(); strings.HasSuffix(name, ".wasm") {
			return name
		}
	}
	t.Fatal("the test page loaded no .wasm")
	return ""
}

// lastRequest is what the most recent fetch of url was called with.
// The test runner fetches too (its file-system bridge), so the very last
// request may not be ours.
func lastRequest(t *testing.T, url string) js.Value {
	t.Helper()
	r := fake().Get("requests")
	for i := r.Length() - 1; i >= 0; i-- {
		if r.Index(i).Get("url").String() == url {
			return r.Index(i)
		}
	}
	t.Fatalf("no fetch of %s", url)
	return js.Undefined()
}

func TestFetchStreamsWholeBody(t *testing.T) {
	f := New().Fetch
	resp, err := f.Fetch(context.Background(), &platform.Request{Method: "GET", URL: testModuleURL(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Status != 200 {
		t.Fatalf("status %d", resp.Status)
	}
	size, err := strconv.Atoi(resp.Header["content-length"])
	if err != nil {
		t.Fatalf("content-length %q: %v", resp.Header["content-length"], err)
	}
	// Small reads: each chunk is handed out in pieces, and several chunks
	// must arrive for a body this size.
	var total, reads int
	buf := make([]byte, 1000)
	for {
		n, err := resp.Body.Read(buf)
		total += n
		reads++
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if total != size {
		t.Fatalf("read %d bytes; content-length %d", total, size)
	}
	if size < 100_000 || reads < size/1000 {
		t.Fatalf("%d bytes in %d reads", size, reads)
	}
	if _, err := resp.Body.Read(buf); err != io.EOF {
		t.Fatalf("Read after the end = %v; want EOF", err)
	}
}

func TestFetchSendsMethodHeadersBody(t *testing.T) {
	f := New().Fetch
	resp, err := f.Fetch(context.Background(), &platform.Request{
		Method: "POST",
		URL:    testModuleURL(t),
		Header: map[string]string{"content-type": "application/json"},
		Body:   []byte(`{"a":1}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	r := lastRequest(t, testModuleURL(t))
	if m, b := r.Get("method").String(), r.Get("body").String(); m != "POST" || b != `{"a":1}` {
		t.Fatalf("fetch got method %q body %q", m, b)
	}
	if ct := r.Get("headers").Get("content-type").String(); ct != "application/json" {
		t.Fatalf("fetch got content-type %q", ct)
	}
	if resp.Status != 200 {
		t.Fatalf("status %d", resp.Status)
	}
}

func TestFetchCloseAborts(t *testing.T) {
	f := New().Fetch
	resp, err := f.Fetch(context.Background(), &platform.Request{URL: testModuleURL(t)})
	if err != nil {
		t.Fatal(err)
	}
	signal := lastRequest(t, testModuleURL(t)).Get("signal")
	buf := make([]byte, 100)
	if _, err := resp.Body.Read(buf); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	waitAborted(t, signal)
	if _, err := resp.Body.Read(buf); !errors.Is(err, errClosed) {
		t.Fatalf("Read after Close = %v; want errClosed", err)
	}
}

func TestFetchContextCancelAbortsBeforeHeaders(t *testing.T) {
	f := New().Fetch
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	const url = "http://slow.invalid/cancel"
	_, err := f.Fetch(ctx, &platform.Request{URL: url})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v; want context.Canceled", err)
	}
	waitAborted(t, lastRequest(t, url).Get("signal"))
}

func TestFetchTimeout(t *testing.T) {
	f := New().Fetch
	// Long enough that the fetch surely starts before the deadline.
	const url = "http://slow.invalid/timeout"
	_, err := f.Fetch(context.Background(), &platform.Request{URL: url, Timeout: 200 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v; want deadline exceeded", err)
	}
	waitAborted(t, lastRequest(t, url).Get("signal"))
}

func TestFetchNetworkError(t *testing.T) {
	f := New().Fetch
	_, err := f.Fetch(context.Background(), &platform.Request{URL: "http://127.0.0.1:1/"})
	var e *Error
	if !errors.As(err, &e) || e.Name != "TypeError" {
		t.Fatalf("err = %v; want a TypeError from fetch", err)
	}
}

func waitAborted(t *testing.T, signal js.Value) {
	t.Helper()
	for range 400 {
		if signal.Get("aborted").Bool() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the fetch was not aborted")
}

func TestFetchManualRedirectIsOpaque(t *testing.T) {
	f := New().Fetch
	resp, err := f.Fetch(context.Background(), &platform.Request{URL: "http://redirect.invalid/a", Redirect: platform.RedirectManual})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Status != 0 || resp.URL != "http://redirect.invalid/a" || len(resp.Header) != 0 {
		t.Errorf("opaque redirect came back as %+v", resp)
	}
	if got := lastRequest(t, "http://redirect.invalid/a").Get("redirect").String(); got != "manual" {
		t.Errorf("fetch got redirect %q", got)
	}
	resp, err = f.Fetch(context.Background(), &platform.Request{URL: testModuleURL(t)})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := lastRequest(t, testModuleURL(t)).Get("redirect").String(); got != "follow" {
		t.Errorf("a request without a mode sent redirect %q, want follow", got)
	}
}

func TestResolve(t *testing.T) {
	r := New().Resolve
	if r == nil {
		t.Fatal("no resolver though wbHost.dns exists")
	}
	addrs, err := r.Resolve(context.Background(), "rebind.example")
	if err != nil || strings.Join(addrs, " ") != "10.0.0.7 2001:db8::1" {
		t.Errorf("Resolve = %v, %v", addrs, err)
	}
	if _, err := r.Resolve(context.Background(), "unknown.invalid"); err == nil || !strings.Contains(err.Error(), "UNKNOWN_HOST") {
		t.Errorf("unknown host: err = %v", err)
	}
}
