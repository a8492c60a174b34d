package background

import (
	"context"
	"errors"
	"testing"

	"github.com/webbrain/webbrain/wasm/platform"
)

type shotCamera struct{ err error }

func (c shotCamera) Capture(context.Context, int) (string, string, error) {
	return "image/png", "iVBORw0KGgo=", c.err
}

type shotDisk struct{ platform.Downloads }

func (shotDisk) Save(_ context.Context, filename, _, _ string) (platform.Download, error) {
	return platform.Download{Filename: "/home/u/Downloads/" + filename}, nil
}

// The run-capture notes carry their keys; the file's name and the
// browser's error are data.
func TestCaptureNotesCarryKeys(t *testing.T) {
	r := &Router{}
	if got := r.saveShot(1, "x-before", shotBefore); got.Msg == nil || got.Msg.Key != "bg_capture_no_shot_before_browser" ||
		got.English != "No screenshot before the run: this browser gives WebBrain no screenshots or downloads." {
		t.Errorf("no capture: %+v", got)
	}
	if got := r.startFilm(1); got.Msg == nil || got.Msg.Key != "bg_capture_no_recording_browser" {
		t.Errorf("no recorder: %+v", got)
	}

	r.p.Capture, r.p.Downloads = shotCamera{}, shotDisk{}
	got := r.saveShot(1, "x-after", shotAfter)
	if got.English != "Saved the screenshot after the run: /home/u/Downloads/WebBrain/x-after.png" || got.Msg == nil ||
		got.Msg.Key != "bg_capture_shot_after_saved" || got.Msg.Params["file"] != "/home/u/Downloads/WebBrain/x-after.png" {
		t.Errorf("saved: %+v %+v", got, got.Msg)
	}

	r.p.Capture = shotCamera{err: errors.New("the tab is a browser page")}
	got = r.saveShot(1, "x-before", shotBefore)
	if got.English != "No screenshot before the run: the tab is a browser page." || got.Msg.Key != "bg_capture_no_shot_before" ||
		got.Msg.Params["error"] != "the tab is a browser page" {
		t.Errorf("failed: %+v %+v", got, got.Msg)
	}
}
