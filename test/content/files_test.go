//go:build browser

package content

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

type resource struct{ URL, Tag, Kind, Error string }

// TestResourceFindsWhatAnElementShows: wb_resource answers the link's
// target for a linked image, the source inside a video's wrapper, a blob:
// stream as it is, a bare image by its URL, and refuses an element that
// shows nothing.
func TestResourceFindsWhatAnElementShows(t *testing.T) {
	p := open(t, "/files.html")
	base := evalJS[string](p, `location.origin`)
	for _, tc := range []struct {
		args       map[string]any
		url, kind  string
		wantErrSub string
	}{
		{map[string]any{"ref": p.ref("#full")}, base + "/img/full.png", "link", ""},
		{map[string]any{"ref": p.ref("#clip video")}, base + "/media/clip.mp4", "video", ""},
		{map[string]any{"url": base + "/img/bare.png"}, base + "/img/bare.png", "image", ""},
		{map[string]any{"url": base + "/img/elsewhere.png"}, "", "", "shows nothing at"},
		{map[string]any{"ref": p.ref("#plain")}, "", "", "shows no image"},
	} {
		var r resource
		p.internal("wb_resource", tc.args, &r)
		if tc.wantErrSub != "" {
			if !strings.Contains(r.Error, tc.wantErrSub) {
				t.Errorf("%v: %+v, want an error with %q", tc.args, r, tc.wantErrSub)
			}
			continue
		}
		if r.URL != tc.url || r.Kind != tc.kind {
			t.Errorf("%v: %+v, want %s (%s)", tc.args, r, tc.url, tc.kind)
		}
	}
	var r resource
	p.internal("wb_resource", map[string]any{"ref": p.ref("#stream")}, &r)
	if !strings.HasPrefix(r.URL, "blob:") {
		t.Errorf("the stream: %+v, want its blob: URL for the background to refuse", r)
	}
}

// TestPutFileFillsAnInputAndDropsOnAZone: the file input and the drop zone
// receive the file's name, type and bytes;
// an element that does not take drops gets nothing and says so.
func TestPutFileFillsAnInputAndDropsOnAZone(t *testing.T) {
	p := open(t, "/files.html")
	data := base64.StdEncoding.EncodeToString([]byte("name,total\nAda,3\n"))
	var out struct{ Error string }
	put := func(sel string) string {
		var got string
		p.internal("wb_put_file", map[string]any{"ref": p.ref(sel), "name": "t.csv", "mime": "text/csv", "data": data}, &got)
		return got
	}
	if got := put("#cv"); !strings.Contains(got, `"t.csv" (17 bytes, text/csv)`) {
		t.Errorf("input: %q", got)
	}
	if got := put("#zone"); !strings.Contains(got, `Dropped "t.csv"`) {
		t.Errorf("drop zone: %q", got)
	}
	p.internal("wb_put_file", map[string]any{"ref": p.ref("#inert"), "name": "t.csv", "mime": "text/csv", "data": data}, &out)
	if !strings.Contains(out.Error, "neither a file input nor a drop zone") {
		t.Errorf("an element that takes no drop: %+v", out)
	}
	deadline := time.Now().Add(3 * time.Second)
	var files []map[string]string
	for time.Now().Before(deadline) {
		if files = evalJS[[]map[string]string](p, `window.__files`); len(files) == 2 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(files) != 2 {
		t.Fatalf("the page received %v, want two files", files)
	}
	for i, where := range []string{"input", "drop"} {
		f := files[i]
		if f["where"] != where || f["name"] != "t.csv" || f["type"] != "text/csv" || f["text"] != "name,total\nAda,3\n" {
			t.Errorf("file %d: %v", i, f)
		}
	}
}
