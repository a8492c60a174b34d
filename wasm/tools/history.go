package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// navigationHistory is the part of CDP Page.getNavigationHistory we use.
type navigationHistory struct {
	CurrentIndex int `json:"currentIndex"`
	Entries      []struct {
		ID  int    `json:"id"`
		URL string `json:"url"`
	} `json:"entries"`
}

// goHistory moves step entries through the tab's history. Chrome's
// tabs.goBack skips entries the user never interacted with (its history
// manipulation intervention), so after the agent's own navigate it can land
// on about:blank; CDP goes to the adjacent entry itself. Without a usable
// debugger (Firefox, a chrome:// page) the tabs API does it.
func (d *Dispatcher) goHistory(ctx context.Context, step int) error {
	if d.p.Debugger != nil {
		raw, err := d.p.Debugger.Send(ctx, d.tabID, "Page.getNavigationHistory", nil)
		if err == nil {
			return d.goToEntry(ctx, raw, step)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	goStep := d.p.Tabs.GoForward
	if step < 0 {
		goStep = d.p.Tabs.GoBack
	}
	if err := goStep(ctx, d.tabID); err != nil {
		return tabError(err)
	}
	return nil
}

func (d *Dispatcher) goToEntry(ctx context.Context, raw json.RawMessage, step int) error {
	var h navigationHistory
	if err := json.Unmarshal(raw, &h); err != nil {
		return fmt.Errorf("the browser sent an unreadable history: %v", err)
	}
	i := h.CurrentIndex + step
	if i < 0 {
		return errors.New("go_back: this tab has no earlier page in its history")
	}
	if i >= len(h.Entries) {
		return errors.New("go_forward: this tab has no later page in its history")
	}
	if _, err := d.p.Debugger.Send(ctx, d.tabID, "Page.navigateToHistoryEntry", map[string]any{"entryId": h.Entries[i].ID}); err != nil {
		return tabError(err)
	}
	return nil
}
