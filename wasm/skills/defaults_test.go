package skills

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// defaultRow is one row of the specification's default-skills table.
type defaultRow struct {
	intent, name, notes string
	modes               []string // "Ask", "Act", "Dev"
}

// defaultTable reads testdata/default-skills.txt (SOURCES.md there).
func defaultTable(t *testing.T) []defaultRow {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "default-skills.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []defaultRow
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 4 {
			t.Fatalf("default-skills.txt:%d: want | intent | skill | modes | notes |, got %q", n, line)
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		r := defaultRow{intent: cells[0], name: cells[1], notes: cells[3]}
		for _, m := range strings.Split(cells[2], ",") {
			r.modes = append(r.modes, strings.TrimSpace(m))
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) < 9 {
		t.Fatalf("read only %d rows from the spec table", len(rows))
	}
	return rows
}

// TestDefaultSkillsFollowSpecTable: every row of the table is a packaged
// skill of that name whose catalog modes are the row's (Dev follows Act),
// prompt-only where the row says so, with read-only tools where it says
// they are.
func TestDefaultSkillsFollowSpecTable(t *testing.T) {
	all, err := Packaged()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range defaultTable(t) {
		i := slices.IndexFunc(all, func(s Skill) bool { return s.Name == row.name })
		if i < 0 {
			t.Errorf("the default skill %q (%s) is not packaged", row.name, row.intent)
			continue
		}
		s := all[i]
		ask, act, dev := slices.Contains(row.modes, "Ask"), slices.Contains(row.modes, "Act"), slices.Contains(row.modes, "Dev")
		if act != dev {
			t.Errorf("%s: the table gives Act=%v Dev=%v; Dev uses the Act skills", row.name, act, dev)
		}
		if slices.Contains(s.Modes, protocol.ModeAsk) != ask || slices.Contains(s.Modes, protocol.ModeAct) != act {
			t.Errorf("%s: modes %v, the table says %v", row.name, s.Modes, row.modes)
		}
		for _, c := range []struct{ mode, tier string }{{protocol.ModeAsk, "mid"}, {protocol.ModeAct, "full"}, {protocol.ModeDev, "full"}} {
			want := map[string]bool{protocol.ModeAsk: ask, protocol.ModeAct: act, protocol.ModeDev: dev}[c.mode]
			in := slices.ContainsFunc(Catalog(nil, c.mode, c.tier), func(o Skill) bool { return o.ID == s.ID })
			if in != want {
				t.Errorf("%s: in the %s catalog = %v, want %v", row.name, c.mode, in, want)
			}
		}
		if strings.HasPrefix(row.notes, "Prompt-only") && len(s.Tools) > 0 {
			t.Errorf("%s is prompt-only in the table but declares %d tools", row.name, len(s.Tools))
		}
		if strings.HasPrefix(row.notes, "Read-only tools") {
			if len(s.Tools) == 0 {
				t.Errorf("%s: the table says it has read-only tools; it has none", row.name)
			}
			for _, tl := range s.Tools {
				if !tl.PlainRead(true) {
					t.Errorf("%s: tool %s is not a plain read", row.name, tl.Name)
				}
			}
		}
	}
}

// Ask can load FreeSkillz but never sees its download job.
func TestFreeSkillzDownloadIsActOnly(t *testing.T) {
	all, _ := Packaged()
	i := slices.IndexFunc(all, func(s Skill) bool { return s.ID == "freeskillz" })
	if i < 0 {
		t.Fatal("freeskillz is not packaged")
	}
	var job *Tool
	for k, tl := range all[i].Tools {
		if tl.Name == "download_public_media" {
			job = &all[i].Tools[k]
		}
	}
	if job == nil || job.Kind != KindDownloadJob || job.PlainRead(true) {
		t.Fatalf("download_public_media: %+v", job)
	}
}
