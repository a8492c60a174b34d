package tools

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestHTMLTextStructure(t *testing.T) {
	base, _ := url.Parse("https://example.com/dir/page.html")
	doc := `<!DOCTYPE html><html><head><title>The &amp; Title</title>
<style>body { color: red }</style><script>var secret = "<b>not text</b>";</script></head>
<body><!-- a comment <p>hidden</p> -->
<nav hidden><a href="/x">Skip me</a></nav>
<h2>Section   one</h2><p>First&nbsp;paragraph with a <a href="other.html">relative link</a> and
<a href="#top">an anchor</a>.</p>
<ul><li>alpha</li><li>beta <b>bold</b></li></ul>
<table><tr><th>Name</th><th>Qty</th></tr><tr><td>Apple</td><td>3</td></tr></table>
<noscript>Enable JavaScript</noscript><template><p>tmpl</p></template>
<svg><title>icon</title><text>svg text</text></svg>
<pre>line 1
  line 2</pre>
<p data-x="a>b">x &lt; y</p>
</body></html>`
	title, text := HTMLText(doc, base)
	if title != "The & Title" {
		t.Errorf("title %q", title)
	}
	want := "## Section one\n" +
		"First paragraph with a relative link (https://example.com/dir/other.html) and an anchor.\n" +
		"- alpha\n- beta bold\n" +
		"Name | Qty\nApple | 3\n" +
		"line 1\n  line 2\n" +
		"x < y"
	if text != want {
		t.Errorf("text:\n%s\nwant:\n%s", text, want)
	}
}

func TestHTMLTextUnclosedAndMalformed(t *testing.T) {
	_, text := HTMLText(`<p>a < b and <3</p><script>never closed`, nil)
	if text != "a < b and <3" {
		t.Errorf("text %q", text)
	}
	_, text = HTMLText(`<span>a</span><p>b</p><dt>c</dt><caption>d</caption>e`, nil)
	if text != "a\nb\nc\nd\ne" {
		t.Errorf("blocks: %q", text)
	}
	_, text = HTMLText(`<div>one<div hidden>two<div>three</div>four</div>five</div>`, nil)
	if text != "one\nfive" {
		t.Errorf("nested hidden: %q", text)
	}
}

// corpusPages lists the saved pages of the shared corpus.
func corpusPages(tb testing.TB) []string {
	tb.Helper()
	dir := repoRoot(tb)
	pages, _ := filepath.Glob(filepath.Join(dir, "..", "shared", "corpus", "pages", "*", "source.html"))
	if len(pages) == 0 {
		tb.Skip("shared corpus not beside the repo")
	}
	return pages
}

func repoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

var (
	linkNote   = regexp.MustCompile(`\(https?://[^)\s]*\)`)
	nonWord    = regexp.MustCompile(`[^\pL\pN]+`)
	scriptBody = regexp.MustCompile(`(?is)<script[^>]*>(.*?)</script>`)
)

// plain reduces text to its words, so markers, link notes and spacing
// do not decide a comparison.
func plain(s string) string {
	return strings.TrimSpace(nonWord.ReplaceAllString(strings.ToLower(linkNote.ReplaceAllString(s, " ")), " "))
}

// The article text Readability extracted (expected.html) must be found in
// the text of the whole page, and no inline script may leak into it.
func TestHTMLTextCorpus(t *testing.T) {
	for _, src := range corpusPages(t) {
		name := filepath.Base(filepath.Dir(src))
		source, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		expected, err := os.ReadFile(filepath.Join(filepath.Dir(src), "expected.html"))
		if err != nil {
			continue
		}
		_, article := HTMLText(string(expected), nil)
		_, page := HTMLText(string(source), nil)
		// Readability drops bylines and share buttons inside the article,
		// so compare runs of four words, not the whole start at once.
		start := plain(article)
		words := strings.Fields(start[:runeIndex(start, 200)])
		text := " " + plain(page) + " "
		var missing []string
		for i := 0; i+4 <= len(words); i += 4 {
			if run := strings.Join(words[i:i+4], " "); !strings.Contains(text, " "+run+" ") {
				missing = append(missing, run)
			}
		}
		if len(words) < 8 || len(missing) > len(words)/4/4 {
			t.Errorf("%s: the page text lacks %d of %d runs from the start of the article: %q", name, len(missing), len(words)/4, missing)
		}
		for _, m := range scriptBody.FindAllStringSubmatch(string(source), -1) {
			code := strings.TrimSpace(m[1])
			if len(code) < 40 || strings.HasPrefix(code, "{") || strings.HasPrefix(code, "[") {
				continue // too short to be telling, or JSON data
			}
			if line, _, _ := strings.Cut(code, "\n"); len(line) >= 30 && strings.Contains(page, strings.TrimSpace(line)) {
				t.Errorf("%s: script text in the page text: %q", name, line)
			}
		}
	}
}

func BenchmarkHTMLTextCorpus(b *testing.B) {
	var docs []string
	size := 0
	for _, src := range corpusPages(b) {
		data, err := os.ReadFile(src)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, string(data))
		size += len(data)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for range b.N {
		for _, d := range docs {
			HTMLText(d, nil)
		}
	}
}
