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

// samplePages lists the saved pages in testdata/pages (SOURCES.md there):
// a sample of the page corpus small enough for the repository.
func samplePages(tb testing.TB) []string {
	tb.Helper()
	pages, err := filepath.Glob(filepath.Join("testdata", "pages", "*", "source.html"))
	if err != nil || len(pages) < 5 {
		tb.Fatalf("testdata/pages holds %d saved pages, want at least 5 (%v)", len(pages), err)
	}
	return pages
}

// corpusEnv names the folder of the whole saved-page corpus
// (pages/<name>/source.html), which is not in the repository; only the
// corpus-wide benchmark reads it.
const corpusEnv = "WEBBRAIN_CORPUS"

// corpusPages lists the pages of the whole corpus, or skips the benchmark
// when WEBBRAIN_CORPUS does not point at one.
func corpusPages(b *testing.B) []string {
	b.Helper()
	dir := os.Getenv(corpusEnv)
	if dir == "" {
		b.Skipf("%s is not set: set it to the saved-page corpus folder (the one holding pages/<name>/source.html) to run this benchmark", corpusEnv)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "pages", "*", "source.html"))
	if len(pages) == 0 {
		b.Fatalf("%s=%s holds no pages/<name>/source.html", corpusEnv, dir)
	}
	return pages
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
	for _, src := range samplePages(t) {
		name := filepath.Base(filepath.Dir(src))
		source, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		expected, err := os.ReadFile(filepath.Join(filepath.Dir(src), "expected.html"))
		if err != nil {
			t.Fatal(err)
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

// BenchmarkHTMLTextCorpus reads every page of the whole corpus
// (WEBBRAIN_CORPUS); BenchmarkHTMLTextPages the sample in testdata.
func BenchmarkHTMLTextCorpus(b *testing.B) { benchmarkHTMLText(b, corpusPages(b)) }

func BenchmarkHTMLTextPages(b *testing.B) { benchmarkHTMLText(b, samplePages(b)) }

func benchmarkHTMLText(b *testing.B, pages []string) {
	var docs []string
	size := 0
	for _, src := range pages {
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
