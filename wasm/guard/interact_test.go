package guard

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webbrain/webbrain/wasm/uitext"
)

// preflightPage is a fakePage whose executor knows which calls can run.
type preflightPage struct {
	fakePage
	pf  Preflight
	err error
}

func (p *preflightPage) Preflight(context.Context, string, map[string]any) (Preflight, error) {
	return p.pf, p.err
}

func TestDropOnTrashIsADeletion(t *testing.T) {
	page := &fakePage{pageURL: "https://mail.example.com/inbox", probe: Probe{Tag: "button", Role: "button", Name: "Delete", Text: "Delete"}}
	user := &fakeUser{}
	g := newGate("act", "Move the newsletter to the Promotions folder", page.pageURL, page, user)
	refusal, err := g.Check(context.Background(), call("c1", "drag_drop", map[string]any{"sourceRef": "ref_1", "targetRef": "ref_9"}))
	require.NoError(t, err)
	assert.Contains(t, refusal, "declined")
	require.Len(t, user.cards, 1)
	assert.Equal(t, "delete", user.cards[0].Category)
	assert.Equal(t, "ref_9", page.probed[0]["ref"], "the target is probed, not the source")

	// A drop on a plain list item asks nothing.
	page.probe = Probe{Tag: "li", Role: "listitem", Name: "Gamma"}
	refusal, err = g.Check(context.Background(), call("c2", "drag_drop", map[string]any{"sourceRef": "ref_1", "targetX": 10.0, "targetY": 20.0}))
	require.NoError(t, err)
	assert.Empty(t, refusal)
	assert.Len(t, user.cards, 1)
	assert.Equal(t, 10.0, page.probed[1]["x"])
}

func TestCaptchaAsksUnlessTheUserMentionedIt(t *testing.T) {
	page := &preflightPage{fakePage: fakePage{pageURL: "https://shop.example/checkout"}}
	user := &fakeUser{decide: func(Approval) Decision { return Approve }}
	g := newGate("act", "Buy the blue mug", page.pageURL, &page.fakePage, user)
	g.cfg.Prober = page
	refusal, err := g.Check(context.Background(), call("c1", "solve_captcha", map[string]any{}))
	require.NoError(t, err)
	assert.Empty(t, refusal)
	require.Len(t, user.cards, 1)
	assert.Equal(t, "captcha", user.cards[0].Category)
	assert.Equal(t, "shop.example", user.cards[0].Site)

	g.SetWords([]string{"Solve the captcha and log me in"}, page.pageURL)
	refusal, _ = g.Check(context.Background(), call("c2", "solve_captcha", map[string]any{}))
	assert.Empty(t, refusal)
	assert.Len(t, user.cards, 1, "the user's words asked for it")

	// No solver key: no card; the executor says why.
	g.SetWords([]string{"Buy the blue mug"}, page.pageURL)
	page.err = errors.New("no solver")
	refusal, _ = g.Check(context.Background(), call("c3", "solve_captcha", map[string]any{}))
	assert.Empty(t, refusal)
	assert.Len(t, user.cards, 1)
}

func TestEveryWebMCPCallIsAskedFresh(t *testing.T) {
	page := &preflightPage{
		fakePage: fakePage{pageURL: "https://notes.example/"},
		pf:       Preflight{Site: "https://notes.example", Details: []Detail{{Label: "Tool (the page's name)", Value: "add_note"}}},
	}
	user := &fakeUser{decide: func(Approval) Decision { return ApproveSite }}
	g := newGate("act", "Add a note", page.pageURL, &page.fakePage, user)
	g.cfg.Prober = page
	args := map[string]any{"toolId": "wmcp_1", "input": map[string]any{"text": "milk"}}
	for i, id := range []string{"c1", "c2"} {
		refusal, err := g.Check(context.Background(), call(id, "execute_webmcp_tool", args))
		require.NoError(t, err)
		assert.Empty(t, refusal)
		require.Len(t, user.cards, i+1, "each call gets its own card, an approve_site answer included")
	}
	c := user.cards[0]
	assert.Equal(t, "webmcp", c.Category)
	assert.Equal(t, []string{"approve", "decline"}, c.Choices)
	assert.Equal(t, "notes.example", c.Site)
	assert.Contains(t, c.Details, Detail{Label: "Tool (the page's name)", Value: "add_note"})
	assert.Contains(t, c.Details, Detail{Label: "Input", Value: `{"text":"milk"}`, LabelMsg: &uitext.Msg{Key: "bg_label_input"}})
	assert.Equal(t, "bg_approval_webmcp", c.TextMsg.Key)
	assert.Equal(t, "wmcp_1", c.TextMsg.Params["tool"], "the page's tool id is data")

	user.decide = func(Approval) Decision { return Decline }
	refusal, _ := g.Check(context.Background(), call("c3", "execute_webmcp_tool", args))
	assert.Contains(t, refusal, "declined")

	page.err = errors.New("this browser does not expose WebMCP")
	before := len(user.cards)
	refusal, _ = g.Check(context.Background(), call("c4", "execute_webmcp_tool", map[string]any{"toolId": "wmcp_2"}))
	assert.Empty(t, refusal)
	assert.Len(t, user.cards, before, "no card for a call that cannot run")
}

func TestNewTabFollowsTheEgressRulesWithoutMovingTheRun(t *testing.T) {
	page := &fakePage{pageURL: "https://news.example.com/"}
	user := &fakeUser{decide: func(Approval) Decision { return Approve }}
	g := newGate("act", "Open the story in a new tab", page.pageURL, page, user)
	refusal, _ := g.Check(context.Background(), call("c1", "new_tab", map[string]any{"url": "https://news.example.com/story"}))
	assert.Empty(t, refusal)
	assert.Empty(t, user.cards, "the site the run is on")

	refusal, _ = g.Check(context.Background(), call("c2", "new_tab", map[string]any{"url": "https://elsewhere.example.org/"}))
	assert.Empty(t, refusal)
	require.Len(t, user.cards, 1)
	assert.Equal(t, "Open elsewhere.example.org in a new tab.", user.cards[0].Text)
	assert.False(t, g.isVisited(SiteOf("elsewhere.example.org")), "a new tab is the user's: the run does not work there")
}
