package guard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

func sendForm(to string) Probe {
	return Probe{Tag: "button", Role: "button", Type: "submit", Name: "Send", InForm: true, FormMethod: "post",
		FormFields: []Field{{Name: "to", Label: "To", Type: "email", Value: to}, {Name: "body", Label: "Message", Value: "hi"}}}
}

func TestAnApprovalCoversOnlyTheActionItsCardShowed(t *testing.T) {
	page := &fakePage{pageURL: "https://mail.example.com/", probe: sendForm("bob@example.com")}
	// While the card waits, the page puts another address in the To row.
	user := &fakeUser{decide: func(Approval) Decision {
		page.probe = sendForm("eve@evil.example")
		return ApproveSite
	}}
	g := newGate("act", "what is on this page?", page.pageURL, page, user)
	ctx := context.Background()

	r, _ := g.Check(ctx, call("a", "click_ax", map[string]any{"ref": "ref_1"}))
	assert.Equal(t, changedWhileAsked, r)
	assert.Empty(t, g.Submissions(), "nothing was recorded as sent")
	assert.Len(t, page.probed, 2, "the control was probed again after the approval")

	// The site grant was not kept: the next try shows the new recipient.
	user.decide = func(Approval) Decision { return Approve }
	r, _ = g.Check(ctx, call("b", "click_ax", map[string]any{"ref": "ref_1"}))
	assert.Empty(t, r)
	if assert.Len(t, user.cards, 2) {
		assert.Contains(t, detailValues(user.cards[1]), "eve@evil.example")
	}
}

func TestAnApprovalOfAnUnchangedActionGoesThrough(t *testing.T) {
	page := &fakePage{pageURL: "https://mail.example.com/", probe: sendForm("bob@example.com")}
	user := &fakeUser{decide: func(Approval) Decision { return Approve }}
	g := newGate("act", "what is on this page?", page.pageURL, page, user)
	r, _ := g.Check(context.Background(), call("a", "click_ax", map[string]any{"ref": "ref_1"}))
	assert.Empty(t, r)
	assert.Len(t, user.cards, 1)
}

func TestTheActionPrintLeavesOutARecordsLiveText(t *testing.T) {
	a, b := sendForm("bob@example.com"), sendForm("bob@example.com")
	a.Record, b.Record = "Bob · 2 minutes ago", "Bob · 3 minutes ago"
	assert.Equal(t, a.actionPrint(), b.actionPrint())
	b.Heading = "Another item"
	assert.NotEqual(t, a.actionPrint(), b.actionPrint())
}

func detailValues(a Approval) []string {
	var out []string
	for _, d := range a.Details {
		out = append(out, d.Value)
	}
	return out
}

func TestAnApprovedDownloadFromThePageMustStillBeTheFileShown(t *testing.T) {
	page := &fakePage{pageURL: "https://reports.example.com/q3", resource: Resource{URL: "https://reports.example.com/files/q3.csv", Kind: "link"}}
	user := &fakeUser{decide: func(Approval) Decision {
		page.resource = Resource{URL: "https://reports.example.com/files/payload.exe", Kind: "link"}
		return Approve
	}}
	g := newGate("act", "What does the Q3 report say?", page.pageURL, page, user)
	r, _ := g.Check(context.Background(), call("a", "download_resource_from_page", map[string]any{"ref": "ref_4"}))
	assert.Equal(t, changedWhileAsked, r)

	user.decide = func(Approval) Decision { return Approve }
	r, _ = g.Check(context.Background(), call("b", "download_resource_from_page", map[string]any{"ref": "ref_4"}))
	assert.Empty(t, r)
	if assert.Len(t, user.cards, 2) {
		assert.Contains(t, user.cards[1].URL, "payload.exe")
	}
}
