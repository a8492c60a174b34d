package guard

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Preflighter is a Prober that can tell before the user is asked that a
// call cannot run (no solver key, no WebMCP in this browser, a WebMCP
// tool the page no longer offers): a card for it would ask about nothing,
// so the call goes on to fail with the executor's own reason, having done
// nothing. For a call that can run it says what the card should show.
type Preflighter interface {
	Preflight(ctx context.Context, tool string, args map[string]any) (Preflight, error)
}

// Preflight is what the executor knows about a call the user is asked
// about: the origin it acts on and labelled values.
type Preflight struct {
	Site    string
	Details []Detail
}

// preflight asks the executor; ok is false when the call cannot run.
func (g *Gate) preflight(ctx context.Context, tool string, args map[string]any) (Preflight, bool) {
	pf, ok := g.cfg.Prober.(Preflighter)
	if !ok {
		return Preflight{}, true
	}
	p, err := pf.Preflight(ctx, tool, args)
	return p, err == nil
}

// checkDrop judges what a drop lands on, as a click on it: dropping a
// message on "Trash" deletes it, a file on "Share with…" shares it. A drop
// does not follow a link or submit a form, so only the consequential
// categories count.
func (g *Gate) checkDrop(ctx context.Context, tool string, args map[string]any) (*ask, string) {
	at := map[string]any{}
	if ref, ok := args["targetRef"]; ok {
		at["ref"] = ref
	} else {
		at["x"], at["y"] = args["targetX"], args["targetY"]
	}
	p, err := g.probe(ctx, tool, at, false)
	if err != nil {
		return nil, err.Error()
	}
	c := Classify(p.control())
	switch c.Category {
	case CatNone, CatNavigate, CatSubmit:
		return nil, ""
	}
	target := c.captionText()
	if strings.TrimSpace(target.English) == "" {
		target = uitext.Plain(quoteCaption(firstNonEmpty(p.Name, p.Text)))
	}
	c.setCaption(uitext.T("bg_caption_drop_onto", "drop onto $target$", "target", target))
	return g.judgeConsequential(ctx, tool, p, c)
}

// checkCaptcha asks before the page's CAPTCHA goes to the user's solver
// service, unless the user's own words ask for a CAPTCHA to be solved: the
// page's address and the widget's key leave for a third party, and a page
// must not get the agent past a check meant for a person on its own.
func (g *Gate) checkCaptcha(ctx context.Context) (*ask, string) {
	if g.cfg.Authority.SharesWord("captcha") {
		return nil, ""
	}
	page := g.pageURL(ctx)
	site := HostOf(page)
	text := uitext.T("bg_approval_captcha", "Send the CAPTCHA on $site$ to your CAPTCHA solver service and fill in its answer.", "site", siteText(site))
	reason := uitext.T("bg_reason_no_captcha", "Your request did not ask to solve a CAPTCHA.")
	return &ask{
		approval: Approval{
			Text: text.English, TextMsg: text.Msg,
			Category: protocol.CategoryCaptcha, Site: site, URL: maskSecrets(page),
			Details: []Detail{
				NewDetail(uitext.T("bg_label_service", "Service"), "api.capsolver.com"),
				NewDetailText(uitext.T("bg_label_sent", "Sent"), uitext.T("bg_captcha_sent", "the page's address and the CAPTCHA's site key")),
			},
			Reasons: []string{reason.English}, ReasonMsgs: []*uitext.Msg{reason.Msg},
		},
		grant: protocol.CategoryCaptcha + "|" + SiteOf(site),
		key:   protocol.CategoryCaptcha + "|" + page,
	}, ""
}

// checkWebMCP asks before every call of a page's WebMCP tool: the page
// wrote the tool, its description and its "read-only" hints, so nothing
// about it is trusted, and an approval covers that one call only. The
// card names the origin of the frame that registered the tool.
func (g *Gate) checkWebMCP(ctx context.Context, args map[string]any, pf Preflight) (*ask, string) {
	page := g.pageURL(ctx)
	site := firstNonEmpty(HostOf(pf.Site), HostOf(page))
	id, _ := args["toolId"].(string)
	input, _ := json.Marshal(args["input"])
	if args["input"] == nil {
		input = []byte("{}")
	}
	details := append([]Detail{NewDetail(uitext.T("bg_label_id", "Id"), clip.Line(id, 40))}, pf.Details...)
	text := uitext.T("bg_approval_webmcp", "Run the tool $tool$ that the page on $site$ offers through WebMCP.", "tool", clip.Line(id, 40), "site", siteText(site))
	reason := uitext.T("bg_reason_webmcp", "A page's WebMCP tool can do anything the page can, whatever it says about itself; every call is asked about.")
	return &ask{
		approval: Approval{
			Text: text.English, TextMsg: text.Msg,
			Category: protocol.CategoryWebMCP, Site: site, URL: maskSecrets(page),
			Details: append(details, NewDetail(uitext.T("bg_label_input", "Input"), clip.Line(maskSecrets(string(input)), 300))),
			Reasons: []string{reason.English}, ReasonMsgs: []*uitext.Msg{reason.Msg},
		},
		fresh: true,
		key:   protocol.CategoryWebMCP + "|" + page + "|" + id + "|" + string(input),
	}, ""
}

// pageURL is the tab's page, for a card; "" when the page cannot say.
func (g *Gate) pageURL(ctx context.Context) string {
	if g.cfg.Prober == nil {
		return ""
	}
	u, _, err := g.cfg.Prober.Links(ctx)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(u)
}
