//go:build firefox

package firefox

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// Helpers for the scenarios ported from the Chrome suite (test/e2e).

// saveProvider replaces the session's saved provider with one of this
// wire format ("openai-chat" or "anthropic") and API key, behind s.srv.
func (s *session) saveProvider(kind, apiKey string) {
	s.t.Helper()
	baseURL := s.srv.URL + "/v1"
	if kind == "anthropic" {
		// The Anthropic adapter appends /v1/messages itself.
		baseURL = s.srv.URL
	}
	settings := map[string]any{
		"providers": []map[string]any{{
			"id": "fake", "name": "Fake", "kind": kind, "baseUrl": baseURL, "apiKey": apiKey,
			"model": llmtest.Model, "tier": "mid", "contextWindow": 0,
		}},
		"activeProvider": "fake",
		"maxSteps":       30,
	}
	msg, _ := json.Marshal(map[string]any{"action": "settings_save", "settings": settings})
	r := evalIn[reply](s.t, s.env.ff, s.panel, s.panelExpr(fmt.Sprintf(`browser.runtime.sendMessage(%s)`, msg)))
	if !r.OK {
		s.t.Fatalf("settings_save %s: %s (field %q)", kind, r.Error, r.Field)
	}
}

// pageRecord returns what the fixture page recorded in window.__record.
func (s *session) pageRecord() []string {
	return evalIn[[]string](s.t, s.env.ff, s.page, `window.__record ?? []`)
}

// count returns how many elements match css in the panel.
func (s *session) count(css string) int {
	return evalIn[int](s.t, s.env.ff, s.panel, s.panelExpr(fmt.Sprintf(`document.querySelectorAll(%q).length`, css)))
}

// runStatus is the panel's data-run-status.
func (s *session) runStatus() string {
	return evalIn[string](s.t, s.env.ff, s.panel, s.panelExpr(`document.querySelector('#transcript').dataset.runStatus`))
}

// allRefs lists every ref in a tree, in order.
func allRefs(tree string) []string {
	var refs []string
	for _, m := range refPattern.FindAllStringSubmatch(tree, -1) {
		refs = append(refs, m[1])
	}
	return refs
}

// containsRef reports whether text mentions ref as a whole token.
func containsRef(text, ref string) bool {
	return regexp.MustCompile(`(^|[^\w])` + regexp.QuoteMeta(ref) + `($|[^\w])`).MatchString(text)
}
