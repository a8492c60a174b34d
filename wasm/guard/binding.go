package guard

import (
	"context"
	"strings"
)

// The action a user approves is the one the card showed. While the card
// waits, the page can change what the same ref or Enter would do: another
// recipient in the To row, another amount, a different button under the
// ref. After an approval the control is probed again and must still show
// what was judged; otherwise nothing is done and the action is judged
// afresh on the next try (docs/decisions/action-gate.md).

// changedWhileAsked is the tool result when the page changed the action
// while its card waited.
const changedWhileAsked = "The page changed this action while WebBrain waited for the user's answer (what it sends, to whom, where, or which control it is). It was not done. Read the page again; if the task still needs the action, try it again and the user will be asked about what the page shows now."

// stillShows returns the check made after an approval: a new probe of the
// same target shows the same action as p.
func (g *Gate) stillShows(tool string, args map[string]any, enter bool, p Probe) func(context.Context) bool {
	want := p.actionPrint()
	return func(ctx context.Context) bool {
		now, err := g.probe(ctx, tool, args, enter)
		return err == nil && now.actionPrint() == want
	}
}

// actionPrint is what of a probe decides what the action does and to
// whom: the control, its form, fields and address chips, the dialog, the conversation,
// the item's name and the page. The record's other text (counts, times)
// is left out: it changes on live pages without changing the action.
func (p Probe) actionPrint() string {
	var b strings.Builder
	put := func(ss ...string) {
		for _, s := range ss {
			b.WriteString(s)
			b.WriteByte(0)
		}
	}
	put(p.PageURL, p.Tag, p.Role, p.Type, p.Name, p.Text, p.Title, p.AriaLabel, p.Value, p.Href,
		p.FormAction, p.FormMethod, p.FormName, p.Heading, p.Dialog, p.Placeholder)
	if p.InForm {
		put("form")
	}
	for _, f := range p.FormFields {
		put(f.Name, f.Label, f.Type, f.Value)
	}
	for _, c := range p.Chips { // the addresses a composer shows outside its fields (chips.go)
		put(c.Address, c.Label, c.Row, c.FieldName, c.FieldLabel, c.FieldType)
	}
	put(p.Conversation...)
	if p.EnterFrom != nil {
		put("enter", p.EnterFrom.actionPrint())
	}
	return b.String()
}
