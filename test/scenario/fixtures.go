package scenario

import (
	"errors"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
)

// Fixtures serves the scenarios' pages (test/scenario/testdata under the
// repository root) together with a suite's own (suiteDir, relative to the
// root). A name in both is an error on request: each page lives once.
func Fixtures(root, suiteDir string) http.Handler {
	dirs := []http.Dir{
		http.Dir(filepath.Join(root, "test", "scenario", "testdata")),
		http.Dir(filepath.Join(root, filepath.FromSlash(suiteDir))),
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var found []http.Dir
		for _, d := range dirs {
			f, err := d.Open(r.URL.Path)
			if err == nil {
				f.Close()
				found = append(found, d)
			} else if !errors.Is(err, fs.ErrNotExist) {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		switch len(found) {
		case 0:
			if strings.HasPrefix(r.URL.Path, "/spa/") {
				// A single-page app's server answers each of its paths
				// with the app (spa/index.html).
				http.ServeFile(w, r, filepath.Join(string(dirs[0]), "spa", "index.html"))
				return
			}
			http.NotFound(w, r)
		case 1:
			http.FileServer(found[0]).ServeHTTP(w, r)
		default:
			http.Error(w, r.URL.Path+" is both a scenario fixture and "+suiteDir+"'s", http.StatusConflict)
		}
	})
}
