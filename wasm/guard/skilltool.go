package guard

import (
	"context"
	"net/url"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// SkillCall is what the gate knows of a call of a skill's network tool
// (docs/decisions/tool-skills.md): the request it would send, built from
// the manifest and the model's arguments before anything is sent.
type SkillCall struct {
	Skill  string // the skill's name
	Method string
	URL    string
	// Values are the arguments' text (query and body), for the data check.
	Values []string
	// PlainRead: the manifest's read-only GET (or a packaged skill's
	// read-only POST); see skills.Tool.PlainRead.
	PlainRead bool
	// Packaged: WebBrain ships the skill, so its endpoint is trusted with
	// what the user's task reads.
	Packaged bool
	// Download: a download job, which saves a file.
	Download bool
}

// CheckSkill decides on a skill tool's call. A plain read that carries
// nothing the user did not give passes; in Ask mode nothing else is sent.
// In an action mode every other call, and a read that carries secrets,
// e-mail addresses or (for the user's own skills) page text, waits for the
// user's approval card, whatever "Ask before consequential actions" says:
// it sends data to a third party.
func (g *Gate) CheckSkill(ctx context.Context, call llm.ToolCall, sc SkillCall) (string, error) {
	u, err := url.Parse(sc.URL)
	if err != nil || u.Hostname() == "" {
		return "", nil // the dispatcher reports a bad URL and sends nothing
	}
	host := strings.ToLower(u.Hostname())
	data := g.dataInTokens(append(urlTokens(u), sc.Values...), "request", sc.Packaged)
	if g.cfg.Mode == protocol.ModeAsk {
		switch {
		case !sc.PlainRead:
			return "Ask mode sends nothing: " + call.Name + " is not a plain read. It was not run.", nil
		case len(data) > 0:
			return "Ask mode sends nothing the user did not give, and this request carries " + dataKinds(data) + ". It was not run.", nil
		}
		return "", nil
	}
	if sc.PlainRead && len(data) == 0 {
		return "", nil
	}
	cat, verb := protocol.CategorySend, "Send a request to "+host
	var reasons []string
	switch {
	case sc.Download:
		cat, verb = protocol.CategoryDownload, "Have "+host+" make a file and save it in your downloads"
		reasons = append(reasons, "A download job sends the request, then saves the file it makes.")
	case !sc.PlainRead:
		reasons = append(reasons, "The skill does not mark this request as a plain read: it may change something or send your data.")
	default:
		cat = protocol.CategoryFetch
	}
	if len(data) > 0 {
		reasons = append(reasons, "The request carries "+dataKinds(data)+" that your request did not give.")
	}
	details := []Detail{{Label: "Tool", Value: call.Name + " (skill " + sc.Skill + ")"}, {Label: "Request", Value: sc.Method + " " + clipURL(u)}}
	if sent := strings.Join(sc.Values, " · "); sent != "" && sc.Method != "GET" {
		details = append(details, Detail{Label: "Sends", Value: clip.Line(maskSecrets(sent), 300)})
	}
	details = append(details, data...)
	return g.askUser(ctx, call, &ask{
		approval: Approval{Text: verb + " with the skill " + sc.Skill + ".", Category: cat, Site: host, URL: maskSecrets(u.String()), Details: details, Reasons: reasons},
		grant:    cat + "|skill:" + call.Name + "@" + SiteOf(host),
		key:      cat + "|" + call.Name + "|" + u.String() + "|" + strings.Join(sc.Values, "\x00"),
		fresh:    sc.Download,
	})
}
