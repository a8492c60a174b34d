//go:build js

package jsplatform

import (
	"context"
	"encoding/json"
	"fmt"
	"syscall/js"

	"github.com/webbrain/webbrain/wasm/platform"
)

// downloads implements platform.Downloads over wbHost.downloads.
type downloads struct{ js js.Value }

func (d downloads) Download(ctx context.Context, url string, maxBytes int64) (platform.Download, error) {
	v, err := call(ctx, d.js, "download", url, float64(maxBytes))
	if err != nil {
		return platform.Download{}, err
	}
	return decodeDownload(v)
}

func (d downloads) Get(ctx context.Context, id int) (platform.Download, error) {
	v, err := call(ctx, d.js, "get", id)
	if err != nil {
		return platform.Download{}, err
	}
	return decodeDownload(v)
}

func (d downloads) Recent(ctx context.Context, limit int) ([]platform.Download, error) {
	v, err := call(ctx, d.js, "recent", limit)
	if err != nil {
		return nil, err
	}
	var out []platform.Download
	if err := json.Unmarshal(toJSON(v), &out); err != nil {
		return nil, fmt.Errorf("downloads: unreadable list: %v", err)
	}
	return out, nil
}

func (d downloads) Save(ctx context.Context, filename, mediaType, data string) (platform.Download, error) {
	v, err := call(ctx, d.js, "save", filename, mediaType, data)
	if err != nil {
		return platform.Download{}, err
	}
	return decodeDownload(v)
}

func decodeDownload(v js.Value) (platform.Download, error) {
	var item platform.Download
	if err := json.Unmarshal(toJSON(v), &item); err != nil {
		return item, fmt.Errorf("downloads: unreadable item: %v", err)
	}
	return item, nil
}

// pdf implements platform.PDF over wbHost.pdf, which runs pdf.js outside
// the module: in Chrome's offscreen document, in Firefox's background page.
type pdf struct{ js js.Value }

func (p pdf) Text(ctx context.Context, data []byte, maxPages int) ([]string, int, error) {
	b := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(b, data)
	v, err := call(ctx, p.js, "text", b, maxPages)
	if err != nil {
		return nil, 0, err
	}
	var r struct {
		Pages []string `json:"pages"`
		Total int      `json:"total"`
	}
	if err := json.Unmarshal(toJSON(v), &r); err != nil {
		return nil, 0, fmt.Errorf("pdf: unreadable text: %v", err)
	}
	return r.Pages, r.Total, nil
}
