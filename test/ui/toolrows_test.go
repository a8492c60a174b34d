//go:build browser

package ui

import (
	"fmt"
	"strings"
	"testing"
)

// Each tool group has its icon and each row a sentence a person reads;
// the raw name stays in the row's body.
func TestToolRowsSpeakPlainly(t *testing.T) {
	tb := openPanel(t, "")
	rid := startRun(tb, "Buy the mug")
	deliver(tb, rid, 1, `{kind: "run_started", text: "Buy the mug", mode: "act"}`)
	rows := []struct{ name, args, result, want string }{
		{"read_page", `{}`, "Blue mug, 12 EUR", "Read the page"},
		{"click_ax", `{"ref":"ref_4"}`, `Clicked button "Add to cart" [ref_4] at (1, 2). Cart: 1`, "Clicked “Add to cart”"},
		{"type_text", `{"ref":"ref_7","text":"a@b.example"}`, `Typed "a@b.example" into textbox "Email" [ref_7]`, "Typed into Email"},
		{"navigate", `{"url":"https://shop.example/cart"}`, "Loaded", "Opened shop.example"},
		{"press_keys", `{"keys":"Control+A"}`, "Pressed", "Pressed Control+A"},
		{"list_downloads", `{}`, "none", "Listed the downloads"},
		{"iframe_read", `{"frame":1}`, "text", "Read a frame"},
		{"read_console", `{}`, "[]", "Read the console"},
		{"click", `{"ref":"ref_9"}`, "Element is gone", "Clicked an element"},
		{"mystery_tool", `{}`, "ok", "Used mystery_tool"},
	}
	seq := 2
	for i, r := range rows {
		deliver(tb, rid, seq, fmt.Sprintf(`{kind: "tool_call", id: "c%d", name: %q, args: %q}`, i, r.name, r.args))
		deliver(tb, rid, seq+1, fmt.Sprintf(`{kind: "tool_result", id: "c%d", name: %q, result: %q}`, i, r.name, r.result))
		seq += 2
	}
	tb.waitFor("every row done", fmt.Sprintf(`document.querySelectorAll('.tool-row:not(.pending)').length === %d`, len(rows)))
	got := eval[[]string](tb, `[...document.querySelectorAll('.tool-row')].map(r => r.dataset.group + ':' + r.querySelector('.tool-summary').textContent)`)
	groups := []string{"reading", "clicking", "typing", "navigating", "typing", "files", "frames", "dev", "clicking", "other"}
	for i, r := range rows {
		if want := groups[i] + ":" + r.want; i >= len(got) || got[i] != want {
			t.Errorf("row %d = %q, want %q", i, strings.Join(got, " | "), want)
		}
	}
	tb.do(`document.querySelector('.tool-row[data-tool="type_text"]').open = true`)
	tb.screenshot("tool-rows")
}
