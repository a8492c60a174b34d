package skills

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	data "github.com/webbrain/webbrain/skills"
	"github.com/webbrain/webbrain/wasm/packaged"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func TestPackagedSkillsAreValid(t *testing.T) {
	all, err := Packaged()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range all {
		ids = append(ids, s.ID)
		if strings.Contains(s.Instructions, "webbrain-skill") || strings.Contains(s.Instructions, "webbrain-tools") || strings.Contains(s.Instructions, `"summary"`) {
			t.Errorf("%s: instructions still carry the metadata fence", s.ID)
		}
		if !strings.HasPrefix(s.Instructions, "# "+s.Name+"\n") {
			t.Errorf("%s: instructions do not start with the heading", s.ID)
		}
		if len([]rune(s.Summary)) > MaxSummaryChars || len(s.Intents) > MaxIntents {
			t.Errorf("%s: metadata over the limits", s.ID)
		}
	}
	for _, want := range []string{"form-filling", "humanizer", "shopping-research", "summarize-long-page"} {
		if !slices.Contains(ids, want) {
			t.Errorf("packaged skills %v lack %s", ids, want)
		}
	}
}

func TestCatalogByModeAndTier(t *testing.T) {
	ids := func(ss []Skill) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	for _, tier := range []string{"compact"} {
		for _, mode := range []string{protocol.ModeAsk, protocol.ModeAct} {
			if got := Catalog(nil, mode, tier); len(got) != 0 {
				t.Errorf("%s/%s catalog = %v, want none", mode, tier, ids(got))
			}
		}
	}
	ask := ids(Catalog(nil, protocol.ModeAsk, "mid"))
	act := ids(Catalog(nil, protocol.ModeAct, "full"))
	if slices.Contains(ask, "form-filling") {
		t.Error("Ask offers the Act-only form-filling skill")
	}
	for _, want := range []string{"humanizer", "summarize-long-page"} {
		if !slices.Contains(ask, want) || !slices.Contains(act, want) {
			t.Errorf("%s missing: ask %v, act %v", want, ask, act)
		}
	}
	if !slices.Contains(act, "form-filling") {
		t.Errorf("Act lacks form-filling: %v", act)
	}
	// An unknown mode gets the Ask catalog.
	if !slices.Equal(ids(Catalog(nil, "dev?", "mid")), ask) {
		t.Error("an unknown mode does not fall back to the Ask catalog")
	}
}

func TestParseRejectsBadSkills(t *testing.T) {
	fence := func(meta string) string { return "# Name\n\n```webbrain-skill\n" + meta + "\n```\n\nDo the thing.\n" }
	long := strings.Repeat("x", MaxSummaryChars+1)
	cases := map[string]string{
		"no fence":     "# Name\n\nDo the thing.",
		"unclosed":     "# Name\n```webbrain-skill\n{\"summary\":\"s\",\"modes\":[\"ask\"]}\n",
		"two fences":   fence(`{"summary":"s","modes":["ask"]}`) + "```webbrain-skill\n{}\n```\n",
		"bad json":     fence(`{"summary":`),
		"long summary": fence(`{"summary":"` + long + `","modes":["ask"]}`),
		"no summary":   fence(`{"modes":["ask"]}`),
		"no modes":     fence(`{"summary":"s"}`),
		"bad mode":     fence(`{"summary":"s","modes":["dev"]}`),
		"many intents": fence(`{"summary":"s","modes":["ask"],"intents":["a","b","c","d","e","f","g"]}`),
		"long intent":  fence(`{"summary":"s","modes":["ask"],"intents":["` + strings.Repeat("i", 41) + `"]}`),
		"no heading":   "```webbrain-skill\n{\"summary\":\"s\",\"modes\":[\"ask\"]}\n```\nDo it.",
		"no body":      "# Name\n```webbrain-skill\n{\"summary\":\"s\",\"modes\":[\"ask\"]}\n```\n",
	}
	for name, text := range cases {
		if _, err := Parse("x", text); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := Parse("Bad_ID", fence(`{"summary":"s","modes":["ask"]}`)); err == nil {
		t.Error("bad id accepted")
	}
	s, err := Parse("ok", "# Name\r\n\r\n```webbrain-skill\r\n{\"summary\":\" s \",\"modes\":[\"ask\"]}\r\n```\r\n\r\nDo the thing.\r\n")
	if err != nil {
		t.Fatal(err)
	}
	if s.Summary != "s" || s.Instructions != "# Name\n\nDo the thing." {
		t.Errorf("parsed %+v", s)
	}
}

func TestLoadKeepsGoodSkills(t *testing.T) {
	fsys := fstest.MapFS{
		"good.md": {Data: []byte("# Good\n```webbrain-skill\n{\"summary\":\"s\",\"modes\":[\"act\"]}\n```\nSteps.\n")},
		"bad.md":  {Data: []byte("# Bad\nno fence\n")},
	}
	all, err := Load(fsys.ReadFile, []string{"good", "bad", "gone"})
	if len(all) != 1 || all[0].ID != "good" || err == nil || !strings.Contains(err.Error(), "bad.md") || !strings.Contains(err.Error(), "gone.md") {
		t.Fatalf("Load = %v, %v", all, err)
	}
}

// The runtime decoder ignores unknown metadata fields to stay small; a
// misspelt field in a packaged skill fails here.
func TestPackagedMetadataHasOnlyKnownFields(t *testing.T) {
	for _, id := range packaged.FileIDs(data.Files, ".md") {
		raw, err := data.Files.ReadFile(id + ".md")
		if err != nil {
			t.Fatal(err)
		}
		_, text, err := cutToolsFence(string(raw))
		if err != nil {
			t.Fatal(err)
		}
		meta, _, _, err := cutFenceNamed(text, fenceOpen, "metadata")
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(meta)))
		dec.DisallowUnknownFields()
		var m metadata
		if err := dec.Decode(&m); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}
