package adapters

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/webbrain/webbrain/wasm/packaged"
)

// WorkflowFormat is the one format of an adapter's jobs.
const WorkflowFormat = "webbrain-adapter-workflow/2"

// Workflow is an adapter's site jobs: named tasks the planner may bind a
// plan to, each with its steps and the evidence that it is done.
type Workflow struct {
	Format string `json:"format"`
	Jobs   []Job  `json:"jobs"`
}

// Job is one site job (docs/decisions/adapter-jobs.md).
type Job struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	// Paths are where the job can start (path prefixes); empty: any page
	// the adapter matches.
	Paths    []string `json:"paths,omitempty"`
	Steps    []string `json:"steps"`
	Evidence Evidence `json:"evidence"`
}

// Evidence is what must hold before a run bound to the job may end as a
// success: a submission of the right kind that passed the action gate,
// then what the page shows after it.
type Evidence struct {
	// Dispatch is the action gate's category of the submission: send,
	// publish or submit.
	Dispatch string `json:"dispatch"`
	// URLPath is the path the page shows after success: "*" is one path
	// segment, "#" a segment of digits, "**" any number of segments.
	URLPath string `json:"urlPath,omitempty"`
	// Notice: the page shows a status message after the submission.
	Notice bool `json:"notice,omitempty"`
	// Recipient: the submission went to the conversation the action gate
	// verified as the recipient the user named.
	Recipient bool `json:"recipient,omitempty"`
}

// Bounds of a workflow: the planner sees every job's id and description.
const (
	maxJobs        = 6
	maxJobDesc     = 160
	maxJobSteps    = 8
	maxJobStepText = 200
)

// dispatchKinds are the gate categories a job's submission can be.
var dispatchKinds = []string{"send", "publish", "submit"}

func (w *Workflow) validate() error {
	if w.Format != WorkflowFormat {
		return fmt.Errorf("format must be %q", WorkflowFormat)
	}
	if len(w.Jobs) == 0 || len(w.Jobs) > maxJobs {
		return fmt.Errorf("1-%d jobs", maxJobs)
	}
	seen := map[string]bool{}
	for i, j := range w.Jobs {
		if err := j.validate(); err != nil {
			return fmt.Errorf("jobs[%d]: %w", i, err)
		}
		if seen[j.ID] {
			return fmt.Errorf("jobs[%d]: id %q repeats", i, j.ID)
		}
		seen[j.ID] = true
	}
	return nil
}

func (j Job) validate() error {
	switch {
	case !packaged.ValidID(j.ID):
		return fmt.Errorf("id %q: use lowercase letters, digits and hyphens", j.ID)
	case strings.TrimSpace(j.Description) == "" || len([]rune(j.Description)) > maxJobDesc:
		return fmt.Errorf("description must be 1-%d characters", maxJobDesc)
	case len(j.Steps) == 0 || len(j.Steps) > maxJobSteps:
		return fmt.Errorf("1-%d steps", maxJobSteps)
	case !slices.Contains(dispatchKinds, j.Evidence.Dispatch):
		return fmt.Errorf("evidence.dispatch must be one of %s", strings.Join(dispatchKinds, ", "))
	case j.Evidence.URLPath == "" && !j.Evidence.Notice && !j.Evidence.Recipient:
		return errors.New("evidence needs urlPath, notice or recipient: a submission alone proves nothing")
	case j.Evidence.URLPath != "" && !strings.HasPrefix(j.Evidence.URLPath, "/"):
		return errors.New("evidence.urlPath must start with /")
	}
	for _, s := range j.Steps {
		if strings.TrimSpace(s) == "" || len([]rune(s)) > maxJobStepText {
			return fmt.Errorf("steps must be 1-%d characters", maxJobStepText)
		}
	}
	return validPaths(j.Paths)
}

// JobsAt are the adapter's jobs that can start on pageURL.
func (a *Adapter) JobsAt(pageURL string) []Job {
	if a == nil || a.Workflow == nil {
		return nil
	}
	p := pathOf(pageURL)
	var out []Job
	for _, j := range a.Workflow.Jobs {
		if p != "" && (len(j.Paths) == 0 || underAny(p, j.Paths)) {
			out = append(out, j)
		}
	}
	return out
}

// Binding is a plan bound to one job of one adapter revision.
type Binding struct {
	Adapter  string `json:"adapter"`
	Revision int    `json:"revision"`
	Job      Job    `json:"job"`
}

// Bind resolves a job id the planner chose against the adapter of the
// live page: the id must name a job of exactly that adapter that can start
// on pageURL. Anything else binds nothing.
func Bind(a *Adapter, jobID, pageURL string) *Binding {
	if a == nil || jobID == "" {
		return nil
	}
	for _, j := range a.JobsAt(pageURL) {
		if j.ID == jobID {
			return &Binding{Adapter: a.ID, Revision: a.Revision, Job: j}
		}
	}
	return nil
}

// MatchesPath reports whether a URL path fits the evidence's pattern.
func (e Evidence) MatchesPath(p string) bool {
	if e.URLPath == "" {
		return true
	}
	return matchSegments(splitPath(e.URLPath), splitPath(p))
}

func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
}

func matchSegments(pat, segs []string) bool {
	if len(pat) == 0 {
		return len(segs) == 0
	}
	switch pat[0] {
	case "**":
		for i := 0; i <= len(segs); i++ {
			if matchSegments(pat[1:], segs[i:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	ok := pat[0] == "*" || pat[0] == segs[0] || pat[0] == "#" && digits(segs[0])
	return ok && matchSegments(pat[1:], segs[1:])
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
