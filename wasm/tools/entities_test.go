package tools

import "testing"

func TestUnescapeHTML(t *testing.T) {
	for in, want := range map[string]string{
		"Tom &amp; Jerry":             "Tom & Jerry",
		"&lt;b&gt; &quot;x&quot;":     `<b> "x"`,
		"caf&eacute; &#233; &#xE9;":   "café é é",
		"5&nbsp;km &mdash; fast":      "5\u00a0km — fast",
		"&unknownname; stays":         "&unknownname; stays",
		"a & b; no entity":            "a & b; no entity",
		"&#0; &#xD800; bad":           "\uFFFD \uFFFD bad",
		"&#12345678901; too big":      "&#12345678901; too big",
		"trailing &":                  "trailing &",
		"&amp;amp; decodes once only": "&amp; decodes once only",
	} {
		if got := unescapeHTML(in); got != want {
			t.Errorf("unescapeHTML(%q) = %q, want %q", in, got, want)
		}
	}
}
