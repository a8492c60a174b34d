package workflow

import (
	"errors"
	"sort"
	"strings"
	"unicode"
)

// Repairs (docs/decisions/workflows.md): when a step's saved target is no
// longer on the page, the replay offers the user up to MaxCandidates
// elements that could be it; the one they pick is used for that step,
// and kept as the step's new target only when the step's postcondition
// then holds. The repair is recorded in the workflow.

// MaxCandidates is how many targets a repair offers at most.
const MaxCandidates = 5

// MaxRepairs is how many repair records a workflow keeps (the newest).
const MaxRepairs = 50

// Repair records one healed step: its number (1-based), the target it
// had and the one the user chose, and when.
type Repair struct {
	Step int    `json:"step"`
	From Target `json:"from"`
	To   Target `json:"to"`
	At   int64  `json:"at"`
}

// roleGroup puts roles that can stand for each other in one group: a
// renamed control may also have become a link or a menu item.
func roleGroup(role string) string {
	switch role {
	case "button", "link", "menuitem", "tab", "menuitemcheckbox", "menuitemradio", "option", "treeitem":
		return "press"
	case "textbox", "searchbox", "combobox", "spinbutton":
		return "field"
	case "checkbox", "switch", "radio":
		return "toggle"
	}
	return role
}

// Candidates lists the elements of tree that could be t's element after
// the page changed: a role of the same kind, each independently
// replayable (its role and name are on exactly one element, so a
// duplicate can never be chosen), ranked by how close their names are to
// t's, at most MaxCandidates. An element that still matches t exactly is
// not a candidate: then there is nothing to repair.
func Candidates(tree string, t Target) []Target {
	count := map[Target]int{}
	var order []Target
	for _, n := range Nodes(tree) {
		k := Target{Role: n.Role, Name: n.Name}
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	group := roleGroup(t.Role)
	type scored struct {
		t     Target
		score float64
		at    int
	}
	var out []scored
	for i, c := range order {
		if count[c] != 1 || c == t || c.Name == "" || roleGroup(c.Role) != group {
			continue
		}
		s := similarity(t.Name, c.Name)
		if c.Role == t.Role {
			s += 0.25
		}
		out = append(out, scored{c, s, i})
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].score != out[b].score {
			return out[a].score > out[b].score
		}
		return out[a].at < out[b].at
	})
	var res []Target
	for _, s := range out {
		if len(res) == MaxCandidates {
			break
		}
		res = append(res, s.t)
	}
	return res
}

// similarity of two accessible names, 0 to 1: the share of words they
// have in common, or a prefix of one word in the other.
func similarity(a, b string) float64 {
	wa, wb := words(a), words(b)
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	common := 0
	for _, x := range wa {
		for _, y := range wb {
			if x == y || len(x) >= 4 && strings.HasPrefix(y, x) || len(y) >= 4 && strings.HasPrefix(x, y) {
				common++
				break
			}
		}
	}
	return float64(common) / float64(max(len(wa), len(wb)))
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Label is how a candidate is offered to the user: role and name.
func (t Target) Label() string { return t.Role + ` "` + t.Name + `"` }

// ErrConcurrentEdit: the workflow changed since the replay read it, so a
// repair is not applied over that change.
var ErrConcurrentEdit = errors.New("the workflow was changed meanwhile, so the repair was not saved")

// ApplyRepair sets step i's target to to in w and records the repair, but
// only when w is still the version the replay read (its UpdatedAt is
// readAt): a concurrent edit wins.
func (w *Workflow) ApplyRepair(i int, to Target, readAt, now int64) error {
	if w.UpdatedAt != readAt {
		return ErrConcurrentEdit
	}
	if i < 0 || i >= len(w.Steps) || w.Steps[i].Target == nil {
		return errors.New("the step to repair is not in the workflow")
	}
	from := *w.Steps[i].Target
	w.Steps[i].Target = &Target{Role: to.Role, Name: to.Name}
	w.Repairs = append(w.Repairs, Repair{Step: i + 1, From: from, To: to, At: now})
	if n := len(w.Repairs); n > MaxRepairs {
		w.Repairs = append([]Repair(nil), w.Repairs[n-MaxRepairs:]...)
	}
	w.UpdatedAt = now
	return nil
}
