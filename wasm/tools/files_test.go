package tools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform"
)

// fakeDownloads keeps the downloads it was asked for, each complete with
// the size sizes gives (or 0, unknown).
type fakeDownloads struct {
	mu    sync.Mutex
	items []platform.Download
	sizes map[string]int64
}

func (f *fakeDownloads) Download(_ context.Context, url string, _ int64) (platform.Download, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	name := url[strings.LastIndexByte(url, '/')+1:]
	it := platform.Download{ID: len(f.items) + 1, URL: url, Filename: "/home/u/Downloads/" + name, State: "complete", Total: f.sizes[url], Mine: true}
	f.items = append(f.items, it)
	return it, nil
}

func (f *fakeDownloads) Get(_ context.Context, id int) (platform.Download, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, it := range f.items {
		if it.ID == id {
			return it, nil
		}
	}
	return platform.Download{}, fmt.Errorf("there is no download %d", id)
}

func (f *fakeDownloads) Save(_ context.Context, filename, mediaType, _ string) (platform.Download, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	it := platform.Download{ID: len(f.items) + 1, URL: "data:" + mediaType, Filename: "/home/u/Downloads/" + filename, State: "complete", Mine: true}
	f.items = append(f.items, it)
	return it, nil
}

func (f *fakeDownloads) Recent(_ context.Context, limit int) ([]platform.Download, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []platform.Download
	for i := len(f.items) - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, f.items[i])
	}
	return out, nil
}

// fakePDF reads a "PDF" whose pages are separated by form feeds.
type fakePDF struct{}

func (fakePDF) Text(_ context.Context, data []byte, maxPages int) ([]string, int, error) {
	body, ok := strings.CutPrefix(string(data), "%PDF-1.4\n")
	if !ok {
		return nil, 0, errors.New("not a PDF")
	}
	pages := strings.Split(body, "\f")
	return pages[:min(len(pages), maxPages)], len(pages), nil
}

const filesSite = "http://files.example.com"

func newFilesRig(t *testing.T, h http.HandlerFunc, reply func(string, map[string]any) (json.RawMessage, error)) (*fetchRig, *fakeDownloads, *fakeContent) {
	t.Helper()
	r := newFetchRig(t, "act", filesSite+"/start.html", h)
	dl := &fakeDownloads{sizes: map[string]int64{}}
	content := &fakeContent{reply: reply}
	r.d.p.Downloads, r.d.p.PDF, r.d.p.Content = dl, fakePDF{}, content
	return r, dl, content
}

func run(t *testing.T, d *Dispatcher, name string, args map[string]any) (string, error) {
	t.Helper()
	raw, _ := json.Marshal(args)
	return d.Execute(context.Background(), llm.ToolCall{ID: "c1", Name: name, Arguments: string(raw)})
}

const csv = "name,amount\nAda,12\nGrace,30\n"

func serveFiles(w http.ResponseWriter, req *http.Request) {
	switch req.URL.Path {
	case "/report.csv":
		w.Header().Set("Content-Type", "text/csv")
		fmt.Fprint(w, csv)
	case "/paper.pdf":
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(w, "%PDF-1.4\nFirst page text\fSecond page text")
	case "/photo.jpg":
		w.Header().Set("Content-Type", "image/jpeg")
		fmt.Fprint(w, "JPEG")
	case "/private.jpg":
		http.Error(w, "sign in", http.StatusUnauthorized)
	default:
		http.NotFound(w, req)
	}
}

func TestDownloadFilesSavesAndRefusesLocalHosts(t *testing.T) {
	r, dl, _ := newFilesRig(t, serveFiles, nil)
	got, err := run(t, r.d, "download_files", map[string]any{"urls": []any{filesSite + "/report.csv", "http://192.168.1.1/backup.tar"}})
	require.NoError(t, err)
	assert.Contains(t, got, "Downloaded "+filesSite+"/report.csv as id 1 · report.csv · from files.example.com")
	assert.Contains(t, got, "http://192.168.1.1/backup.tar: refused")
	assert.Contains(t, got, "<untrusted_page_content", "file names come from servers")
	require.Len(t, dl.items, 1, "the local address was not downloaded")

	_, err = run(t, r.d, "download_files", map[string]any{"urls": []any{"javascript:alert(1)"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "saved nothing")
}

func TestReadDownloadedFileReadsOnlyWebBrainsOwn(t *testing.T) {
	r, dl, _ := newFilesRig(t, serveFiles, nil)
	dl.sizes[filesSite+"/report.csv"] = int64(len(csv))
	_, err := run(t, r.d, "download_files", map[string]any{"urls": []any{filesSite + "/report.csv", filesSite + "/paper.pdf"}})
	require.NoError(t, err)

	got, err := run(t, r.d, "read_downloaded_file", map[string]any{"downloadId": 1})
	require.NoError(t, err)
	assert.Contains(t, got, "Title: report.csv")
	assert.Contains(t, got, "Grace,30")

	got, err = run(t, r.d, "read_downloaded_file", map[string]any{"downloadId": 2})
	require.NoError(t, err)
	assert.Contains(t, got, "[Page 2]\nSecond page text")

	dl.items = append(dl.items, platform.Download{ID: 3, URL: filesSite + "/report.csv", Filename: "/home/u/Downloads/bank.csv", State: "complete"})
	_, err = run(t, r.d, "read_downloaded_file", map[string]any{"downloadId": 3})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not made by WebBrain")

	dl.items[0].Total = 5 // the file changed on the server since
	_, err = run(t, r.d, "read_downloaded_file", map[string]any{"downloadId": 1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no longer the one downloaded")
}

func TestUploadFileHandsThePageTheBytes(t *testing.T) {
	var put map[string]any
	r, _, _ := newFilesRig(t, serveFiles, func(name string, args map[string]any) (json.RawMessage, error) {
		put = args
		return okReply(`The file input "Attachment" now holds "report.csv".`)
	})
	_, err := run(t, r.d, "download_files", map[string]any{"urls": []any{filesSite + "/report.csv"}})
	require.NoError(t, err)
	got, err := run(t, r.d, "upload_file", map[string]any{"downloadId": 1, "ref": "ref_4"})
	require.NoError(t, err)
	assert.Contains(t, got, "now holds")
	require.NotNil(t, put)
	data, _ := base64.StdEncoding.DecodeString(put["data"].(string))
	assert.Equal(t, csv, string(data))
	assert.Equal(t, "report.csv", put["name"])
	assert.Equal(t, "text/csv", put["mime"])
	assert.Equal(t, "ref_4", put["ref"])
}

func TestReadPDFPagesItsText(t *testing.T) {
	r, _, _ := newFilesRig(t, serveFiles, nil)
	got, err := run(t, r.d, "read_pdf", map[string]any{"url": filesSite + "/paper.pdf"})
	require.NoError(t, err)
	assert.Contains(t, got, "PDF, 2 pages.")
	assert.Contains(t, got, "[Page 1]\nFirst page text")

	r.tabs.tab.URL = filesSite + "/paper.pdf" // the tab shows the PDF
	got, err = run(t, r.d, "read_pdf", map[string]any{"maxChars": 500})
	require.NoError(t, err)
	assert.Contains(t, got, "Second page text")

	_, err = run(t, r.d, "read_pdf", map[string]any{"url": filesSite + "/report.csv"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is not a PDF")
}

func TestDownloadSocialMediaOnlyPublicFiles(t *testing.T) {
	resource := map[string]string{}
	r, dl, _ := newFilesRig(t, serveFiles, func(name string, args map[string]any) (json.RawMessage, error) {
		b, _ := json.Marshal(map[string]any{"ok": true, "result": map[string]string{"url": resource[args["ref"].(string)], "tag": "video", "kind": "video"}})
		return b, nil
	})
	resource["ref_1"] = "blob:https://social.example.com/5d1c"
	resource["ref_2"] = filesSite + "/private.jpg"
	resource["ref_3"] = filesSite + "/photo.jpg"

	_, err := run(t, r.d, "download_social_media", map[string]any{"ref": "ref_1"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "separate tracks")
	_, err = run(t, r.d, "download_social_media", map[string]any{"ref": "ref_2"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not public")
	assert.Empty(t, dl.items)

	got, err := run(t, r.d, "download_social_media", map[string]any{"ref": "ref_3"})
	require.NoError(t, err)
	assert.Contains(t, got, "photo.jpg")
}

func TestListDownloadsMarksWebBrainsOwn(t *testing.T) {
	r, dl, _ := newFilesRig(t, serveFiles, nil)
	dl.items = []platform.Download{
		{ID: 1, URL: "https://a.example/x.zip", Filename: `C:\Users\u\Downloads\x.zip`, State: "interrupted", Error: "NETWORK_FAILED", Bytes: 2048},
		{ID: 2, URL: filesSite + "/report.csv", Filename: "/d/report.csv", State: "complete", Total: 27, Mime: "text/csv", Mine: true},
	}
	got, err := run(t, r.d, "list_downloads", map[string]any{})
	require.NoError(t, err)
	assert.Contains(t, got, "id 2 · report.csv · from files.example.com · 27 bytes · complete · text/csv · by WebBrain\nid 1 · x.zip · from a.example · 2.0 KB · interrupted (NETWORK_FAILED)")

	ask := NewDispatcher(r.d.p, 7, "ask", "mid", "chrome", tb)
	_, err = run(t, ask, "download_files", map[string]any{"urls": []any{filesSite + "/report.csv"}})
	require.Error(t, err, "Ask never downloads")
	_, err = run(t, ask, "list_downloads", map[string]any{})
	require.NoError(t, err)
}
