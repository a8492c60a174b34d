package tools

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/webbrain/webbrain/wasm/protocol"
)

// runReadPDF runs read_pdf: the PDF the tab shows, or one by URL, fetched
// like fetch_url (no cookies, every redirect judged), its text extracted
// by pdf.js outside the module (platform.PDF) and paged like fetch_url.
func (d *Dispatcher) runReadPDF(ctx context.Context, args map[string]any) (string, error) {
	const tool = protocol.ToolReadPDF
	if d.p.PDF == nil {
		return "", fmt.Errorf("%s is not available in this browser", tool)
	}
	tab, err := d.p.Tabs.Get(ctx, d.tabID)
	if err != nil {
		return "", tabError(err)
	}
	raw, _ := args["url"].(string)
	if strings.TrimSpace(raw) == "" {
		raw = tab.URL
	}
	target, err := httpURL(tool, "read", raw)
	if err != nil {
		return "", err
	}
	target.Fragment = ""
	if err := d.checkHost(ctx, tool, target, tab.URL); err != nil {
		return "", err
	}
	offset, err := continuation(tool, args)
	if err != nil {
		return "", err
	}
	doc := d.lastFetch
	if doc == nil || doc.tool != tool || doc.url != target.String() || offset == 0 {
		if doc, err = d.fetchPDF(ctx, target, tab.URL); err != nil {
			return "", err
		}
		d.lastFetch = doc
	}
	text, err := doc.page(offset, pageSizeArg(args))
	if err != nil {
		return "", err
	}
	return d.b.PageResult(text, continueHint(tool)), nil
}

func (d *Dispatcher) fetchPDF(ctx context.Context, target *url.URL, tabURL string) (*fetched, error) {
	const tool = protocol.ToolReadPDF
	resp, final, err := d.get(ctx, tool, target, tabURL)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.Status < 200 || resp.Status > 299 {
		return nil, fmt.Errorf("%s: the server answered HTTP %d from this address:\n%s", tool, resp.Status, d.b.Wrap(final.String()))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, fileReadMaxBytes+1))
	if err != nil {
		return nil, fetchError(ctx, tool, final, err)
	}
	if len(body) > fileReadMaxBytes {
		return nil, fmt.Errorf("%s: the PDF is larger than %d MB, the most WebBrain reads", tool, fileReadMaxBytes>>20)
	}
	if fileKind(resp.Header["content-type"], final.Path, body) != "pdf" {
		return nil, fmt.Errorf("%s: %s is not a PDF (it is %s); use read_page or fetch_url for other documents", tool, final.Redacted(), orType(resp.Header["content-type"]))
	}
	doc := &fetched{tool: tool, url: target.String(), final: final.String(), again: map[string]any{"url": target.String()}}
	if doc.text, doc.note, err = d.pdfText(ctx, tool, body); err != nil {
		return nil, err
	}
	return doc, nil
}

// pdfText extracts the text of a PDF, each page under a [Page n] line,
// with a note when only the first pdfMaxPages pages were read.
func (d *Dispatcher) pdfText(ctx context.Context, tool string, data []byte) (text, note string, err error) {
	if d.p.PDF == nil {
		return "", "", fmt.Errorf("%s: this browser cannot read PDFs", tool)
	}
	pages, total, err := d.p.PDF.Text(ctx, data, pdfMaxPages)
	if err != nil {
		if ctx.Err() != nil {
			return "", "", ctx.Err()
		}
		return "", "", fmt.Errorf("%s: %v", tool, err)
	}
	var b strings.Builder
	for i, p := range pages {
		fmt.Fprintf(&b, "[Page %d]\n%s\n\n", i+1, strings.TrimSpace(p))
	}
	note = fmt.Sprintf("PDF, %d pages.", total)
	if len(pages) < total {
		note = fmt.Sprintf("PDF, %d pages; only the first %d were read.", total, len(pages))
	}
	return strings.TrimSpace(b.String()), note, nil
}
