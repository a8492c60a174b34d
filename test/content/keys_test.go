//go:build browser

package content

import (
	"strings"
	"testing"
)

func keydowns(rec []string) []string {
	var out []string
	for _, r := range rec {
		if strings.HasPrefix(r, "keydown:") {
			out = append(out, r)
		}
	}
	return out
}

func TestPressKeysSendsKeyCodeAndModifiers(t *testing.T) {
	p := open(t, "/form.html")
	p.do(`document.getElementById('notes').focus()`)
	p.ok("press_keys", map[string]any{"keys": "Control+a Shift+Tab Escape F5 Meta+Enter"})
	got := strings.Join(keydowns(p.record()), " ")
	want := strings.Join([]string{
		"keydown:Control:ControlLeft:17:C", "keydown:a:KeyA:65:C",
		"keydown:Shift:ShiftLeft:16:S", "keydown:Tab:Tab:9:S",
		"keydown:Escape:Escape:27:", "keydown:F5:F5:116:",
		"keydown:Meta:MetaLeft:91:M", "keydown:Enter:Enter:13:M",
	}, " ")
	if got != want {
		t.Errorf("keydowns =\n %s\nwant\n %s", got, want)
	}
}

func TestTabMovesFocusAlongTheTabOrder(t *testing.T) {
	p := open(t, "/form.html")
	p.do(`document.getElementById('email').focus()`)
	res := p.ok("press_keys", map[string]any{"keys": "Tab"})
	contains(t, "result", res, `focus moved to textbox "Notes"`)
	if id := p.js(`document.activeElement.id`); id != "notes" {
		t.Fatalf("focus on %q after Tab, want notes", id)
	}
	p.ok("press_keys", map[string]any{"keys": "Tab Tab Tab"})
	if id := p.js(`document.activeElement.id`); id != "agree" {
		t.Errorf("focus on %q after 3 more Tabs, want agree", id)
	}
	// One tab stop for the radio group (none checked: the first radio).
	p.ok("press_keys", map[string]any{"keys": "Tab Tab"})
	if id := p.js(`document.activeElement.id`); id != "day" {
		t.Errorf("focus on %q after the radio group, want day", id)
	}
	p.ok("press_keys", map[string]any{"keys": "Shift+Tab"})
	if id := p.js(`document.activeElement.id`); id != "small" {
		t.Errorf("focus on %q after Shift+Tab, want small", id)
	}
}

func TestEnterInAFieldSubmitsTheForm(t *testing.T) {
	p := open(t, "/form.html")
	p.ok("type_ax", map[string]any{"ref": p.ref("#email"), "text": "x@y.z"})
	res := p.ok("press_keys", map[string]any{"keys": "Enter"})
	contains(t, "result", res, "submit")
	contains(t, "record", strings.Join(p.record(), " "), "submit:x@y.z")
}

func TestEditingKeysInFields(t *testing.T) {
	p := open(t, "/form.html")
	p.ok("type_ax", map[string]any{"ref": p.ref("#notes"), "text": "abcd"})
	p.ok("press_keys", map[string]any{"keys": "Backspace ArrowLeft ArrowLeft Delete"})
	if got := p.js(`document.getElementById('notes').value`); got != "ac" {
		t.Errorf("notes = %q, want ac", got)
	}
	p.ok("press_keys", map[string]any{"keys": "Control+a x"})
	if got := p.js(`document.getElementById('notes').value`); got != "x" {
		t.Errorf("after select-all and x, notes = %q", got)
	}

	p.do(`document.getElementById('country').focus()`)
	p.ok("press_keys", map[string]any{"keys": "ArrowDown ArrowDown"})
	if got := p.js(`document.getElementById('country').value`); got != "de" {
		t.Errorf("country after two ArrowDown = %q, want de", got)
	}

	p.do(`document.getElementById('agree').focus()`)
	p.ok("press_keys", map[string]any{"keys": "Space"})
	if p.js(`document.getElementById('agree').checked`) != "true" {
		t.Error("Space did not check the focused checkbox")
	}
}

func TestPressKeysRejectsUnknownKeys(t *testing.T) {
	p := open(t, "/form.html")
	err := p.failing("press_keys", map[string]any{"keys": "Hyper+x"})
	contains(t, "error", err, `Unknown modifier "Hyper"`)
	err = p.failing("press_keys", map[string]any{"keys": "Launch"})
	contains(t, "error", err, `Unknown key "Launch"`)
}
