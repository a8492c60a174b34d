package background

import (
	"context"
	"sync"
	"time"

	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/tools"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Dev mode in the background (docs/decisions/dev-mode.md): the Compact
// block, the debugger capture that lives from a Dev run until the tab
// leaves Dev, and the panel's view and undo of a tab's Dev changes.

// errCompactDev is the run's error when Dev meets a Compact provider; it
// is returned before any model request.
func errCompactDev(provider string) error {
	return uitext.Errorf("bg_err_dev_compact", "Dev mode needs a Mid or Full provider, and $provider$ is set to the Compact tier. Pick a Mid or Full provider in Settings (or set this provider's tier to Mid or Full), or send the message in Act mode.", "provider", provider)
}

// devWatch is the set of tabs whose console and network Dev mode records.
type devWatch struct {
	mu   sync.Mutex
	tabs map[int]bool
}

func (w *devWatch) set(tabID int, on bool) (was bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tabs == nil {
		w.tabs = map[int]bool{}
	}
	was = w.tabs[tabID]
	if on {
		w.tabs[tabID] = true
	} else {
		delete(w.tabs, tabID)
	}
	return was
}

func (w *devWatch) has(tabID int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tabs[tabID]
}

// watchDev starts the capture when a run works in Dev, before its first
// model request. A capture that cannot start leaves the diagnostics tools
// to say so. A turn of the tab that ends in another mode (an automatic
// Ask turn may still hand itself to Dev) stops it: see finish.
func (r *Router) watchDev(ctx context.Context, tabID int, mode string) {
	if r.p.Dev == nil || mode != protocol.ModeDev {
		return
	}
	if err := r.p.Dev.StartCapture(ctx, tabID); err == nil {
		r.dev.set(tabID, true)
	}
}

// unwatchDev drops the tab's capture and disables its domains; detach
// also ends the debugger session (conversation cleared).
func (r *Router) unwatchDev(tabID int, detach bool) {
	if r.p.Dev == nil || !r.dev.set(tabID, false) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = r.p.Dev.StopCapture(ctx, tabID)
	if detach && r.p.Debugger != nil {
		_ = r.p.Debugger.Detach(ctx, tabID)
	}
}

// patchView is one Dev change as the panel lists it.
type patchView struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Target string `json:"target,omitempty"`
	URL    string `json:"url"`
}

// devPatches answers dev_patches: the tab's Dev changes that still apply.
func (r *Router) devPatches(ctx context.Context, m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	list, err := tools.ListPatches(ctx, r.p, m.TabID)
	if err != nil {
		return failf("The page changes could not be read: %v", err)
	}
	views := []patchView{}
	for _, p := range list {
		views = append(views, patchView{ID: p.ID, Kind: p.Kind, Target: p.Target, URL: p.URL})
	}
	return okReply("patches", views)
}

// devRevert answers dev_revert: undo the patch id, or every patch.
func (r *Router) devRevert(ctx context.Context, m message) reply {
	if rep := needTab(m); rep != nil {
		return rep
	}
	done, gone, err := tools.RevertPatches(ctx, r.p, m.TabID, m.ID)
	if err != nil {
		return failf("Some page changes could not be undone: %v", err)
	}
	return okReply("reverted", len(done), "gone", len(gone))
}
