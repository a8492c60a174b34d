package guard

import (
	"context"
	"net/url"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
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
	cat := protocol.CategorySend
	text := uitext.T("bg_approval_skill_send", "Send a request to $host$ with the skill $skill$.", "host", host, "skill", sc.Skill)
	var reasons []uitext.Text
	switch {
	case sc.Download:
		cat = protocol.CategoryDownload
		text = uitext.T("bg_approval_skill_download", "Have $host$ make a file and save it in your downloads with the skill $skill$.", "host", host, "skill", sc.Skill)
		reasons = append(reasons, uitext.T("bg_reason_skill_download", "A download job sends the request, then saves the file it makes."))
	case !sc.PlainRead:
		reasons = append(reasons, uitext.T("bg_reason_skill_not_read", "The skill does not mark this request as a plain read: it may change something or send your data."))
	default:
		cat = protocol.CategoryFetch
	}
	if len(data) > 0 {
		reasons = append(reasons, uitext.T("bg_reason_request_carries", "The request carries $data$ that your request did not give.", "data", dataKindsText(data)))
	}
	details := []Detail{
		NewDetailText(uitext.T("bg_label_tool", "Tool"), uitext.T("bg_skill_tool", "$tool$ (skill $skill$)", "tool", call.Name, "skill", sc.Skill)),
		NewDetail(uitext.T("bg_label_request", "Request"), sc.Method+" "+clipURL(u)),
	}
	if sent := strings.Join(sc.Values, " · "); sent != "" && sc.Method != "GET" {
		details = append(details, NewDetail(uitext.T("bg_label_sends", "Sends"), clip.Line(maskSecrets(sent), 300)))
	}
	details = append(details, data...)
	en, msgs := SplitTexts(reasons)
	return g.askUser(ctx, call, &ask{
		approval: Approval{Text: text.English, TextMsg: text.Msg, Category: cat, Site: host, URL: maskSecrets(u.String()),
			Details: details, Reasons: en, ReasonMsgs: msgs},
		grant: cat + "|skill:" + call.Name + "@" + SiteOf(host),
		key:   cat + "|" + call.Name + "|" + u.String() + "|" + strings.Join(sc.Values, "\x00"),
		fresh: sc.Download,
	})
}
