// Package packaged loads the data files that ship inside the module (site
// adapters, skills): one file per item, named <id><ext>, each validated
// on its own so that one bad file leaves the others usable.
package packaged

import (
	"errors"
	"io/fs"
	"strings"
)

// Load parses <id><ext> for each id through read, in the order of ids. It
// returns the items that parsed and an error naming every file that did
// not; kind ("adapter", "skill") prefixes those names.
func Load[T any](read func(name string) ([]byte, error), ids []string, ext, kind string, parse func(id string, raw []byte) (T, error)) ([]T, error) {
	var out []T
	var problems []string
	for _, id := range ids {
		raw, err := read(id + ext)
		if err == nil {
			var item T
			if item, err = parse(id, raw); err == nil {
				out = append(out, item)
				continue
			}
		}
		problems = append(problems, kind+" "+id+ext+": "+err.Error())
	}
	if len(problems) > 0 {
		return out, errors.New(strings.Join(problems, "; "))
	}
	return out, nil
}

// FileIDs lists the ids of the files with extension ext at the root of fsys.
func FileIDs(fsys fs.ReadDirFS, ext string) []string {
	entries, _ := fsys.ReadDir(".")
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ext); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// ValidID reports whether id is lower-case letters, digits and inner
// hyphens, as file names and tool arguments need.
func ValidID(id string) bool {
	if id == "" || strings.HasPrefix(id, "-") || strings.HasSuffix(id, "-") {
		return false
	}
	for _, c := range id {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}
