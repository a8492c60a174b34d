//go:build browser

package axtree

import (
	"regexp"
	"strings"
	"testing"
)

const ref = `\[ref_\d+\]`

// hasLine reports whether a line of tree matches the pattern in full
// (leading indentation aside). A pattern `text "P"` matches a text line
// holding the piece P: text lines are quoted, and a run of pieces with
// nothing between them shares one line, joined by " · ".
func hasLine(tree, pattern string) bool {
	if inner, ok := strings.CutPrefix(pattern, `text "`); ok && strings.HasSuffix(inner, `"`) {
		pattern = `"(?:.* · )?` + strings.TrimSuffix(inner, `"`) + `(?: · .*)?"`
	}
	re := regexp.MustCompile(`^\s*` + pattern + `$`)
	for _, l := range strings.Split(tree, "\n") {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

func mustLines(t *testing.T, tree string, patterns ...string) {
	t.Helper()
	for _, p := range patterns {
		if !hasLine(tree, p) {
			t.Errorf("no line matches %q in:\n%s", p, tree)
		}
	}
}

func TestInputTypes(t *testing.T) {
	p := newPage(t)
	cases := []struct {
		file   string
		want   []string
		absent []string
	}{
		{"button_input.html", []string{`button "Click Me!" ` + ref}, nil},
		{"checkbox_input.html", []string{`checkbox "I have a bike" ` + ref + ` unchecked`,
			`checkbox "I have a boat" ` + ref + ` unchecked`, `button "Submit" ` + ref}, []string{`I have a car"$`}},
		{"color_picker_input.html", []string{`textbox "Select your favorite color:" ` + ref + ` type=color value="#ff0000"`}, nil},
		{"date_input.html", []string{`textbox "Birthday:" ` + ref + ` type=date`}, nil},
		{"date_min_max_input.html", []string{`textbox "Enter a date after 2000-01-01:" ` + ref + ` type=date`}, nil},
		{"date_time_local_input.html", []string{`textbox "Birthday \(date and time\):" ` + ref + ` type=datetime-local`}, nil},
		{"email_input.html", []string{`textbox "Enter your email:" ` + ref + ` type=email`}, nil},
		{"file_input.html", []string{`button "Select a file:" ` + ref + ` type=file`}, nil},
		{"hidden_field_input.html", []string{`textbox "First name:" ` + ref}, []string{"3487", "custId"}},
		{"image_input.html", []string{`button "Submit" ` + ref, `textbox "Last name:" ` + ref}, nil},
		{"number_input.html", []string{`spinbutton "Quantity \(between 1 and 5\):" ` + ref}, nil},
		{"number_step_input.html", []string{`spinbutton "Quantity:" ` + ref + ` value="30"`}, nil},
		{"password_input.html", []string{`textbox "Username:" ` + ref, `textbox "Password:" ` + ref + ` type=password`}, nil},
		{"radio_input.html", []string{`radio "CSS" ` + ref + ` unchecked`, `button "Submit" ` + ref}, nil},
		{"range_input.html", []string{`slider "Volume \(between 0 and 50\):" ` + ref + ` value="25" min=0 max=50`}, nil},
		{"reset_input.html", []string{`button "Reset" ` + ref, `textbox "First name:" ` + ref + ` value="John"`}, nil},
		{"search_input.html", []string{`searchbox "Search Google:" ` + ref}, nil},
		{"submit_input.html", []string{`button "Submit" ` + ref, `textbox "Last name:" ` + ref + ` value="Doe"`}, nil},
		{"submit_nn_input.html", []string{`button "Submit" ` + ref}, nil},
		{"telephone_input.html", []string{`textbox "Enter a phone number:" ` + ref + ` type=tel required placeholder="123-45-678"`}, nil},
		{"text_input.html", []string{`textbox "First name:" ` + ref, `textbox "Last name:" ` + ref,
			`heading "Text field" level=2`}, []string{`text "First name:"`}},
		{"time_input.html", []string{`textbox "Select a time:" ` + ref + ` type=time`}, nil},
		{"url_input.html", []string{`textbox "Add your homepage:" ` + ref + ` type=url`}, nil},
		{"week_input.html", []string{`textbox "Add your homepage:" ` + ref + ` type=url`}, nil},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			p.t = t
			p.open("/edge/input_type/" + c.file)
			r := p.tree(map[string]any{"filter": "all", "maxChars": 0})
			mustLines(t, r.Tree, c.want...)
			for _, a := range c.absent {
				if strings.Contains(r.Tree, a) || hasLine(r.Tree, a) {
					t.Errorf("tree shows %q:\n%s", a, r.Tree)
				}
			}
		})
	}
}

func TestHiddenContentIsAbsent(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/hidden.html")
	r := p.tree(map[string]any{"filter": "all", "maxChars": 0})
	mustLines(t, r.Tree,
		`text "Shown paragraph"`,
		`text "Visible child of invisible parent"`,
		`button "Close dialog" `+ref,
		`button "More details" `+ref+` collapsed`,
		`button "Open details" `+ref+` expanded`,
		`text "Aria hidden text"`,
		`button "Aria hidden button" `+ref,
		`text "Open details body"`,
	)
	for _, hidden := range []string{"Display none", "Hidden button", "Invisible text", "Invisible link",
		"Zero size", "Screen reader only", "Inert", "Closed details body", "Details link", "Parked", "Transparent text",
		"Template text", "Noscript", "Script text", "Style text", "secret-token"} {
		if strings.Contains(r.Tree, hidden) {
			t.Errorf("hidden %q shown:\n%s", hidden, r.Tree)
		}
	}
}

func TestRefsAreStableAndLookupsGoStale(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/refs.html")
	first := p.tree(map[string]any{"filter": "all", "maxChars": 0})
	p.open("/fixtures/refs.html#again") // same document: re-injecting must keep the registry
	var reinjected bool
	p.eval(`(() => { const f = window.__wb_ax_lookup; `+p.script+`; return window.__wb_ax_lookup === f; })()`, &reinjected)
	if !reinjected {
		t.Error("a second injection replaced the first one's exports (and so its refs)")
	}
	second := p.tree(map[string]any{"filter": "all", "maxChars": 0})
	if first.Tree != second.Tree {
		t.Fatalf("refs changed between calls:\n%s\n---\n%s", first.Tree, second.Tree)
	}
	gone := regexp.MustCompile(`link "Removed later" \[(ref_\d+)\]`).FindStringSubmatch(first.Tree)
	stay := regexp.MustCompile(`link "Stay here" \[(ref_\d+)\]`).FindStringSubmatch(first.Tree)
	if gone == nil || stay == nil {
		t.Fatalf("links missing:\n%s", first.Tree)
	}
	var tag string
	p.eval(`window.__wb_ax_lookup("`+gone[1]+`").id`, &tag)
	if tag != "gone" {
		t.Fatalf("lookup(%s) found %q", gone[1], tag)
	}
	var isNull bool
	p.eval(`document.getElementById("gone").remove(); window.__wb_ax_lookup("`+gone[1]+`") === null`, &isNull)
	if !isNull {
		t.Error("lookup of a removed element is not null")
	}
	var near struct {
		Live   bool
		Known  struct{ Role, Name string }
		Nearby []struct{ Ref, Role, Name string }
	}
	p.eval(`window.__wb_ax_nearby("`+gone[1]+`", 3)`, &near)
	if near.Live || near.Known.Role != "link" || near.Known.Name != "Removed later" || len(near.Nearby) != 3 {
		t.Errorf("nearby(%s) = %+v", gone[1], near)
	}
	for _, n := range near.Nearby {
		if n.Ref == gone[1] {
			t.Errorf("nearby lists the stale ref itself: %+v", near)
		}
	}
	third := p.tree(map[string]any{"filter": "all", "maxChars": 0})
	if !strings.Contains(third.Tree, `link "Stay here" [`+stay[1]+`]`) {
		t.Errorf("ref of a living element changed after a removal:\n%s", third.Tree)
	}
	sub := p.tree(map[string]any{"filter": "all", "refId": gone[1]})
	if sub.Error == "" || sub.Tree != "" {
		t.Errorf("subtree of a stale ref: %+v", sub)
	}
}

func TestRefsShortTextsAndHints(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/refs.html")
	r := p.tree(map[string]any{"filter": "all", "maxChars": 0})
	mustLines(t, r.Tree,
		`text "Cart"`, `text "3"`,
		`heading "Running shoe" level=3`, `text "\$12.99"`, `button "Add to cart" `+ref,
		`button `+ref+` hint="close btn icon close-modal"`,
		`button "Notifications" `+ref, `text "7"`,
		`clickable "Clickable tile" `+ref,
		`clickable "Pointer tile" `+ref,
		`clickable "Focusable box" `+ref,
		`checkbox "I agree to the terms" `+ref+` unchecked`,
		`checkbox "Hidden native checkbox" `+ref+` checked`,
		`combobox `+ref+` value="Medium" options="Small|Medium|Large" hint="size"`,
		`textbox "Editor" `+ref+` value="Draft text" multiline contenteditable`,
	)
	if hasLine(r.Tree, `text "I agree to the terms"`) {
		t.Errorf("label text repeated beside its checkbox:\n%s", r.Tree)
	}
	sel := regexp.MustCompile(`combobox \[(ref_\d+)\]`).FindStringSubmatch(r.Tree)
	opts := p.tree(map[string]any{"filter": "all", "refId": sel[1]})
	mustLines(t, opts.Tree, `option "Small" `+ref, `option "Medium" `+ref+` selected`, `option "Large" `+ref)

	inter := p.tree(map[string]any{"filter": "interactive", "maxChars": 0})
	if regexp.MustCompile(`(?m)^\s*"`).MatchString(inter.Tree) {
		t.Errorf("interactive filter shows text:\n%s", inter.Tree)
	}
	if inter.RefCount != r.RefCount || !strings.Contains(inter.Tree, "Add to cart") {
		t.Errorf("interactive filter lost refs: %d vs %d\n%s", inter.RefCount, r.RefCount, inter.Tree)
	}
}

func TestShadowDOM(t *testing.T) {
	p := newPage(t)
	p.open("/edge/basic_shadow_dom_site/basic_shadow_dom.html")
	r := p.tree(map[string]any{"filter": "all", "maxChars": 0})
	mustLines(t, r.Tree,
		`heading "Shadow DOM Level 1.1" level=1`,
		`textbox "Level 1.1 Text Field 1" `+ref,
		`heading "Shadow DOM Level 2.4" level=2`,
		`textbox "Level 2.4 Text Field 2" `+ref,
	)
	p.open("/fixtures/shadow.html")
	r = p.tree(map[string]any{"filter": "all", "maxChars": 0})
	want := []string{`heading "Slotted title" level=2`, `text "Shadow text"`, `button "Light button" ` + ref, `button "Shadow button" ` + ref}
	mustLines(t, r.Tree, want...)
	// Slotted light children render where their slot is.
	if strings.Index(r.Tree, "Light button") > strings.Index(r.Tree, "Shadow button") {
		t.Errorf("slot order lost:\n%s", r.Tree)
	}
}

func TestSameOriginIframe(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/iframe.html")
	r := p.tree(map[string]any{"filter": "all", "maxChars": 0})
	if !regexp.MustCompile(`(?m)^iframe "Same origin frame" ` + ref + `\n "Inner frame text"\n button "Inner button" ` + ref + `$`).MatchString(r.Tree) {
		t.Errorf("iframe content not nested under the iframe:\n%s", r.Tree)
	}
	// An editor's frame is one multi-line field (contenteditable body, design mode).
	mustLines(t, r.Tree, `textbox "Message body" `+ref+` value="Hello there" multiline contenteditable`,
		`textbox "Design area" `+ref+` value="Designed" multiline contenteditable`)
	p.open("/edge/basic_iframe_site/basic_iframe.html")
	r = p.tree(map[string]any{"filter": "all", "maxChars": 0})
	if !hasLine(r.Tree, `iframe.*`+ref+`.*`) || r.TotalLines < 3 {
		t.Errorf("edge iframe page:\n%s", r.Tree)
	}
}

func TestOverlaysComeFirst(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/overlay.html")
	r := p.tree(map[string]any{"filter": "all", "maxChars": 0})
	lines := strings.Split(r.Tree, "\n")
	if r.Overlays != 2 || !strings.HasSuffix(lines[0], " overlay") {
		t.Fatalf("overlays = %d, tree:\n%s", r.Overlays, r.Tree)
	}
	accept := strings.Index(r.Tree, "Accept all")
	newsletter := strings.Index(r.Tree, `dialog "Newsletter" overlay`)
	title := strings.Index(r.Tree, "Article title")
	if accept < 0 || newsletter < 0 || title < accept || title < newsletter {
		t.Errorf("overlays not before the page:\n%s", r.Tree)
	}
}

func TestPaginationCoversTheWholeTree(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/long.html")
	full := p.tree(map[string]any{"filter": "all", "maxChars": 0})
	if full.Truncated || full.TotalLines < 250 {
		t.Fatalf("full tree: %d lines, truncated %v", full.TotalLines, full.Truncated)
	}
	mustLines(t, full.Tree, `row`, `cell "Order #250"`, `cell "\$750.50"`, `link "Open" `+ref+` href=/o/250`, `columnheader "Total"`)
	var pages []string
	opts := map[string]any{"filter": "all", "maxChars": 1500}
	for i := 0; i < 100; i++ {
		r := p.tree(opts)
		if len(r.Tree) > 1500 {
			t.Fatalf("page %d has %d chars", i, len(r.Tree))
		}
		pages = append(pages, r.Tree)
		if !r.Truncated {
			break
		}
		opts["continuation"] = r.Continuation
	}
	if len(pages) < 5 {
		t.Fatalf("only %d pages", len(pages))
	}
	if got := strings.Join(pages, "\n"); got != full.Tree {
		t.Errorf("pages joined differ from the whole tree (%d vs %d chars)", len(got), len(full.Tree))
	}
	// The default page fits the 6,000-character budget.
	def := p.tree(map[string]any{"filter": "all"})
	if !def.Truncated || len(def.Tree) > 6000 || len(def.Tree) < 5000 {
		t.Errorf("default page: %d chars, truncated %v", len(def.Tree), def.Truncated)
	}
}

func TestVisibleFilterKeepsToTheViewport(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/long.html")
	vis := p.tree(map[string]any{"filter": "visible", "maxChars": 0})
	if !strings.Contains(vis.Tree, `"Order #1"`) || strings.Contains(vis.Tree, `"Order #250"`) {
		t.Errorf("visible filter:\n%s", vis.Tree)
	}
}

// TestReach: every control a sighted user can operate has a ref, told
// apart and named; what the user cannot reach has none (reach.html,
// modal.html; docs/decisions/tree-visibility.md).
func TestReach(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/reach.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	refOf := func(t *testing.T, pattern string) string {
		t.Helper()
		m := regexp.MustCompile(`(?m)^\s*` + pattern + ` \[(ref_\d+)\]`).FindStringSubmatch(tree)
		if m == nil {
			t.Fatalf("no line matches %q in:\n%s", pattern, tree)
		}
		return m[1]
	}
	count := func(s string) int { return strings.Count(tree, s) }
	t.Run("aria-hidden menu", func(t *testing.T) {
		mustLines(t, tree, `link "Menu one" `+ref+` href=/one`, `button "Menu button" `+ref)
	})
	t.Run("covered", func(t *testing.T) {
		mustLines(t, tree, `text "Cover text"`)
		if strings.Contains(tree, "Under button") {
			t.Errorf("a button hidden under another box is shown:\n%s", tree)
		}
	})
	t.Run("nested clickables", func(t *testing.T) {
		reply, forward := refOf(t, `clickable "Reply"`), refOf(t, `clickable "Forward"`)
		if reply == forward {
			t.Errorf("Reply and Forward share %s", reply)
		}
		if n := count(`"Open inbox"`); n != 1 {
			t.Errorf("one pointer target shows %d times:\n%s", n, tree)
		}
		if n := count(`"Still one target"`); n != 1 {
			t.Errorf("a pointer paragraph and its pointer text show %d lines:\n%s", n, tree)
		}
	})
	t.Run("multiline", func(t *testing.T) {
		mustLines(t, tree, `textbox "Subject" `+ref, `textbox "Body" `+ref+` multiline`,
			`textbox "Notes" `+ref+` multiline contenteditable`, `textbox "Single" `+ref+` contenteditable`)
	})
	t.Run("click signals", func(t *testing.T) {
		for _, name := range []string{"Pointer item", "Plain menu item", "Pointer span", "Js action", "Angular click", "Vue click"} {
			refOf(t, `clickable "`+name+`"`)
		}
	})
	t.Run("icon names", func(t *testing.T) {
		if n := len(regexp.MustCompile(`(?m)^\s*button "more" `+ref+`$`).FindAllString(tree, -1)); n != 3 {
			t.Errorf("want 3 buttons named more (font class, CSS glyph, ligature), got %d:\n%s", n, tree)
		}
		mustLines(t, tree, `button "Close window" `+ref, `button `+ref+` hint="icon at \w+ \w+"`, `button "Close panel" `+ref)
	})
	t.Run("rendered white space", func(t *testing.T) {
		mustLines(t, tree, `text "6gHF"`, `text "yALE"`, `textbox `+ref+` hint="captcha-answer"`, `text "7kQ"`, `text "Cart"`, `text "3"`, `text "Alpha"`, `text "Beta"`,
			`text "Read bold words and more."`)
	})
	t.Run("modal dialog", func(t *testing.T) {
		p.t = t
		p.open("/fixtures/modal.html")
		modal := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
		mustLines(t, modal, `button "Delete" `+ref+` focused`, `button "Cancel" `+ref)
		if strings.Contains(modal, "Behind") {
			t.Errorf("the page behind an open modal dialog is shown:\n%s", modal)
		}
	})
}

// TestCompaction: the tree says each thing once (compact.html).
func TestCompaction(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/compact.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree,
		`link "City council approves new park budget" `+ref+` href=/news/2026/12/02/…`, // the slug spells the name
		`link "Park" `+ref+` href=same`,
		`link "Rain expected" `+ref+` href=/news/2026/12/02/rain-expected`,
		`link `+ref+` href=same`, // same target, same name: said once
		`link "Toggle" `+ref,     // a bare "#" goes nowhere
		`link "Elsewhere" `+ref+` href=//example.org/path\?id=7`,
		`"First block · Second block"`,
	)
	// A row's empty cells at its end add no line; one before a filled cell
	// keeps its column.
	if !regexp.MustCompile(`(?m)^ row\n  cell "Load map"\n row\n  cell "Save map"\n  cell\n  cell "Done"$`).MatchString(tree) {
		t.Errorf("rows with empty cells:\n%s", tree)
	}
	for _, l := range strings.Split(tree, "\n") {
		if strings.TrimSpace(l) == "list" || strings.TrimSpace(l) == "listitem" {
			t.Errorf("an unnamed list or list item has a line:\n%s", tree)
		}
	}
}

// TestWidgets: controls built the way UI libraries build them are shown as
// a sighted user sees and operates them (widgets.html).
func TestWidgets(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/widgets.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree,
		`option "Chocolate" `+ref, `option "Vanilla" `+ref, // role-less options of a list box (React Select)
		`combobox "Flavour" `+ref+` expanded`,
		`checkbox "Remember me" `+ref+` checked`, // a transparent input over its drawing (MUI)
		`slider "Volume" `+ref+` value="30" min=0 max=100`,
		`switch "Wi-Fi" `+ref+` checked`,
		`switch "Dark mode" `+ref,          // a drawn box of class "switch"
		`clickable "Drag to reorder" `+ref, // a grab cursor
		`button "Shipping" `+ref+` collapsed`,
		`link "Slide one" `+ref+` href=/s1`,
		`link "Blue shoe" `+ref+` href=/product/1`, `button "Save" `+ref, `button "Share" `+ref,
		`clickable "Red hat \$20" `+ref, `button "Like" `+ref, `button "Cart" `+ref, // a pointer card and its own buttons
		`link "Nav A" `+ref+` href=/a`,
		`button "Delete item" `+ref, // a tooltip library's attribute
		`button "bold" `+ref,        // an editor toolbar's class
		`button "Products" `+ref+` haspopup=menu`,
		`clickable "Game board" `+ref, `button "Play" `+ref, // a canvas and its fallback control
		`checkbox "Subscribe" `+ref+` unchecked`,                    // a web component's hidden input, named by slotted text
		`textbox "Full name" `+ref,                                  // a web component's label slot
		`textbox "Write a reply" `+ref+` multiline contenteditable`, // an editor's CSS-drawn placeholder
		`combobox "Size" `+ref+` value="Medium" options="Small\|Medium\|Large"`,
	)
	if strings.Contains(tree, `clickable "Nav A`) {
		t.Errorf("a pointer box holding only links is a target of its own:\n%s", tree)
	}
	for _, hidden := range []string{"Shipping rates", "Slide two", "Slide three", "Hidden product", "Your browser has no canvas", `value="10"`} {
		if strings.Contains(tree, hidden) {
			t.Errorf("%q is not on screen but is in the tree:\n%s", hidden, tree)
		}
	}
}

// TestFieldsNamedByTextBeside: a field the page left nameless is named by
// the text a person reads beside it (a toggle's caption on its line, a
// label just above), never by a link or another field's label; the
// interactive filter names a table row by its cells (beside.html).
func TestFieldsNamedByTextBeside(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/beside.html")
	tree := p.tree(map[string]any{"filter": "interactive", "maxChars": 0}).Tree
	mustLines(t, tree,
		`checkbox "Email me about replies" `+ref+` checked`, // caption right of the toggle
		`checkbox "Dark mode" `+ref+` unchecked`,            // caption left of it
		`checkbox `+ref+` unchecked hint=.*`,                // only a link beside it
		`textbox "Last name" `+ref+` value="Doe"`,
		`textbox "City" `+ref, // plain text just above
		`textbox "Email address" `+ref+` type=email`,
		`combobox `+ref+` value="France" options="Germany\|France" hint="at top left"`, // nothing near: where it is
		`row "2026-11-02 · Blue kettle"`, `link "View" `+ref+` href=/o/1`,
		`row "2026-10-15 · Green mug"`, `link "View" `+ref+` href=/o/2`,
	)
	for _, wrong := range []string{`checkbox "Terms`, `combobox "`, `clickable ` + "[ref_", `hint="icon at`} {
		if strings.Contains(tree, wrong) {
			t.Errorf("the tree has %q:\n%s", wrong, tree)
		}
	}
	// The whole tree shows the cells themselves: no row names repeat them.
	if all := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree; strings.Contains(all, `row "`) {
		t.Errorf("the whole tree names rows by their cells:\n%s", all)
	}
}

// interactiveTree opens fixture and returns its interactive tree, which
// must hold the wanted lines; its whole tree, which shows the text itself,
// must hold none of the markers the filter adds in the text's stead.
func interactiveTree(t *testing.T, fixture string, markers []string, want ...string) string {
	t.Helper()
	p := newPage(t)
	p.open("/fixtures/" + fixture)
	tree := p.tree(map[string]any{"filter": "interactive", "maxChars": 0}).Tree
	mustLines(t, tree, want...)
	all := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	for _, m := range markers {
		if strings.Contains(all, m) {
			t.Errorf("the whole tree, which shows the text itself, says %s:\n%s", m, all)
		}
	}
	return tree
}

// TestInteractiveFilterKeepsQuestionsAndErrors: the interactive filter
// drops text, so a group of radio buttons or checkboxes says the question it answers
// (unless a legend names its group) and an invalid field says its error
// (questions.html).
func TestInteractiveFilterKeepsQuestionsAndErrors(t *testing.T) {
	interactiveTree(t, "questions.html", []string{`group="`, `error="`},
		`radio "Yes" `+ref+` unchecked group="Do you own a car\?"`, `radio "No" `+ref+` unchecked group="Do you own a car\?"`,
		`radio "Yes" `+ref+` unchecked group="Do you own a bike\?"`,
		`group "Newsletter"`, `radio "Yes" `+ref+` unchecked`, // its legend says it
		`radio "Agree" `+ref+` unchecked group="I enjoy my work"`,
		`checkbox "Olives" `+ref+` unchecked group="Which toppings do you want\?"`,
		`radio "Small" `+ref+` unchecked group="Pick a size"`, `radio "Large" `+ref+` checked group="Pick a size"`,
		`checkbox "I accept the terms" `+ref+` unchecked`, // a choice of its own
		`spinbutton "Age" `+ref+` required invalid error="Enter a number between 18 and 99"`,
	)
}

// TestInteractiveFilterTellsPostsApart: posts and comments whose buttons
// share their names ("Reply") say the start of their own text; list items
// of links do not (feed.html).
func TestInteractiveFilterTellsPostsApart(t *testing.T) {
	tree := interactiveTree(t, "feed.html", []string{`article "`},
		`article "Just finished the marathon in under four hours!"`, `article "Anyone know a good bike shop in Leeds\?"`,
		`listitem "Carol: Great photo of the lake."`, `listitem "Dan: Where was this taken\?"`,
		`button "Reply" `+ref, `link "Home" `+ref+` href=/`,
	)
	if strings.Contains(tree, "start here") {
		t.Errorf("a list item of links is named by its text:\n%s", tree)
	}
}

// TestInteractiveFilterTellsRepeatedControlsApart: buttons of one name in
// product cards say the text of their own card, which the interactive
// filter drops; links of one name to one place, and controls whose boxes
// say the same, say nothing more (cards.html).
func TestInteractiveFilterTellsRepeatedControlsApart(t *testing.T) {
	tree := interactiveTree(t, "cards.html", []string{` in="`},
		`button "Add to cart" `+ref+` in="Red kettle €39"`,
		`button "Add to cart" `+ref+` in="Blue kettle €45"`,
		`button "Add to cart" `+ref+` in="Glass kettle Sold out"`,         // not the other button's text
		`clickable "Copper kettle €89" `+ref, `button "Add to cart" `+ref, // a clickable card says which
		`button "Notify me" `+ref,
		`link "Home" `+ref+` href=/`,
		`button "Facebook" `+ref,
	)
	if strings.Count(tree, ` in="`) != 3 {
		t.Errorf("controls that need no telling apart say where they are:\n%s", tree)
	}
}

// TestInteractiveFilterKeepsMessages: the interactive filter drops text,
// but an alert, a status line and a dialog's question say theirs (a dialog
// named by its title says the rest); an empty status says nothing
// (messages.html).
func TestInteractiveFilterKeepsMessages(t *testing.T) {
	tree := interactiveTree(t, "messages.html", []string{`alert "`, `status "`, `text="`},
		`alert "Wrong password. Two tries left."`,
		`status "3 saved cards"`,
		`dialog "Remove the saved card ending 4242\?" overlay`,
		`alertdialog "Delete account\?" overlay text="Your orders and saved cards go with it."`,
		`button "Remove" `+ref,
	)
	if strings.Count(tree, "status") != 1 {
		t.Errorf("an empty status takes a line:\n%s", tree)
	}
}

// TestInteractiveFilterShowsAShortPageWhole: a short page's text is
// often what its task needs (the instruction, the value to read from a
// table), so the interactive filter shows such a page's whole tree; a long
// page keeps to its controls (task.html, long.html).
func TestInteractiveFilterShowsAShortPageWhole(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/task.html")
	// nil: the default limit, which the helper otherwise turns off.
	short := p.tree(map[string]any{"wholeBelow": nil, "maxChars": 0})
	all := p.tree(map[string]any{"filter": "all", "maxChars": 0})
	if !short.Whole || short.Tree != all.Tree {
		t.Errorf("short page under the interactive filter (whole %v):\n%s\nwhole tree:\n%s", short.Whole, short.Tree, all.Tree)
	}
	mustLines(t, short.Tree, `"Enter the value of Color into the field and press Submit."`, `cell "teal"`, `textbox `+ref+` hint="answer"`, `button "Submit" `+ref)
	if off := p.tree(map[string]any{"wholeBelow": 0, "maxChars": 0}); off.Whole || strings.Contains(off.Tree, "teal") {
		t.Errorf("wholeBelow 0 still shows the text:\n%s", off.Tree)
	}

	p.open("/fixtures/long.html")
	long := p.tree(map[string]any{"wholeBelow": nil, "maxChars": 0})
	if long.Whole || strings.Contains(long.Tree, `"Order #1"`) {
		t.Errorf("a long page's interactive tree shows its text (whole %v):\n%.600s", long.Whole, long.Tree)
	}
}

// TestPointerBoxParts: a pointer box whose parts are drawn as buttons of
// their own ("Reply" and "Forward" side by side) gives each part a ref
// inside its own,
// and an icon in a pointer row (its trash can) is a target of its own; an
// icon beside a button's short label, and a card's stacked lines, are not;
// an <a> without href is one when a script marks it; what the page lets a
// person drag is one; so are a pointer a :hover rule gives, a pop-up
// list's items, a drawn slider's handle and a focused field cut off from
// view (parts.html).
func TestPointerBoxParts(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/parts.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree,
		`clickable "Reply" `+ref, `clickable "Forward" `+ref,
		`clickable "Jaine Weekly report: the numbers for the third quarter are in" `+ref,
		`clickable "Delete" `+ref, `clickable "★" `+ref,
		`clickable "Save" `+ref,
		`clickable "Glass teapot €24" `+ref,
	)
	// An <a> without href is a target when a script marks it (a title,
	// data-* attributes), not with only a class or a framework's markers.
	mustLines(t, tree, `clickable "Prev" `+ref)
	// jQuery UI's arrow icons say their direction.
	mustLines(t, tree, `button "up" `+ref, `button "down" `+ref)
	// A pointer only a :hover rule gives still marks a target; a pop-up
	// list's items are targets; a multiple select says so.
	mustLines(t, tree, `clickable `+ref+` fill=gray hint="reply"`, `clickable `+ref+` fill=gray hint="more"`,
		`clickable "Embed Tweet" `+ref, `clickable "Block @cras" `+ref, `listbox `+ref+` multiselectable hint="countries"`,
		`slider `+ref+` value="30%" hint="ui-slider-handle"`,
		// A focused field its box cuts off still takes the keys.
		`textbox `+ref+` focused hint="term"`)
	// What the page lets a person drag has a ref for the drag tools.
	mustLines(t, tree, `listitem "Emmye" `+ref+` draggable`, `listitem "Stacia" `+ref+` draggable`, `clickable "Drag me" `+ref+` draggable`)
	// The box keeps its own ref (it may be what acts), its parts inside it.
	mustLines(t, tree, `clickable "Reply Forward" `+ref)
	if !regexp.MustCompile(`(?m)^clickable "Reply Forward" \[ref_\d+\]\n clickable "Reply" \[ref_\d+\]\n clickable "Forward"`).MatchString(tree) ||
		strings.Count(tree, "[ref_") != 25 {
		t.Errorf("want 25 refs, the mail actions inside their box:\n%s", tree)
	}
	// Each part's ref is where a click at its middle lands.
	for _, name := range []string{"Reply", "Forward", "Delete", "Prev"} {
		m := regexp.MustCompile(`clickable "` + name + `" \[(ref_\d+)\]`).FindStringSubmatch(tree)
		if m == nil {
			continue
		}
		var hit bool
		p.eval(`(() => { const el = window.__wb_ax_lookup("`+m[1]+`"); const r = el.getBoundingClientRect();
			const h = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2); h.click();
			return el.contains(h); })()`, &hit)
		if !hit {
			t.Errorf("a click at the middle of %s (%s) lands elsewhere", name, m[1])
		}
	}
	var log string
	p.eval(`document.getElementById("log").textContent`, &log)
	if log != ".mail-reply .mail-forward .trash .prev " {
		t.Errorf("clicks ran %q", log)
	}
}

// TestFieldCaptions: a field no markup names takes the caption a person
// reads with it: under it in its own box when nothing is left of it or
// above it, never another field's caption or a paragraph (captions.html).
func TestFieldCaptions(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/captions.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree,
		`textbox "Year" `+ref, `textbox "Director" `+ref, `textbox "Genre" `+ref,
		`textbox "Password" `+ref+` type=password`,
		`textbox `+ref+` hint="word"`,
	)
}

// TestNamesSayEachThingOnce: a picture's alt text over the same caption is
// said once; a count drawn over an icon is named with what it counts, a
// bare page or day number is not; a hint leaves generated class names out
// (names.html).
func TestNamesSayEachThingOnce(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/names.html")
	tree := p.tree(map[string]any{"filter": "interactive", "maxChars": 0}).Tree
	mustLines(t, tree,
		`link "cart 2" `+ref+` href=/cart`,
		`clickable "Steel kettle €59.00" `+ref,
		`link "Glass kettle" `+ref+` href=/p/4`,
		`link "1" `+ref+` href=.*\?p=1`, `link "2" `+ref+` href=.*\?p=2`,
		`button "14" `+ref,
		`button `+ref+` hint="share-btn"`, // not its atomic CSS or hashed classes
	)
}

// TestClipping: what an ancestor's overflow cuts off is left out; what
// scrolls into view, escapes the clip or names its control stays
// (layout.html).
func TestClipping(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/layout.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree,
		`button "Close menu" `+ref,                                                // text moved out of the button's box still names it
		`link "Row one" `+ref+` href=/r/1`, `link "Row last" `+ref+` href=/r/130`, // rows of a scrolled list
		`button "Far down" `+ref, // overflow-x: hidden scrolls on y
		`link "Escaped link" `+ref+` href=/escaped`,
	)
	if strings.Contains(tree, "Clipped pop") {
		t.Errorf("a popup cut off by its menu's overflow is in the tree:\n%s", tree)
	}
}

// TestPatterns: common page furniture keeps its states and names, and boxes
// drawn as buttons are click targets (patterns.html).
func TestPatterns(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/patterns.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree,
		`dialog overlay`, `button "Got it" `+ref,
		`searchbox "Search products" `+ref,
		`tab "Overview" `+ref+` selected`, `tab "Reviews 12" `+ref,
		`button "More filters" `+ref+` collapsed`, `button "Price" `+ref+` expanded`,
		`slider "Max price" `+ref+` value="120" min=0 max=500`,
		`textbox "Email" `+ref+` type=email value="a@b.co"`,
		`textbox "Coupon code" `+ref, `spinbutton "Quantity" `+ref+` value="2"`,
		`textbox "Review" `+ref+` multiline`, `textbox "Comment" `+ref+` multiline contenteditable`, `textbox "City" `+ref,
		`button "Checkout" `+ref+` disabled`, `button "Bold" `+ref+` pressed`,
		`clickable "Apply filters" `+ref, // class "btn"
		`clickable "close" `+ref,         // class "close-btn", glyph "×"
		`clickable "Show more" `+ref,     // data-bs-toggle
		`text "Group text"`,              // "btn-group" is a container
		`radio "Standard" `+ref+` checked`, `radio "Express" `+ref+` unchecked`,
		`menuitem "Billing" `+ref+` disabled`,
		`link "shopping cart 3" `+ref+` href=/cart`, // an icon and its count badge
		`link "2" `+ref+` href=/page/2`,
		`text "Price: \$12.99"`,
	)
	if strings.Contains(tree, "In stock") {
		t.Errorf("the contents of a closed <details> are in the tree:\n%s", tree)
	}
}

// TestConsentBanner: a cookie banner over a backdrop leaves the page behind
// it unreachable; only the banner's controls have refs (consent.html).
func TestConsentBanner(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/consent.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree, `dialog "Cookies" overlay`, `button "Accept all" `+ref, `button "Reject all" `+ref,
		`link "Privacy policy" `+ref+` href=/privacy`)
	if strings.Contains(tree, "Behind") {
		t.Errorf("controls under the banner's backdrop are in the tree:\n%s", tree)
	}
}

// TestDrawnBoxes: a box of nothing but small squares filled with a colour
// reads as their count and colour; targets, large tiles and icon glyphs do
// not.
func TestDrawnBoxes(t *testing.T) {
	p := newPage(t)
	p.open("/fixtures/boxes.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree, `"How many blocks are there in all\? · 3 blue boxes \+ 2 red boxes, 1 green box"`, `button "Slide 1" `+ref, `button "Slide 2" `+ref)
	if n := strings.Count(tree, "boxes"); n != 2 {
		t.Errorf("%d counts of boxes, want 2 (tiles, icons and buttons are not counted):\n%s", n, tree)
	}
}

// TestClickableRows: a table row that acts on click (a pointer cursor, a
// script's handler) is one target, told by its cells: its cells are not
// taken apart as buttons, and the interactive filter names it by them.
func TestClickableRows(t *testing.T) {
	p := newPage(t)
	p.listen()
	p.open("/fixtures/rows.html")
	tree := p.tree(map[string]any{"filter": "all", "maxChars": 0}).Tree
	mustLines(t, tree, `row `+ref, `cell "#1001"`, `cell "Ana"`, `cell "#1003"`, `columnheader "Order"`, `cell "Total"`)
	if n := strings.Count(tree, "[ref_"); n != 3 {
		t.Errorf("%d refs, want 3 (the three rows that act; not their cells, the header or the total):\n%s", n, tree)
	}
	if strings.Contains(tree, "hint=") {
		t.Errorf("a row is hinted instead of told by its cells:\n%s", tree)
	}
	inter := p.tree(map[string]any{"filter": "interactive", "maxChars": 0}).Tree
	mustLines(t, inter, `row "#1001 · Ana · \$20" `+ref, `row "#1002 · Ben · \$35" `+ref, `row "#1003 · Cid · \$5" `+ref)
	m := regexp.MustCompile(`row "#1002[^"]*" \[(ref_\d+)\]`).FindStringSubmatch(inter)
	if m == nil {
		t.Fatalf("no row #1002 in:\n%s", inter)
	}
	p.clickRef(m[1])
	var opened string
	p.eval(`document.getElementById('opened').textContent`, &opened)
	if opened != "r1002" {
		t.Errorf("clicking row #1002 by its ref opened %q", opened)
	}
}
