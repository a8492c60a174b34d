//go:build browser

package ui

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// Markdown from the model loads nothing: an image whose URL carries page
// data would send it out the moment the panel rendered it. A server the
// answer points at counts every request the panel makes to it.
func TestMarkdownLoadsNothingRemote(t *testing.T) {
	var hits atomic.Int64
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/png")
	}))
	defer remote.Close()
	u := remote.URL
	answer := strings.Join([]string{
		fmt.Sprintf("![the chart](%s/img.png?secret=sk-123) and ![](%s/noalt.png)", u, u),
		fmt.Sprintf("![ref image][r] <img src=\"%s/raw.png\"> [run](javascript:alert(1)) [data](data:text/html,hi) [file](file:///etc/passwd) [rel](/settings/settings.html)", u),
		fmt.Sprintf("[ok](%s/page) <%s/auto> [mail](mailto:a@example.com) [![inner](%s/inner.png)](%s/outer)", u, u, u, u),
		"",
		fmt.Sprintf("[r]: %s/ref.png", u),
	}, "\n")
	tb := openPanel(t, "")
	rid := startRun(tb, "show me")
	deliver(tb, rid, 1, fmt.Sprintf(`{kind: "final", text: %q}`, answer))
	tb.waitFor("the answer", `document.querySelector('#transcript').dataset.runStatus === 'done'`)
	tb.do(`await new Promise(r => setTimeout(r, 500))`)
	tb.screenshot("markdown-images")

	if n := hits.Load(); n != 0 {
		t.Errorf("the panel made %d requests to URLs in the answer", n)
	}
	if n := eval[int](tb, `document.querySelectorAll('#transcript img, #transcript [src], #transcript [srcset], #transcript [style*="url"]').length`); n != 0 {
		t.Errorf("%d elements that load a resource", n)
	}
	text := eval[string](tb, `document.querySelector('.msg.assistant').textContent`)
	for _, want := range []string{"[image: the chart] " + u + "/img.png?secret=sk-123", "[image: no description] " + u + "/noalt.png", "[image: ref image] " + u + "/ref.png"} {
		if !strings.Contains(text, want) {
			t.Errorf("answer text lacks %q: %s", want, text)
		}
	}
	if n := eval[int](tb, `[...document.querySelectorAll('.msg.assistant a')].filter(a => a.querySelector('.md-image') && a.textContent.includes('img.png')).length`); n != 0 {
		t.Error("a plain image became a link")
	}
	links := eval[[]map[string]string](tb, `[...document.querySelectorAll('.msg.assistant a')].map(a => ({href: a.getAttribute('href') ?? '', target: a.target, rel: a.rel}))`)
	seen := map[string]bool{}
	for _, l := range links {
		href := l["href"]
		if !strings.HasPrefix(href, "http://") && !strings.HasPrefix(href, "https://") && !strings.HasPrefix(href, "mailto:") {
			t.Errorf("a link with href %q is clickable", href)
		}
		if l["target"] != "_blank" || l["rel"] != "noopener noreferrer" {
			t.Errorf("link %v lacks target=_blank rel=noopener noreferrer", l)
		}
		seen[href] = true
	}
	for _, want := range []string{u + "/page", u + "/auto", "mailto:a@example.com", u + "/outer"} {
		if !seen[want] {
			t.Errorf("link %s missing; links: %v", want, links)
		}
	}
	for _, bad := range []string{"javascript:", "data:", "file:", "/settings/"} {
		if n := eval[int](tb, fmt.Sprintf(`document.querySelectorAll('.msg.assistant [href*=%q]').length`, bad)); n != 0 {
			t.Errorf("an element links to %s", bad)
		}
	}
}
