package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// fetch_url limits (docs/decisions/fetch-url.md).
const (
	fetchTimeout  = 15 * time.Second
	fetchMaxBytes = 2 << 20 // bytes of the body read; the rest is dropped
	maxRedirects  = 5       // redirects fetch_url follows itself, hop by hop
)

// fetched is the last document fetch_url (or read_pdf, or
// read_downloaded_file) read, so following its continuation pages the
// same text without fetching again. again holds the arguments that read
// it, for the continuation hint.
type fetched struct {
	tool, url, final, title, text, note string
	again                               map[string]any
}

// runFetch runs fetch_url: a GET of another page, without the user's
// cookies, whose readable text is returned a page at a time.
func (d *Dispatcher) runFetch(ctx context.Context, args map[string]any) (string, error) {
	target, err := fetchTarget(args["url"].(string))
	if err != nil {
		return "", err
	}
	tab, err := d.p.Tabs.Get(ctx, d.tabID)
	if err != nil {
		return "", tabError(err)
	}
	if err := d.checkHost(ctx, protocol.ToolFetchURL, target, tab.URL); err != nil {
		return "", err
	}
	page := pageBudget
	if v, ok := args["maxChars"].(float64); ok {
		page = int(v)
	}
	offset := 0
	if c, ok := args["continuation"].(string); ok && strings.TrimSpace(c) != "" {
		if offset, err = strconv.Atoi(strings.TrimSpace(c)); err != nil || offset < 0 {
			return "", fmt.Errorf("fetch_url: continuation must be the value a previous fetch_url result gave, not %q", c)
		}
	}
	doc := d.lastFetch
	if doc == nil || doc.url != target.String() || offset == 0 {
		if doc, err = d.fetchDocument(ctx, target, tab.URL); err != nil {
			return "", err
		}
		d.lastFetch = doc
	}
	text, err := doc.page(offset, page)
	if err != nil {
		return "", err
	}
	return d.b.PageResult(text, continueHint(protocol.ToolFetchURL)), nil
}

// fetchTarget is the URL fetch_url reads (httpURL), without its fragment.
func fetchTarget(raw string) (*url.URL, error) {
	u, err := httpURL("fetch_url", "read", raw)
	if err != nil {
		return nil, err
	}
	u.Fragment = ""
	return u, nil
}

// fetchDocument GETs target and converts its body to text.
func (d *Dispatcher) fetchDocument(ctx context.Context, target *url.URL, tabURL string) (*fetched, error) {
	resp, final, err := d.get(ctx, protocol.ToolFetchURL, target, tabURL)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.Status < 200 || resp.Status > 299 {
		// A redirect's target is the server's choice: page content.
		return nil, fmt.Errorf("fetch_url: the server answered HTTP %d from this address:\n%s", resp.Status, d.b.Wrap(final.String()))
	}
	kind, err := contentKind(resp.Header["content-type"])
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, fetchMaxBytes+1))
	if err != nil {
		return nil, fetchError(ctx, protocol.ToolFetchURL, final, err)
	}
	doc := &fetched{tool: protocol.ToolFetchURL, url: target.String(), final: final.String(), again: map[string]any{"url": target.String()}}
	if len(body) > fetchMaxBytes {
		body = body[:fetchMaxBytes]
		doc.note = fmt.Sprintf("Only the first %d MB of the document were read.", fetchMaxBytes>>20)
	}
	s := strings.ToValidUTF8(string(body), "\uFFFD")
	if kind == "html" {
		doc.title, doc.text = HTMLText(s, final)
	} else {
		doc.text = strings.TrimSpace(s)
	}
	return doc, nil
}

// get requests target for tool with redirects held back, so that every place a
// redirect leads passes checkHost before anything is sent there. A
// redirect whose location the fetcher shows is requested in turn, at most
// maxRedirects times. A browser hides the location (an opaque redirect,
// status 0): get then lets the browser follow it and judges where it
// ended, so a refused host's content never reaches the model, though the
// browser has sent that host a request (without cookies). The hops share
// one fetchTimeout, body included.
func (d *Dispatcher) get(ctx context.Context, tool string, target *url.URL, tabURL string) (*platform.Response, *url.URL, error) {
	deadline := time.Now().Add(fetchTimeout)
	cur := target
	for hops := 0; ; hops++ {
		resp, err := d.request(ctx, tool, cur, platform.RedirectManual, deadline)
		if err != nil {
			return nil, nil, err
		}
		loc := resp.Header["location"]
		if resp.Status == 0 {
			resp.Body.Close()
			return d.follow(ctx, tool, target, cur, tabURL, deadline)
		}
		if !isRedirect(resp.Status) || loc == "" {
			return resp, cur, nil
		}
		resp.Body.Close()
		next, err := cur.Parse(loc)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %s redirected to %q, which is not a valid URL", tool, cur, loc)
		}
		if next.Scheme != "http" && next.Scheme != "https" {
			return nil, nil, fmt.Errorf("%s: %s redirected to a %s: address, which %s does not read", tool, cur, next.Scheme, tool)
		}
		next.Fragment = ""
		if err := d.checkHost(ctx, tool, next, tabURL); err != nil {
			return nil, nil, redirectRefusal(tool, target, next, err)
		}
		if hops == maxRedirects {
			return nil, nil, fmt.Errorf("%s: %s redirected more than %d times; the last redirect pointed to %s", tool, target, maxRedirects, next.Redacted())
		}
		cur = next
	}
}

// follow fetches u letting the browser follow its redirects, then applies
// checkHost to the URL that answered.
func (d *Dispatcher) follow(ctx context.Context, tool string, target, u *url.URL, tabURL string, deadline time.Time) (*platform.Response, *url.URL, error) {
	resp, err := d.request(ctx, tool, u, platform.RedirectFollow, deadline)
	if err != nil {
		return nil, nil, err
	}
	final, err := url.Parse(resp.URL)
	if err != nil || resp.URL == "" {
		resp.Body.Close()
		return nil, nil, errors.New(tool + ": the browser did not say which URL answered")
	}
	if err := d.checkHost(ctx, tool, final, tabURL); err != nil {
		resp.Body.Close()
		return nil, nil, redirectRefusal(tool, target, final, err)
	}
	return resp, final, nil
}

// request sends one GET with the time left until deadline. fetch_url
// asks for documents it can read; the file tools take any type.
func (d *Dispatcher) request(ctx context.Context, tool string, u *url.URL, redirect string, deadline time.Time) (*platform.Response, error) {
	left := time.Until(deadline)
	if left <= 0 {
		return nil, fetchError(ctx, tool, u, context.DeadlineExceeded)
	}
	accept := "*/*"
	if tool == protocol.ToolFetchURL {
		accept = "text/html, application/xhtml+xml, text/plain, text/markdown, application/json;q=0.9, */*;q=0.1"
	}
	resp, err := d.p.Fetch.Fetch(ctx, &platform.Request{
		Method:   "GET",
		URL:      u.String(),
		Header:   map[string]string{"Accept": accept},
		Timeout:  left,
		Redirect: redirect,
	})
	if err != nil {
		return nil, fetchError(ctx, tool, u, err)
	}
	return resp, nil
}

func isRedirect(status int) bool {
	switch status {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// redirectRefusal says that target led to a refused place; a cancelled
// run stays a cancellation.
func redirectRefusal(tool string, target, to *url.URL, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%s: %s redirected to %s: %s", tool, target, to.Redacted(), strings.TrimPrefix(err.Error(), tool+": "))
}

// contentKind sorts a Content-Type into html or text, or explains why
// the document cannot be read.
func contentKind(contentType string) (string, error) {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		return "html", nil
	case mt == "text/plain" || mt == "text/markdown" || mt == "text/x-markdown" || mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return "text", nil
	case mt == "":
		return "", errors.New("fetch_url: the server did not say what type of document it sent, so it cannot be read as text")
	}
	return "", fmt.Errorf("fetch_url: the document is %s; fetch_url reads only HTML, plain text, Markdown and JSON", mt)
}

func fetchError(ctx context.Context, tool string, target *url.URL, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: %s did not answer within %d s", tool, target, int(fetchTimeout/time.Second))
	}
	return fmt.Errorf("%s: could not read %s: %v", tool, target, err)
}

// page returns the part of the text from offset, at most size characters,
// ending at a line break when one is in its second half, with a header and
// how to continue, like read_page.
func (f *fetched) page(offset, size int) (string, error) {
	total := utf8.RuneCountInString(f.text)
	head := "URL: " + f.final
	if f.final != f.url {
		head += " (redirected from " + f.url + ")"
	}
	if f.title != "" {
		head += "\nTitle: " + f.title
	}
	if f.note != "" {
		head += "\n" + f.note
	}
	if total == 0 {
		return head + "\nThe document has no readable text.", nil
	}
	if offset >= total {
		return "", fmt.Errorf("%s: continuation %d is past the end of the text (%d characters); call %s without continuation", f.tool, offset, total, f.tool)
	}
	rest := f.text[runeIndex(f.text, offset):]
	part := cutRunes(rest, size)
	if len(part) < len(rest) {
		if nl := strings.LastIndexByte(part, '\n'); nl >= 0 && utf8.RuneCountInString(part[:nl]) > size/2 {
			part = part[:nl+1]
		}
	}
	end := offset + utf8.RuneCountInString(part)
	head += fmt.Sprintf("\n(characters %d–%d of %d)\n", offset, end, total)
	more := "\n[End of document text]"
	if end < total {
		next := map[string]any{"maxChars": size, "continuation": strconv.Itoa(end)}
		for k, v := range f.again {
			next[k] = v
		}
		b, _ := json.Marshal(next)
		more = fmt.Sprintf("\n[More text follows: call %s with %s]", f.tool, b)
	}
	return head + strings.TrimSuffix(part, "\n") + more, nil
}

// runeIndex returns the byte index of the n-th rune of s.
func runeIndex(s string, n int) int {
	i := 0
	for pos := range s {
		if i == n {
			return pos
		}
		i++
	}
	return len(s)
}
