package guard

import "context"

// Meaning answers the gate's closed questions about what the user's words
// mean, where matching words is not enough: a request in any language or
// wording ("get rid of the old draft"). The background answers them with
// package decide (docs/decisions/semantic-decisions.md). Only a sure,
// quoted answer lets an action through; no answer leaves it to the card.
type Meaning interface {
	// Asks reports a sure "yes": the request asks for actions of this
	// category.
	Asks(ctx context.Context, request string, c Category) bool
	// Deletion answers deletion_request about one item the page shows.
	Deletion(ctx context.Context, request string, item DeletionItem) string
}

// DeletionItem is what a deletion_request question sees of the item, all
// of it page text: the item's own text, its link, the control's caption
// and the site's confirmation question when the step is a dialog.
type DeletionItem struct {
	Text    string
	Link    string
	Caption string
	Dialog  string
}

// Answers of deletion_request. Only DeleteThis deletes without asking;
// DeleteToldNot refuses without a card; the rest go to the user's card.
const (
	DeleteThis     = "delete_this_item"
	DeleteUnclear  = "unclear"
	DeleteAnother  = "another_item"
	DeleteNotAsked = "no_deletion_asked"
	DeleteToldNot  = "told_not_to_delete"
)

// toldNotToDelete is the refusal of an item the user said to keep.
const toldNotToDelete = "The user's request says not to delete this. It was not done; do not try it again or another way, and continue with the rest of the task."

// consult asks Meaning about a consequential action whose category is c.
// requested and itemOK are the lexicon's readings; it returns the
// readings to use and a refusal for an item the user said to keep.
func (g *Gate) consult(ctx context.Context, p Probe, c Classification, requested, itemOK bool) (bool, bool, string) {
	m := g.cfg.Meaning
	if m == nil {
		return requested, itemOK, ""
	}
	request := g.cfg.Authority.Request()
	if c.Category == CatDelete {
		switch m.Deletion(ctx, request, DeletionItem{Text: itemName(p), Link: p.Href, Caption: c.Caption, Dialog: p.Dialog}) {
		case DeleteThis:
			return true, true, ""
		case DeleteToldNot:
			return false, false, toldNotToDelete
		}
		// Unclear, another item, none asked or no answer: the user decides.
		return false, itemOK, ""
	}
	if !requested && m.Asks(ctx, request, c.Category) {
		requested = true
	}
	return requested, itemOK, ""
}
