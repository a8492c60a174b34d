package agent

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/webbrain/webbrain/wasm/adapters"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/tools"
)

// A site job (docs/decisions/adapter-jobs.md) is an adapter's named task
// with its steps and the evidence that it is done. The binding comes from
// WebBrain's own adapter data, never from the page or the model's words,
// so its contract is trusted text in the system prompt.

// jobContract tells the model the job's steps and what success needs.
func jobContract(b *adapters.Binding) string {
	var s strings.Builder
	s.WriteString("[Site job] WebBrain bound this task to its site job \"" + b.Job.ID + "\" (" + b.Job.Description + "). Steps:")
	for i, step := range b.Job.Steps {
		s.WriteString("\n" + strconv.Itoa(i+1) + ". " + step)
	}
	s.WriteString("\nWebBrain confirms success itself before the run may end as done: " + evidenceText(b.Job.Evidence) + ". Submit only once.")
	return s.String()
}

// evidenceText says in words what the evidence requires.
func evidenceText(e adapters.Evidence) string {
	var parts []string
	switch e.Dispatch {
	case "send":
		parts = append(parts, "the message was sent through WebBrain's action check")
	case "publish":
		parts = append(parts, "the post was published through WebBrain's action check")
	default:
		parts = append(parts, "the form was submitted through WebBrain's action check")
	}
	if e.Recipient {
		parts = append(parts, "to the recipient the user named")
	}
	if e.URLPath != "" {
		parts = append(parts, "and the page then shows the new item (its address matches "+e.URLPath+")")
	}
	if e.Notice {
		parts = append(parts, "and the page then shows a status message")
	}
	return strings.Join(parts, " ")
}

// Submissions is what the run's gate let through (guard.Gate).
type Submissions interface {
	Submissions() []guard.Submission
}

// judgeJob checks a success claim of a run bound to a site job against
// the job's terminal evidence: a submission of its kind that the gate let
// through (to the named recipient, when the job says so), then the page
// after it. Missing evidence sends the claim back once; claimed again,
// the run ends failed when nothing was submitted, partial when it was but
// the page does not confirm it, with the missing step named.
func (r *run) judgeJob(st tools.PageStatus, statusErr error) (back, note string) {
	b := r.opts.SiteJob
	if b == nil {
		return "", ""
	}
	e := b.Job.Evidence
	var subs []guard.Submission
	if g, ok := r.opts.Gate.(Submissions); ok {
		subs = g.Submissions()
	}
	submitted, toRecipient := false, false
	for _, s := range subs {
		if !dispatchFits(e.Dispatch, s.Category) || r.callFailed(s.CallID) {
			continue
		}
		submitted = true
		if s.Recipient != "" {
			toRecipient = true
		}
	}
	var missing string
	switch {
	case !submitted:
		missing = "no " + e.Dispatch + " action has gone through WebBrain's action check in this run"
	case e.Recipient && !toRecipient:
		missing = "the " + e.Dispatch + " that went through was not verified as going to the recipient the user named"
	case statusErr != nil:
		missing = "WebBrain could not read the page after the submission"
	case e.URLPath != "" && !(onAdapter(b, st.URL) && e.MatchesPath(pathOf(st.URL))):
		missing = "the page does not show the new item yet (its address should match " + e.URLPath + ")"
	case e.Notice && len(st.Notices) == 0:
		missing = "the page shows no status message confirming it"
	default:
		return "", ""
	}
	if !r.jobSent {
		r.jobSent = true
		r.status = ""
		return "Not finished: this task is WebBrain's site job \"" + b.Job.ID + "\", and " + missing +
			". Finish the job's steps and let the page show the result, or call done with status failed or partial and tell the user what happened.", ""
	}
	if submitted {
		r.status = outcomePartial
		return "", "\n\n**WebBrain could not confirm this.** The submission was made, but " + missing + "."
	}
	if r.resumed {
		// A submission before the restart is not in the new gate's record.
		r.status = outcomePartial
		return "", "\n\n**WebBrain could not confirm this.** The run was resumed after a restart, and " + missing + " since then."
	}
	r.status = outcomeFailed
	return "", "\n\n**WebBrain could not confirm this.** Nothing was submitted: " + missing + "."
}

// callFailed reports whether the tool call with id got an error result:
// a submission let through for it did not happen as asked.
func (r *run) callFailed(id string) bool {
	for _, m := range r.conv[r.task:] {
		if m.Role == llm.RoleTool && m.ToolCallID == id {
			return strings.HasPrefix(m.Content, "Error:")
		}
	}
	return false
}

// dispatchFits: "submit" is any consequential action, "send" and
// "publish" only their own kind.
func dispatchFits(want string, got guard.Category) bool {
	switch want {
	case "send":
		return got == guard.CatSend
	case "publish":
		return got == guard.CatPublish
	}
	return got != guard.CatDownload
}

// onAdapter reports whether pageURL is still on the bound adapter's site.
func onAdapter(b *adapters.Binding, pageURL string) bool {
	a := adapters.Match(pageURL)
	return a != nil && a.ID == b.Adapter
}

func pathOf(pageURL string) string {
	u, err := url.Parse(pageURL)
	if err != nil {
		return ""
	}
	return u.Path
}
