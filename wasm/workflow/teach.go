package workflow

import (
	"errors"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/secrets"
)

// Teacher mode: the content-script recorder reports what the user did as
// captured steps, and CompileCapture turns a session of them into the same
// webbrain-workflow/1 artifact a saved run becomes. A captured step has no
// field for a value: a completed field is only a marker that a value goes
// there, so no typed text can reach storage or the compiler.

// Captured step kinds.
const (
	CapClick    = "click"    // a control was clicked
	CapField    = "field"    // a text field was completed (value not read)
	CapCheck    = "check"    // a checkbox or radio changed: Checked
	CapSelect   = "select"   // a select changed (its option is not kept)
	CapSubmit   = "submit"   // Enter in a field: that field submits
	CapNavigate = "navigate" // the top document moved to URL
)

// MaxCaptured bounds a teaching session.
const MaxCaptured = 2 * MaxSteps

// Captured is one action the recorder saw.
type Captured struct {
	Kind     string `json:"kind"`
	Role     string `json:"role,omitempty"`
	Name     string `json:"name,omitempty"`
	Checked  *bool  `json:"checked,omitempty"`
	Password bool   `json:"password,omitempty"`
	URL      string `json:"url,omitempty"` // navigate: reduced to origin and path
	// Family is the page's origin/path family before the action.
	Family string `json:"family"`
	// At is when the page saw the action (ms since the epoch): it orders
	// steps whose reports overtook each other.
	At float64 `json:"at,omitempty"`
}

// Sanitize reduces a step from a content script to what may be stored:
// its URLs to origin/path (family), its name to one masked line. It
// reports false for a step that cannot be kept.
func (c Captured) Sanitize() (Captured, bool) {
	out := Captured{Kind: c.Kind, Role: clip.Line(strings.TrimSpace(c.Role), 40), Password: c.Password, Family: Family(c.Family), At: c.At}
	out.Name = secrets.Mask(clip.Line(strings.Join(strings.Fields(c.Name), " "), 200), nil)
	switch c.Kind {
	case CapNavigate:
		out.URL = stripURL(c.URL)
		return out, out.URL != ""
	case CapCheck:
		if c.Checked == nil {
			return out, false
		}
		b := *c.Checked
		out.Checked = &b
	case CapClick, CapField, CapSelect, CapSubmit:
	default:
		return out, false
	}
	return out, out.Role != "" && out.Name != "" && out.Family != ""
}

// CompileCapture compiles a teaching session into a workflow (without id,
// name and times).
func CompileCapture(session []Captured) (Workflow, error) {
	c := compiler{refs: map[string]Node{}, params: map[string]bool{}}
	for _, raw := range session {
		s, ok := raw.Sanitize()
		if !ok {
			c.warnings = append(c.warnings, raw.Kind+" skipped: it named no element or page")
			continue
		}
		if len(c.steps) >= MaxSteps {
			break
		}
		t := &Target{Role: s.Role, Name: s.Name}
		switch s.Kind {
		case CapNavigate:
			if n := len(c.steps); n > 0 && c.steps[n-1].Action == ActNavigate && c.steps[n-1].URL == s.URL {
				continue
			}
			c.steps = append(c.steps, Step{Action: ActNavigate, URL: s.URL, Family: s.Family, Expect: "done"})
		case CapClick:
			c.steps = append(c.steps, Step{Action: ActClick, Target: t, Family: s.Family, Expect: "done"})
		case CapCheck:
			c.steps = append(c.steps, Step{Action: ActCheck, Target: t, Checked: s.Checked, Family: s.Family, Expect: "state"})
		case CapSelect:
			c.steps = append(c.steps, Step{Action: ActSelect, Target: t, Param: c.declare(Node{Role: s.Role, Name: s.Name}),
				Family: s.Family, Expect: "state"})
		case CapField, CapSubmit:
			// Enter right after completing the same field submits that step.
			if n := len(c.steps); n > 0 && c.steps[n-1].Action == ActType && *c.steps[n-1].Target == *t {
				c.steps[n-1].Submit = c.steps[n-1].Submit || s.Kind == CapSubmit
				continue
			}
			c.steps = append(c.steps, Step{Action: ActType, Target: t, Submit: s.Kind == CapSubmit, Family: s.Family, Expect: "value",
				Param: c.declare(Node{Role: s.Role, Name: s.Name, Password: s.Password})})
		}
	}
	if len(c.steps) == 0 {
		return Workflow{}, errors.New("nothing replayable was recorded: click controls or complete fields while teaching")
	}
	return Workflow{Schema: Schema, Params: c.declared, Steps: c.steps, Warnings: c.warnings}, nil
}
