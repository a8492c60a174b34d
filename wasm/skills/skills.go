// Package skills parses WebBrain's packaged skills (the Markdown files of
// the repository's skills/ directory), validates them and gives the
// catalog a mode and tier may use. A skill is instructions for one kind
// of task that the model loads with load_skill when the user's request
// needs them.
package skills

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	data "github.com/webbrain/webbrain/skills"
	"github.com/webbrain/webbrain/wasm/packaged"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Skill is one parsed skill.
type Skill struct {
	ID      string
	Name    string // the first "# " heading
	Summary string
	Modes   []string // "ask", "act"
	Intents []string
	// Instructions is the Markdown without the metadata and tool fences:
	// what load_skill returns.
	Instructions string
	// Tools are the network tools of its webbrain-tools manifest, offered
	// once the skill is loaded (manifest.go).
	Tools []Tool
	// Packaged: one of WebBrain's own skills, not the user's.
	Packaged bool
}

// Limits from the spec.
const (
	MaxSummaryChars = 200
	MaxIntents      = 6
	MaxIntentChars  = 40
)

const fenceOpen = "```webbrain-skill"

// loaded parses the packaged skills once per module start.
var loaded = sync.OnceValues(func() ([]Skill, error) {
	all, err := Load(data.Files.ReadFile, packaged.FileIDs(data.Files, ".md"))
	for i := range all {
		all[i].Packaged = true
	}
	return all, err
})

// Packaged returns the valid packaged skills in id order and an error
// naming every invalid one; invalid skills are left out.
func Packaged() ([]Skill, error) { return loaded() }

// Lines lists a catalog for a prompt, one "- id (name): summary" line a
// skill with its intents; the execution model and the planner see the
// same list.
func Lines(catalog []Skill) string {
	var b strings.Builder
	for _, s := range catalog {
		fmt.Fprintf(&b, "- %s (%s): %s", s.ID, s.Name, s.Summary)
		if len(s.Intents) > 0 {
			fmt.Fprintf(&b, " For example: %s.", strings.Join(s.Intents, "; "))
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// Eligible filters all as Catalog does.
func Eligible(all []Skill, mode, tier string) []Skill {
	if tier == protocol.TierCompact {
		return nil
	}
	want := protocol.ModeAsk
	if protocol.Acting(mode) { // Dev uses the Act skills
		want = protocol.ModeAct
	}
	var out []Skill
	for _, s := range all {
		if slices.Contains(s.Modes, want) {
			out = append(out, s)
		}
	}
	return out
}

// Load reads and validates <id>.md for each id through read, in the order
// of ids.
func Load(read func(name string) ([]byte, error), ids []string) ([]Skill, error) {
	return packaged.Load(read, ids, ".md", "skill", func(id string, raw []byte) (Skill, error) {
		return Parse(id, string(raw))
	})
}

// metadata is the JSON of the webbrain-skill fence.
type metadata struct {
	Summary string   `json:"summary"`
	Modes   []string `json:"modes"`
	Intents []string `json:"intents"`
}

// Parse reads one skill file and validates it.
func Parse(id, text string) (Skill, error) {
	if !packaged.ValidID(id) {
		return Skill{}, fmt.Errorf("id %q: use lowercase letters, digits and hyphens", id)
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	manifest, text, err := cutToolsFence(text)
	if err != nil {
		return Skill{}, err
	}
	meta, rest, found, err := cutFenceNamed(text, fenceOpen, "metadata")
	if err != nil {
		return Skill{}, err
	}
	if !found {
		return Skill{}, errors.New("no ```webbrain-skill metadata fence")
	}
	var m metadata
	if err := json.Unmarshal([]byte(meta), &m); err != nil {
		return Skill{}, fmt.Errorf("metadata: %w", err)
	}
	s := Skill{ID: id, Name: heading(rest), Summary: strings.TrimSpace(m.Summary), Modes: m.Modes, Intents: m.Intents, Instructions: strings.TrimSpace(rest)}
	if err := s.validate(); err != nil {
		return s, err
	}
	if manifest != "" {
		s.Tools, err = parseManifest(manifest)
	}
	return s, err
}

// cutFenceNamed returns the body of the only fence that opens with open
// (found), and text without it; what names the fence in errors.
func cutFenceNamed(text, open, what string) (body, rest string, found bool, err error) {
	start := strings.Index(text, open+"\n")
	if start < 0 {
		return "", text, false, nil
	}
	from := start + len(open) + 1
	end := strings.Index(text[from:], "\n```")
	if end < 0 {
		return "", "", false, fmt.Errorf("the %s fence is not closed", what)
	}
	after := from + end + len("\n```")
	rest = text[:start] + strings.TrimLeft(text[after:], "\n")
	if strings.Contains(rest, open+"\n") {
		return "", "", false, fmt.Errorf("more than one %s fence", what)
	}
	return text[from : from+end], rest, true, nil
}

// heading is the text of the first level-one heading.
func heading(md string) string {
	for _, line := range strings.Split(md, "\n") {
		if name, ok := strings.CutPrefix(line, "# "); ok {
			return strings.TrimSpace(name)
		}
	}
	return ""
}

func (s Skill) validate() error {
	switch {
	case s.Name == "":
		return errors.New(`no "# Name" heading`)
	case s.Summary == "" || len([]rune(s.Summary)) > MaxSummaryChars:
		return fmt.Errorf("summary must be 1-%d characters", MaxSummaryChars)
	case len(s.Modes) == 0:
		return fmt.Errorf("modes must list %q, %q or both", protocol.ModeAsk, protocol.ModeAct)
	case len(s.Intents) > MaxIntents:
		return fmt.Errorf("at most %d intents", MaxIntents)
	case strings.TrimSpace(strings.TrimPrefix(s.Instructions, "# "+s.Name)) == "":
		return errors.New("no instructions")
	}
	for _, m := range s.Modes {
		if m != protocol.ModeAsk && m != protocol.ModeAct {
			return fmt.Errorf("unknown mode %q", m)
		}
	}
	for _, in := range s.Intents {
		if strings.TrimSpace(in) == "" || len([]rune(in)) > MaxIntentChars {
			return fmt.Errorf("intent %q must be 1-%d characters", in, MaxIntentChars)
		}
	}
	return nil
}
