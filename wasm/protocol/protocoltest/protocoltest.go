// Package protocoltest reads the copies of the protocol's names that are
// not Go: the pages' JS module (extension/common/protocol.js), the tables
// of docs/PROTOCOL.md and the content script's tool table. The tests of
// wasm/protocol and wasm/tools compare them with Go's names.
//
// The readers are plain text scanners on purpose: they accept only the
// simple forms those files use and fail on anything else, so a file that
// grows a form they do not understand breaks the test instead of being
// half read.
package protocoltest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

var (
	exportStart = regexp.MustCompile(`^export const ([A-Z][A-Z0-9_]*) = Object\.freeze\(\{$`)
	entryLine   = regexp.MustCompile(`^([A-Z][A-Z0-9_]*): "([^"\\]*)",$`)
)

// JSGroups reads the frozen objects of string constants a JS module
// exports, one per `export const NAME = Object.freeze({` line, closed by
// `});`, with one `KEY: "value",` a line inside. Other lines outside these
// objects are ignored; inside, only blank and // comment lines may stand
// between entries. It returns each object's values in order.
func JSGroups(src string) (map[string][]string, error) {
	groups := map[string][]string{}
	var name string // the object being read; "" outside
	keys := map[string]bool{}
	for n, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		where := fmt.Sprintf("line %d", n+1)
		if name == "" {
			if m := exportStart.FindStringSubmatch(line); m != nil {
				name = m[1]
				if _, dup := groups[name]; dup {
					return nil, fmt.Errorf("%s: %s exported twice", where, name)
				}
				groups[name] = []string{}
				clear(keys)
			} else if strings.HasPrefix(line, "export const") && strings.Contains(line, "Object.freeze") {
				return nil, fmt.Errorf("%s: write a frozen export as `export const NAME = Object.freeze({` on its own line: %q", where, line)
			}
			continue
		}
		switch m := entryLine.FindStringSubmatch(line); {
		case line == "});":
			name = ""
		case line == "" || strings.HasPrefix(line, "//"):
		case m != nil:
			if keys[m[1]] {
				return nil, fmt.Errorf("%s: %s.%s twice", where, name, m[1])
			}
			keys[m[1]] = true
			groups[name] = append(groups[name], m[2])
		default:
			return nil, fmt.Errorf("%s: in %s, want `KEY: \"value\",` (one a line), got %q", where, name, line)
		}
	}
	if name != "" {
		return nil, fmt.Errorf("%s is not closed with `});`", name)
	}
	return groups, nil
}

var tableStart = regexp.MustCompile(`\bTOOLS\s*=\s*(?:Object\.freeze\(\s*)?\{`)

// ToolTable reads the keys of the content script's tool table, an object
// literal `TOOLS = {name: fn, shorthand, ...}` whose values are plain
// identifiers, from the JS files of dir (subdirectories too). Exactly one
// file may define it.
func ToolTable(dir string) (names []string, file string, err error) {
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".js") || strings.HasSuffix(path, ".mjs")) {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(b)
		loc := tableStart.FindStringIndex(src)
		if loc == nil {
			return nil
		}
		if file != "" {
			return fmt.Errorf("both %s and %s define a TOOLS table", file, path)
		}
		file = path
		end := strings.Index(src[loc[1]:], "}")
		if end < 0 {
			return fmt.Errorf("%s: the TOOLS table is not closed", path)
		}
		names, err = objectKeys(src[loc[1] : loc[1]+end])
		if err != nil {
			return fmt.Errorf("%s: TOOLS: %w", path, err)
		}
		return nil
	})
	if err == nil && file == "" {
		err = fmt.Errorf("no JS file under %s defines a TOOLS table", dir)
	}
	return names, file, err
}

var (
	lineComment = regexp.MustCompile(`//[^\n]*`)
	ident       = `[A-Za-z_$][A-Za-z0-9_$]*`
	objectEntry = regexp.MustCompile(`^(?:(` + ident + `)|(` + ident + `)\s*:\s*` + ident + `|'(` + ident + `)'\s*:\s*` + ident + `|"(` + ident + `)"\s*:\s*` + ident + `)$`)
)

// objectKeys lists the keys of an object literal's body whose values are
// identifiers.
func objectKeys(body string) ([]string, error) {
	var keys []string
	for _, item := range strings.Split(lineComment.ReplaceAllString(body, ""), ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		m := objectEntry.FindStringSubmatch(item)
		if m == nil {
			return nil, fmt.Errorf("want `name: function` or `name`, got %q", item)
		}
		key := m[1] + m[2] + m[3] + m[4]
		if slices.Contains(keys, key) {
			return nil, fmt.Errorf("%s twice", key)
		}
		keys = append(keys, key)
	}
	return keys, nil
}

// DocTable returns the rows of the first Markdown table after the heading
// line `heading` (e.g. "## Storage"), header and separator left out, each
// row's cells trimmed. Cells are split at every "|", so the columns read
// must come before any cell that holds one.
func DocTable(doc, heading string) ([][]string, error) {
	lines := strings.Split(doc, "\n")
	at := slices.Index(lines, heading)
	if at < 0 {
		return nil, fmt.Errorf("no heading %q", heading)
	}
	var rows [][]string
	for _, line := range lines[at+1:] {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			break
		}
		if !strings.HasPrefix(line, "|") {
			if rows != nil {
				break // the table ended
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	if len(rows) < 3 || !strings.HasPrefix(rows[1][0], "---") {
		return nil, fmt.Errorf("no table with a header and rows under %q", heading)
	}
	return rows[2:], nil
}

var (
	selectTag = regexp.MustCompile(`(?s)<select\b[^>]*\bid="([^"]+)"[^>]*>(.*?)</select>`)
	optionTag = regexp.MustCompile(`<option\b[^>]*\bvalue="([^"]*)"`)
)

// SelectOptions returns the values of the options of the <select> with
// the given id in an HTML page, in order.
func SelectOptions(html, id string) ([]string, error) {
	for _, m := range selectTag.FindAllStringSubmatch(html, -1) {
		if m[1] != id {
			continue
		}
		var values []string
		for _, o := range optionTag.FindAllStringSubmatch(m[2], -1) {
			values = append(values, o[1])
		}
		return values, nil
	}
	return nil, fmt.Errorf("no <select id=%q>", id)
}

var backticked = regexp.MustCompile("`([^`]*)`")

// Backticked returns the `code` spans of a Markdown cell, in order.
func Backticked(cell string) []string {
	var out []string
	for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// Diff describes how the set of names got differs from want ("" when they
// hold the same names), and names a name that got lists twice.
func Diff(got, want []string) string {
	var parts []string
	if missing := without(want, got); len(missing) > 0 {
		parts = append(parts, "missing "+strings.Join(missing, ", "))
	}
	if extra := without(got, want); len(extra) > 0 {
		parts = append(parts, "extra "+strings.Join(extra, ", "))
	}
	seen := map[string]bool{}
	for _, g := range got {
		if seen[g] {
			parts = append(parts, g+" twice")
		}
		seen[g] = true
	}
	return strings.Join(parts, "; ")
}

// without lists the names of a that b lacks.
func without(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
