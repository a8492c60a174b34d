//go:build browser

package content

import (
	"regexp"
	"strings"
	"testing"
)

// treeLine matches a line of the tree: role, optional name, ref.
var treeLine = regexp.MustCompile(`^\s*(\S+)(?: ("(?:[^"\\]|\\.)*"))? \[(ref_\d+)\]`)

// TestToolsNameElementsAsTheTreeDoes checks that the page tools call an
// element what the tree calls it: the tree owns roles, accessible names
// and refs, and the tools ask it (scroll's result names its target with
// them; so does the probe the action gate reads).
func TestToolsNameElementsAsTheTreeDoes(t *testing.T) {
	p := open(t, "/names.html")
	tree := p.ok("get_accessibility_tree", map[string]any{"filter": "all", "maxChars": 16000})
	lines := map[string][2]string{} // ref -> role, quoted name
	for _, l := range strings.Split(tree, "\n") {
		if m := treeLine.FindStringSubmatch(l); m != nil {
			lines[m[3]] = [2]string{m[1], m[2]}
		}
	}
	for _, tc := range []struct{ id, role, name string }{
		{"city", "combobox", `"City"`}, // an <input list>: a combobox, not a textbox
		{"search", "searchbox", `"Find a stop"`},
		{"start", "textbox", `"Start date"`},
		{"count", "spinbutton", `"Travellers"`},
		{"query", "textbox", ""},
		{"notes", "textbox", `"Anything else"`},
		{"size", "combobox", ""},
		{"agree", "checkbox", `"I agree to the terms"`},
		{"go", "button", `"Book it"`},
		{"close", "button", `"Close planner"`},
		{"save", "button", `"Save draft"`},
		{"home", "link", `"Home page"`},
		{"docs", "link", `"Documentation"`},
		{"card", "button", `"Open the card"`},
		{"clicky", "clickable", `"Clickable words"`},
		{"more", "button", `"More options"`},
		{"tab1", "tab", `"First tab"`},
	} {
		ref := p.js(`window.__wb_ax_ref(document.getElementById('` + tc.id + `'), false)`)
		line, ok := lines[ref]
		if !ok {
			t.Errorf("#%s: the tree shows no line with its ref %q", tc.id, ref)
			continue
		}
		if line != [2]string{tc.role, tc.name} {
			t.Errorf("#%s: the tree shows %s %s, want %s %s", tc.id, line[0], line[1], tc.role, tc.name)
		}
		want := line[0]
		if line[1] != "" {
			want += " " + line[1]
		}
		want += " [" + ref + "]"
		if res := p.ok("scroll", map[string]any{"ref": ref}); !strings.HasPrefix(res, "Scrolled "+want+" into view") {
			t.Errorf("#%s: the tree shows %s, scroll reports %q", tc.id, want, res)
		}
		var pr probe
		p.internal("wb_probe", map[string]any{"ref": ref}, &pr)
		if q := quoteJS(pr.Name); pr.Role != line[0] || (line[1] != "" || pr.Name != "") && q != line[1] {
			t.Errorf("#%s: the tree shows %s %s, the probe %s %s", tc.id, line[0], line[1], pr.Role, q)
		}
	}
}

func quoteJS(s string) string {
	if s == "" {
		return ""
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}
