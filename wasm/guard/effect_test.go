package guard

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeEffects reads captions with fixed readings ("" for none) and
// records what it was asked and what it was given to read ahead.
type fakeEffects struct {
	mu       sync.Mutex
	readings map[string]string
	asked    []EffectControl
	ahead    [][]string
}

func (f *fakeEffects) ControlEffect(_ context.Context, c EffectControl) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, c)
	return f.readings[strings.Join(c.Captions, " / ")]
}

func (f *fakeEffects) PreReadEffects(captions []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ahead = append(f.ahead, captions)
}

func effectGate(page *fakePage, r EffectReader, task string) (*Gate, *fakeUser) {
	user := &fakeUser{decide: func(Approval) Decision { return Decline }}
	g := New(Config{Mode: "act", AskBeforeActions: true, Prober: page, Approver: user, Effects: r})
	g.SetWords([]string{task}, page.pageURL)
	return g, user
}

func clickProbe(g *Gate) (string, error) {
	return g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 7}))
}

// A button outside any form whose caption is in a language the word lists
// lack ("Paylaş", Turkish "share/post"), read as publishing, is judged as
// a publication: the request asked for none, so the user gets a card.
func TestACaptionReadAsPublishingAsksTheUser(t *testing.T) {
	r := &fakeEffects{readings: map[string]string{"Paylaş": EffectPublishes}}
	page := &fakePage{pageURL: "https://forum.example.com/t/1", probe: Probe{Tag: "button", Type: "button", Text: "Paylaş"}}
	g, user := effectGate(page, r, "Summarise this thread")
	refusal, err := clickProbe(g)
	require.NoError(t, err)
	require.Len(t, user.cards, 1, "a publication the request did not ask for is asked about")
	assert.Equal(t, string(CatPublish), user.cards[0].Category)
	assert.Contains(t, user.cards[0].Text, "Paylaş")
	assert.NotEmpty(t, refusal, "declined")
	assert.Empty(t, g.Submissions())
	require.Len(t, r.asked, 1)
	assert.Equal(t, EffectControl{Captions: []string{"Paylaş"}}, r.asked[0])
}

// Each consequential reading gives its category.
func TestEachConsequentialReadingGivesItsCategory(t *testing.T) {
	for reading, want := range map[string]Category{
		EffectSends: CatSend, EffectPublishes: CatPublish, EffectPays: CatPayment, EffectBuys: CatPurchase,
		EffectShares: CatShare, EffectAccount: CatAccount, EffectDeletesOne: CatDelete, EffectDeletesSeveral: CatDelete,
		EffectCommits: CatSubmit,
	} {
		r := &fakeEffects{readings: map[string]string{"Gönder": reading}}
		page := &fakePage{pageURL: "https://site.example.com/", probe: Probe{Tag: "button", Text: "Gönder"}}
		g, user := effectGate(page, r, "Read the page")
		_, err := clickProbe(g)
		require.NoError(t, err)
		require.Len(t, user.cards, 1, reading)
		assert.Equal(t, string(want), user.cards[0].Category, reading)
	}
}

// Read as only changing the view, only editing the draft, unclear, a
// choice not on the list, or not read at all, the control stays ordinary.
func TestACaptionReadAsHarmlessOrUnreadDecidesNothing(t *testing.T) {
	for _, reading := range []string{EffectView, EffectEditsDraft, EffectUnclear, "", "launches_rockets"} {
		r := &fakeEffects{readings: map[string]string{"Paylaş": reading}}
		page := &fakePage{pageURL: "https://forum.example.com/t/1", probe: Probe{Tag: "button", Type: "button", Text: "Paylaş"}}
		g, user := effectGate(page, r, "Summarise this thread")
		refusal, err := clickProbe(g)
		require.NoError(t, err)
		assert.Empty(t, refusal, reading)
		assert.Empty(t, user.cards, reading)
		assert.Len(t, r.asked, 1, reading)
	}
}

// A reading never lowers what the word lists gave: "Delete" is a deletion
// whatever a model says of it, and it is not even asked.
func TestAReadingNeverLowersTheWordLists(t *testing.T) {
	r := &fakeEffects{readings: map[string]string{"Delete": EffectView}}
	page := &fakePage{pageURL: "https://forum.example.com/t/1", probe: Probe{Tag: "button", Role: "menuitem", Text: "Delete"}}
	g, user := effectGate(page, r, "Summarise this thread")
	_, err := clickProbe(g)
	require.NoError(t, err)
	require.Len(t, user.cards, 1)
	assert.Equal(t, string(CatDelete), user.cards[0].Category)
	assert.Empty(t, r.asked, "a caption the lists know is not read")

	// Nor a view word the lists know ("Cancel"), nor an opener ("Reply").
	for _, caption := range []string{"Cancel", "Reply", "No, keep it"} {
		page.probe = Probe{Tag: "button", Text: caption}
		_, err = clickProbe(g)
		require.NoError(t, err)
	}
	assert.Empty(t, r.asked)
}

// Fields, toggles, tabs, options and links with a real destination are
// not read; a link without one, a menu item and an input button are.
func TestOnlyControlsThatCouldActAreRead(t *testing.T) {
	r := &fakeEffects{readings: map[string]string{}}
	page := &fakePage{pageURL: "https://site.example.com/"}
	g, _ := effectGate(page, r, "Read the page")
	for _, p := range []Probe{
		{Tag: "input", Type: "checkbox", Name: "Paylaş"},
		{Tag: "div", Role: "tab", Text: "Paylaş"},
		{Tag: "div", Role: "option", Text: "Paylaş"},
		{Tag: "a", Href: "https://site.example.com/paylas", Text: "Paylaş"},
		{Tag: "input", Type: "text", Name: "Paylaş"},
		{Tag: "summary", Text: "Paylaş"},
		{Tag: "button", Text: ""},
	} {
		page.probe = p
		_, err := clickProbe(g)
		require.NoError(t, err)
	}
	assert.Empty(t, r.asked)
	for _, p := range []Probe{
		{Tag: "a", Href: "#", Text: "Paylaş"},
		{Tag: "li", Role: "menuitem", Text: "Paylaş"},
		{Tag: "input", Type: "button", Value: "Paylaş"},
		{Tag: "div", Role: "button", AriaLabel: "Paylaş"},
	} {
		page.probe = p
		_, err := clickProbe(g)
		require.NoError(t, err)
	}
	assert.Len(t, r.asked, 4)
}

// "Next step" is a submit inside a form (as the word lists read "Next"),
// a page turn outside one; the form's fields can make it costlier.
func TestANextStepReadingSubmitsOnlyAForm(t *testing.T) {
	r := &fakeEffects{readings: map[string]string{"Devam": EffectNextStep}}
	page := &fakePage{pageURL: "https://shop.example.com/", probe: Probe{Tag: "button", Type: "button", Text: "Devam"}}
	g, user := effectGate(page, r, "Read the page")
	_, err := clickProbe(g)
	require.NoError(t, err)
	assert.Empty(t, user.cards, "outside a form a next step turns a page")

	page.probe = Probe{Tag: "button", Type: "button", Text: "Devam", InForm: true, FormMethod: "post",
		FormFields: []Field{{Name: "address", Label: "Adres", Type: "text", Value: "x"}}}
	_, err = clickProbe(g)
	require.NoError(t, err)
	require.Len(t, user.cards, 1)
	assert.Equal(t, string(CatSubmit), user.cards[0].Category)

	page.probe = Probe{Tag: "button", Type: "button", Text: "Devam", InForm: true, FormMethod: "post",
		FormFields: []Field{{Name: "amount", Label: "Amount", Type: "text", Value: "250"}}}
	_, err = clickProbe(g)
	require.NoError(t, err)
	require.Len(t, user.cards, 2)
	assert.Equal(t, string(CatPayment), user.cards[1].Category, "the form's amount makes the step a payment")
}

// The dialog a bare "OK" sits in is read with it.
func TestAConfirmationInADialogIsReadWithItsQuestion(t *testing.T) {
	r := &fakeEffects{readings: map[string]string{"OK": EffectDeletesOne}}
	page := &fakePage{pageURL: "https://site.example.com/", probe: Probe{Tag: "button", Text: "OK", Dialog: "Yorum silinsin mi?"}}
	g, user := effectGate(page, r, "Read the page")
	_, err := clickProbe(g)
	require.NoError(t, err)
	require.Len(t, r.asked, 1)
	assert.Equal(t, "Yorum silinsin mi?", r.asked[0].Dialog)
	require.Len(t, user.cards, 1)
	assert.Equal(t, string(CatDelete), user.cards[0].Category)
}

// Without a reader (tests, no decider) nothing changes.
func TestWithoutAReaderAnUnknownCaptionIsOrdinary(t *testing.T) {
	page := &fakePage{pageURL: "https://forum.example.com/t/1", probe: Probe{Tag: "button", Type: "button", Text: "Paylaş"}}
	g, user := effectGate(page, nil, "Summarise this thread")
	refusal, err := clickProbe(g)
	require.NoError(t, err)
	assert.Empty(t, refusal)
	assert.Empty(t, user.cards)
}

// A page read in Act hands the unmatched captions of its buttons and menu
// items to be read ahead, at most maxPreRead of them, each once.
func TestAPageReadIsReadAhead(t *testing.T) {
	r := &fakeEffects{}
	page := &fakePage{pageURL: "https://forum.example.com/t/1"}
	g, _ := effectGate(page, r, "Summarise this thread")
	tree := strings.Join([]string{
		`main "" [ref_1]`,
		` button "Paylaş" [ref_2]`,
		` button "Delete" [ref_3]`,
		` menuitem "Опубликовать" [ref_4]`,
		` link "Paylaş here" [ref_5] href=/x`,
		` button "Paylaş" [ref_6]`,
		` tab "Gönder" [ref_7]`,
		` button "say \"hi\"" [ref_8]`,
		`  button "Sil" [f2:ref_3]`,
	}, "\n")
	g.Observe(tree)
	require.Len(t, r.ahead, 1)
	assert.Equal(t, []string{"Paylaş", "Опубликовать", `say "hi"`, "Sil"}, r.ahead[0])

	var many []string
	for i := 0; i < 50; i++ {
		many = append(many, ` button "Düğme `+strings.Repeat("x", i+1)+`" [ref_`+strings.Repeat("1", 1)+`]`)
	}
	g.Observe(strings.Join(many, "\n"))
	require.Len(t, r.ahead, 2)
	assert.Len(t, r.ahead[1], maxPreRead)

	ask := New(Config{Mode: "ask", Effects: r})
	ask.Observe(tree)
	assert.Len(t, r.ahead, 2, "only an acting run (Act, Dev) reads ahead")
}
