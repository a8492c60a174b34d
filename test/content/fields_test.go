//go:build browser

package content

import (
	"fmt"
	"strings"
	"testing"
)

func TestSetFieldSelect(t *testing.T) {
	p := open(t, "/form.html")
	ref := p.ref("#country")
	res := p.ok("set_field", map[string]any{"ref": ref, "value": "germany"}) // visible text, any case
	contains(t, "result", res, `"Germany" (value "de")`)
	if got := p.js(`document.getElementById('country').value`); got != "de" {
		t.Errorf("country = %q", got)
	}
	p.ok("set_field", map[string]any{"ref": ref, "value": "fr"}) // by option value
	contains(t, "record", strings.Join(p.record(), " "), "change:country=de", "change:country=fr")

	err := p.failing("set_field", map[string]any{"ref": ref, "value": "Spain"})
	contains(t, "missing option error", err, `no option "Spain"`, `"France"`, `"Germany"`)
	err = p.failing("set_field", map[string]any{"ref": ref, "value": "United States"})
	contains(t, "disabled option error", err, "disabled")
}

func TestSetFieldMultipleSelect(t *testing.T) {
	p := open(t, "/form.html")
	res := p.ok("set_field", map[string]any{"ref": p.ref("#toppings"), "values": []string{"Cheese", "olives"}})
	contains(t, "result", res, `"Cheese"`, `"Olives"`)
	got := p.js(`[...document.getElementById('toppings').selectedOptions].map(o => o.value).join(',')`)
	if got != "ch,ol" {
		t.Errorf("selected = %q, want ch,ol", got)
	}
}

func TestSetFieldCheckboxAndRadioClick(t *testing.T) {
	p := open(t, "/form.html")
	ref := p.ref("#agree")
	res := p.ok("set_field", map[string]any{"ref": ref, "checked": true})
	contains(t, "result", res, "now checked")
	res = p.ok("set_field", map[string]any{"ref": ref, "checked": true})
	contains(t, "second result", res, "already checked")
	clicks := 0
	for _, r := range p.record() {
		if r == "agree-click" {
			clicks++
		}
	}
	if clicks != 1 {
		t.Errorf("the page saw %d clicks on the checkbox, want 1", clicks)
	}
	p.ok("set_field", map[string]any{"ref": ref, "checked": false})
	if p.js(`document.getElementById('agree').checked`) != "false" {
		t.Error("checkbox still checked")
	}

	large := p.ref("#large")
	p.ok("set_field", map[string]any{"ref": large, "checked": true})
	if p.js(`document.querySelector('input[name=size]:checked').id`) != "large" {
		t.Error("radio Large not checked")
	}
	err := p.failing("set_field", map[string]any{"ref": large, "checked": false})
	contains(t, "uncheck radio error", err, "cannot be unchecked")
}

func TestSetFieldDateTimeRange(t *testing.T) {
	p := open(t, "/form.html")
	p.ok("set_field", map[string]any{"ref": p.ref("#day"), "value": "2026-03-05"})
	p.ok("set_field", map[string]any{"ref": p.ref("#at"), "value": "14:30"})
	res := p.ok("set_field", map[string]any{"ref": p.ref("#vol"), "value": "23"})
	contains(t, "range result", res, `"25"`, "step 5")
	contains(t, "record", strings.Join(p.record(), " "), "change:day=2026-03-05", "change:at=14:30", "change:vol=25")

	err := p.failing("set_field", map[string]any{"ref": p.ref("#day"), "value": "March 5"})
	contains(t, "bad date error", err, "not a valid date", "YYYY-MM-DD")
}

// The edge pages: every native input type set_field handles.
func TestSetFieldEdgeInputTypes(t *testing.T) {
	cases := []struct{ page, sel, value, want string }{
		{"date_input.html", "#birthday", "1999-12-31", "1999-12-31"},
		{"time_input.html", "#appt", "07:05", "07:05"},
		{"date_time_local_input.html", "#birthdaytime", "2026-11-30T09:15", "2026-11-30T09:15"},
		{"color_picker_input.html", "#favcolor", "#00AA11", "#00aa11"},
		{"range_input.html", "#vol", "40", "40"},
		{"number_input.html", "#quantity", "3", "3"},
	}
	for _, c := range cases {
		t.Run(c.page, func(t *testing.T) {
			p := open(t, "/edge/input_type/"+c.page)
			p.ok("set_field", map[string]any{"ref": p.ref(c.sel), "value": c.value})
			if got := p.js(`document.querySelector('` + c.sel + `').value`); got != c.want {
				t.Errorf("value = %q, want %q", got, c.want)
			}
		})
	}
	t.Run("checkbox_input.html", func(t *testing.T) {
		p := open(t, "/edge/input_type/checkbox_input.html")
		p.ok("set_field", map[string]any{"ref": p.ref("#vehicle2"), "checked": true})
		if p.js(`document.getElementById('vehicle2').checked`) != "true" {
			t.Error("vehicle2 not checked")
		}
	})
}

func TestSetFieldAriaComboboxes(t *testing.T) {
	p := open(t, "/combobox.html")
	res := p.ok("set_field", map[string]any{"ref": p.ref("#city"), "value": "Bern"})
	contains(t, "autocomplete result", res, `"Bern"`)
	if got := p.js(`document.getElementById('city').value`); got != "Bern" {
		t.Errorf("city = %q", got)
	}
	res = p.ok("set_field", map[string]any{"ref": p.ref("#colour"), "value": "green"})
	contains(t, "select-only result", res, `"Green"`)
	if got := strings.Join(p.record(), " "); got != "city:Bern colour:Green" {
		t.Errorf("page record = %q", got)
	}
	err := p.failing("set_field", map[string]any{"ref": p.ref("#colour"), "value": "Blue"})
	contains(t, "missing option", err, `No option "Blue"`, `"Red"`)
}

// count is how many times the fixture saw an effect.
func (p *page) count(key string) int {
	p.t.Helper()
	return evalJS[int](p, fmt.Sprintf("window.__counts[%q] || 0", key))
}

// set_field sets a state; sending it again (as a resumed run might without
// a receipt) does not toggle it back.
func TestSetFieldSetsRatherThanToggles(t *testing.T) {
	p := open(t, "/receipts.html")
	tags := p.js(`window.__wb_ax_ref(document.getElementById('tags'))`) // the tree shows the options, not the list
	for i := 0; i < 2; i++ {
		p.ok("set_field", map[string]any{"ref": p.ref("#agree"), "checked": true})
		p.ok("set_field", map[string]any{"ref": tags, "value": "Red"})
		p.ok("set_field", map[string]any{"ref": p.ref("#country"), "value": "France"})
	}
	if p.js(`document.getElementById('agree').checked`) != "true" || p.count("agree") != 1 {
		t.Errorf("checkbox checked=%s after %d clicks, want checked after 1", p.js(`document.getElementById('agree').checked`), p.count("agree"))
	}
	if p.js(`document.getElementById('red').getAttribute('aria-selected')`) != "true" || p.count("tag") != 1 {
		t.Errorf("listbox option selected=%s after %d clicks, want selected after 1",
			p.js(`document.getElementById('red').getAttribute('aria-selected')`), p.count("tag"))
	}
	if p.js(`document.getElementById('country').value`) != "fr" {
		t.Errorf("select = %s", p.js(`document.getElementById('country').value`))
	}
	p.ok("set_field", map[string]any{"ref": p.ref("#agree"), "checked": false})
	p.ok("set_field", map[string]any{"ref": p.ref("#agree"), "checked": false})
	if p.js(`document.getElementById('agree').checked`) != "false" || p.count("agree") != 2 {
		t.Errorf("checkbox checked=%s after %d clicks, want unchecked after 2", p.js(`document.getElementById('agree').checked`), p.count("agree"))
	}
}
