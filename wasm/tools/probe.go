package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Probe implements guard.Prober: the content script describes the element
// an action would reach (wb_probe) without acting on it.
func (d *Dispatcher) Probe(ctx context.Context, args map[string]any) (guard.Probe, error) {
	var p guard.Probe
	raw, err := d.internal(ctx, d.route(args), protocol.PageProbe, args)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, fmt.Errorf("the page sent an unreadable description of the element")
	}
	return p, nil
}

// Links implements guard.Prober: the page's URL and its visible links.
func (d *Dispatcher) Links(ctx context.Context) (string, []string, error) {
	raw, err := d.internal(ctx, 0, protocol.PageLinks, map[string]any{})
	if err != nil {
		return "", nil, err
	}
	var l struct {
		URL   string   `json:"url"`
		Links []string `json:"links"`
	}
	if err := json.Unmarshal(raw, &l); err != nil {
		return "", nil, fmt.Errorf("the page sent an unreadable list of links")
	}
	return l.URL, l.Links, nil
}

// internal runs one of the background-only entries of frame's content
// script and returns its result object.
func (d *Dispatcher) internal(ctx context.Context, frame int, name string, args map[string]any) (json.RawMessage, error) {
	msg, err := json.Marshal(map[string]any{"wb": "tool", "name": name, "args": args})
	if err != nil {
		return nil, err
	}
	raw, err := d.sendRaw(ctx, frame, msg)
	if err != nil {
		return nil, fmt.Errorf("WebBrain could not check the page before acting: %v", err)
	}
	var r contentReply
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("the page sent an unreadable reply")
	}
	if !r.OK {
		return nil, errors.New("the check before acting failed. The page's message:\n" + d.b.PageResult(r.Error, ""))
	}
	return r.Result, nil
}

// PageStatus is what the page itself says about the task's state
// (wb_status). Messages are the page's visible messages, each with the
// structure around it; Errors and Notices sort them by structure alone
// (errors: invalid fields with their messages, alerts and elements the
// site marks as errors; notices: other live messages), for users that do
// not read words and as the completion judge's rule for a message nobody
// could read. All of it is page text.
type PageStatus struct {
	URL      string          `json:"url"`
	Title    string          `json:"title"`
	Errors   []string        `json:"errors"`
	Notices  []string        `json:"notices"`
	Messages []StatusMessage `json:"messages,omitempty"`
}

// StatusMessage is one message the page shows (page text) and the
// structural evidence around it (the Evidence* names).
type StatusMessage struct {
	Text string `json:"text"`
	// Field names the invalid field this message belongs to (Evidence
	// holds EvidenceField); Text is then the field's message, "" when it
	// has none.
	Field    string   `json:"field,omitempty"`
	Evidence []string `json:"evidence,omitempty"`
	// Long: the message was longer than one message can be (300
	// characters; 500 for a validation message) and Text is clipped.
	Long bool `json:"long,omitempty"`
}

// Structural evidence of a StatusMessage.
const (
	EvidenceField  = "field"  // an invalid field's own entry
	EvidenceTied   = "tied"   // an invalid field points to it (aria-errormessage, aria-describedby)
	EvidenceForm   = "form"   // inside a form that holds an invalid field
	EvidenceMarked = "marked" // the site's own class, id or state marks it as an error
	EvidenceAlert  = "alert"  // role=alert or aria-live=assertive
	EvidenceStatus = "status" // role=status (or inside one), a polite live region, output
)

// Has reports whether m carries evidence e.
func (m StatusMessage) Has(e string) bool {
	for _, x := range m.Evidence {
		if x == e {
			return true
		}
	}
	return false
}

// Status reads the tab's PageStatus: the top page's, with the errors and
// notices of the frame promote_iframe chose, where the task went on.
func (d *Dispatcher) Status(ctx context.Context) (PageStatus, error) {
	s, err := d.statusOf(ctx, 0)
	if err != nil || d.frame == 0 {
		return s, err
	}
	f, err := d.statusOf(ctx, d.frame)
	if err != nil {
		return s, err
	}
	s.Errors = append(s.Errors, f.Errors...)
	s.Notices = append(s.Notices, f.Notices...)
	s.Messages = append(s.Messages, f.Messages...)
	return s, nil
}

func (d *Dispatcher) statusOf(ctx context.Context, frame int) (PageStatus, error) {
	var s PageStatus
	raw, err := d.internal(ctx, frame, protocol.PageStatus, map[string]any{})
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, fmt.Errorf("the page sent an unreadable status")
	}
	return s, nil
}

// Field is what a field holds now (wb_field).
type Field struct {
	Type  string `json:"type"`
	Label string `json:"label"`
	Value string `json:"value"`
}

// FieldNow reads the field with ref in the top page, for the completion
// judge's read-back of what the run typed. A ref of a frame (fN:…) or one
// that no longer resolves is an error: no evidence either way.
func (d *Dispatcher) FieldNow(ctx context.Context, ref string) (Field, error) {
	var f Field
	if strings.Contains(ref, ":") {
		return f, errors.New("a frame's field is not read back")
	}
	raw, err := d.internal(ctx, 0, protocol.PageField, map[string]any{"ref": ref})
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return f, errors.New("the page sent an unreadable field")
	}
	return f, nil
}
