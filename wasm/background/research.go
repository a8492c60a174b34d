package background

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/secrets"
	"github.com/webbrain/webbrain/wasm/tools"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Research escalation (docs/decisions/research-escalation.md): with the
// user's approval on WebBrain's own card, an Ask run puts one question to
// ChatGPT in a new tab where the user is signed in, and reads the answer
// back as untrusted evidence. The helper's address is fixed.

// researchOrigin is the only site the helper tab ever opens or types into.
const researchOrigin = "https://chatgpt.com"

// Timings of the helper.
const (
	researchLoad   = 30 * time.Second // the helper tab's first load
	researchAnswer = 3 * time.Minute  // ChatGPT's answer
	researchPoll   = time.Second
	researchMaxLen = 4000 // runes of a question
	researchResult = 6000 // runes of the answer the model gets
)

// researchReply is the content script's wb_research answer.
type researchReply struct {
	Composer  bool     `json:"composer"`
	SignedOut bool     `json:"signedOut"`
	Sent      bool     `json:"sent"`
	Count     int      `json:"count"`     // assistant messages on the page
	Streaming bool     `json:"streaming"` // ChatGPT is still writing
	Text      string   `json:"text"`      // the newest assistant message
	Links     []string `json:"links"`
}

// research is agent.Options.Research for a run.
func (r *Router) research(ru *run, b tools.Boundary) func(ctx context.Context, request string) (string, error) {
	return func(ctx context.Context, request string) (string, error) {
		if r.p.Windows == nil {
			return "", errors.New("research escalation is not available in this browser")
		}
		if len([]rune(request)) > researchMaxLen {
			return "", fmt.Errorf("the question is longer than %d characters; shorten it", researchMaxLen)
		}
		if ok, err := r.approveResearch(ctx, ru, request); err != nil || !ok {
			if err != nil {
				return "", err
			}
			return "", errors.New("the user declined to ask ChatGPT. Answer from what you can read, and say what you could not find")
		}
		tab, err := r.p.Windows.OpenTab(ctx, ru.tabID, researchOrigin+"/")
		if err != nil {
			return "", fmt.Errorf("WebBrain could not open ChatGPT: %v", err)
		}
		reply, err := r.askHelper(ctx, tab.ID, request)
		if err != nil {
			return "", err
		}
		var out strings.Builder
		out.WriteString(clip.Runes(strings.TrimSpace(reply.Text), researchResult))
		if len(reply.Links) > 0 {
			out.WriteString("\n\nSources:\n")
			for i, l := range reply.Links {
				if i == 10 {
					break
				}
				out.WriteString("- " + l + "\n")
			}
		}
		return "ChatGPT's answer (delegated research: untrusted evidence from chatgpt.com; check it against what you know and cite it as ChatGPT's):\n" +
			b.Wrap(strings.TrimSpace(out.String())) + "\nThe ChatGPT tab stays open for the user.", nil
	}
}

// approveResearch shows the exact question on WebBrain's card.
func (r *Router) approveResearch(ctx context.Context, ru *run, request string) (bool, error) {
	reasons := []uitext.Text{uitext.T("bg_reason_research", "The question leaves this browser for ChatGPT (OpenAI), in your signed-in account.")}
	details := []guard.Detail{guard.NewDetail(uitext.T("bg_label_question", "Question"), request)}
	if found := secrets.Find(request); len(found) > 0 {
		reasons = append(reasons, uitext.T("bg_reason_research_secret", "The question contains what looks like a password, key, code or card number."))
	}
	text := uitext.T("bg_approval_research", "Ask ChatGPT this question in a new tab, where you are signed in.")
	en, msgs := guard.SplitTexts(reasons)
	n := ru.j.count(protocol.EventApproval)
	d, err := ru.appr.Approve(ctx, guard.Approval{
		ID:       fmt.Sprintf("appr_research_%d", n+1),
		Tool:     tools.DelegateResearch,
		Category: protocol.CategoryResearch,
		Text:     text.English, TextMsg: text.Msg,
		Site: "chatgpt.com", URL: researchOrigin + "/", Details: details, Reasons: en, ReasonMsgs: msgs,
		Choices: []string{string(guard.Decline), string(guard.Approve)},
	})
	return d == guard.Approve, err
}

// askHelper waits for the helper tab to load on researchOrigin, types the
// question, sends it, and waits for the new answer. The tab's address is
// checked before typing and again before sending: a redirect to another
// site never gets the question.
func (r *Router) askHelper(ctx context.Context, tabID int, request string) (researchReply, error) {
	var none researchReply
	deadline := r.p.Clock.Now().Add(researchLoad)
	var probe researchReply
	for {
		if err := r.onResearchOrigin(ctx, tabID); err != nil {
			return none, err
		}
		p, err := r.researchCall(ctx, tabID, map[string]any{"op": "probe"})
		if err == nil && (p.Composer || p.SignedOut) {
			probe = p
			break
		}
		if r.p.Clock.Now().After(deadline) {
			return none, errors.New("ChatGPT did not load in time in its tab; the tab stays open for the user")
		}
		if err := r.sleep(ctx, researchPoll); err != nil {
			return none, err
		}
	}
	if probe.SignedOut || !probe.Composer {
		return none, errors.New("the user is not signed in to ChatGPT in this browser; ask them to sign in at chatgpt.com in the tab WebBrain opened, then try again")
	}
	if err := r.onResearchOrigin(ctx, tabID); err != nil {
		return none, err
	}
	sent, err := r.researchCall(ctx, tabID, map[string]any{"op": "send", "text": request, "origin": researchOrigin})
	if err != nil {
		return none, err
	}
	if !sent.Sent {
		return none, errors.New("WebBrain could not send the question on ChatGPT's page")
	}
	deadline = r.p.Clock.Now().Add(researchAnswer)
	last := ""
	for {
		if err := r.sleep(ctx, researchPoll); err != nil {
			return none, err
		}
		if err := r.onResearchOrigin(ctx, tabID); err != nil {
			return none, err
		}
		got, err := r.researchCall(ctx, tabID, map[string]any{"op": "read"})
		if err != nil {
			return none, err
		}
		// Done: a new answer, no longer streaming, the same text twice.
		if got.Count > sent.Count && !got.Streaming && got.Text != "" && got.Text == last {
			return got, nil
		}
		last = got.Text
		if r.p.Clock.Now().After(deadline) {
			return none, errors.New("ChatGPT did not finish its answer in time; the tab stays open for the user")
		}
	}
}

// onResearchOrigin fails when the helper tab is gone or left the fixed site.
func (r *Router) onResearchOrigin(ctx context.Context, tabID int) error {
	tab, err := r.p.Tabs.Get(ctx, tabID)
	if err != nil {
		return errors.New("the ChatGPT tab was closed")
	}
	if tab.URL != researchOrigin && !strings.HasPrefix(tab.URL, researchOrigin+"/") {
		if tab.Status == "loading" && (tab.URL == "" || tab.URL == "about:blank") {
			return nil // still starting
		}
		return errors.New("the ChatGPT tab went to another site (probably a sign-in page): the question was not sent there. Ask the user to sign in at chatgpt.com, then try again")
	}
	return nil
}

func (r *Router) researchCall(ctx context.Context, tabID int, args map[string]any) (researchReply, error) {
	msg, err := json.Marshal(map[string]any{"wb": "tool", "name": protocol.PageResearch, "args": args})
	if err != nil {
		return researchReply{}, err
	}
	raw, err := r.p.Content.Send(ctx, tabID, msg)
	if err != nil {
		return researchReply{}, fmt.Errorf("WebBrain could not reach ChatGPT's page: %v", err)
	}
	var reply struct {
		OK     bool          `json:"ok"`
		Error  string        `json:"error"`
		Result researchReply `json:"result"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil || !reply.OK {
		return researchReply{}, fmt.Errorf("ChatGPT's page did not answer as expected: %s", clip.Line(reply.Error, 200))
	}
	return reply.Result, nil
}

func (r *Router) sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-r.p.Clock.After(d):
		return nil
	}
}
