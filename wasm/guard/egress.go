package guard

import (
	"context"
	"net/url"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/netaddr"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// checkURL decides on a request the agent makes the browser send: a
// navigation, a fetch_url GET or a click on a link. URLs the user gave and
// the sites the run works on pass, and so do links the page visibly shows
// there; any other destination, and any URL that carries data the user did
// not give (secrets, addresses, page text), waits for the user. Ask mode
// refuses any URL that carries such data and asks before reading a site
// the user neither named nor is on.
//
// A link click (linkClick) comes from pageURL with the link's caption: a
// link that leaves for a site the run does not work on passes only when
// its caption or host has a word the user wrote ("open the seller's
// site"); a page cannot send the agent off-site with a link of its own.
func (g *Gate) checkURL(ctx context.Context, tool, raw string, linkClick bool, pageURL, caption string) (*ask, string) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil, "" // the dispatcher refuses what is not http(s); javascript: links are controls
	}
	auth := g.cfg.Authority
	host := strings.ToLower(u.Hostname())
	site := SiteOf(host)
	named := auth.NamedSite(host)
	working := named || g.isVisited(site)

	if !linkClick && !working && netaddr.Private(host) != "" {
		// navigate and fetch_url refuse a local address the user did not
		// name; a card would ask about a request that cannot be sent.
		return nil, ""
	}

	shown := false // a link the page visibly shows, on a site the run works on
	if linkClick {
		shown = g.isVisited(SiteOf(HostOf(pageURL))) && (working || auth.SharesWord(caption+" "+urlWords(u)))
	} else if !working && g.cfg.Prober != nil {
		if cur, links, err := g.cfg.Prober.Links(ctx); err == nil && g.isVisited(SiteOf(HostOf(cur))) {
			pageURL = cur
			shown = containsURL(links, u) && auth.SharesWord(urlWords(u))
		}
	}
	data := g.dataIn(u, working || shown)

	if g.cfg.Mode == protocol.ModeAsk {
		if len(data) > 0 {
			return nil, "Ask mode sends nothing the user did not give, and this address carries " + dataKinds(data) + ". It was not fetched."
		}
		if working {
			// A GET without data to a site the user named or is on: fetch_url
			// sends no cookies, so it can neither act as the user nor leak.
			return nil, ""
		}
	} else if len(data) == 0 && (working || shown) {
		if movesTab(tool) {
			g.Visit(u.String())
		}
		return nil, ""
	}

	var reasons []uitext.Text
	if !named && !(working || shown) {
		reasons = append(reasons, uitext.T("bg_reason_host_not_named", "You did not name $host$, and the run was not working on it.", "host", host))
	} else if g.cfg.Mode == protocol.ModeAsk && !named {
		reasons = append(reasons, uitext.T("bg_reason_ask_host", "Ask mode only reads the sites you named or are on; you did not name $host$.", "host", host))
	}
	if len(data) > 0 {
		reasons = append(reasons, uitext.T("bg_reason_address_carries", "The address carries $data$ that your request did not give.", "data", dataKindsText(data)))
	}
	cat := protocol.CategoryNavigate
	link := pageURL != "" && linkClick
	var text uitext.Text
	switch {
	case isFetch(tool):
		cat, text = protocol.CategoryFetch, uitext.T("bg_approval_fetch", "Fetch a page from $host$.", "host", host)
	case tool == protocol.ToolNewTab && link:
		text = uitext.T("bg_approval_new_tab_link", "Open $host$ in a new tab (a link on $page$).", "host", host, "page", HostOf(pageURL))
	case tool == protocol.ToolNewTab:
		text = uitext.T("bg_approval_new_tab", "Open $host$ in a new tab.", "host", host)
	case link:
		text = uitext.T("bg_approval_open_link", "Open $host$ (a link on $page$).", "host", host, "page", HostOf(pageURL))
	default:
		text = uitext.T("bg_approval_open", "Open $host$.", "host", host)
	}
	if isFetch(tool) && link {
		text = uitext.T("bg_approval_fetch_link", "Fetch a page from $host$ (a link on $page$).", "host", host, "page", HostOf(pageURL))
	}
	details := append([]Detail{NewDetail(labelAddress(), clipURL(u))}, data...)
	visit := u.String()
	en, msgs := SplitTexts(reasons)
	return &ask{
		approval: Approval{Text: text.English, TextMsg: text.Msg, Category: cat, Site: host, URL: maskSecrets(u.String()),
			Details: details, Reasons: en, ReasonMsgs: msgs},
		grant: cat + "|" + site,
		key:   cat + "|" + u.String(),
		allowed: func() {
			// An approved clean fetch marks its site as one the run reads;
			// a new tab is the user's, not the run's.
			if tool != protocol.ToolNewTab && (len(data) == 0 || !isFetch(tool)) {
				g.Visit(visit)
			}
		},
	}, ""
}

// isFetch tells the tools that read a URL without leaving the page
// (fetch_url, read_pdf, research_url) from navigations.
func isFetch(tool string) bool {
	return tool == protocol.ToolFetchURL || tool == protocol.ToolReadPDF || tool == protocol.ToolResearchURL
}

// movesTab reports whether tool takes the run's tab to its URL: the
// fetches only read it, and new_tab opens it in a tab the run does not
// work on.
func movesTab(tool string) bool {
	return !isFetch(tool) && tool != protocol.ToolNewTab
}

// dataIn lists what a URL carries that the user did not give: secrets and
// e-mail addresses anywhere in it; on a site the run does not work on,
// also text the run read from pages and the user's own longer phrases.
func (g *Gate) dataIn(u *url.URL, trustedDest bool) []Detail {
	return g.dataInTokens(urlTokens(u), "address", trustedDest)
}

// dataInTokens is dataIn over the parts of a request that can carry data,
// labelled as being in where ("address", "request").
func (g *Gate) dataInTokens(tokens []string, where string, trustedDest bool) []Detail {
	auth := g.cfg.Authority
	var out []Detail
	seen := map[string]bool{}
	add := func(kind, v string) {
		label := dataLabel(kind, where)
		if !seen[label.English+v] {
			seen[label.English+v] = true
			out = append(out, NewDetail(label, v))
		}
	}
	for _, tok := range tokens {
		for _, m := range g.secretsNotFromUser(tok) {
			add("secret", hint(m))
		}
		for _, e := range emailsIn(tok) {
			if !auth.Mentions(e) {
				add("email", e)
			}
		}
		if trustedDest || len([]rune(tok)) < 8 {
			continue
		}
		low := strings.ToLower(tok)
		switch {
		case len([]rune(tok)) >= 12 && strings.Contains(auth.words, low):
			add("words", clip.Line(tok, 60))
		case !auth.Mentions(tok) && g.inCorpus(low):
			add("page", clip.Line(tok, 60))
		}
	}
	return out
}

func (g *Gate) inCorpus(s string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, c := range g.corpus {
		if strings.Contains(c, s) {
			return true
		}
	}
	return false
}

// urlTokens are the decoded parts of a URL that can carry data: path
// segments, query keys and values, the fragment, and the user-info.
func urlTokens(u *url.URL) []string {
	var out []string
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		if s, err := url.PathUnescape(seg); err == nil && s != "" {
			out = append(out, s)
		}
	}
	for k, vs := range u.Query() {
		out = append(out, k)
		out = append(out, vs...)
	}
	if u.Fragment != "" {
		out = append(out, u.Fragment)
	}
	if u.User != nil {
		out = append(out, u.User.String())
	}
	// Values inside a value ("a=b&c=d" encoded once more) are found by
	// scanning the whole query text too.
	if q, err := url.QueryUnescape(u.RawQuery); err == nil && q != "" {
		out = append(out, q)
	}
	return out
}

// emailsIn finds e-mail addresses in s (emails), lowercased.
func emailsIn(s string) []string {
	out := emails(s)
	for i, e := range out {
		out[i] = strings.ToLower(e)
	}
	return out
}

// containsURL reports whether u is one of the links (the fragment aside).
func containsURL(links []string, u *url.URL) bool {
	want := withoutFragment(u)
	for _, l := range links {
		if lu, err := url.Parse(l); err == nil && withoutFragment(lu) == want {
			return true
		}
	}
	return false
}

func withoutFragment(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return strings.TrimSuffix(c.String(), "/")
}

func dataKinds(ds []Detail) string {
	var kinds []string
	seen := map[string]bool{}
	for _, d := range ds {
		k, _, _ := strings.Cut(strings.ToLower(d.Label), " in the ")
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	switch len(kinds) {
	case 0:
		return "data"
	case 1:
		return kinds[0]
	}
	return strings.Join(kinds[:len(kinds)-1], ", ") + " and " + kinds[len(kinds)-1]
}

// dataLabel labels a value found in a request: kind is secret, email,
// words or page; where is address or request.
func dataLabel(kind, where string) uitext.Text {
	switch kind + "|" + where {
	case "secret|address":
		return uitext.T("bg_label_secret_in_address", "Secret in the address")
	case "secret|request":
		return uitext.T("bg_label_secret_in_request", "Secret in the request")
	case "email|address":
		return uitext.T("bg_label_email_in_address", "E-mail address in the address")
	case "email|request":
		return uitext.T("bg_label_email_in_request", "E-mail address in the request")
	case "words|address":
		return uitext.T("bg_label_words_in_address", "Your words in the address")
	case "words|request":
		return uitext.T("bg_label_words_in_request", "Your words in the request")
	case "page|address":
		return uitext.T("bg_label_page_text_in_address", "Page text in the address")
	case "page|request":
		return uitext.T("bg_label_page_text_in_request", "Page text in the request")
	}
	return uitext.Plain(kind + " in the " + where)
}

// dataKindsText is dataKinds for the card: each kind a key, joined as
// the language joins a list.
func dataKindsText(ds []Detail) uitext.Text {
	var kinds []uitext.Text
	seen := map[string]bool{}
	for _, d := range ds {
		k, _, _ := strings.Cut(strings.ToLower(d.Label), " in the ")
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, dataKindText(k))
		}
	}
	if len(kinds) == 0 {
		return uitext.T("bg_data_some", "data")
	}
	return joinTexts(kinds)
}

func dataKindText(k string) uitext.Text {
	switch k {
	case "secret":
		return uitext.T("bg_data_secret", "secret")
	case "e-mail address":
		return uitext.T("bg_data_email", "e-mail address")
	case "your words":
		return uitext.T("bg_data_your_words", "your words")
	case "page text":
		return uitext.T("bg_data_page_text", "page text")
	}
	return uitext.Plain(k)
}

// joinTexts joins a list: "a", "a and b", "a, b and c".
func joinTexts(ts []uitext.Text) uitext.Text {
	switch len(ts) {
	case 1:
		return ts[0]
	case 2:
		return uitext.T("bg_list_and", "$first$ and $last$", "first", ts[0], "last", ts[1])
	}
	return uitext.T("bg_list_comma", "$first$, $rest$", "first", ts[0], "rest", joinTexts(ts[1:]))
}

// clipURL shows a URL on a card without its secrets.
func clipURL(u *url.URL) string {
	return clip.Line(maskSecrets(u.String()), 200)
}

// urlWords are the words of a URL's host and path, for matching the user's.
func urlWords(u *url.URL) string {
	return strings.NewReplacer(".", " ", "/", " ", "-", " ", "_", " ").Replace(u.Hostname() + " " + u.Path)
}
