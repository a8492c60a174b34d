//go:build js

package jsplatform

import (
	"context"
	"reflect"
	"testing"

	"github.com/webbrain/webbrain/wasm/platform"
)

// fireDialog delivers Page.javascriptDialogOpening for tab 5.
func fireDialog(typ, msg, url string) {
	fake().Call("fireDebuggerEvent", 5, "Page.javascriptDialogOpening", map[string]any{"type": typ, "message": msg, "url": url})
}

// answers lists the Page.handleJavaScriptDialog accept values sent so far.
func answers() []any {
	var out []any
	for _, c := range calls("cdp") {
		if c[2] == "Page.handleJavaScriptDialog" {
			out = append(out, c[3].(map[string]any)["accept"])
		}
	}
	return out
}

func TestDebuggerAnswersDialogs(t *testing.T) {
	ctx := context.Background()
	// Other tests count the fake's attaches: leave the record as found.
	recorded := fake().Get("calls").Length()
	t.Cleanup(func() { fake().Get("calls").Set("length", recorded) })
	d := New().Debugger
	const page = "https://example.com/"
	fireDialog("confirm", "Ignored?", page) // not attached: not ours to answer
	if _, err := d.Send(ctx, 5, "Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved"}); err != nil {
		t.Fatal(err)
	}
	var enabled bool
	for _, c := range calls("cdp") {
		if c[2] == "Page.enable" {
			enabled = true
		}
	}
	if !enabled {
		t.Fatal("attaching did not enable the Page domain")
	}
	fireDialog("alert", "Saved!", page)
	fireDialog("confirm", "Delete item?", page)
	fireDialog("prompt", "Your name?", page)
	fireDialog("beforeunload", "", page) // no permission: Stay
	if err := d.ArmDialogs(ctx, 5, "https://other.example/"); err != nil {
		t.Fatal(err)
	}
	fireDialog("beforeunload", "", page) // permission for another page: Stay
	if err := d.ArmDialogs(ctx, 5, page); err != nil {
		t.Fatal(err)
	}
	fireDialog("beforeunload", "", page) // Leave, using up the permission
	fireDialog("beforeunload", "", page)
	if got, want := answers(), []any{true, false, false, false, false, true, false}; !reflect.DeepEqual(got, want) {
		t.Fatalf("answers %v, want %v", got, want)
	}
	got, err := d.Dialogs(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 7 || got[0] != (platform.Dialog{Type: "alert", Message: "Saved!", URL: page, Accepted: true}) ||
		got[1] != (platform.Dialog{Type: "confirm", Message: "Delete item?", URL: page}) || !got[5].Accepted || got[6].Accepted {
		t.Fatalf("Dialogs = %+v", got)
	}
	if again, _ := d.Dialogs(ctx, 5); len(again) != 0 {
		t.Fatalf("second Dialogs = %+v, want the record drained", again)
	}
	if err := d.Detach(ctx, 5); err != nil {
		t.Fatal(err)
	}
}
