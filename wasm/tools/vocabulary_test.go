package tools

import (
	"os"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/protocol/protocoltest"
)

// runsIn is the "runs in" word of docs/PROTOCOL.md's Tools table.
var runsIn = map[int]string{inContent: "page", inTabs: "background", inBackground: "background", inAgent: "agent", inFrame: "frames", inDev: "background"}

// TestToolNamesAgree: the catalog (the source of which tools exist), the
// names of package protocol, the content script's tool table and the
// Tools table of docs/PROTOCOL.md name the same tools.
func TestToolNamesAgree(t *testing.T) {
	var all, page []string
	want := map[string]string{} // tool → runs in, as the doc says it
	for _, tl := range catalog {
		all = append(all, tl.name)
		want[tl.name] = runsIn[tl.runs]
		if tl.runs == inContent {
			page = append(page, tl.name)
		}
	}
	all = append(all, protocol.ToolLoadSkill)
	want[protocol.ToolLoadSkill] = "agent"
	for _, e := range protocol.PageEntries {
		want[e] = "page, for the background"
	}

	if d := protocoltest.Diff(protocol.Tools, all); d != "" {
		t.Errorf("protocol.Tools differs from the catalog: %s", d)
	}

	content, file, err := protocoltest.ToolTable("../../extension/content")
	if err != nil {
		t.Fatal(err)
	}
	if d := protocoltest.Diff(content, page); d != "" {
		t.Errorf("%s: TOOLS differs from the catalog's page tools: %s", file, d)
	}

	const docFile = "../../docs/PROTOCOL.md"
	doc, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := protocoltest.DocTable(string(doc), "## Tools")
	if err != nil {
		t.Fatalf("%s: %v", docFile, err)
	}
	var listed []string
	for _, row := range rows {
		name, where := protocoltest.Backticked(row[0]), protocoltest.Backticked(strings.Join(row[1:], "|"))
		if len(name) != 1 || len(where) == 0 {
			t.Errorf("%s, Tools: want | `tool` | `runs in` |, got %q", docFile, row)
			continue
		}
		listed = append(listed, name[0])
		if w, ok := want[name[0]]; ok && w != where[0] {
			t.Errorf("%s, Tools: %s runs in %q, not %q", docFile, name[0], w, where[0])
		}
	}
	var names []string
	for name := range want {
		names = append(names, name)
	}
	if d := protocoltest.Diff(listed, names); d != "" {
		t.Errorf("%s: the Tools table differs from the catalog and protocol.PageEntries: %s", docFile, d)
	}
}
