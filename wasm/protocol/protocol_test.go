package protocol_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/protocol/protocoltest"
)

// The other copies of the names, from this package's directory.
const (
	jsModule = "../../extension/common/protocol.js"
	docFile  = "../../docs/PROTOCOL.md"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestJSModuleHasGoNames: extension/common/protocol.js exports the groups
// of protocol.Groups, each with the same names.
func TestJSModuleHasGoNames(t *testing.T) {
	js, err := protocoltest.JSGroups(read(t, jsModule))
	if err != nil {
		t.Fatalf("%s: %v", jsModule, err)
	}
	var exports, groups []string
	for name := range js {
		exports = append(exports, name)
	}
	for name := range protocol.Groups {
		groups = append(groups, name)
	}
	if d := protocoltest.Diff(exports, groups); d != "" {
		t.Errorf("%s exports differ from protocol.Groups: %s", jsModule, d)
	}
	for name, want := range protocol.Groups {
		if got, ok := js[name]; ok {
			if d := protocoltest.Diff(got, want); d != "" {
				t.Errorf("%s: %s differs from Go's: %s", jsModule, name, d)
			}
		}
	}
}

// TestPagesOfferGoNames: the pages' <select> lists whose options are
// protocol names (static HTML, so the panel is usable before its scripts
// run) offer each name of the group once.
func TestPagesOfferGoNames(t *testing.T) {
	for _, c := range []struct {
		page, id string
		want     []string
	}{
		{"../../extension/sidepanel/sidepanel.html", "mode", protocol.Modes},
		{"../../extension/settings/settings.html", "p-kind", protocol.Kinds},
		{"../../extension/settings/settings.html", "p-tier", protocol.Tiers},
		{"../../extension/settings/settings.html", "planner", protocol.Planners},
		{"../../extension/settings/settings.html", "plan-review", protocol.Reviews},
	} {
		got, err := protocoltest.SelectOptions(read(t, c.page), c.id)
		if err != nil {
			t.Errorf("%s: %v", c.page, err)
			continue
		}
		if d := protocoltest.Diff(got, c.want); d != "" {
			t.Errorf("%s: the options of #%s differ from Go's: %s", c.page, c.id, d)
		}
	}
}

// groupOf maps a constant's name prefix to its group's list.
var groupOf = map[string][]string{
	"Action": protocol.Actions, "Message": protocol.Messages, "Event": protocol.Events,
	"Status": protocol.Statuses, "Key": protocol.Keys, "Mode": protocol.Modes, "Tier": protocol.Tiers, "Browser": protocol.Browsers,
	"Kind": protocol.Kinds, "Decision": protocol.Decisions, "Resolved": protocol.Resolved,
	"Compacted": protocol.Compacted, "Category": protocol.Categories, "Tool": protocol.Tools,
	"Page": protocol.PageEntries, "Planner": protocol.Planners, "Review": protocol.Reviews,
	"Plan": protocol.PlanDecisions, "Route": protocol.Routes,
	"Final": protocol.FinalReasons, "Theme": protocol.Themes,
	"Allowance": protocol.AllowanceDecisions, "Capture": protocol.Captures,
}

// TestGroupsHoldEveryConstant: every string constant of the package is in
// the list of its prefix's group, and each list holds only such constants,
// so a name added without its list (and thus unchecked) fails here.
func TestGroupsHoldEveryConstant(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "protocol.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string][]string{} // prefix → values
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Errorf("%s: protocol constants are string literals", name.Name)
					continue
				}
				value, _ := strconv.Unquote(lit.Value)
				prefix := ""
				for p := range groupOf {
					if strings.HasPrefix(name.Name, p) && len(p) > len(prefix) {
						prefix = p
					}
				}
				if prefix == "" {
					t.Errorf("%s has no group's prefix (%v)", name.Name, slices.Sorted(maps.Keys(groupOf)))
					continue
				}
				found[prefix] = append(found[prefix], value)
			}
		}
	}
	for prefix, list := range groupOf {
		if d := protocoltest.Diff(list, found[prefix]); d != "" {
			t.Errorf("the list of the %s… constants differs from them: %s", prefix, d)
		}
	}
}

// TestDocListsTheNames: docs/PROTOCOL.md has the same names as Go: the
// actions, event kinds and storage keys in their tables, the other groups
// in the "Names" table.
func TestDocListsTheNames(t *testing.T) {
	doc := read(t, docFile)
	column := func(heading string, col int) []string {
		rows, err := protocoltest.DocTable(doc, heading)
		if err != nil {
			t.Fatalf("%s: %v", docFile, err)
		}
		var out []string
		for _, row := range rows {
			names := protocoltest.Backticked(row[col])
			if len(names) == 0 {
				t.Errorf("%s, %q: a row without a `name`: %v", docFile, heading, row)
				continue
			}
			out = append(out, strings.TrimSuffix(names[0], "<tabId>"))
		}
		return out
	}
	tables := map[string][]string{
		"ACTION":  column("## Panel → background", 0),
		"EVENT":   column("## Background → panel", 0),
		"STORAGE": column("## Storage", 1),
	}
	for group, got := range tables {
		if d := protocoltest.Diff(got, protocol.Groups[group]); d != "" {
			t.Errorf("%s: the table of %s differs from Go's: %s", docFile, group, d)
		}
	}

	rows, err := protocoltest.DocTable(doc, "## Names")
	if err != nil {
		t.Fatalf("%s: %v", docFile, err)
	}
	listed := map[string]bool{}
	for _, row := range rows {
		if len(row) != 4 {
			t.Fatalf("%s, Names: want 4 cells, got %q", docFile, row)
		}
		export := protocoltest.Backticked(row[1])
		if len(export) == 0 {
			continue // tools: the tools package checks them
		}
		want, ok := protocol.Groups[export[0]]
		if !ok {
			t.Errorf("%s, Names: %s is not an export of %s", docFile, export[0], jsModule)
			continue
		}
		listed[export[0]] = true
		if _, inTable := tables[export[0]]; inTable {
			continue
		}
		if d := protocoltest.Diff(protocoltest.Backticked(row[3]), want); d != "" {
			t.Errorf("%s, Names: %s differs from Go's: %s", docFile, export[0], d)
		}
	}
	for group := range protocol.Groups {
		if !listed[group] {
			t.Errorf("%s, Names: no row for %s", docFile, group)
		}
	}
}
