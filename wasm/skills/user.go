package skills

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/webbrain/webbrain/wasm/packaged"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/secrets"
)

// User skills: Markdown the user writes or imports in Settings → Skills,
// kept in storage.local under customSkills and offered beside the packaged
// ones (docs/skills.md). A user skill may declare network tools
// (manifest.go), offered once it is loaded.

// MaxUserSkills and MaxUserSkillBytes bound what the user keeps.
const (
	MaxUserSkills     = 50
	MaxUserSkillBytes = 32 << 10
)

// Stored is one user skill as stored.
type Stored struct {
	ID       string `json:"id"`
	Markdown string `json:"markdown"`
	Enabled  bool   `json:"enabled"`
}

// ParseUser reads a user skill. Metadata are optional, unlike a packaged
// skill's: without the fence the first paragraph is the summary and the
// skill is for Act (and Dev); an Agent Skills SKILL.md's front matter
// (name, description) names and sums it up when the Markdown does not.
func ParseUser(id, text string) (Skill, error) {
	if !packaged.ValidID(id) {
		return Skill{}, fmt.Errorf("id %q: use lowercase letters, digits and hyphens", id)
	}
	if len(text) > MaxUserSkillBytes {
		return Skill{}, fmt.Errorf("a skill holds at most %d KB of Markdown", MaxUserSkillBytes>>10)
	}
	if len(secrets.Find(text)) > 0 {
		return Skill{}, errors.New("the skill contains what looks like a password, key or code; skills are not the place for secrets")
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	front, text := cutFrontMatter(text)
	if strings.Contains(text, fenceOpen+"\n") {
		s, err := Parse(id, withHeading(text, front["name"]))
		return s, err
	}
	manifest, text, err := cutToolsFence(text)
	if err != nil {
		return Skill{}, err
	}
	body := withHeading(text, firstNonEmpty(front["name"], id))
	summary := firstNonEmpty(front["description"], firstParagraph(body))
	if r := []rune(summary); len(r) > MaxSummaryChars {
		summary = string(r[:MaxSummaryChars-1]) + "…"
	}
	s := Skill{ID: id, Name: heading(body), Summary: summary, Modes: []string{protocol.ModeAct}, Instructions: strings.TrimSpace(body)}
	if err := s.validate(); err != nil {
		return s, err
	}
	if manifest != "" {
		s.Tools, err = parseManifest(manifest)
	}
	return s, err
}

// cutFrontMatter splits "---\nkey: value\n---\n" off the top.
func cutFrontMatter(text string) (map[string]string, string) {
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return nil, text
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return nil, text
	}
	front := map[string]string{}
	for _, line := range strings.Split(rest[:end], "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			v = strings.TrimSpace(v)
			var quoted string
			if json.Unmarshal([]byte(v), &quoted) == nil {
				v = quoted // a double-quoted value, as Settings exports it
			}
			front[strings.TrimSpace(k)] = strings.Trim(v, `"'`)
		}
	}
	return front, strings.TrimLeft(rest[end+len("\n---"):], "\n")
}

// withHeading gives text a "# name" heading when it has none.
func withHeading(text, name string) string {
	if heading(text) != "" || name == "" {
		return text
	}
	return "# " + name + "\n\n" + text
}

func firstParagraph(md string) string {
	for _, p := range strings.Split(md, "\n\n") {
		p = strings.TrimSpace(p)
		if p != "" && !strings.HasPrefix(p, "#") && !strings.HasPrefix(p, "```") {
			return strings.Join(strings.Fields(p), " ")
		}
	}
	return ""
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// LoadUser reads the stored user skills; an unreadable value is an error
// and no skills.
func LoadUser(ctx context.Context, st platform.Storage) ([]Stored, error) {
	got, err := st.Get(ctx, protocol.KeyCustomSkills)
	if err != nil {
		return nil, err
	}
	raw, ok := got[protocol.KeyCustomSkills]
	if !ok {
		return nil, nil
	}
	var out []Stored
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("the stored skills are not readable: %v", err)
	}
	return out, nil
}

// SaveUser writes the user skills.
func SaveUser(ctx context.Context, st platform.Storage, all []Stored) error {
	if all == nil {
		all = []Stored{}
	}
	raw, err := json.Marshal(all)
	if err != nil {
		return err
	}
	return st.Set(ctx, map[string]json.RawMessage{protocol.KeyCustomSkills: raw})
}

// Put adds or replaces a user skill after checking it parses and that its
// id is not a packaged skill's.
func Put(all []Stored, s Stored) ([]Stored, Skill, error) {
	packagedSkills, _ := Packaged()
	if slices.ContainsFunc(packagedSkills, func(p Skill) bool { return p.ID == s.ID }) {
		return all, Skill{}, fmt.Errorf("%q is a skill WebBrain ships; choose another id", s.ID)
	}
	parsed, err := ParseUser(s.ID, s.Markdown)
	if err != nil {
		return all, Skill{}, err
	}
	if i := slices.IndexFunc(all, func(o Stored) bool { return o.ID == s.ID }); i >= 0 {
		all[i] = s
		return all, parsed, nil
	}
	if len(all) >= MaxUserSkills {
		return all, Skill{}, fmt.Errorf("at most %d skills of your own; delete one first", MaxUserSkills)
	}
	return append(all, s), parsed, nil
}

// Catalog returns the skills eligible in mode and tier, the packaged ones
// and the user's enabled ones that parse: none for the Compact tier, only
// skills that declare "ask" in Ask (any mode but Act and Dev counts as
// Ask, failing closed), those that declare "act" in Act and Dev.
func Catalog(user []Stored, mode, tier string) []Skill {
	all, _ := Packaged()
	all = slices.Clone(all)
	for _, u := range user {
		if !u.Enabled {
			continue
		}
		if s, err := ParseUser(u.ID, u.Markdown); err == nil {
			all = append(all, s)
		}
	}
	return Eligible(all, mode, tier)
}
