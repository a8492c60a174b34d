package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// research_url reads another page as the browser renders it: in a tab of
// its own, in the background, with the page's scripts run (which
// fetch_url, a plain GET, cannot), then closed. It goes where fetch_url
// may go, and the gate judges it like fetch_url
// (docs/decisions/research-url.md).

// Timings of research_url's tab.
const (
	researchLoad   = 20 * time.Second // until the page reports complete
	researchSettle = time.Second      // for scripts to fill in the page
	researchPoll   = 250 * time.Millisecond
	// pageTextMax is what wb_text returns at most (PAGE_TEXT_MAX in
	// extension/content/read.mjs).
	pageTextMax = 200000
)

// runResearchURL runs research_url: the rendered page's readable text, a
// part at a time, like fetch_url.
func (d *Dispatcher) runResearchURL(ctx context.Context, args map[string]any) (string, error) {
	if d.p.Windows == nil {
		return "", errors.New("research_url is not available in this browser; use fetch_url")
	}
	target, err := httpURL(protocol.ToolResearchURL, "read", args["url"].(string))
	if err != nil {
		return "", err
	}
	target.Fragment = ""
	tab, err := d.p.Tabs.Get(ctx, d.tabID)
	if err != nil {
		return "", tabError(err)
	}
	if err := d.checkHost(ctx, protocol.ToolResearchURL, target, tab.URL); err != nil {
		return "", err
	}
	size, offset, err := partArgs(protocol.ToolResearchURL, args)
	if err != nil {
		return "", err
	}
	doc := d.lastFetch
	if doc == nil || doc.tool != protocol.ToolResearchURL || doc.url != target.String() || offset == 0 {
		if doc, err = d.renderDocument(ctx, target, tab.URL); err != nil {
			return "", err
		}
		d.lastFetch = doc
	}
	text, err := doc.page(offset, size)
	if err != nil {
		return "", err
	}
	return d.b.PageResult(text, continueHint(protocol.ToolResearchURL)), nil
}

// partArgs reads maxChars and continuation, as fetch_url takes them.
func partArgs(tool string, args map[string]any) (size, offset int, err error) {
	size = pageBudget
	if v, ok := args["maxChars"].(float64); ok {
		size = int(v)
	}
	if c, ok := args["continuation"].(string); ok && strings.TrimSpace(c) != "" {
		if offset, err = strconv.Atoi(strings.TrimSpace(c)); err != nil || offset < 0 {
			return 0, 0, fmt.Errorf("%s: continuation must be the value a previous %s result gave, not %q", tool, tool, c)
		}
	}
	return size, offset, nil
}

// renderDocument opens target in a background tab, waits for it to load,
// checks where it ended up, reads its text and closes the tab.
func (d *Dispatcher) renderDocument(ctx context.Context, target *url.URL, tabURL string) (*fetched, error) {
	helper, err := d.p.Windows.OpenTab(ctx, d.tabID, target.String())
	if err != nil {
		return nil, fmt.Errorf("research_url could not open a tab: %v", err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = d.p.Windows.CloseTab(cctx, helper.ID)
	}()
	deadline := d.clock.Now().Add(researchLoad)
	for {
		t, err := d.p.Tabs.Get(ctx, helper.ID)
		if err != nil {
			return nil, errors.New("research_url: its tab was closed before the page loaded")
		}
		if t.Status == "complete" && t.URL != "" && t.URL != "about:blank" {
			break
		}
		if d.clock.Now().After(deadline) {
			return nil, fmt.Errorf("research_url: the page did not finish loading in %v", researchLoad)
		}
		if err := d.wait(ctx, researchPoll); err != nil {
			return nil, err
		}
	}
	if err := d.wait(ctx, researchSettle); err != nil {
		return nil, err
	}
	t, err := d.p.Tabs.Get(ctx, helper.ID)
	if err != nil {
		return nil, errors.New("research_url: its tab was closed before the page was read")
	}
	final, err := url.Parse(t.URL)
	if err != nil || (final.Scheme != "http" && final.Scheme != "https") {
		return nil, errors.New("research_url: the page ended on an address that is not a web page")
	}
	// Where a redirect led is judged like the address asked for.
	if err := d.checkHost(ctx, protocol.ToolResearchURL, final, tabURL); err != nil {
		return nil, err
	}
	msg, _ := json.Marshal(map[string]any{"wb": "tool", "name": protocol.PageText, "args": map[string]any{}})
	raw, err := d.p.Content.Send(ctx, helper.ID, msg)
	if err != nil {
		return nil, fmt.Errorf("research_url could not read the page: %v", err)
	}
	var reply struct {
		OK     bool   `json:"ok"`
		Error  string `json:"error"`
		Result struct {
			Title string `json:"title"`
			Text  string `json:"text"`
			Total int    `json:"total"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil || !reply.OK {
		return nil, errors.New("research_url: the page could not be read")
	}
	doc := &fetched{tool: protocol.ToolResearchURL, url: target.String(), final: final.String(), title: reply.Result.Title,
		text: strings.TrimSpace(reply.Result.Text), again: map[string]any{"url": target.String()}}
	if reply.Result.Total > pageTextMax {
		doc.note = "Only the first part of the page's text was read."
	}
	return doc, nil
}

// wait sleeps d on the dispatcher's clock, or until ctx ends.
func (d *Dispatcher) wait(ctx context.Context, dur time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-d.clock.After(dur):
		return nil
	}
}
