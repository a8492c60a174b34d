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
// (wb_status): errors a person reads as "this did not work", and other
// notices. All of it is page text.
type PageStatus struct {
	URL     string   `json:"url"`
	Title   string   `json:"title"`
	Errors  []string `json:"errors"`
	Notices []string `json:"notices"`
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
