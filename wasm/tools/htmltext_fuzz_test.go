package tools

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzHTMLText feeds arbitrary documents to the HTML-to-text reader. Seeds:
// the saved pages in testdata/pages, in pieces, and the shapes of
// htmltext_test.go;
// they run as ordinary tests under go test, and go test -fuzz
// FuzzHTMLText ./wasm/tools explores beyond them.
//
// The reader must not panic; its text is valid UTF-8 when the document is
// (fetch_url makes it so first); title and text stay within a small
// multiple of the document (markers, and link notes that percent-encode
// and resolve against the base); its text has no space at either end;
// and reading is idempotent where it can be: the text read again as text
// (its & and < escaped) gives the same words, its lines joined by single
// spaces, and a document without markup or references reads to a fixed
// point.
func FuzzHTMLText(f *testing.F) {
	pages, _ := filepath.Glob(filepath.Join("testdata", "pages", "*", "*.html"))
	if len(pages) < 10 {
		f.Fatalf("%d saved pages in testdata/pages", len(pages))
	}
	// Pages go in as pieces cut before a tag, about 16 KB each: the fuzzer
	// mutates small inputs faster, and every piece is still real markup.
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for page := string(b); page != ""; {
			n := len(page)
			if n > 16<<10 {
				n = max(strings.LastIndexByte(page[:16<<10], '<'), 1)
			}
			f.Add(page[:n])
			page = page[n:]
		}
	}
	for _, s := range []string{
		`<!DOCTYPE html><html><head><title>The &amp; Title</title><style>b{}</style></head><body><h2>One</h2><p>A <a href="other.html">link</a> &lt; <a href="#top">anchor</a></p>` +
			`<ul><li>alpha</li></ul><table><tr><th>N</th><td>3</td></tr></table><pre>x  y</pre><img alt="pic"></body></html>`,
		`<p>a < b and <3</p><script>never closed`,
		`<span>a</span><p>b</p><dt>c</dt><caption>d</caption>e`,
		`<div>one<div hidden>two<div>three</div>four</div>five</div>`,
		`<a href="https://example.com/a b?c=ü">x</a><a href=/rel>y<img alt=z></a><!-- c --><!x><?p?>`,
		"&#0;&#x110000;&#xD800;&nbsp;&hellip;&unknown;&amp;amp;\u00a0\u2003",
	} {
		f.Add(s)
	}
	base, _ := url.Parse("https://example.com/dir/page.html")
	f.Fuzz(func(t *testing.T, doc string) {
		for _, b := range []*url.URL{nil, base} {
			title, text := HTMLText(doc, b)
			links := strings.Count(strings.ToLower(doc), "<a")
			if limit := 3*len(doc) + links*(3*len(base.String())+8); len(text) > limit || len(title) > len(doc) {
				t.Fatalf("base %v: %d bytes of title and %d of text from a %d-byte document", b, len(title), len(text), len(doc))
			}
		}
		valid := strings.ToValidUTF8(doc, "\uFFFD")
		title, text := HTMLText(valid, base)
		if !utf8.ValidString(title) || !utf8.ValidString(text) {
			t.Fatalf("invalid UTF-8 from a valid document: title %q text %q", title, text)
		}
		if text != strings.TrimSpace(text) {
			t.Errorf("text %q has space at its ends", text)
		}
		escaped := strings.NewReplacer("&", "&amp;", "<", "&lt;").Replace(text)
		if _, again := HTMLText(escaped, nil); again != collapse(text) {
			t.Errorf("the text read again as text changed:\n%q\n%q", text, again)
		}
		if !strings.ContainsAny(valid, "<&") {
			if _, again := HTMLText(text, nil); again != text {
				t.Errorf("plain text read twice changed: %q then %q", text, again)
			}
		}
	})
}
