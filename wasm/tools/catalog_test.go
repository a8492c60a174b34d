package tools

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// specTable reads the modes x tiers table of the tools-and-modes
// specification (testdata/tool-table.txt, SOURCES.md there): tool name to
// its Ask, Compact, Mid, Full cells.
func specTable(t *testing.T) map[string][4]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "tool-table.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	table := map[string][4]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cells := strings.Split(line, "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if len(cells) != 6 || !toolName.MatchString(cells[0]) {
			t.Fatalf("tool-table.txt:%d: want name | Ask | Compact | Mid | Full | Dev, got %q", n, line)
		}
		for _, c := range cells[1:] {
			if c != "Yes" && c != "No" && c != "C" && c != "-" {
				t.Fatalf("tool-table.txt:%d: cell %q is not Yes, No, C or -", n, c)
			}
		}
		if _, dup := table[cells[0]]; dup {
			t.Fatalf("tool-table.txt:%d: %s twice", n, cells[0])
		}
		table[cells[0]] = [4]string{cells[1], cells[2], cells[3], cells[4]}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(table) < 40 {
		t.Fatalf("read only %d rows from the spec table", len(table))
	}
	return table
}

var toolName = regexp.MustCompile(`^[a-z_]+$`)

func TestForModeFollowsSpecTable(t *testing.T) {
	table := specTable(t)
	for name := range table {
		if _, ok := byName()[name]; !ok {
			t.Errorf("%s of the spec table is not in the catalog", name)
		}
	}
	cases := []struct{ mode, tier string }{
		{protocol.ModeAsk, "compact"}, {protocol.ModeAsk, "mid"}, {protocol.ModeAsk, "full"},
		{protocol.ModeAct, "compact"}, {protocol.ModeAct, "mid"}, {protocol.ModeAct, "full"},
	}
	for _, browser := range []string{"chrome", "firefox"} {
		for _, c := range cases {
			col := map[string]int{"compact": 1, "mid": 2, "full": 3}[c.tier]
			if c.mode == protocol.ModeAsk {
				col = 0
			}
			var got []string
			for _, s := range ForMode(c.mode, c.tier, browser, 0, FeatureWebMCP) {
				got = append(got, s.Name)
			}
			for _, tl := range catalog {
				row, ok := table[tl.name]
				if !ok {
					t.Fatalf("%s is not in the spec table", tl.name)
				}
				cell := row[col]
				want := cell == "Yes" || (cell == "C" && browser == "chrome")
				if slices.Contains(got, tl.name) != want {
					t.Errorf("%s/%s/%s: %s offered=%v, spec cell %q", c.mode, c.tier, browser, tl.name, !want, cell)
				}
			}
		}
	}
}

// TestWebMCPNeedsItsSetting: the WebMCP rows apply only while the setting
// Experimental WebMCP is on; off, neither tool is offered, and a call
// says why.
func TestWebMCPNeedsItsSetting(t *testing.T) {
	webmcp := []string{protocol.ToolListWebMCPTools, protocol.ToolExecuteWebMCPTool}
	for _, mode := range []string{protocol.ModeAsk, protocol.ModeAct} {
		for _, tier := range []string{"compact", "mid", "full"} {
			for _, s := range ForMode(mode, tier, "chrome", 0) {
				if slices.Contains(webmcp, s.Name) {
					t.Errorf("%s/%s offers %s with the setting off", mode, tier, s.Name)
				}
			}
		}
	}
	err := NotOffered(protocol.ModeAct, "full", "chrome", protocol.ToolListWebMCPTools)
	if err == nil || !strings.Contains(err.Error(), "Experimental WebMCP") {
		t.Errorf("setting off: %v", err)
	}
	if err := NotOffered(protocol.ModeAct, "full", "chrome", protocol.ToolExecuteWebMCPTool, FeatureWebMCP); err != nil {
		t.Errorf("setting on, Chrome, Full: %v", err)
	}
	err = NotOffered(protocol.ModeAct, "full", "firefox", protocol.ToolExecuteWebMCPTool, FeatureWebMCP)
	if err == nil || !strings.Contains(err.Error(), "not available in this browser") {
		t.Errorf("setting on, Firefox: %v", err)
	}
	if Offered(protocol.ModeAsk, "full", "chrome", protocol.ToolExecuteWebMCPTool, FeatureWebMCP) {
		t.Error("Ask offers execute_webmcp_tool")
	}
}

func TestAskNeverOffersMutatingTools(t *testing.T) {
	for _, tier := range []string{"compact", "mid", "full", ""} {
		for _, s := range ForMode(protocol.ModeAsk, tier, "chrome", 0, FeatureWebMCP) {
			if !ReadOnly(s.Name) {
				t.Errorf("Ask/%s offers mutating tool %s", tier, s.Name)
			}
		}
	}
	for _, name := range []string{"click_ax", "type_ax", "set_field", "click", "type_text", "press_keys", "navigate", "go_back", "go_forward",
		"hover", "drag_drop", "resize_window", "new_tab", "solve_captcha", "execute_webmcp_tool"} {
		if ReadOnly(name) {
			t.Errorf("%s is classified read-only", name)
		}
		if Offered(protocol.ModeAsk, "full", "chrome", name) {
			t.Errorf("Ask offers %s", name)
		}
	}
	// An unknown mode fails closed to the Ask set.
	if Offered("dev?", "full", "chrome", "click_ax") {
		t.Error("an unknown mode offers click_ax")
	}
}

func TestSchemasDescribeObjects(t *testing.T) {
	// schemas panics on a schema the validator cannot decode.
	if got := len(schemas()); got != len(catalog) {
		t.Errorf("%d decoded schemas for %d tools", got, len(catalog))
	}
	for _, tl := range catalog {
		var s struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal([]byte(tl.params), &s); err != nil {
			t.Fatalf("%s: %v", tl.name, err)
		}
		if s.Type != "object" || s.Properties == nil {
			t.Errorf("%s: schema is not an object with properties", tl.name)
		}
		for _, r := range s.Required {
			if _, ok := s.Properties[r]; !ok {
				t.Errorf("%s: required %q has no property", tl.name, r)
			}
		}
		if len(tl.desc) < 30 {
			t.Errorf("%s: description too short to guide a model", tl.name)
		}
	}
}

func TestTerminalForbidsSuccess(t *testing.T) {
	var s struct {
		Properties struct {
			Status struct {
				Enum []string `json:"enum"`
			} `json:"status"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(Terminal().Parameters, &s); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Properties.Status.Enum, []string{"partial", "failed"}) {
		t.Errorf("terminal done status enum = %v", s.Properties.Status.Enum)
	}
}

func TestFirefoxClickDescriptionWarnsOfSyntheticEvents(t *testing.T) {
	find := func(browser string) string {
		for _, s := range ForMode(protocol.ModeAct, "mid", browser, 0) {
			if s.Name == "click" {
				return s.Description
			}
		}
		return ""
	}
	if find("chrome") == find("firefox") {
		t.Error("click description is the same in both browsers")
	}
}

func TestLoadSkillSpecListsTheCatalog(t *testing.T) {
	spec := LoadSkillSpec([]string{"humanizer", "form-filling"})
	var s struct {
		Properties struct {
			SkillID struct {
				Enum []string `json:"enum"`
			} `json:"skill_id"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(spec.Parameters, &s); err != nil {
		t.Fatal(err)
	}
	if spec.Name != protocol.ToolLoadSkill || !slices.Equal(s.Properties.SkillID.Enum, []string{"humanizer", "form-filling"}) || !slices.Equal(s.Required, []string{"skill_id"}) {
		t.Errorf("load_skill spec = %s %s", spec.Name, spec.Parameters)
	}
	if !ReadOnly(protocol.ToolLoadSkill) {
		t.Error("load_skill is not read-only")
	}
	for _, tier := range []string{"compact", "mid", "full"} {
		for _, mode := range []string{protocol.ModeAsk, protocol.ModeAct} {
			for _, s := range ForMode(mode, tier, "chrome", 0) {
				if s.Name == protocol.ToolLoadSkill {
					t.Errorf("%s/%s: ForMode offers load_skill without a catalog", mode, tier)
				}
			}
		}
	}
}
