//go:build js

package jsplatform

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/webbrain/webbrain/wasm/platform"
)

// Chrome captures through the debugger, falls back to captureVisibleTab
// for the active tab, and reports a missing tab as platform.ErrNoTab.
func TestCapture(t *testing.T) {
	ctx := context.Background()
	// Other tests count attaches and expect tab 5 detached: leave both as
	// found.
	recorded := fake().Get("calls").Length()
	t.Cleanup(func() {
		New().Debugger.Detach(ctx, 5)
		fake().Get("calls").Set("length", recorded)
	})
	c := New().Capture
	if c == nil {
		t.Fatal("Capture is nil")
	}
	mediaType, data, err := c.Capture(ctx, 5)
	if err != nil || mediaType != "image/jpeg" || data != "Q0RQ" {
		t.Fatalf("debugger capture = %q %q %v", mediaType, data, err)
	}
	var shot []any
	for _, call := range calls("cdp") {
		if call[2] == "Page.captureScreenshot" {
			shot = call
		}
	}
	if want := map[string]any{"format": "jpeg", "quality": 60.0}; shot == nil || !reflect.DeepEqual(shot[3], want) {
		t.Fatalf("CDP capture call %v; want params %v", shot, want)
	}

	fake().Set("failCapture", true)
	defer fake().Set("failCapture", false)
	mediaType, data, err = c.Capture(ctx, 5)
	if err != nil || mediaType != "image/jpeg" || data != "VklTSUJMRQ==" {
		t.Fatalf("fallback capture = %q %q %v", mediaType, data, err)
	}
	if got := calls("captureVisibleTab"); len(got) != 1 || got[0][1] != 1.0 {
		t.Fatalf("captureVisibleTab calls = %v", got)
	}
	if _, _, err := c.Capture(ctx, 99); !errors.Is(err, platform.ErrNoTab) {
		t.Fatalf("capture of a missing tab: %v", err)
	}
}
