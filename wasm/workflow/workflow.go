// Package workflow holds saved workflows (webbrain-workflow/1): a
// successful run compiled into replayable steps that name their targets by
// role and accessible name, never by a run's refs, selectors or
// coordinates, and whose typed values are declared parameters filled in
// when the workflow is run again (docs/decisions/workflows.md).
package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// Schema names the artifact's format.
const Schema = "webbrain-workflow/1"

// StorageKey is the storage.local key of the saved workflows.
const StorageKey = protocol.KeySavedWorkflows

// Limits of what is stored and imported.
const (
	MaxWorkflows = 100
	MaxSteps     = 100
	MaxName      = 120
	MaxParams    = 30
	MaxGoal      = 2000
)

// Step actions.
const (
	ActClick    = "click"
	ActType     = "type"  // text into a field: Param
	ActSelect   = "set"   // set_field by value: Param
	ActCheck    = "check" // set_field checked: Checked
	ActNavigate = "navigate"
)

// Target is the semantic identity of an element: its role and accessible
// name as the accessibility tree shows them.
type Target struct {
	Role string `json:"role"`
	Name string `json:"name"`
}

// Step is one replayable action.
type Step struct {
	Action string  `json:"action"`
	Target *Target `json:"target,omitempty"` // nil for navigate
	// Param names the parameter whose value is typed or chosen.
	Param   string `json:"param,omitempty"`
	Checked *bool  `json:"checked,omitempty"`
	Submit  bool   `json:"submit,omitempty"` // type: Enter afterwards
	// URL is navigate's destination: origin and path only.
	URL string `json:"url,omitempty"`
	// Family is the origin/path family the tab showed before the action.
	Family string `json:"family"`
	// Expect is the postcondition: "value" (the field holds it), "state"
	// (the control reads back as set) or "done" (the action completed
	// without error).
	Expect string `json:"expect"`
}

// Param is a runtime value the user gives when running the workflow.
type Param struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	// Secret: a password-like field; its value is never shown back.
	Secret bool `json:"secret,omitempty"`
}

// Workflow is the stored artifact.
type Workflow struct {
	Schema    string   `json:"schema"`
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Goal      string   `json:"goal"` // the request, typed values as {param}
	CreatedAt int64    `json:"createdAt"`
	UpdatedAt int64    `json:"updatedAt"`
	Params    []Param  `json:"params"`
	Steps     []Step   `json:"steps"`
	Warnings  []string `json:"warnings,omitempty"`
	// Imported: read from a file, so its goal is not the user's own words
	// and authorizes nothing at the action gate.
	Imported bool `json:"imported,omitempty"`
	// Repairs are the steps whose targets a replay healed (repair.go).
	Repairs []Repair `json:"repairs,omitempty"`
}

// Family is the origin/path family of a page URL: scheme, host and port,
// and the path with its segments that look like ids (digits, long hex,
// uuids) replaced by "*". The query and fragment are dropped.
func Family(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	segs := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	for i, s := range segs {
		if idLike(s) {
			segs[i] = "*"
		}
	}
	return strings.ToLower(u.Scheme+"://"+u.Host) + "/" + strings.Join(segs, "/")
}

func idLike(s string) bool {
	if s == "" {
		return false
	}
	digits := true
	for _, r := range s {
		if !unicode.IsDigit(r) {
			digits = false
			break
		}
	}
	return digits || hexish(s)
}

// SameFamily reports whether the page at raw belongs to family.
func SameFamily(family, raw string) bool {
	return family != "" && Family(raw) == family
}

// stripURL keeps a URL's origin and path.
func stripURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host + u.EscapedPath()
}

// Validate checks a workflow read from storage or an imported file.
func (w *Workflow) Validate() error {
	if w.Schema != Schema {
		return fmt.Errorf("not a %s workflow", Schema)
	}
	if strings.TrimSpace(w.Name) == "" || len([]rune(w.Name)) > MaxName {
		return fmt.Errorf("the name must be 1 to %d characters", MaxName)
	}
	if len(w.Steps) == 0 || len(w.Steps) > MaxSteps {
		return fmt.Errorf("a workflow has 1 to %d steps", MaxSteps)
	}
	if len(w.Params) > MaxParams || len([]rune(w.Goal)) > MaxGoal {
		return errors.New("the workflow is too large")
	}
	params := map[string]bool{}
	for _, p := range w.Params {
		if p.Name == "" || params[p.Name] {
			return errors.New("parameter names must be present and unique")
		}
		params[p.Name] = true
	}
	for i, s := range w.Steps {
		if err := s.validate(params); err != nil {
			return fmt.Errorf("step %d: %v", i+1, err)
		}
	}
	if len(w.Repairs) > MaxRepairs {
		return errors.New("the workflow lists too many repairs")
	}
	for _, r := range w.Repairs {
		if r.Step < 1 || r.Step > len(w.Steps) || r.To.Role == "" || r.To.Name == "" {
			return errors.New("a repair names no step or no target")
		}
	}
	return nil
}

func (s Step) validate(params map[string]bool) error {
	if s.Action == ActNavigate {
		if s.URL == "" || stripURL(s.URL) != s.URL {
			return errors.New("navigate needs an http(s) URL without query or fragment")
		}
		return nil
	}
	if s.Target == nil || s.Target.Role == "" || s.Target.Name == "" {
		return errors.New("the step has no role and name to find its element by")
	}
	if s.Family == "" {
		return errors.New("the step has no page family")
	}
	switch s.Action {
	case ActClick:
	case ActType, ActSelect:
		if !params[s.Param] {
			return fmt.Errorf("parameter %q is not declared", s.Param)
		}
	case ActCheck:
		if s.Checked == nil {
			return errors.New("a check step needs checked")
		}
	default:
		return fmt.Errorf("unknown action %q", s.Action)
	}
	return nil
}

// Parse reads one workflow (an exported file) and validates it.
func Parse(raw []byte) (Workflow, error) {
	var w Workflow
	if err := json.Unmarshal(raw, &w); err != nil {
		return Workflow{}, fmt.Errorf("not valid JSON: %v", err)
	}
	return w, w.Validate()
}

// NoMatch is Resolve's error when no element of the tree has the
// target's role and name.
type NoMatch struct{ Target Target }

func (e NoMatch) Error() string {
	return fmt.Sprintf("no %s %q is on the page", e.Target.Role, e.Target.Name)
}

// Resolve finds the one element of a fresh tree that matches a saved
// target by role and accessible name. None or several is an error: a
// replay never guesses.
func Resolve(tree string, t Target) (Node, error) {
	var found []Node
	seen := map[string]bool{}
	for _, n := range Nodes(tree) {
		if n.Role == t.Role && n.Name == t.Name && !seen[n.Ref] {
			seen[n.Ref] = true
			found = append(found, n)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return Node{}, NoMatch{t}
	}
	return Node{}, fmt.Errorf("%d elements match %s %q, so WebBrain cannot tell which one the workflow means", len(found), t.Role, t.Name)
}

// hexish: 16 or more hex digits and hyphens (ids, uuids).
func hexish(s string) bool {
	if len(s) < 16 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' || r == '-') {
			return false
		}
	}
	return true
}
