package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/webbrain/webbrain/wasm/platform"
)

// fetch_url limits (docs/decisions/fetch-url.md).
const (
	fetchTimeout  = 15 * time.Second
	fetchMaxBytes = 2 << 20 // bytes of the body read; the rest is dropped
)

// fetched is the last document fetch_url read, so following its
// continuation pages the same text without fetching again.
type fetched struct {
	url, final, title, text, note string
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
	if err := allowedHost(target, tab.URL); err != nil {
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
	return d.b.PageResult(text, continueHint("fetch_url")), nil
}

// fetchTarget accepts absolute http(s) URLs; a bare host gets https.
func fetchTarget(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err == nil && u.Scheme == "" && !strings.HasPrefix(raw, "/") {
		u, err = url.Parse("https://" + raw)
	}
	if err != nil {
		return nil, fmt.Errorf("fetch_url: %q is not a valid URL", raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("fetch_url: only http and https URLs can be read, not %q", u.Scheme+":")
	}
	if u.Host == "" {
		return nil, fmt.Errorf("fetch_url: %q has no host", raw)
	}
	u.Fragment = ""
	return u, nil
}

// allowedHost refuses hosts on the user's machine or local network, so a
// page's instructions cannot make the agent probe the intranet; the one
// exception is the host (and port) the tab itself shows, a local app
// reading its own pages. Only the URL's literal host can be judged: a
// public name that resolves to a private address is not caught.
func allowedHost(u *url.URL, tabURL string) error {
	if !privateHost(u.Hostname()) {
		return nil
	}
	if t, err := url.Parse(tabURL); err == nil && (t.Scheme == "http" || t.Scheme == "https") && sameHost(u, t) {
		return nil
	}
	return fmt.Errorf("fetch_url: %s is on this computer or a local network, which fetch_url does not read unless the tab is showing a page of that same host", u.Host)
}

// privateHost reports whether host names the local machine or a private
// network: loopback, private, link-local and unspecified addresses,
// localhost, *.local and single-label intranet names. A host the browser
// would read as an IPv4 address in another notation (0x7f.1) counts too.
func privateHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if ip, err := netip.ParseAddr(h); err == nil {
		ip = ip.Unmap()
		return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() ||
			ip.IsMulticast() || ip.Is4() && ip.As4()[0] == 0
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasSuffix(h, ".local") {
		return true
	}
	last := h[strings.LastIndexByte(h, '.')+1:]
	return !strings.Contains(h, ".") || numericLabel(last)
}

// numericLabel reports whether a last host label makes a browser parse the
// host as an IPv4 address (WHATWG URL: decimal or 0x hex).
func numericLabel(s string) bool {
	if strings.HasPrefix(s, "0x") {
		s = s[2:]
		return strings.Trim(s, "0123456789abcdef") == ""
	}
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// sameHost compares host names and effective ports.
func sameHost(a, b *url.URL) bool {
	return strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// fetchDocument GETs target and converts its body to text.
func (d *Dispatcher) fetchDocument(ctx context.Context, target *url.URL, tabURL string) (*fetched, error) {
	resp, err := d.p.Fetch.Fetch(ctx, &platform.Request{
		Method:  "GET",
		URL:     target.String(),
		Header:  map[string]string{"Accept": "text/html, application/xhtml+xml, text/plain, text/markdown, application/json;q=0.9, */*;q=0.1"},
		Timeout: fetchTimeout,
	})
	if err != nil {
		return nil, fetchError(ctx, target, err)
	}
	defer resp.Body.Close()
	// The browser followed any redirects: the place it ended must pass
	// the same rule, or a public URL could bounce to an intranet one.
	final, err := url.Parse(resp.URL)
	if err != nil || resp.URL == "" {
		return nil, errors.New("fetch_url: the browser did not say which URL answered")
	}
	if err := allowedHost(final, tabURL); err != nil {
		return nil, fmt.Errorf("fetch_url: %s redirected to %s, which is refused: %v", target, final.Host, strings.TrimPrefix(err.Error(), "fetch_url: "))
	}
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
		return nil, fetchError(ctx, target, err)
	}
	doc := &fetched{url: target.String(), final: final.String()}
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

func fetchError(ctx context.Context, target *url.URL, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("fetch_url: %s did not answer within %d s", target, int(fetchTimeout/time.Second))
	}
	return fmt.Errorf("fetch_url: could not read %s: %v", target, err)
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
		return "", fmt.Errorf("fetch_url: continuation %d is past the end of the text (%d characters); call fetch_url without continuation", offset, total)
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
		more = fmt.Sprintf("\n[More text follows: call fetch_url with {\"url\":%q,\"maxChars\":%d,\"continuation\":\"%d\"}]", f.url, size, end)
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
