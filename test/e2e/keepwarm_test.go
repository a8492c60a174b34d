//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
	"github.com/webbrain/webbrain/test/testenv"
)

// TestOpenPanelKeepsTheWorkerWarm: while the user is at the open panel,
// Chrome does not stop the service worker (the panel's keep_warm), so the
// next message does not pay for starting Go; once the panel is closed,
// the worker is stopped after Chrome's idle time as usual. It runs its own
// browser: the shared one is attached to the worker, which keeps any
// worker alive.
func TestOpenPanelKeepsTheWorkerWarm(t *testing.T) {
	b, err := testenv.StartExtensionBrowser()
	require.NoError(t, err)
	defer b.Close()
	first := b.Worker.TargetID

	// The panel's tab is opened and closed from the browser's side, never
	// attached to: a DevTools session on an extension page keeps its worker
	// alive by itself.
	browserTarget := chromedp.FromContext(b.Ctx).Browser
	url := fmt.Sprintf("chrome-extension://%s/sidepanel/sidepanel.html?tabId=1", b.ExtID)
	created, err := cdp.Call(b.Ctx, browserTarget, target.CreateTarget, target.CreateTargetParams{URL: url})
	require.NoError(t, err)

	// Chrome stops an idle worker after 30 s: 45 s with the panel open
	// covers that with room, polled so a stop and restart is seen too.
	for end := time.Now().Add(45 * time.Second); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		id, running := workerTarget(t, b.Ctx)
		require.True(t, running, "the worker stopped while the panel was open")
		require.Equal(t, first, id, "the worker was restarted while the panel was open")
	}

	// The control: with the panel gone the same browser stops the worker,
	// so the first half says something about the panel.
	_, err = cdp.Call(b.Ctx, browserTarget, target.CloseTarget, target.CloseTargetParams{TargetID: created.TargetID})
	require.NoError(t, err)
	deadline := time.Now().Add(75 * time.Second)
	for {
		if _, running := workerTarget(t, b.Ctx); !running {
			return
		}
		require.True(t, time.Now().Before(deadline), "the worker was never stopped after the panel closed: the browser keeps idle workers, so the test shows nothing")
		time.Sleep(time.Second)
	}
}

// workerTarget returns the running worker's target id, if one runs.
func workerTarget(t *testing.T, browser context.Context) (target.ID, bool) {
	infos, err := chromedp.Targets(browser)
	require.NoError(t, err)
	for _, info := range infos {
		if testenv.IsExtensionWorker(info) {
			return info.TargetID, true
		}
	}
	return "", false
}
