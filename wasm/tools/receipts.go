package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Receipt identifies one dispatch of an action that changes the page, so
// that sending it again after a restart cannot double it: the content
// script keeps the receipts of the actions it ran with their replies, and
// answers a repeated one from its record (docs/decisions/exactly-once.md).
type Receipt struct {
	// ID is unique to the call in its run.
	ID string `json:"id"`
	// At is where the action takes effect, as Locate named it: the page's
	// document for a page action, the tab's URL before a navigate.
	At string `json:"at,omitempty"`
	// Resumed marks the dispatch a restarted background sends again.
	Resumed bool `json:"-"`
}

// resultChanged is the error of an action sent to a document that is no
// longer the tab's: whether it ran cannot be known, and running it on the
// new page could do something else.
const resultChanged = "the page changed (a new document loaded) after this action was sent, so whether it took effect is unknown. Read the page before acting again; do not repeat the action blindly"

// Locate names where call would take effect, for its Receipt: the id of
// the tab's document for an action on the page, the tab's URL for
// navigate; "" for a call that changes nothing or leaves no receipt
// (go_back, go_forward). An error means the page could not be asked.
func (d *Dispatcher) Locate(ctx context.Context, call llm.ToolCall) (string, error) {
	t := byName()[call.Name]
	if t == nil || t.readOnly {
		return "", nil
	}
	switch {
	case t.runs == inContent || t.runs == inFrame:
		args, err := parseArgs(t, call.Arguments)
		if err != nil {
			return "", nil // the dispatch reports it
		}
		raw, err := d.send(ctx, d.route(args), t, json.RawMessage(`{"wb":"tool","name":"`+protocol.PageDoc+`","args":{}}`))
		if err != nil {
			return "", err
		}
		var r struct{ Doc string }
		if err := json.Unmarshal([]byte(raw), &r); err != nil || r.Doc == "" {
			return "", fmt.Errorf("%s: the page did not name its document", t.name)
		}
		return r.Doc, nil
	case t.name == protocol.ToolNavigate:
		tab, err := d.p.Tabs.Get(ctx, d.tabID)
		if err != nil {
			return "", tabError(err)
		}
		return tab.URL, nil
	}
	return "", nil
}

// receiptField is the receipt as the content script reads it, or nil
// when the call has none.
func receiptField(r Receipt) map[string]string {
	if r.ID == "" || r.At == "" {
		return nil
	}
	return map[string]string{"id": r.ID, "doc": r.At}
}

// resumeNavigate decides a navigate a restart interrupted: the tab at the
// target, or loading it, was navigated; a tab still at the URL before is
// navigated now (run is false when it already happened).
func (d *Dispatcher) resumeNavigate(ctx context.Context, target string, r Receipt) (done string, run bool, err error) {
	tab, err := d.p.Tabs.Get(ctx, d.tabID)
	if err != nil {
		return "", false, tabError(err)
	}
	switch {
	case sameURL(tab.URL, target) || (tab.PendingURL != "" && sameURL(tab.PendingURL, target)):
		// At the target, or still loading it: the request went out.
		tab, loaded, err := d.waitForLoad(ctx, tab)
		if err != nil {
			return "", false, err
		}
		return d.b.notedResult("The navigation had been sent before WebBrain's background restarted; the tab is at the address.", loadReport(tab, loaded), ""), false, nil
	case sameURL(tab.URL, r.At):
		return "", true, nil
	}
	return "", false, fmt.Errorf("navigate was interrupted by a restart of WebBrain's background and the tab is now at %s, neither where it was (%s) nor the address asked for: whether the navigation happened is unknown. Read the page before acting again", tab.URL, r.At)
}

// sameURL compares two URLs as the browser writes them: "https://a.com"
// and "https://a.com/" are one address.
func sameURL(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil {
		return a == b
	}
	for _, u := range []*url.URL{ua, ub} {
		if u.Path == "" {
			u.Path = "/"
		}
		u.Fragment, u.RawFragment = "", ""
	}
	return ua.String() == ub.String()
}
