//go:build browser

package content

import (
	"strings"
	"testing"
)

func TestTypeIntoReactControlledInput(t *testing.T) {
	p := open(t, "/react.html")
	// The fixture really behaves like React: a plain assignment is ignored.
	p.do(`(() => { const i = document.getElementById('name'); i.value = 'x';
		i.dispatchEvent(new Event('input', {bubbles: true})); })()`)
	if got := p.js(`document.getElementById('shown').textContent`); got != "" {
		t.Fatalf("fixture accepted an assigned value %q; it does not mimic React", got)
	}

	ref := p.ref("#name")
	res := p.ok("type_ax", map[string]any{"ref": ref, "text": "Ada Lovelace"})
	contains(t, "type_ax result", res, `"Ada Lovelace"`)
	if got := p.js(`document.getElementById('shown').textContent`); got != "Ada Lovelace" {
		t.Errorf("component state = %q, want %q", got, "Ada Lovelace")
	}

	res = p.ok("set_field", map[string]any{"ref": ref, "value": "Grace Hopper"})
	contains(t, "set_field result", res, `"Grace Hopper"`)
	if got := p.js(`document.getElementById('shown').textContent`); got != "Grace Hopper" {
		t.Errorf("component state after set_field = %q", got)
	}
}

func TestTypeSendsKeyEventsPerCharacter(t *testing.T) {
	p := open(t, "/form.html")
	p.ok("type_ax", map[string]any{"ref": p.ref("#notes"), "text": "Hi!"})
	var downs []string
	for _, r := range p.record() {
		if strings.HasPrefix(r, "keydown:") || strings.HasPrefix(r, "keypress:") {
			downs = append(downs, r)
		}
	}
	want := []string{"keydown:H:KeyH:72:S", "keypress:H:72", "keydown:i:KeyI:73:", "keypress:i:105", "keydown:!:Digit1:49:S", "keypress:!:33"}
	if strings.Join(downs, " ") != strings.Join(want, " ") {
		t.Errorf("key events = %v\nwant %v", downs, want)
	}
}

func TestTypeIntoTextareaKeepsLines(t *testing.T) {
	p := open(t, "/form.html")
	ref := p.ref("#notes")
	p.ok("type_ax", map[string]any{"ref": ref, "text": "line one\nline two"})
	if got := p.js(`document.getElementById('notes').value`); got != "line one\nline two" {
		t.Errorf("textarea = %q", got)
	}
	// clear defaults to true; clear:false appends.
	p.ok("type_ax", map[string]any{"ref": ref, "text": "!", "clear": false})
	if got := p.js(`document.getElementById('notes').value`); got != "line one\nline two!" {
		t.Errorf("after append textarea = %q", got)
	}
	p.ok("type_ax", map[string]any{"ref": ref, "text": "fresh"})
	if got := p.js(`document.getElementById('notes').value`); got != "fresh" {
		t.Errorf("after clear textarea = %q", got)
	}
}

func TestTypeSubmitPressesEnterInTheForm(t *testing.T) {
	p := open(t, "/form.html")
	res := p.ok("type_ax", map[string]any{"ref": p.ref("#email"), "text": "ada@example.org", "submit": true})
	contains(t, "type_ax result", res, "submitted")
	rec := strings.Join(p.record(), " ")
	contains(t, "page record", rec, "keydown:Enter:Enter:13:", "send-click", "submit:ada@example.org", "change:email=ada@example.org")
}

func TestTypeRespectsMaxlength(t *testing.T) {
	p := open(t, "/form.html")
	res := p.ok("type_ax", map[string]any{"ref": p.ref("#code"), "text": "123456"})
	contains(t, "type_ax result", res, "maxlength 4")
	if got := p.js(`document.getElementById('code').value`); got != "1234" {
		t.Errorf("code = %q, want 1234", got)
	}
}

func TestTypeIntoContentEditableEditors(t *testing.T) {
	p := open(t, "/editor.html")
	// An editor that handles beforeinput itself.
	p.ok("type_ax", map[string]any{"ref": p.ref("#model"), "text": "Hello"})
	if got := p.js(`document.getElementById('model').textContent`); got != "Hello" {
		t.Errorf("model editor shows %q", got)
	}
	rec := p.record()
	if len(rec) == 0 || rec[len(rec)-1] != "model:Hello" {
		t.Errorf("model editor record = %v", rec)
	}
	// A plain contenteditable, edited through execCommand; clear replaces.
	res := p.ok("type_ax", map[string]any{"ref": p.ref("#plain"), "text": "New words"})
	contains(t, "type_ax result", res, `"New words"`)
	if got := p.js(`document.getElementById('plain').innerText.trim()`); got != "New words" {
		t.Errorf("plain editor shows %q", got)
	}
}

func TestTypeTextUsesTheFocusedField(t *testing.T) {
	p := open(t, "/form.html")
	err := p.failing("type_text", map[string]any{"text": "x"})
	contains(t, "type_text error", err, "does not take text", "type_ax")
	p.do(`document.getElementById('notes').focus()`)
	p.ok("type_text", map[string]any{"text": "typed"})
	if got := p.js(`document.getElementById('notes').value`); got != "typed" {
		t.Errorf("notes = %q", got)
	}
}

func TestTypeIntoNonTextControlSuggestsSetField(t *testing.T) {
	p := open(t, "/form.html")
	err := p.failing("type_ax", map[string]any{"ref": p.ref("#country"), "text": "France"})
	contains(t, "error", err, "not a text field", "set_field")
}

// Appending with type_ax to a field that did not have focus goes at its
// end (focus alone put the caret at the start), in both paths, so the text
// it should hold after is known.
func TestAppendToUnfocusedFieldGoesAtTheEnd(t *testing.T) {
	p := open(t, "/form.html")
	p.do(`document.getElementById('notes').value = 'Hello'`)
	contains(t, "synthetic", p.ok("type_ax", map[string]any{"ref": p.ref("#notes"), "text": "!", "clear": false}), `it now holds "Hello!".`)
	p.do(`document.getElementById('email').focus()`)
	p.perform(p.prepare("type_ax", map[string]any{"ref": p.ref("#notes"), "text": "?", "clear": false}))
	contains(t, "trusted", p.ok("trusted_finish", map[string]any{}), `it now holds "Hello!?".`)
}
