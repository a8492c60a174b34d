// Package adapters loads WebBrain's packaged site adapters (the JSON files
// of the repository's adapters/ directory), validates them and finds the
// one for a page URL. An adapter's notes are WebBrain's own guidance for
// the agent on that site.
package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	data "github.com/webbrain/webbrain/adapters"
	"github.com/webbrain/webbrain/wasm/packaged"
)

// Adapter is one site adapter (docs/site-adapters.md).
type Adapter struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Revision int    `json:"revision"`
	Match    []Rule `json:"match"`
	Notes    string `json:"notes"`
}

// Rule matches a host pattern and, when Paths is set, a path under one of
// the prefixes.
type Rule struct {
	Host  string   `json:"host"`
	Paths []string `json:"paths,omitempty"`
}

// Limits that keep an adapter's notes a short guide, not a manual.
const (
	maxNameChars  = 60
	maxNotesChars = 2000
)

// loaded parses the packaged adapters once per module start.
var loaded = sync.OnceValues(func() ([]Adapter, error) {
	return Load(data.Files.ReadFile, packaged.FileIDs(data.Files, ".json"))
})

// Packaged returns the valid packaged adapters in id order and an error
// naming every invalid one; invalid adapters are left out, so one bad file
// never breaks a run.
func Packaged() ([]Adapter, error) { return loaded() }

// Load reads and validates <id>.json for each id through read, in the
// order of ids.
func Load(read func(name string) ([]byte, error), ids []string) ([]Adapter, error) {
	return packaged.Load(read, ids, ".json", "adapter", parse)
}

func parse(id string, raw []byte) (Adapter, error) {
	var a Adapter
	if err := json.Unmarshal(raw, &a); err != nil {
		return Adapter{}, err
	}
	if a.ID != id {
		return Adapter{}, fmt.Errorf("id %q must equal the file name", a.ID)
	}
	return a, a.Validate()
}

// Validate checks the schema rules of docs/site-adapters.md.
func (a Adapter) Validate() error {
	switch {
	case !packaged.ValidID(a.ID):
		return fmt.Errorf("id %q: use lowercase letters, digits and hyphens", a.ID)
	case strings.TrimSpace(a.Name) == "" || len(a.Name) > maxNameChars:
		return fmt.Errorf("name must be 1-%d characters", maxNameChars)
	case a.Revision < 1:
		return errors.New("revision must be 1 or more")
	case len(a.Match) == 0:
		return errors.New("match needs at least one rule")
	case strings.TrimSpace(a.Notes) == "" || len([]rune(a.Notes)) > maxNotesChars:
		return fmt.Errorf("notes must be 1-%d characters", maxNotesChars)
	}
	for i, r := range a.Match {
		if err := validHostPattern(r.Host); err != nil {
			return fmt.Errorf("match[%d].host: %w", i, err)
		}
		for _, p := range r.Paths {
			if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "?#* ") {
				return fmt.Errorf("match[%d].paths: %q must be a plain path starting with /", i, p)
			}
		}
	}
	return nil
}
