package tools

import (
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	cases := []struct {
		tool, args string
		want       map[string]any
		err        string
	}{
		{"click_ax", `{"ref":"ref_3"}`, map[string]any{"ref": "ref_3"}, ""},
		{"click_ax", `{"ref":12}`, map[string]any{"ref": "ref_12"}, ""},
		{"click_ax", `{"ref":"7","bogus":1}`, map[string]any{"ref": "ref_7"}, ""},
		{"click_ax", `{}`, nil, `missing required argument "ref"`},
		{"click_ax", `[1]`, nil, "must be a JSON object"},
		{"click", `{"x":"10","y":20.5}`, map[string]any{"x": 10.0, "y": 20.5}, ""},
		{"click", `{"x":10}`, nil, "give ref, or both x and y"},
		{"get_accessibility_tree", `{"filter":"interactive","maxChars":99999}`, map[string]any{"filter": "interactive", "maxChars": 6000.0}, ""},
		{"get_accessibility_tree", `{"filter":"everything"}`, nil, "must be one of all, visible, interactive"},
		{"get_accessibility_tree", ``, map[string]any{}, ""},
		{"type_ax", `{"ref":"ref_1","text":"hi","submit":"true"}`, map[string]any{"ref": "ref_1", "text": "hi", "submit": true}, ""},
		{"set_field", `{"ref":"ref_1"}`, nil, "give one of: value, values, checked"},
		{"set_field", `{"ref":"ref_1","values":["a",2]}`, nil, "must be an array of strings"},
		{"scroll", `{"amount":300}`, nil, "give one of: direction, ref"},
	}
	for _, c := range cases {
		got, err := parseArgs(byName()[c.tool], c.args)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %s: err = %v, want %q", c.tool, c.args, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", c.tool, c.args, err)
			continue
		}
		if len(got) != len(c.want) {
			t.Errorf("%s %s: got %v, want %v", c.tool, c.args, got, c.want)
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s %s: %s = %#v, want %#v", c.tool, c.args, k, got[k], v)
			}
		}
	}
}
