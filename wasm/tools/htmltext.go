package tools

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// HTMLText converts an HTML document to readable text in one pass: the
// title apart; script, style and other non-content elements dropped;
// blocks on their own lines, headings marked with #, list items with -,
// table cells separated by |, links followed by their absolute URL
// resolved against base. It is a reader, not a full HTML5 parser: it
// only needs tags, attributes and text, which keeps it small and fast.
func HTMLText(doc string, base *url.URL) (title, text string) {
	c := converter{doc: doc, base: base}
	c.run()
	return c.title, strings.TrimSpace(c.out.b.String())
}

// Element sets, as space-separated names: a set lookup in a string costs
// far less module size than map literals. rawText elements end at their
// close tag whatever is inside; skipped ones nest.
const (
	rawText = " script style textarea iframe xmp noembed noframes "
	skipped = " noscript template svg math head select object "
	block   = " address article aside blockquote body br caption dd details dialog div dl dt fieldset" +
		" figcaption figure footer form header hr main nav ol p pre section summary table tr ul "
	void = " area base br col embed hr img input link meta source track wbr "
)

// in reports whether the element name is in set.
func in(set, name string) bool {
	for i := 0; ; {
		k := strings.Index(set[i:], name)
		if k < 0 {
			return false
		}
		k += i
		if set[k-1] == ' ' && set[k+len(name)] == ' ' {
			return true
		}
		i = k + 1
	}
}

type converter struct {
	doc   string
	base  *url.URL
	out   textWriter
	title string
	// skip is the element being dropped and how deep it nests.
	skip      string
	skipDepth int
	pre       int      // open <pre> elements: whitespace kept
	cells     []int    // cells seen in each open table row
	links     []string // absolute URL of each open <a>, "" when none
	linkStart []int    // output length when each <a> opened
}

func (c *converter) run() {
	d := c.doc
	for i := 0; i < len(d); {
		lt := strings.IndexByte(d[i:], '<')
		if lt < 0 {
			c.text(d[i:])
			return
		}
		if lt > 0 {
			c.text(d[i : i+lt])
		}
		i += lt
		i = c.markup(i)
	}
}

// markup handles the construct at d[i] == '<' and returns where the next
// text starts.
func (c *converter) markup(i int) int {
	d := c.doc
	switch {
	case strings.HasPrefix(d[i:], "<!--"):
		return skipPast(d, i+4, "-->")
	case strings.HasPrefix(d[i:], "<!") || strings.HasPrefix(d[i:], "<?"):
		return skipPast(d, i+2, ">")
	}
	t, end, ok := parseTag(d, i)
	if !ok { // a lone "<" is text
		c.text("<")
		return i + 1
	}
	if !t.closing && (t.name == "title" || in(rawText, t.name)) {
		body, next := rawContent(d, end, t.name)
		if t.name == "title" && c.title == "" && (c.skip == "" || c.skip == "head") {
			c.title = collapse(unescapeHTML(body))
		}
		return next
	}
	if c.skip != "" {
		switch {
		case t.name != c.skip:
		case t.closing:
			c.skipDepth--
			if c.skipDepth == 0 {
				c.skip = ""
				c.close(t.name) // a dropped block still ends a line
			}
		case !t.selfClosing:
			c.skipDepth++
		}
		return end
	}
	if t.closing {
		c.close(t.name)
		return end
	}
	if (in(skipped, t.name) || hasAttr(t.attrs, "hidden")) && !t.selfClosing && !in(void, t.name) {
		c.skip, c.skipDepth = t.name, 1
		return end
	}
	c.open(t)
	return end
}

func (c *converter) open(t tag) {
	w := &c.out
	switch t.name {
	case "h1", "h2", "h3", "h4", "h5", "h6":
		w.newline()
		w.prefix(strings.Repeat("#", int(t.name[1]-'0')) + " ")
	case "li":
		w.newline()
		w.prefix("- ")
	case "tr":
		w.newline()
		c.cells = append(c.cells, 0)
	case "td", "th":
		if n := len(c.cells); n > 0 {
			if c.cells[n-1] > 0 {
				w.separator(" | ")
			}
			c.cells[n-1]++
		}
	case "a":
		c.links = append(c.links, c.resolve(attrValue(t.attrs, "href")))
		c.linkStart = append(c.linkStart, w.b.Len())
	case "img":
		if alt := collapse(unescapeHTML(attrValue(t.attrs, "alt"))); alt != "" && len(c.links) > 0 {
			w.word(alt) // an image link's only text
		}
	case "pre":
		w.newline()
		c.pre++
	default:
		if in(block, t.name) {
			w.newline()
		}
	}
}

func (c *converter) close(name string) {
	w := &c.out
	switch name {
	case "h1", "h2", "h3", "h4", "h5", "h6", "li":
		w.newline()
	case "tr":
		if n := len(c.cells); n > 0 {
			c.cells = c.cells[:n-1]
		}
		w.newline()
	case "a":
		n := len(c.links)
		if n == 0 {
			return
		}
		href, start := c.links[n-1], c.linkStart[n-1]
		c.links, c.linkStart = c.links[:n-1], c.linkStart[:n-1]
		if href != "" && w.b.Len() > start && !strings.Contains(w.b.String()[start:], href) {
			w.space = true
			w.word("(" + href + ")")
		}
	case "pre":
		if c.pre > 0 {
			c.pre--
		}
		w.newline()
	default:
		if in(block, name) {
			w.newline()
		}
	}
}

// resolve returns href as an absolute http(s) URL, or "" for links that
// lead nowhere readable (fragments on this page, javascript:, mailto:).
func (c *converter) resolve(href string) string {
	href = strings.TrimSpace(unescapeHTML(href))
	if href == "" || href[0] == '#' {
		return ""
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if c.base != nil {
		u = c.base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return ""
	}
	return u.String()
}

func (c *converter) text(s string) {
	if c.skip != "" || s == "" {
		return
	}
	if strings.IndexByte(s, '&') >= 0 {
		s = unescapeHTML(s)
	}
	if c.pre > 0 {
		c.out.raw(s)
		return
	}
	c.out.words(s)
}

// textWriter collapses whitespace and keeps at most one line break
// between blocks.
type textWriter struct {
	b       strings.Builder
	space   bool // a space is due before the next word
	lineEnd bool // the output ends with a line break (or is empty)
}

func (w *textWriter) words(s string) {
	start := -1
	for i, r := range s {
		if isSpace(r) {
			if start >= 0 {
				w.word(s[start:i])
				start = -1
			}
			w.space = true
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		w.word(s[start:])
	}
}

func (w *textWriter) word(s string) {
	if w.space && !w.lineEnd && w.b.Len() > 0 {
		w.b.WriteByte(' ')
	}
	w.b.WriteString(s)
	w.space, w.lineEnd = false, false
}

// raw writes preformatted text as it is.
func (w *textWriter) raw(s string) {
	if s == "" {
		return
	}
	w.b.WriteString(s)
	w.space, w.lineEnd = false, strings.HasSuffix(s, "\n")
}

func (w *textWriter) newline() {
	if w.b.Len() > 0 && !w.lineEnd {
		w.b.WriteByte('\n')
	}
	w.space, w.lineEnd = false, true
}

// prefix starts a line with a marker such as "## " or "- ".
func (w *textWriter) prefix(p string) {
	w.b.WriteString(p)
	w.space, w.lineEnd = false, true // the marker's own space separates
}

// separator goes between table cells on one line.
func (w *textWriter) separator(s string) {
	if !w.lineEnd {
		w.b.WriteString(s)
		w.space, w.lineEnd = false, true
	}
}

// isSpace is HTML whitespace plus the no-break space, which pages use
// for layout.
func isSpace(r rune) bool {
	return r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '\f' || r == '\u00a0' || (r > utf8.RuneSelf && unicode.IsSpace(r))
}

func collapse(s string) string {
	var w textWriter
	w.words(s)
	return w.b.String()
}

// tag is one start or end tag.
type tag struct {
	name        string // lower case
	attrs       string // the raw attribute text
	closing     bool
	selfClosing bool
}

// parseTag reads the tag at d[i] == '<' and returns it and the index
// after its '>'. ok is false when no tag name follows the '<'.
func parseTag(d string, i int) (t tag, end int, ok bool) {
	j := i + 1
	if j < len(d) && d[j] == '/' {
		t.closing = true
		j++
	}
	n := j
	for n < len(d) && isNameByte(d[n]) {
		n++
	}
	if n == j || !isLetter(d[j]) {
		return t, 0, false
	}
	t.name = strings.ToLower(d[j:n])
	// Find the '>' that ends the tag, skipping quoted attribute values.
	var quote byte
	k := n
	for ; k < len(d); k++ {
		ch := d[k]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '>':
			t.attrs = d[n:k]
			t.selfClosing = strings.HasSuffix(t.attrs, "/")
			return t, k + 1, true
		}
	}
	t.attrs = d[n:]
	return t, len(d), true
}

// rawContent returns the text of a raw-text element that starts at i and
// the index after its end tag.
func rawContent(d string, i int, name string) (string, int) {
	closing := "</" + name
	for j := i; j < len(d); {
		k := indexFold(d[j:], closing)
		if k < 0 {
			break
		}
		k += j
		after := k + len(closing)
		if after >= len(d) || !isNameByte(d[after]) {
			return d[i:k], skipPast(d, after, ">")
		}
		j = after
	}
	return d[i:], len(d)
}

// attrValue returns the value of attribute name in raw attribute text.
func attrValue(attrs, name string) string {
	for i := 0; i < len(attrs); {
		for i < len(attrs) && (isSpace(rune(attrs[i])) || attrs[i] == '/') {
			i++
		}
		start := i
		for i < len(attrs) && attrs[i] != '=' && attrs[i] != '>' && !isSpace(rune(attrs[i])) && attrs[i] != '/' {
			i++
		}
		key := attrs[start:i]
		for i < len(attrs) && isSpace(rune(attrs[i])) {
			i++
		}
		val := ""
		if i < len(attrs) && attrs[i] == '=' {
			i++
			for i < len(attrs) && isSpace(rune(attrs[i])) {
				i++
			}
			if i < len(attrs) && (attrs[i] == '"' || attrs[i] == '\'') {
				q := attrs[i]
				end := strings.IndexByte(attrs[i+1:], q)
				if end < 0 {
					end = len(attrs) - i - 1
				}
				val = attrs[i+1 : i+1+end]
				i += end + 2
			} else {
				s := i
				for i < len(attrs) && !isSpace(rune(attrs[i])) {
					i++
				}
				val = attrs[s:i]
			}
		}
		if strings.EqualFold(key, name) {
			return val
		}
		if i == start { // nothing consumed: a stray character
			i++
		}
	}
	return ""
}

func hasAttr(attrs, name string) bool {
	if indexFold(attrs, name) < 0 { // fast path: most tags lack it
		return false
	}
	for i := 0; i < len(attrs); {
		k := indexFold(attrs[i:], name)
		if k < 0 {
			return false
		}
		k += i
		before := k == 0 || isSpace(rune(attrs[k-1]))
		after := k+len(name) == len(attrs) || !isNameByte(attrs[k+len(name)])
		if before && after && !insideQuotes(attrs[:k]) {
			return true
		}
		i = k + len(name)
	}
	return false
}

// insideQuotes reports whether the end of s lies inside a quoted value.
func insideQuotes(s string) bool {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch {
		case quote != 0:
			if s[i] == quote {
				quote = 0
			}
		case s[i] == '"' || s[i] == '\'':
			quote = s[i]
		}
	}
	return quote != 0
}

func skipPast(d string, i int, marker string) int {
	if i > len(d) {
		return len(d)
	}
	k := strings.Index(d[i:], marker)
	if k < 0 {
		return len(d)
	}
	return i + k + len(marker)
}

// indexFold is strings.Index ignoring ASCII case; sub must be lower case.
func indexFold(s, sub string) int {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		j := strings.IndexByte(s[i:], sub[0])
		if up := sub[0] - 'a' + 'A'; sub[0] >= 'a' && sub[0] <= 'z' {
			if k := strings.IndexByte(s[i:], up); k >= 0 && (j < 0 || k < j) {
				j = k
			}
		}
		if j < 0 {
			return -1
		}
		i += j
		if i+n <= len(s) && strings.EqualFold(s[i:i+n], sub) {
			return i
		}
	}
	return -1
}

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

func isNameByte(b byte) bool {
	return isLetter(b) || b >= '0' && b <= '9' || b == '-' || b == ':' || b == '_'
}
