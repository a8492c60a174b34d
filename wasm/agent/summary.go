package agent

import (
	"context"
	"strings"
	"unicode/utf8"
)

// Readings of a final answer (the done_summary question).
const (
	SummaryResult = "result" // it gives the result or the answer itself
	SummaryClaim  = "claim"  // it only says an answer was given or the work is done
	SummaryPlan   = "plan"   // it only says what will be done next
)

// summaryReadRunes: longer answers carry content by their length alone.
const summaryReadRunes = 400

// checkSummary sends a short final answer back once when the
// done_summary question reads it as a bare claim or a plan, so the user
// gets the result and not "I have answered your question" or "I will
// now open the form". It returns what the model is told, or "".
func (r *run) checkSummary(ctx context.Context, summary string) string {
	if r.opts.SummaryKind == nil || r.summaryRead || !readable(summary) {
		return ""
	}
	r.summaryRead = true
	switch r.opts.SummaryKind(ctx, r.opts.Task, summary) {
	case SummaryClaim:
		return "Not finished: your answer only says that the task was done or an answer was given, without the content. Give the user the actual result: the answer, the values found, or what exactly was changed."
	case SummaryPlan:
		return "Not finished: your answer only says what you will do next. Do it now with the tools, then answer with the result; if you cannot, say what stopped you."
	}
	return ""
}

// readable reports whether an answer is short and has no structure of its
// own: a colon, a line break or a list mean it carries content.
func readable(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && utf8.RuneCountInString(s) <= summaryReadRunes && !strings.ContainsAny(s, ":\n")
}
