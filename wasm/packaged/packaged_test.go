package packaged

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoadKeepsGoodFilesAndNamesBadOnes(t *testing.T) {
	fsys := fstest.MapFS{
		"a.txt":     {Data: []byte("alpha")},
		"b.txt":     {Data: []byte("")},
		"notes.md":  {Data: []byte("ignored")},
		"c-one.txt": {Data: []byte("gamma")},
	}
	ids := FileIDs(fsys, ".txt")
	if strings.Join(ids, ",") != "a,b,c-one" {
		t.Fatalf("ids = %v", ids)
	}
	parse := func(id string, raw []byte) (string, error) {
		if len(raw) == 0 {
			return "", errors.New("empty")
		}
		return id + "=" + string(raw), nil
	}
	got, err := Load(fsys.ReadFile, append(ids, "gone"), ".txt", "item", parse)
	if strings.Join(got, ",") != "a=alpha,c-one=gamma" {
		t.Errorf("loaded %v", got)
	}
	if err == nil || !strings.Contains(err.Error(), "item b.txt: empty") || !strings.Contains(err.Error(), "item gone.txt") {
		t.Errorf("err = %v", err)
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{"github": true, "google-search": true, "a1": true,
		"": false, "-x": false, "x-": false, "Git": false, "a_b": false, "a b": false, "a/b": false} {
		if ValidID(id) != want {
			t.Errorf("ValidID(%q) = %v", id, !want)
		}
	}
}
