//go:build browser

package content

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/test/testenv"
)

var readMore = regexp.MustCompile(`\[More text follows: call read_page with (\{.*\})\]$`)

func TestReadPagePaginatesByStructure(t *testing.T) {
	p := open(t, "/article.html")
	args := map[string]any{"maxChars": 500}
	var parts []string
	for i := 0; ; i++ {
		if i > 20 {
			t.Fatal("read_page never reached the end")
		}
		res := p.ok("read_page", args)
		body := res[strings.Index(res, ")\n")+2:]
		if len(body) > 500+120 {
			t.Errorf("part %d is %d characters for maxChars 500", i, len(body))
		}
		m := readMore.FindStringSubmatch(res)
		if m == nil {
			if !strings.HasSuffix(res, "[End of page text]") {
				t.Fatalf("last part has no end marker: %q", res)
			}
			parts = append(parts, strings.TrimSuffix(body, "\n[End of page text]"))
			break
		}
		parts = append(parts, strings.TrimSuffix(body, "\n"+m[0]))
		args = map[string]any{}
		if err := json.Unmarshal([]byte(m[1]), &args); err != nil {
			t.Fatalf("continuation arguments %q: %v", m[1], err)
		}
	}
	if len(parts) < 3 {
		t.Errorf("%d parts for a long page at maxChars 500", len(parts))
	}
	text := strings.Join(parts, "\n")
	if !strings.HasPrefix(text, "# Fruit report\n") {
		t.Errorf("the main content does not come first: %q", testenv.Clip(text, 80))
	}
	for _, want := range []string{
		"Fresh prices for apples and pears.", "## Market list", "- Apples", "  - Gala", "- Pears", "1. Wash", "2. Slice",
		"Table: Prices", "| Fruit | Price |", "| Pear | 0.90 |", "Paragraph 12 of the article", "Last paragraph of the article.",
		"--- Rest of the page", "Home About us", "Footer note 2026",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("page text lacks %q", want)
		}
	}
	for _, hidden := range []string{"Secret hidden text", "Decoration only"} {
		if strings.Contains(text, hidden) {
			t.Errorf("page text shows hidden %q", hidden)
		}
	}
	if strings.Index(text, "Footer note") < strings.Index(text, "Last paragraph") {
		t.Error("the footer comes before the end of the main content")
	}
}

func TestExtractDataTable(t *testing.T) {
	p := open(t, "/article.html")
	res := p.ok("extract_data", map[string]any{"kind": "table", "maxRows": 2})
	var got struct {
		Tables []struct {
			Name      string
			Columns   []string
			Rows      [][]string
			TotalRows int
		}
	}
	if err := json.Unmarshal([]byte(res), &got); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, res)
	}
	if len(got.Tables) != 1 {
		t.Fatalf("%d tables, want 1: %s", len(got.Tables), res)
	}
	tb := got.Tables[0]
	if tb.Name != "Prices" || strings.Join(tb.Columns, ",") != "Fruit,Price" || tb.TotalRows != 3 || len(tb.Rows) != 2 || tb.Rows[1][1] != "0.90" {
		t.Errorf("table = %+v", tb)
	}

	res = p.ok("extract_data", map[string]any{"kind": "links"})
	contains(t, "links", res, `"text":"apples"`, "/apples")
	res = p.ok("extract_data", map[string]any{"kind": "headings"})
	contains(t, "headings", res, `{"level":1,"text":"Fruit report"}`, `{"level":2,"text":"Market list"}`)
}

func TestExtractDataForm(t *testing.T) {
	p := open(t, "/form.html")
	p.ok("set_field", map[string]any{"ref": p.ref("#country"), "value": "France"})
	res := p.ok("extract_data", map[string]any{"kind": "form"})
	var got struct {
		Forms []struct {
			Form   string
			Fields []struct {
				Label, Type, Ref string
				Value            any
			}
		}
	}
	if err := json.Unmarshal([]byte(res), &got); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, res)
	}
	if len(got.Forms) != 1 || got.Forms[0].Form != "Order" {
		t.Fatalf("forms = %+v", got.Forms)
	}
	found := false
	for _, f := range got.Forms[0].Fields {
		if f.Label == "Country" {
			found = true
			if f.Type != "select" || !strings.HasPrefix(f.Ref, "ref_") || f.Value.([]any)[0] != "France" {
				t.Errorf("country field = %+v", f)
			}
		}
	}
	if !found {
		t.Errorf("no Country field in %s", res)
	}
}

func TestTreeResultCarriesContinuation(t *testing.T) {
	p := open(t, "/article.html")
	res := p.ok("get_accessibility_tree", map[string]any{"filter": "all", "maxChars": 500})
	m := regexp.MustCompile(`call get_accessibility_tree with (\{.*\}) for the next part`).FindStringSubmatch(res)
	if m == nil {
		t.Fatalf("no continuation line in %q", res)
	}
	var next map[string]any
	if err := json.Unmarshal([]byte(m[1]), &next); err != nil {
		t.Fatal(err)
	}
	if _, ok := next["continuation"].(string); !ok || next["filter"] != "all" {
		t.Errorf("continuation arguments = %v", next)
	}
	res2 := p.ok("get_accessibility_tree", next)
	if res2 == res || res2 == "" {
		t.Error("the continuation returned the same page")
	}
}

func TestScrollReportsPosition(t *testing.T) {
	p := open(t, "/edge/long_page.html")
	res := p.ok("scroll", map[string]any{"direction": "down", "amount": 300})
	contains(t, "result", res, "Scrolled down by 300px", "y=300")
	if p.js(`Math.round(scrollY)`) != "300" {
		t.Errorf("scrollY = %s", p.js("scrollY"))
	}
	res = p.ok("scroll", map[string]any{"direction": "bottom"})
	contains(t, "bottom result", res, "at the bottom")
	res = p.ok("scroll", map[string]any{"direction": "down"})
	contains(t, "past the end", res, "Could not scroll down", "at the bottom")
	res = p.ok("scroll", map[string]any{"ref": p.ref("input[type=checkbox]")})
	contains(t, "ref result", res, "into view", "at the top")
	err := p.failing("scroll", map[string]any{"direction": "sideways"})
	contains(t, "error", err, "Unknown direction")
}

func TestWindowInfoAndSelection(t *testing.T) {
	p := open(t, "/form.html")
	p.do(`document.getElementById('email').focus()`)
	info := p.ok("get_window_info", map[string]any{})
	contains(t, "info", info, "Title: Order form", "Viewport: ", `Focused: textbox "Email"`, "Dialog open: none")
	contains(t, "empty selection", p.ok("get_selection", map[string]any{}), "Nothing is selected")
	p.ok("type_ax", map[string]any{"ref": p.ref("#notes"), "text": "pick this word"})
	p.do(`document.getElementById('notes').setSelectionRange(5, 9)`)
	contains(t, "selection", p.ok("get_selection", map[string]any{}), "this", `textbox "Notes"`)
}

// TestScrollInsideABox: a box that scrolls by itself says which way it
// scrolls in the tree, with a ref, and the scroll tool given that ref and a
// direction scrolls inside it: the terms read to the end enable Agree.
func TestScrollInsideABox(t *testing.T) {
	p := open(t, "/terms.html")
	tree := p.ok("get_accessibility_tree", map[string]any{"filter": "all"})
	terms := regexp.MustCompile(`textbox "Terms" \[(ref_\d+)\] value="[^"]*" multiline disabled scroll=down`).FindStringSubmatch(tree)
	pane := regexp.MustCompile(`scrollable \[(ref_\d+)\] scroll=down`).FindStringSubmatch(tree)
	if terms == nil || pane == nil {
		t.Fatalf("the text area or the pane does not say it scrolls down:\n%s", tree)
	}
	contains(t, "tree", tree, `button "Agree"`, `Message 20`)
	res := p.ok("scroll", map[string]any{"ref": terms[1], "direction": "bottom"})
	contains(t, "terms scrolled", res, "at the bottom")
	res = p.ok("scroll", map[string]any{"ref": pane[1], "direction": "down", "amount": 50})
	contains(t, "pane scrolled", res, "Scrolled down by 50px")
	tree = p.ok("get_accessibility_tree", map[string]any{"filter": "interactive"})
	contains(t, "tree after", tree, `multiline disabled scroll=up`, `scrollable [`+pane[1]+`] scroll=up,down`)
	if regexp.MustCompile(`button "Agree" \[ref_\d+\] disabled`).MatchString(tree) {
		t.Errorf("Agree is still disabled after the terms were scrolled to the end:\n%s", tree)
	}
}
