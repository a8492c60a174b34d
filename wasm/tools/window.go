package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// Window sizes resize_window accepts (outer size, CSS pixels): from a
// small phone-like window to a large desktop screen. The schema clamps a
// size outside them.
const (
	minWindowWidth  = 400
	maxWindowWidth  = 3840
	minWindowHeight = 300
	maxWindowHeight = 2160
)

// maxNewTabs bounds the tabs one run opens: a page that talks the model
// into opening tabs must not flood the user's window.
const maxNewTabs = 5

// resizeSettle is how long the page gets to lay itself out at the new
// size before its viewport is read.
const resizeSettle = 300 * time.Millisecond

// newTab opens the URL in a new background tab for the user. The run does
// not follow it: the spec gives the model no way to retarget a run, so the
// result says the new tab is the user's (docs/decisions/new-tab.md).
func (d *Dispatcher) newTab(ctx context.Context, args map[string]any) (string, error) {
	if d.p.Windows == nil {
		return "", errors.New("new_tab is not available in this browser")
	}
	if d.tabsOpened >= maxNewTabs {
		return "", fmt.Errorf("new_tab: this task already opened %d tabs, the most one task may open; tell the user which addresses remain", maxNewTabs)
	}
	u, err := httpURL(protocol.ToolNewTab, "opened", args["url"].(string))
	if err != nil {
		return "", err
	}
	cur, err := d.p.Tabs.Get(ctx, d.tabID)
	if err != nil {
		return "", tabError(err)
	}
	if err := d.checkHost(ctx, protocol.ToolNewTab, u, cur.URL); err != nil {
		return "", err
	}
	if _, err := d.p.Windows.OpenTab(ctx, d.tabID, u.String()); err != nil {
		return "", tabError(err)
	}
	d.tabsOpened++
	return fmt.Sprintf("Opened %s in a new tab next to this one, for the user; it was not brought to the front. "+
		"This task keeps working on its own tab and cannot read or act on the new one: to read that page use fetch_url, to act on it navigate this tab.", u.Redacted()), nil
}

// resizeWindow resizes the window of the run's tab and reports the page's
// viewport at the new size.
func (d *Dispatcher) resizeWindow(ctx context.Context, args map[string]any) (string, error) {
	if d.p.Windows == nil {
		return "", errors.New("resize_window is not available in this browser")
	}
	w, h := int(args["width"].(float64)), int(args["height"].(float64))
	win, err := d.p.Windows.Resize(ctx, d.tabID, w, h)
	if err != nil {
		return "", fmt.Errorf("resize_window: the browser refused: %v", err)
	}
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-d.clock.After(resizeSettle):
	}
	out := fmt.Sprintf("The window is now %d x %d (asked for %d x %d)", win.Width, win.Height, w, h)
	if win.Width != w || win.Height != h {
		out += "; the browser or the screen limits the size"
	}
	raw, err := d.internal(ctx, 0, protocol.PageViewport, map[string]any{})
	if err != nil {
		return out + ". The page's viewport could not be read: " + err.Error(), nil
	}
	var vp struct{ Width, Height int }
	if json.Unmarshal(raw, &vp) != nil {
		return out + ".", nil
	}
	return fmt.Sprintf("%s. The page's viewport is %d x %d CSS pixels.", out, vp.Width, vp.Height), nil
}
