package scenario

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func TestFixturesServeEachPageFromItsOneHome(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("test/scenario/testdata/shared.html", "shared")
	write("test/suite/testdata/own.html", "own")
	write("test/scenario/testdata/both.html", "one")
	write("test/suite/testdata/both.html", "two")
	srv := httptest.NewServer(Fixtures(root, "test/suite/testdata"))
	defer srv.Close()

	for _, tc := range []struct {
		path   string
		status int
		body   string
	}{
		{"/shared.html", http.StatusOK, "shared"},
		{"/own.html?test=x", http.StatusOK, "own"},
		{"/missing.html", http.StatusNotFound, ""},
		{"/both.html", http.StatusConflict, ""},
	} {
		resp, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.path, resp.StatusCode, tc.status)
		}
		if tc.body != "" && string(body) != tc.body {
			t.Errorf("%s: body %q, want %q", tc.path, body, tc.body)
		}
	}
}

// The scenarios' own pages must not also exist in a suite's testdata.
func TestScenarioPagesLiveOnce(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("testdata", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no scenario pages in testdata/: %v", err)
	}
	for _, suite := range []string{"e2e", "firefox"} {
		for _, p := range pages {
			dup := filepath.Join("..", suite, "testdata", filepath.Base(p))
			if _, err := os.Stat(dup); err == nil {
				t.Errorf("%s is also %s", p, dup)
			}
		}
	}
}

func TestFindRefAndContainsRef(t *testing.T) {
	tree := "main\n  button \"Add one\" [ref_3]\n  button \"Delete account\" [ref_4]"
	if ref, err := FindRef(tree, "button", "Delete account"); err != nil || ref != "ref_4" {
		t.Errorf("FindRef = %q, %v; want ref_4", ref, err)
	}
	if _, err := FindRef(tree, "link", "Add one"); err == nil {
		t.Error("FindRef found a link that is not in the tree")
	}
	if got := AllRefs(tree); len(got) != 2 || got[0] != "ref_3" || got[1] != "ref_4" {
		t.Errorf("AllRefs = %v", got)
	}
	if !ContainsRef("try ref_4 instead", "ref_4") || ContainsRef("see ref_40", "ref_4") {
		t.Error("ContainsRef must match whole refs only")
	}
}
