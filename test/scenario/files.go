package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/test/testenv"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// DownloadDirer is a Session whose browser saves downloads in a folder the
// suite chose; the files scenario checks that they land there.
type DownloadDirer interface {
	DownloadDir() string
}

var downloadID = regexp.MustCompile(`as id (\d+) · (\w+)`)

// FilesAreDownloadedReadAndUploaded: in Act mode the model downloads two
// linked files by URL, the linked PDF by its ref and the page's image as
// public media, lists the downloads, reads the CSV back and the PDF's
// text, then gives the CSV to the page's file input and the notes to its
// drop zone. The files must be on disk with
// the served bytes, the CSV's and the PDF's text must reach the model, and
// the page must receive each file's name and bytes.
func FilesAreDownloadedReadAndUploaded(t *testing.T, d Driver) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	fixture := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(root, "test", "scenario", "testdata", "files", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var base string // the fixture's folder URL, set once the page is open
	ids := map[string]string{}
	refs := map[string]string{}
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		last := LastToolResult(req)
		switch n {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{"filter": "all"})
		case 1:
			for key, node := range map[string][2]string{
				"pdf": {"link", "Quarterly summary (PDF)"}, "input": {"button", "Attachment"}, "drop": {"button", "Drop files here"},
			} {
				ref, err := FindRef(last, node[0], node[1])
				if err != nil {
					return ScriptFailed(err)
				}
				refs[key] = ref
			}
			return CallTool("download_files", map[string]any{"urls": []string{base + "notes.txt", base + "report.csv"}})
		case 2:
			for _, m := range downloadID.FindAllStringSubmatch(last, -1) {
				ids[m[2]] = m[1]
			}
			if ids["notes"] == "" || ids["report"] == "" {
				return ScriptFailed(fmt.Errorf("no download ids in %q", last))
			}
			return CallTool("download_resource_from_page", map[string]any{"ref": refs["pdf"]})
		case 3:
			return CallTool("download_social_media", map[string]any{"url": base + "logo.png"})
		case 4:
			return CallTool("list_downloads", map[string]any{})
		case 5:
			if strings.Count(last, "by WebBrain") < 4 {
				return ScriptFailed(fmt.Errorf("list_downloads does not show the four downloads: %q", last))
			}
			return CallTool("read_downloaded_file", map[string]any{"downloadId": atoi(ids["report"])})
		case 6:
			return CallTool("read_pdf", map[string]any{"url": base + "summary.pdf"})
		case 7:
			return CallTool("upload_file", map[string]any{"downloadId": atoi(ids["report"]), "ref": refs["input"]})
		case 8:
			return CallTool("upload_file", map[string]any{"downloadId": atoi(ids["notes"]), "ref": refs["drop"]})
		}
		return Answer("The files are downloaded, read and uploaded.")
	})
	s := d.Open(t, "files.html", srv, OpenAIChat)
	base = Eval[string](t, s, Page, `new URL('files/', location.href).href`)
	s.Send("act", "Download the meeting notes, the revenue report, the PDF summary and the team logo, read the report and the summary, then upload the report to the attachment field and the notes to the drop zone.")

	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done\n%s", got, SummarizeRequests(srv.Requests()))
	}
	for _, r := range ToolRows(t, s) {
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
	}

	// The model saw the CSV's and the PDF's text.
	reqs := srv.Requests()
	if len(reqs) < 10 {
		t.Fatalf("%d model requests, want 10\n%s", len(reqs), SummarizeRequests(reqs))
	}
	if got := LastToolResult(reqs[6]); !strings.Contains(got, "South,3017") {
		t.Errorf("read_downloaded_file gave the model %q, want the CSV's rows", Clip(got, 600))
	}
	if got := LastToolResult(reqs[7]); !strings.Contains(got, "[Page 1]") || !strings.Contains(got, "the quarterly total is 4217 euros") {
		t.Errorf("read_pdf gave the model %q, want the PDF's text", Clip(got, 600))
	}

	// The files are on disk, with the bytes the server sent.
	var items []struct {
		Filename string `json:"filename"`
		URL      string `json:"url"`
		State    string `json:"state"`
	}
	if err := s.Eval(Extension, extAPI+`.downloads.search({}).then(l => l.map(d => ({filename: d.filename, url: d.finalUrl || d.url, state: d.state})))`, &items); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"notes.txt", "report.csv", "summary.pdf", "logo.png"} {
		found := false
		for _, it := range items {
			if !strings.HasSuffix(it.URL, "/files/"+name) {
				continue
			}
			found = true
			if dd, ok := s.(DownloadDirer); ok && filepath.Dir(it.Filename) != dd.DownloadDir() {
				t.Errorf("%s was saved as %s, outside the download folder %s", name, it.Filename, dd.DownloadDir())
			}
			got, err := os.ReadFile(it.Filename)
			if err != nil {
				t.Errorf("%s (%s): %v", name, it.State, err)
			} else if !bytes.Equal(got, fixture(name)) {
				t.Errorf("%s on disk holds %q, want the served bytes", name, got)
			}
		}
		if !found {
			t.Errorf("no download of %s among %+v", name, items)
		}
	}

	// The page received each file with its name and bytes.
	var got []map[string]string
	deadline := time.Now().Add(5 * time.Second)
	for len(got) < 2 && time.Now().Before(deadline) {
		got = got[:0]
		for _, r := range PageRecord(t, s) {
			var m map[string]string
			if json.Unmarshal([]byte(r), &m) == nil {
				got = append(got, m)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	want := []map[string]string{
		{"where": "input", "name": "report.csv", "text": string(fixture("report.csv"))},
		{"where": "drop", "name": "notes.txt", "text": string(fixture("notes.txt"))},
	}
	if len(got) != len(want) {
		t.Fatalf("the page received %v, want %v", got, want)
	}
	for i, w := range want {
		for k, v := range w {
			if got[i][k] != v {
				t.Errorf("file %d: %s = %q, want %q", i, k, got[i][k], v)
			}
		}
	}
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

// AskReadsThePDFTab: in Ask mode the tab shows a PDF, and read_pdf without
// a URL gives the model its text.
func AskReadsThePDFTab(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return CallTool("read_pdf", map[string]any{})
		}
		if m := regexp.MustCompile(`total is (\d+) euros`).FindStringSubmatch(LastToolResult(req)); m != nil {
			return Answer("The total is " + m[1] + " euros.")
		}
		return ScriptFailed(fmt.Errorf("read_pdf gave %q", Clip(LastToolResult(req), 400)))
	})
	s := d.Open(t, "files/summary.pdf", srv, OpenAIChat)
	s.Send("ask", "What is the quarterly total in this PDF?")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if got := Text(t, s, "#transcript .msg.assistant"); !strings.Contains(got, "The total is 4217 euros.") {
		t.Errorf("answer %q, want the total the PDF gives\n%s", got, SummarizeRequests(srv.Requests()))
	}
}
