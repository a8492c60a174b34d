package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/tools"
)

// FieldReader reads back what a field holds now (tools.Dispatcher); an
// Executor that is one gets the completion judge's read-back of what the
// run typed.
type FieldReader interface {
	FieldNow(ctx context.Context, ref string) (tools.Field, error)
}

// typedField is a value the run put into a field of the current page.
type typedField struct {
	ref, text string
}

// maxReadback bounds the fields read back at a claim.
const maxReadback = 10

// noteTyped records what a successful typing call put where. Only values
// typed since the last other page action count: a click or a key after
// typing may submit the form, and many pages empty a form they sent, so
// reading it back then would ask for the same data to go out twice.
func (r *run) noteTyped(call string, arguments string, urlBefore, urlAfter string) {
	if urlAfter != urlBefore {
		r.typed = nil
	}
	if call != protocol.ToolTypeAX && call != protocol.ToolSetField {
		if !tools.ReadOnly(call) {
			r.typed = nil
		}
		return
	}
	var a struct {
		Ref    string `json:"ref"`
		Text   string `json:"text"`
		Value  any    `json:"value"`
		Submit bool   `json:"submit"`
	}
	if json.Unmarshal([]byte(orEmptyObject(arguments)), &a) != nil || a.Ref == "" {
		return
	}
	if a.Submit {
		r.typed = nil
		return
	}
	text := a.Text
	if call == protocol.ToolSetField {
		s, ok := a.Value.(string)
		if !ok {
			return // a checkbox or a choice: read back by verify_form, not here
		}
		text = s
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	for i, t := range r.typed {
		if t.ref == a.Ref {
			r.typed = append(r.typed[:i], r.typed[i+1:]...)
			break
		}
	}
	r.typed = append(r.typed, typedField{ref: a.Ref, text: text})
	if len(r.typed) > maxReadback {
		r.typed = r.typed[len(r.typed)-maxReadback:]
	}
}

// judgeReadback reads back the fields the run filled on this page: a field
// that no longer holds what was typed (a script reset it, a mask rejected
// it, the wrong field took it) sends a success claim back once. It never
// changes the outcome by itself: a page may reformat a value on purpose.
func (r *run) judgeReadback(ctx context.Context) string {
	reader, ok := r.opts.Executor.(FieldReader)
	if !ok || r.readbackSent || len(r.typed) == 0 {
		return ""
	}
	var wrong []string
	for _, t := range r.typed {
		f, err := reader.FieldNow(ctx, t.ref)
		if err != nil || f.Type == "password" {
			continue // gone or hidden: no evidence either way
		}
		if !strings.Contains(normalSpace(f.Value), normalSpace(t.text)) {
			label := f.Label
			if label == "" {
				label = t.ref
			}
			wrong = append(wrong, fmt.Sprintf("%s [%s] holds %q; the run typed %q", label, t.ref, f.Value, t.text))
		}
	}
	if len(wrong) == 0 {
		return ""
	}
	r.readbackSent = true
	return "Not finished: WebBrain read back the fields this run filled, and these do not hold what was typed:\n" +
		r.opts.Boundary.Wrap(strings.Join(wrong, "\n")) +
		"\nFill them again and check them, or, if the page changed them on purpose, say so when you call done."
}

func normalSpace(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
