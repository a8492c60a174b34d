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
	// Checks are the notes' concrete claims as CSS selectors, tested
	// against saved copies of the site's pages; never shown to the model.
	Checks []Check `json:"checks,omitempty"`
	// Workflow is the adapter's named site jobs (webbrain-adapter-workflow/2).
	Workflow *Workflow `json:"workflow,omitempty"`
	// Messaging is the site's recipient policy for sends.
	Messaging *Messaging `json:"messaging,omitempty"`
}

// Check is one claim of an adapter's notes and the selector that finds
// it on a saved page of the site.
type Check struct {
	Claim    string `json:"claim"`
	Selector string `json:"selector"`
}

// Messaging marks the routes where a send must go to the recipient the
// user named: the conversation the page shows must be that person.
type Messaging struct {
	VerifyActiveRecipient bool `json:"verifyActiveRecipient"`
	// Paths limits the policy to these path prefixes; empty: every page
	// the adapter matches.
	Paths []string `json:"paths,omitempty"`
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
	maxChecks     = 12
	maxClaimChars = 120
	maxSelector   = 200
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
		if err := validPaths(r.Paths); err != nil {
			return fmt.Errorf("match[%d].paths: %w", i, err)
		}
	}
	if len(a.Checks) > maxChecks {
		return fmt.Errorf("at most %d checks", maxChecks)
	}
	for i, c := range a.Checks {
		if strings.TrimSpace(c.Claim) == "" || len(c.Claim) > maxClaimChars || strings.TrimSpace(c.Selector) == "" || len(c.Selector) > maxSelector {
			return fmt.Errorf("checks[%d]: claim 1-%d and selector 1-%d characters", i, maxClaimChars, maxSelector)
		}
	}
	if m := a.Messaging; m != nil {
		if !m.VerifyActiveRecipient {
			return errors.New("messaging: verifyActiveRecipient must be true when messaging is set")
		}
		if err := validPaths(m.Paths); err != nil {
			return fmt.Errorf("messaging.paths: %w", err)
		}
	}
	if a.Workflow != nil {
		if err := a.Workflow.validate(); err != nil {
			return fmt.Errorf("workflow: %w", err)
		}
	}
	return nil
}

// validPaths accepts plain path prefixes starting with /.
func validPaths(paths []string) error {
	for _, p := range paths {
		if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "?#* ") {
			return fmt.Errorf("%q must be a plain path starting with /", p)
		}
	}
	return nil
}

// VerifiesRecipient reports whether a send on pageURL must go to the
// recipient the user named (the adapter's messaging policy covers it).
func (a *Adapter) VerifiesRecipient(pageURL string) bool {
	if a == nil || a.Messaging == nil || !a.Messaging.VerifyActiveRecipient {
		return false
	}
	return len(a.Messaging.Paths) == 0 || underAny(pathOf(pageURL), a.Messaging.Paths)
}
