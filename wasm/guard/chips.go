package guard

import (
	"context"
	"strings"
)

// Address chips: a mail composer turns a typed address into a chip
// outside any field, so the form's fields no longer hold it. The probe
// reports each chip of the form a send carries with the row it sits in
// (the labelled row around it and the one text field in that row), and
// the chip's addresses are that row's: an e-mail-typed field makes it a
// To row; otherwise the word lists' row names first (Gmail's own "To",
// "Cc", "Bcc"), then the message_field readings of the row's label and of
// its field's. Only when each of them is read as the subject, the body or
// something else (the sender's own address) are its addresses not
// recipients; read as To, Cc or Bcc, unclear, not read, or in a row with
// no label at all, they are.

// Chip is one address chip as the probe reports it: page text.
type Chip struct {
	// Address is the address the chip carries (its email attribute, or the
	// address in its label or text).
	Address string `json:"address"`
	// Label is what the chip shows ("Alice Moreau").
	Label string `json:"label"`
	// Row is the label of the row around the chip.
	Row string `json:"row"`
	// FieldName, FieldLabel and FieldType describe the row's text field.
	FieldName  string `json:"fieldName"`
	FieldLabel string `json:"fieldLabel"`
	FieldType  string `json:"fieldType"`
}

// readChips adds, for a send, the addresses of the chips that sit in a
// recipient row.
func (g *Gate) readChips(ctx context.Context, values []Value, p Probe) []Value {
	for _, ch := range p.Chips {
		found := emails(ch.Address + " " + ch.Label)
		if len(found) == 0 {
			continue
		}
		fd := Field{Name: ch.FieldName, Label: ch.FieldLabel, Type: ch.FieldType}
		row := Field{Label: ch.Row}
		if !g.chipInRecipientRow(ctx, fd, row) {
			continue
		}
		shown := firstNonEmpty(ch.Row, ch.FieldLabel, ch.FieldName)
		values = addRecipients(values, shown, found)
	}
	return values
}

// chipInRecipientRow decides the row of a chip: its field's type, the word
// lists' names of its row or field, then the readings of the row's label
// and of its field's. Only when every label there is was read as the
// subject, the body or something else is the chip not a recipient.
func (g *Gate) chipInRecipientRow(ctx context.Context, fd, row Field) bool {
	if lower(fd.Type) == "email" {
		return true
	}
	if row.Label != "" && isRecipient(row, fieldText(row)) {
		return true
	}
	if isRecipient(fd, fieldText(fd)) {
		return true
	}
	var labels []string
	for _, l := range []string{strings.TrimSpace(row.Label), strings.TrimSpace(strings.Join(nonEmpty(fd.Label, fd.Name), " / "))} {
		if l != "" && (len(labels) == 0 || labels[0] != l) {
			labels = append(labels, l)
		}
	}
	if len(labels) == 0 || g.cfg.Messages == nil {
		return true
	}
	for _, l := range labels {
		switch g.cfg.Messages.MessageField(ctx, l) {
		case FieldSubject, FieldBody, FieldOther:
		default:
			return true
		}
	}
	return false
}
