package guard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDownloadOfALinkTheUserAskedFor(t *testing.T) {
	page := &fakePage{pageURL: "https://reports.example.com/q3", links: []string{"https://reports.example.com/files/q3.csv"}}
	user := &fakeUser{}
	g := newGate("act", "Download the Q3 CSV report", page.pageURL, page, user)

	refusal, err := g.Check(context.Background(), call("c1", "download_files", map[string]any{"urls": []any{"https://reports.example.com/files/q3.csv"}}))
	require.NoError(t, err)
	assert.Empty(t, refusal)
	assert.Empty(t, user.cards, "a link the page shows, and the user asked for a download")
}

func TestDownloadNotAskedForWaitsForTheUser(t *testing.T) {
	page := &fakePage{pageURL: "https://reports.example.com/q3", links: []string{"https://reports.example.com/files/q3.csv"}}
	user := &fakeUser{}
	g := newGate("act", "What does the Q3 report say about revenue?", page.pageURL, page, user)

	refusal, _ := g.Check(context.Background(), call("c1", "download_files", map[string]any{"urls": []any{"https://reports.example.com/files/q3.csv"}}))
	assert.Contains(t, refusal, "declined")
	require.Len(t, user.cards, 1)
	assert.Equal(t, "download", user.cards[0].Category)
	assert.Contains(t, user.cards[0].Reasons, "Your request did not ask to download files.")
}

func TestDownloadOfAnAddressThePageDoesNotShowIsAsked(t *testing.T) {
	page := &fakePage{pageURL: "https://reports.example.com/q3", links: []string{"https://reports.example.com/files/q3.csv"}}
	user := &fakeUser{}
	g := New(Config{Mode: "act", AskBeforeActions: false, Prober: page, Approver: user})
	g.SetWords([]string{"Download every file here"}, page.pageURL)

	refusal, _ := g.Check(context.Background(), call("c1", "download_files", map[string]any{"urls": []any{"https://collector.evil.test/x.bin"}}))
	assert.Contains(t, refusal, "declined", "even with the setting off")
	require.Len(t, user.cards, 1)
	assert.Equal(t, "collector.evil.test", user.cards[0].Site)
}

func TestDownloadOfAResourceCarryingPageData(t *testing.T) {
	page := &fakePage{pageURL: "https://mail.example.com/inbox", resource: Resource{URL: "https://img.tracker.test/p.gif?token=sk-live-4f9a8b7c6d5e4f3a2b1c0d9e", Kind: "image"}}
	user := &fakeUser{}
	g := newGate("act", "Download the picture in this email", page.pageURL, page, user)

	refusal, _ := g.Check(context.Background(), call("c1", "download_resource_from_page", map[string]any{"ref": "ref_3"}))
	assert.Contains(t, refusal, "declined")
	require.Len(t, user.cards, 1)
	assert.Equal(t, "download", user.cards[0].Category)
}

func TestUploadAskedUnlessRequested(t *testing.T) {
	page := &fakePage{pageURL: "https://forms.example.com/apply", probe: Probe{Tag: "input", Type: "file", Name: "Résumé"}}
	user := &fakeUser{}
	g := newGate("act", "Upload the CV you downloaded to this form", page.pageURL, page, user)
	refusal, err := g.Check(context.Background(), call("c1", "upload_file", map[string]any{"downloadId": 4, "ref": "ref_9"}))
	require.NoError(t, err)
	assert.Empty(t, refusal)
	assert.Empty(t, user.cards)

	g = newGate("act", "Fill in my name on this form", page.pageURL, page, user)
	refusal, _ = g.Check(context.Background(), call("c2", "upload_file", map[string]any{"downloadId": 4, "ref": "ref_9"}))
	assert.Contains(t, refusal, "declined")
	require.Len(t, user.cards, 1)
	assert.Equal(t, "upload", user.cards[0].Category)
	assert.Contains(t, user.cards[0].Text, "Résumé")
}

func TestDownloadRequestIsNoSubmission(t *testing.T) {
	a := NewAuthority([]string{"Download the invoice PDF"}, "")
	assert.True(t, a.Requested(CatDownload))
	assert.False(t, a.Requested(CatSubmit), "a download asks for no form to be sent")
	assert.False(t, NewAuthority([]string{"Is the download link broken?"}, "").Requested(CatDownload))
}

func TestAskModeShowsNoCardForFileTools(t *testing.T) {
	page := &fakePage{pageURL: "https://reports.example.com/q3", links: []string{"https://reports.example.com/files/q3.csv"}}
	user := &fakeUser{}
	g := newGate("ask", "What does the report say?", page.pageURL, page, user)
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"download_files", map[string]any{"urls": []any{"https://collector.evil.test/x.bin"}}},
		{"upload_file", map[string]any{"downloadId": 1, "ref": "ref_2"}},
	} {
		refusal, err := g.Check(context.Background(), call("c1", c.name, c.args))
		require.NoError(t, err)
		assert.Empty(t, refusal, "the dispatcher refuses it in Ask")
	}
	assert.Empty(t, user.cards, "no card for a call Ask never runs")
}
