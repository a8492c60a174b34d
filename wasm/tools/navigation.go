package tools

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Load waiting. A click's navigation can begin a moment after the click
// returns (navSettle); a load that never reports "loading" (a fast
// reload) is accepted once the tab has been complete for loadSettle.
const (
	pollInterval = 200 * time.Millisecond
	navSettle    = 300 * time.Millisecond
	loadSettle   = time.Second
	loadTimeout  = 20 * time.Second
)

// runTabs runs navigate, go_back and go_forward. In Chrome the debugger is
// armed first, so a leave-page warning or a dialog on the page reached
// cannot hang the run, and once more on the page reached, which revokes
// the one-use Leave permission.
func (d *Dispatcher) runTabs(ctx context.Context, t *tool, args map[string]any, r Receipt) (string, error) {
	before, err := d.p.Tabs.Get(ctx, d.tabID)
	if err != nil {
		return "", tabError(err)
	}
	var target string
	if t.name == protocol.ToolNavigate {
		u, err := httpURL("navigate", "opened", args["url"].(string))
		if err != nil {
			return "", err
		}
		// A page's text must not steer the tab into the user's
		// machine or intranet (a router's admin page, a local service).
		if err := d.checkHost(ctx, protocol.ToolNavigate, u, before.URL); err != nil {
			return "", err
		}
		target = u.String()
		if r.Resumed && r.At != "" {
			done, run, err := d.resumeNavigate(ctx, target, r)
			if err != nil || !run {
				return done, err
			}
		}
	}
	if err := d.armDialogs(ctx, before.URL); err != nil {
		return "", err
	}
	switch t.name {
	case protocol.ToolNavigate:
		if err = d.p.Tabs.Navigate(ctx, d.tabID, target); err != nil {
			err = tabError(err)
		}
	case protocol.ToolGoBack:
		err = d.goHistory(ctx, -1)
	case protocol.ToolGoForward:
		err = d.goHistory(ctx, +1)
	}
	if err != nil {
		_ = d.armDialogs(ctx, "")
		return "", err
	}
	tab, loaded, err := d.waitForLoad(ctx, before)
	if err != nil {
		return "", err
	}
	if err := d.armDialogs(ctx, ""); err != nil {
		return "", err
	}
	if t.name == protocol.ToolNavigate {
		if err := d.refuseLanding(ctx, target, tab, before); err != nil {
			return "", err
		}
	}
	return d.b.notedResult(d.b.dialogNote(d.takeDialogs(ctx)), loadReport(tab, loaded), ""), nil
}

// refuseLanding sends the tab back when the page navigate opened
// redirected it to a private host the user did not name. The browser
// follows a navigation's redirects itself, so only where the tab ended can
// be judged: the private host has had its request, but the agent does not
// get to read or act on its page.
func (d *Dispatcher) refuseLanding(ctx context.Context, target string, tab, before platform.Tab) error {
	u, err := url.Parse(tab.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil
	}
	refused := d.checkHost(ctx, protocol.ToolNavigate, u, before.URL)
	if refused == nil || ctx.Err() != nil {
		return ctx.Err()
	}
	if err := d.armDialogs(ctx, tab.URL); err != nil {
		return err
	}
	back := "The tab was sent back to the previous page."
	if err := d.goHistory(ctx, -1); err != nil {
		back = "Going back failed: " + err.Error()
	} else if _, _, err := d.waitForLoad(ctx, tab); err != nil {
		return err
	}
	if err := d.armDialogs(ctx, ""); err != nil {
		return err
	}
	return fmt.Errorf("navigate: %s led the tab to %s: %s %s", target, u.Redacted(), strings.TrimPrefix(refused.Error(), "navigate: "), back)
}

// httpURL accepts only absolute http(s) URLs for tool (navigate,
// fetch_url), which would verb them (open, read); a bare host such as
// "example.com/a" gets https. javascript:, file:, data:, chrome: and the
// like are refused: they would run code or read local files.
func httpURL(tool, verb, raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err == nil && u.Scheme == "" && !strings.HasPrefix(raw, "/") {
		u, err = url.Parse("https://" + raw)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %q is not a valid URL", tool, raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%s: only http and https URLs can be %s, not %q", tool, verb, u.Scheme+":")
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%s: %q has no host", tool, raw)
	}
	return u, nil
}

// navigationStarted reports whether the tab left before's document or
// began loading, looking once more after navSettle.
func (d *Dispatcher) navigationStarted(ctx context.Context, before platform.Tab) (bool, error) {
	for i := 0; ; i++ {
		tab, err := d.p.Tabs.Get(ctx, d.tabID)
		if err != nil {
			return false, tabError(err)
		}
		if tab.Status == "loading" || tab.URL != before.URL {
			return true, nil
		}
		if i == 1 {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-d.clock.After(navSettle):
		}
	}
}

// waitForLoad polls the tab until it reports "complete" for a new
// document, for at most loadTimeout; loaded is false when it timed out.
// Only ctx and a vanished tab end it with an error.
func (d *Dispatcher) waitForLoad(ctx context.Context, before platform.Tab) (tab platform.Tab, loaded bool, err error) {
	start := d.clock.Now()
	sawLoading := false
	for {
		tab, err = d.p.Tabs.Get(ctx, d.tabID)
		if err != nil {
			return tab, false, tabError(err)
		}
		waited := d.clock.Now().Sub(start)
		if tab.Status == "loading" {
			sawLoading = true
		} else if tab.Status == "complete" && (sawLoading || tab.URL != before.URL || waited >= loadSettle) {
			return tab, true, nil
		}
		if waited >= loadTimeout {
			return tab, false, nil
		}
		select {
		case <-ctx.Done():
			return tab, false, ctx.Err()
		case <-d.clock.After(pollInterval):
		}
	}
}

// loadReport describes where the tab ended up.
func loadReport(tab platform.Tab, loaded bool) string {
	state := "The page finished loading."
	if !loaded {
		state = fmt.Sprintf("The page is still loading after %d s; read it again in a moment.", int(loadTimeout/time.Second))
	}
	return fmt.Sprintf("%s\nURL: %s\nTitle: %s", state, tab.URL, tab.Title)
}

func tabError(err error) error {
	if errors.Is(err, platform.ErrNoTab) {
		return errors.New("the tab was closed")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("the browser refused: %v", err)
}
