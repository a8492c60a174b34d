package agent

import (
	"context"
	"strings"

	"github.com/webbrain/webbrain/wasm/tools"
)

// Readings of one page message (the status_message question).
const (
	StatusSuccess = "success" // it says a submission or an action succeeded
	StatusError   = "error"   // it reports an error or a failure
	StatusNeither = "neither" // pending, information, or it cannot be told
)

// statusReadMax bounds the messages read at one success claim; the rest
// are sorted by structure alone.
const statusReadMax = 8

// pageVerdict is what the completion judge takes from the page's messages.
type pageVerdict struct {
	errors []string // messages that count as errors, as shown to the model and the user
	// successes are the messages read as success (the specification's
	// pageState.successMessages): only readings, never taken from the page.
	successes []string
}

// structuralError: the page's structure says the message is an error
// (an invalid field and its message, an alert inside a form with an
// invalid field, an element the site marks as an error). It counts unless
// it is read as success.
func structuralError(m tools.StatusMessage) bool {
	return m.Has(tools.EvidenceField) || m.Has(tools.EvidenceMarked) ||
		m.Has(tools.EvidenceAlert) && (m.Has(tools.EvidenceTied) || m.Has(tools.EvidenceForm))
}

// unreadError is the structure rule for a message nobody read: what
// counted as an error before messages were read (invalid fields, marked
// elements, alerts outside a status region), and structural errors.
func unreadError(m tools.StatusMessage) bool {
	return structuralError(m) || m.Has(tools.EvidenceAlert) && !m.Has(tools.EvidenceStatus)
}

// shownText is how a message is quoted to the model and the user.
func shownText(m tools.StatusMessage) string {
	if m.Field == "" {
		return m.Text
	}
	if m.Text == "" {
		return m.Field + ": marked invalid"
	}
	return m.Field + ": " + m.Text
}

// readPage sorts the page's messages at a success claim. The first
// statusReadMax short messages (alerts and statuses before the invalid
// fields' own messages) are read with status_message (StatusRead):
// one read as success never counts as an error; one read as an error
// always does; otherwise a structural error counts and any other alert or
// status does not. A message that was not read (no reader, no answer, too
// long, beyond the bound) proves nothing and falls back to the structure
// rule. A page status without messages (an older content script) is
// sorted as it reports itself.
func (r *run) readPage(ctx context.Context, st tools.PageStatus) pageVerdict {
	if len(st.Messages) == 0 {
		return pageVerdict{errors: st.Errors}
	}
	readings := make([]string, len(st.Messages))
	if r.opts.StatusRead != nil {
		// Alerts and statuses first, where a reading can change the
		// structure's verdict either way; then the invalid fields'
		// messages, which only a success reading clears.
		var at []int
		var texts []string
		for _, fields := range []bool{false, true} {
			for i, m := range st.Messages {
				if len(at) == statusReadMax {
					break
				}
				if m.Has(tools.EvidenceField) != fields || m.Long || strings.TrimSpace(m.Text) == "" {
					continue
				}
				at = append(at, i)
				texts = append(texts, m.Text)
			}
		}
		if len(texts) > 0 {
			got := r.opts.StatusRead(ctx, texts)
			for j, i := range at {
				if j < len(got) {
					readings[i] = got[j]
				}
			}
		}
	}
	var v pageVerdict
	for i, m := range st.Messages {
		shown := shownText(m)
		switch readings[i] {
		case StatusSuccess:
			v.successes = append(v.successes, shown)
		case StatusError:
			v.errors = append(v.errors, shown)
		case StatusNeither:
			if structuralError(m) {
				v.errors = append(v.errors, shown)
			}
		default:
			if unreadError(m) {
				v.errors = append(v.errors, shown)
			}
		}
	}
	return v
}

// withSuccesses adds the messages read as success to the page's notices
// (a site job that needs a status message counts them), once each.
func withSuccesses(st tools.PageStatus, successes []string) tools.PageStatus {
	for _, s := range successes {
		found := false
		for _, n := range st.Notices {
			if n == s {
				found = true
				break
			}
		}
		if !found {
			st.Notices = append(st.Notices, s)
		}
	}
	return st
}
