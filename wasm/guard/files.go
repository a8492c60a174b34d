package guard

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// checkDownload decides on saving files through the browser's downloads,
// which sends a request with the user's cookies as clicking a link would.
// A file the page links to (or shows, for the resource tools) or whose
// address the user gave passes when the user's words ask for a download,
// or when "Ask before consequential actions" is off. An address that
// carries data the user did not give, or that the page does not show and
// the user did not give, is always asked about: it is the way a fooled
// model would send something out.
func (g *Gate) checkDownload(ctx context.Context, tool string, args map[string]any) (*ask, string) {
	if g.cfg.Mode != protocol.ModeAct {
		return nil, "" // Ask offers no download tool: the call is refused, so no card
	}
	var urls []string
	fromPage := tool != protocol.ToolDownloadFiles
	if fromPage {
		if g.cfg.Prober == nil {
			return nil, ""
		}
		r, err := g.cfg.Prober.Resource(ctx, resourceQuery(args))
		if err != nil {
			return nil, "" // the tool reports it and downloads nothing
		}
		urls = []string{r.URL}
	} else {
		list, _ := args["urls"].([]any)
		for _, v := range list {
			if s, ok := v.(string); ok {
				urls = append(urls, s)
			}
		}
	}
	var pageURL string
	var links []string
	if g.cfg.Prober != nil {
		pageURL, links, _ = g.cfg.Prober.Links(ctx)
	}
	auth := g.cfg.Authority
	var details []Detail
	var reasons []uitext.Text
	var hosts, shown []string
	risky := false
	for _, raw := range urls {
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
			continue // the tool refuses it
		}
		host := strings.ToLower(u.Hostname())
		named := auth.NamedSite(host)
		onPage := fromPage || containsURL(links, u)
		data := g.dataIn(u, named || onPage || g.isVisited(SiteOf(host)))
		details = append(details, NewDetail(uitext.T("bg_label_file", "File"), clipURL(u)))
		details = append(details, data...)
		if len(data) > 0 {
			risky = true
			reasons = append(reasons, uitext.T("bg_reason_address_on_carries", "The address on $host$ carries $data$ that your request did not give.", "host", host, "data", dataKindsText(data)))
		}
		if !named && !onPage {
			risky = true
			reasons = append(reasons, uitext.T("bg_reason_download_unlinked", "The page does not link to $address$, and you did not give that address.", "address", clipURL(u)))
		}
		hosts = append(hosts, host)
		shown = append(shown, u.String())
	}
	if len(hosts) == 0 {
		return nil, ""
	}
	requested := auth.Requested(CatDownload)
	if !risky && (requested || !g.cfg.AskBeforeActions) {
		return nil, ""
	}
	if !requested {
		reasons = append(reasons, uitext.T("bg_reason_no_download", "Your request did not ask to download files."))
	}
	var text uitext.Text
	from := strings.Join(unique(hosts), ", ")
	switch {
	case len(hosts) > 1 && pageURL != "":
		text = uitext.T("bg_approval_download_many_shown", "Download $count$ files, from $hosts$ (shown on $page$).", "count", strconv.Itoa(len(hosts)), "hosts", from, "page", HostOf(pageURL))
	case len(hosts) > 1:
		text = uitext.T("bg_approval_download_many", "Download $count$ files, from $hosts$.", "count", strconv.Itoa(len(hosts)), "hosts", from)
	case pageURL != "":
		text = uitext.T("bg_approval_download_shown", "Download a file from $host$ (shown on $page$).", "host", hosts[0], "page", HostOf(pageURL))
	default:
		text = uitext.T("bg_approval_download", "Download a file from $host$.", "host", hosts[0])
	}
	en, msgs := SplitTexts(reasons)
	a := &ask{
		approval: Approval{Text: text.English, TextMsg: text.Msg, Category: protocol.CategoryDownload, Site: hosts[0], URL: maskSecrets(shown[0]),
			Details: details, Reasons: en, ReasonMsgs: msgs},
		grant: protocol.CategoryDownload + "|" + SiteOf(hosts[0]),
		key:   protocol.CategoryDownload + "|" + strings.Join(shown, " "),
	}
	if fromPage {
		// The tool finds the resource again when it runs: it must be the
		// file the card showed (binding.go).
		a.same = func(ctx context.Context) bool {
			r, err := g.cfg.Prober.Resource(ctx, resourceQuery(args))
			return err == nil && r.URL == urls[0]
		}
	}
	return a, ""
}

// resourceQuery is what of a download tool's arguments wb_resource takes.
func resourceQuery(args map[string]any) map[string]any {
	q := map[string]any{}
	for _, k := range []string{"ref", "url"} {
		if v, ok := args[k].(string); ok && v != "" {
			q[k] = v
		}
	}
	return q
}

// checkUpload decides on giving a downloaded file to the page, which may
// send it on at once (a drop zone that uploads, a change that submits):
// it passes when the user's words ask to upload or attach a file, or when
// "Ask before consequential actions" is off.
func (g *Gate) checkUpload(ctx context.Context, tool string, args map[string]any) (*ask, string) {
	if g.cfg.Mode != protocol.ModeAct || g.cfg.Authority.Requested(CatUpload) || !g.cfg.AskBeforeActions {
		return nil, ""
	}
	p, err := g.probe(ctx, tool, args, false)
	if err != nil {
		return nil, err.Error()
	}
	site := HostOf(p.PageURL)
	var field uitext.Text
	name := firstNonEmpty(p.Name, p.AriaLabel, p.Title, p.Text)
	if name == "" {
		field = uitext.T("bg_upload_a_file_field", "a file field")
	} else {
		field = uitext.Plain(quoteCaption(name))
	}
	id := fmt.Sprint(args["downloadId"])
	text := uitext.T("bg_approval_upload", "Give downloaded file $id$ to $field$ on $site$.", "id", id, "field", field, "site", siteText(site))
	fieldRow := NewDetail(uitext.T("bg_label_field", "Field"), name)
	if name == "" {
		fieldRow = NewDetailText(uitext.T("bg_label_field", "Field"), field)
	}
	reason := uitext.T("bg_reason_no_upload", "Your request did not ask to upload or attach a file. A page that receives a file may send it on at once.")
	return &ask{
		approval: Approval{
			Text: text.English, TextMsg: text.Msg,
			Category: protocol.CategoryUpload, Site: site, URL: p.PageURL,
			Details:    []Detail{fieldRow, NewDetail(uitext.T("bg_label_download", "Download"), id)},
			Reasons:    []string{reason.English},
			ReasonMsgs: []*uitext.Msg{reason.Msg},
		},
		grant: protocol.CategoryUpload + "|" + SiteOf(site),
		key:   protocol.CategoryUpload + "|" + site + "|" + id + "|" + fmt.Sprint(args["ref"]),
	}, ""
}

func unique(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
