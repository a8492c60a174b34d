package guard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chipForm is a composer whose To field holds the user's recipient and
// whose rows hold chips outside any field.
func chipForm(chips ...Chip) *fakePage {
	return &fakePage{pageURL: "https://mail.example.com/compose", probe: Probe{Tag: "button", Type: "submit", Name: "Send", InForm: true,
		FormFields: []Field{
			{Type: "text", Name: "", Label: "Falið afrit", Value: ""},
			{Type: "textarea", Name: "body", Label: "Message", Value: "The report is ready."},
		}, Chips: chips}}
}

// A chip in a row labelled in a language the word lists lack holds that
// row's address: read as Bcc, not read, or read as unclear, an address the
// user did not give puts the send on the card under the row's label.
func TestAChipTakesItsRowFromTheReading(t *testing.T) {
	bcc := Chip{Address: "mallory@evil.test", Label: "Mallory", Row: "Falið afrit", FieldLabel: "Falið afrit", FieldType: "text"}
	for _, reading := range []string{FieldBcc, FieldUnclear, ""} {
		r := &fakeReader{readings: map[string]string{"Falið afrit": reading}}
		page, user := chipForm(bcc), &fakeUser{}
		g := mailGate(page, r, user)
		refusal, err := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
		require.NoError(t, err)
		assert.Contains(t, refusal, "declined", reading)
		require.Len(t, user.cards, 1, reading)
		assert.Contains(t, user.cards[0].Details, Detail{Label: "Falið afrit", Value: "mallory@evil.test"}, reading)
		assert.Contains(t, user.cards[0].Reasons, "The recipient mallory@evil.test is not one your request named.", reading)
		assert.Equal(t, []string{"Falið afrit"}, r.names, reading, "the row and its field carry one label: read once")
	}
	// With no reader at all it is a recipient too.
	page, user := chipForm(bcc), &fakeUser{}
	_, _ = mailGate(page, nil, user).Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
	require.Len(t, user.cards, 1)

	// Read as the sender's own row, it is not a recipient.
	from := Chip{Address: "ana@example.com", Row: "Frá"}
	r := &fakeReader{readings: map[string]string{"Frá": FieldOther}}
	page, user = chipForm(from, Chip{Address: "alice@example.com", Row: "Til"}), &fakeUser{}
	r.readings["Til"] = FieldTo
	g := mailGate(page, r, user)
	refusal, _ := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
	assert.Empty(t, refusal)
	assert.Empty(t, user.cards)
	require.Len(t, g.Submissions(), 1)
	assert.Equal(t, "alice@example.com", g.Submissions()[0].Recipient, "the chip is the send's recipient")

	// A row read as something else whose field is read as a copy row (or
	// not read) keeps the chip a recipient.
	for _, fieldReading := range []string{FieldCc, ""} {
		r = &fakeReader{readings: map[string]string{"Leitarreitur": FieldOther, "Afrit": fieldReading}}
		page, user = chipForm(Chip{Address: "mallory@evil.test", Row: "Leitarreitur", FieldLabel: "Afrit"}), &fakeUser{}
		_, _ = mailGate(page, r, user).Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
		require.Len(t, user.cards, 1, fieldReading)
		assert.Equal(t, []string{"Leitarreitur", "Afrit"}, r.names)
	}
}

// An e-mail-typed field makes its chips a To row, and a row the word lists
// name (Gmail's own "Bcc") is not read: in both, a chip the user did not
// give goes to the card.
func TestAChipInAnEmailFieldOrANamedRowIsARecipient(t *testing.T) {
	for _, ch := range []Chip{
		{Address: "mallory@evil.test", FieldType: "email", FieldLabel: "Viðtakendur"},
		{Label: "Mallory <mallory@evil.test>", Row: "Bcc"},
	} {
		r := &fakeReader{readings: map[string]string{"Viðtakendur": FieldOther, "Bcc": FieldOther}}
		page, user := chipForm(ch), &fakeUser{}
		g := mailGate(page, r, user)
		_, _ = g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
		require.Len(t, user.cards, 1, "%+v", ch)
		assert.Contains(t, user.cards[0].Reasons, "The recipient mallory@evil.test is not one your request named.")
		assert.Empty(t, r.names, "%+v", ch)
	}
}

// A chip the page swaps while the card waits is a changed action: the
// approval does not cover it.
func TestAChipSwappedWhileTheCardWaitsIsNotSent(t *testing.T) {
	page := chipForm(Chip{Address: "bob@example.com", Row: "Falið afrit"})
	user := &fakeUser{decide: func(Approval) Decision {
		page.probe.Chips = []Chip{{Address: "mallory@evil.test", Row: "Falið afrit"}}
		return Approve
	}}
	g := mailGate(page, &fakeReader{}, user)
	refusal, err := g.Check(context.Background(), call("c1", "click_ax", map[string]any{"ref": 1}))
	require.NoError(t, err)
	assert.Equal(t, changedWhileAsked, refusal)
	require.Len(t, user.cards, 1)
	assert.Contains(t, user.cards[0].Details, Detail{Label: "Falið afrit", Value: "bob@example.com"})
	assert.Empty(t, g.Submissions())
}
