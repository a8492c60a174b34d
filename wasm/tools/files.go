package tools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Limits of the download and file tools (docs/decisions/downloads-and-files.md).
const (
	maxDownloadURLs   = 10        // URLs one download_files call saves
	downloadMaxBytes  = 100 << 20 // a download growing past this is cancelled
	fileReadMaxBytes  = 10 << 20  // bytes of a downloaded file or a PDF read back
	uploadMaxBytes    = 10 << 20  // bytes upload_file hands to the page
	pdfMaxPages       = 300       // pages of a PDF whose text is extracted
	listDownloadsSize = 20        // list_downloads' default
)

// runDownloads runs the download and file tools, through the browser's
// downloads API.
func (d *Dispatcher) runDownloads(ctx context.Context, t *tool, args map[string]any) (string, error) {
	if d.p.Downloads == nil {
		return "", fmt.Errorf("%s is not available in this browser: it has no downloads API", t.name)
	}
	switch t.name {
	case protocol.ToolListDownloads:
		return d.listDownloads(ctx, args)
	case protocol.ToolDownloadFiles:
		return d.downloadFiles(ctx, args)
	case protocol.ToolDownloadResource, protocol.ToolDownloadSocialMedia:
		return d.downloadFromPage(ctx, t.name, args)
	case protocol.ToolReadDownloadedFile:
		return d.readDownloadedFile(ctx, args)
	case protocol.ToolUploadFile:
		return d.uploadFile(ctx, args)
	}
	return "", fmt.Errorf("%s has no handler in the background", t.name)
}

func (d *Dispatcher) listDownloads(ctx context.Context, args map[string]any) (string, error) {
	limit := listDownloadsSize
	if v, ok := args["limit"].(float64); ok {
		limit = int(v)
	}
	items, err := d.p.Downloads.Recent(ctx, limit)
	if err != nil {
		return "", fmt.Errorf("list_downloads: %v", err)
	}
	if len(items) == 0 {
		return "The browser's download list is empty.", nil
	}
	lines := make([]string, 0, len(items))
	for _, it := range items {
		lines = append(lines, downloadLine(it))
	}
	return d.b.PageResult(strings.Join(lines, "\n"), "Pass a smaller limit."), nil
}

// downloadLine describes one download in a line: names and hosts come
// from servers, so the caller wraps it as page content.
func downloadLine(it platform.Download) string {
	parts := []string{"id " + strconv.Itoa(it.ID), baseName(it.Filename)}
	if u, err := url.Parse(it.URL); err == nil && u.Host != "" {
		parts = append(parts, "from "+u.Host)
	}
	size := it.Total
	if size <= 0 {
		size = it.Bytes
	}
	parts = append(parts, byteSize(size))
	state := it.State
	if it.Error != "" {
		state += " (" + it.Error + ")"
	}
	parts = append(parts, state)
	if it.Mime != "" {
		parts = append(parts, it.Mime)
	}
	if it.Mine {
		parts = append(parts, "by WebBrain")
	}
	return strings.Join(parts, " · ")
}

// baseName is the file's name without its folder, on any system.
func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		path = path[i+1:]
	}
	if path == "" {
		return "(no file name yet)"
	}
	return path
}

func byteSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

func (d *Dispatcher) downloadFiles(ctx context.Context, args map[string]any) (string, error) {
	raw, _ := args["urls"].([]any)
	if len(raw) == 0 || len(raw) > maxDownloadURLs {
		return "", fmt.Errorf("download_files: give 1 to %d URLs", maxDownloadURLs)
	}
	var urls []string
	for _, v := range raw {
		s, ok := v.(string)
		if !ok {
			return "", errors.New("download_files: urls must be strings")
		}
		urls = append(urls, s)
	}
	return d.download(ctx, protocol.ToolDownloadFiles, urls)
}

// download saves each URL through the browser's downloads, after the
// rule of fetch_url and navigate for hosts on this computer or network.
// One URL failing does not stop the others; all failing is the error.
func (d *Dispatcher) download(ctx context.Context, tool string, urls []string) (string, error) {
	tab, err := d.p.Tabs.Get(ctx, d.tabID)
	if err != nil {
		return "", tabError(err)
	}
	var lines []string
	saved := 0
	for _, raw := range urls {
		u, err := httpURL(tool, "downloaded", raw)
		if err == nil {
			err = d.checkHost(ctx, tool, u, tab.URL)
		}
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			lines = append(lines, raw+": "+strings.TrimPrefix(err.Error(), tool+": "))
			continue
		}
		it, err := d.p.Downloads.Download(ctx, u.String(), downloadMaxBytes)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if err != nil {
			lines = append(lines, u.String()+": the download failed: "+err.Error())
			continue
		}
		if it.State == "complete" {
			saved++
		}
		lines = append(lines, "Downloaded "+u.String()+" as "+downloadLine(it))
	}
	text := strings.Join(lines, "\n")
	if saved == 0 {
		prefix := tool + " saved nothing:\n"
		return "", errors.New(prefix + d.b.pageResultWithin(text, "", MaxResultChars-len(prefix)))
	}
	return d.b.PageResult(text, ""), nil
}

// Resource implements guard.Prober: the URL of what the element with ref
// shows (wb_resource), or, with url, that URL if the page shows media or
// a link at it.
func (d *Dispatcher) Resource(ctx context.Context, args map[string]any) (guard.Resource, error) {
	var r guard.Resource
	raw, err := d.internal(ctx, 0, protocol.PageResource, args)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return r, errors.New("the page sent an unreadable description of the element")
	}
	return r, nil
}

// downloadFromPage runs download_resource_from_page and
// download_social_media: the element's (or the page's) resource URL, and
// for social media the public-media rule: a direct media file the page
// shows that answers without the user's cookies.
func (d *Dispatcher) downloadFromPage(ctx context.Context, tool string, args map[string]any) (string, error) {
	q := map[string]any{}
	for _, k := range []string{"ref", "url"} {
		if v, ok := args[k].(string); ok && v != "" {
			q[k] = v
		}
	}
	r, err := d.Resource(ctx, q)
	if err != nil {
		if _, isURL := q["url"]; isURL && tool == protocol.ToolDownloadSocialMedia {
			return "", errors.New("download_social_media saves media files the page shows directly, and the page shows no image, video or audio at this URL. " +
				"A post's link needs a resolver service to find its media, and no public-media downloader is installed here; pass the ref of the image or video element instead")
		}
		return "", fmt.Errorf("%s: %v", tool, err)
	}
	if strings.HasPrefix(r.URL, "blob:") || strings.HasPrefix(r.URL, "data:") {
		return "", fmt.Errorf("%s: this %s plays or shows from data inside the page (a %s URL, as streaming video players use), not from a file WebBrain can save. "+
			"WebBrain does not save streamed video as separate tracks; tell the user it cannot be downloaded this way", tool, r.Kind, r.URL[:strings.IndexByte(r.URL, ':')])
	}
	if tool == protocol.ToolDownloadSocialMedia {
		if r.Kind != "image" && r.Kind != "video" && r.Kind != "audio" {
			return "", errors.New("download_social_media saves only images, videos and audio; this element is a " + r.Kind + ". Use download_resource_from_page for other files")
		}
		if err := d.checkPublicMedia(ctx, r.URL); err != nil {
			return "", err
		}
	}
	return d.download(ctx, tool, []string{r.URL})
}

// checkPublicMedia requests the media without the user's cookies: public
// media answers with an image, video or audio file; anything else (a
// login page, a refusal) is not public and is not saved.
func (d *Dispatcher) checkPublicMedia(ctx context.Context, raw string) error {
	const tool = protocol.ToolDownloadSocialMedia
	u, err := httpURL(tool, "downloaded", raw)
	if err != nil {
		return err
	}
	tab, err := d.p.Tabs.Get(ctx, d.tabID)
	if err != nil {
		return tabError(err)
	}
	if err := d.checkHost(ctx, tool, u, tab.URL); err != nil {
		return err
	}
	resp, _, err := d.get(ctx, tool, u, tab.URL)
	if err != nil {
		return err
	}
	resp.Body.Close()
	mt, _, _ := strings.Cut(strings.ToLower(resp.Header["content-type"]), ";")
	mt = strings.TrimSpace(mt)
	if resp.Status < 200 || resp.Status > 299 {
		return fmt.Errorf("%s: the media is not public: without the user's login its address answers HTTP %d. WebBrain downloads only public media", tool, resp.Status)
	}
	if !strings.HasPrefix(mt, "image/") && !strings.HasPrefix(mt, "video/") && !strings.HasPrefix(mt, "audio/") {
		return fmt.Errorf("%s: without the user's login the address answers with %q, not an image, video or audio file, so the media is not public. WebBrain downloads only public media", tool, mt)
	}
	return nil
}

// ownDownload returns a complete download WebBrain made: the only files
// the model may read back or upload, never the user's own.
func (d *Dispatcher) ownDownload(ctx context.Context, tool string, args map[string]any) (platform.Download, error) {
	id, ok := args["downloadId"].(float64)
	if !ok || id != float64(int(id)) {
		return platform.Download{}, fmt.Errorf("%s: downloadId must be a download's id", tool)
	}
	it, err := d.p.Downloads.Get(ctx, int(id))
	if err != nil {
		return it, fmt.Errorf("%s: %v", tool, err)
	}
	switch {
	case !it.Mine:
		return it, fmt.Errorf("%s: download %d was not made by WebBrain. WebBrain reads and uploads only files it downloaded itself, never the user's own downloads", tool, it.ID)
	case it.State != "complete":
		return it, fmt.Errorf("%s: download %d is %s, not complete", tool, it.ID, it.State)
	}
	return it, nil
}

// fileBytes reads a download's bytes again from where it came from (the
// extension cannot open files on disk), through fetch_url's path: without
// cookies, every redirect judged. A body whose size differs from the file
// saved is another file, and refused.
func (d *Dispatcher) fileBytes(ctx context.Context, tool string, it platform.Download, limit int64) ([]byte, string, error) {
	u, err := httpURL(tool, "read", it.URL)
	if err != nil {
		return nil, "", err
	}
	tab, err := d.p.Tabs.Get(ctx, d.tabID)
	if err != nil {
		return nil, "", tabError(err)
	}
	if err := d.checkHost(ctx, tool, u, tab.URL); err != nil {
		return nil, "", err
	}
	resp, final, err := d.get(ctx, tool, u, tab.URL)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	if resp.Status < 200 || resp.Status > 299 {
		return nil, "", fmt.Errorf("%s: reading download %d again from %s, the server answered HTTP %d (WebBrain reads files back without the user's login)", tool, it.ID, final.Redacted(), resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, "", fetchError(ctx, tool, final, err)
	}
	if int64(len(body)) > limit {
		return nil, "", fmt.Errorf("%s: download %d is larger than %d MB, the most %s takes", tool, it.ID, limit>>20, tool)
	}
	if it.Total > 0 && int64(len(body)) != it.Total {
		return nil, "", fmt.Errorf("%s: the file at %s is no longer the one downloaded (%d bytes now, %d saved), so it is not used", tool, final.Redacted(), len(body), it.Total)
	}
	mime := it.Mime
	if mime == "" {
		mime = resp.Header["content-type"]
	}
	return body, mime, nil
}

func (d *Dispatcher) readDownloadedFile(ctx context.Context, args map[string]any) (string, error) {
	const tool = protocol.ToolReadDownloadedFile
	it, err := d.ownDownload(ctx, tool, args)
	if err != nil {
		return "", err
	}
	key := "download:" + strconv.Itoa(it.ID)
	offset, err := continuation(tool, args)
	if err != nil {
		return "", err
	}
	doc := d.lastFetch
	if doc == nil || doc.tool != tool || doc.url != key || offset == 0 {
		body, mime, err := d.fileBytes(ctx, tool, it, fileReadMaxBytes)
		if err != nil {
			return "", err
		}
		doc = &fetched{tool: tool, url: key, final: it.URL, title: baseName(it.Filename), again: map[string]any{"downloadId": it.ID}}
		switch fileKind(mime, it.Filename, body) {
		case "pdf":
			if doc.text, doc.note, err = d.pdfText(ctx, tool, body); err != nil {
				return "", err
			}
		case "text":
			doc.text = strings.TrimSpace(strings.ToValidUTF8(string(body), "\uFFFD"))
		default:
			return "", fmt.Errorf("%s: %s is a %s file; WebBrain reads text, CSV, JSON, Markdown, XML and PDF files", tool, baseName(it.Filename), orType(mime))
		}
		d.lastFetch = doc
	}
	text, err := doc.page(offset, pageSizeArg(args))
	if err != nil {
		return "", err
	}
	return d.b.PageResult(text, continueHint(tool)), nil
}

func orType(mime string) string {
	if mime == "" {
		return "binary"
	}
	return mime
}

// fileKind sorts a file into pdf, text or "" (unreadable) by its type,
// its name and its first bytes.
func fileKind(mime, name string, body []byte) string {
	mt, _, _ := strings.Cut(strings.ToLower(mime), ";")
	mt = strings.TrimSpace(mt)
	ext := strings.ToLower(name[strings.LastIndexByte(name, '.')+1:])
	switch {
	case mt == "application/pdf" || strings.HasPrefix(string(body), "%PDF-"):
		return "pdf"
	case strings.HasPrefix(mt, "text/") || mt == "application/json" || strings.HasSuffix(mt, "+json") ||
		mt == "application/xml" || strings.HasSuffix(mt, "+xml") || mt == "application/csv":
		return "text"
	}
	switch ext {
	case "txt", "csv", "tsv", "json", "md", "markdown", "xml", "log", "yaml", "yml", "ini", "html", "htm":
		return "text"
	}
	return ""
}

// continuation reads the continuation argument: a character offset.
func continuation(tool string, args map[string]any) (int, error) {
	c, ok := args["continuation"].(string)
	if !ok || strings.TrimSpace(c) == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(c))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s: continuation must be the value a previous %s result gave, not %q", tool, tool, c)
	}
	return n, nil
}

func pageSizeArg(args map[string]any) int {
	if v, ok := args["maxChars"].(float64); ok {
		return int(v)
	}
	return pageBudget
}

func (d *Dispatcher) uploadFile(ctx context.Context, args map[string]any) (string, error) {
	const tool = protocol.ToolUploadFile
	it, err := d.ownDownload(ctx, tool, args)
	if err != nil {
		return "", err
	}
	body, mime, err := d.fileBytes(ctx, tool, it, uploadMaxBytes)
	if err != nil {
		return "", err
	}
	mt, _, _ := strings.Cut(mime, ";")
	msg, err := json.Marshal(map[string]any{"wb": "tool", "name": protocol.PagePutFile, "args": map[string]any{
		"ref": args["ref"], "name": baseName(it.Filename), "mime": strings.TrimSpace(mt), "data": base64.StdEncoding.EncodeToString(body),
	}})
	if err != nil {
		return "", err
	}
	text, err := d.send(ctx, 0, byName()[tool], msg)
	if pe := (*pageError)(nil); errors.As(err, &pe) {
		prefix := tool + " failed. The page's message:\n"
		return "", errors.New(prefix + d.b.pageResultWithin(pe.text, "", MaxResultChars-len(prefix)))
	}
	if err != nil {
		return "", err
	}
	return d.b.PageResult(text, ""), nil
}
