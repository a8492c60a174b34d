package workflow

import (
	"errors"
	"reflect"
	"testing"
)

const changedTree = `main
  textbox "Email" [ref_1]
  button "Join the list" [ref_2]
  link "Sign up for the shop" [ref_3]
  button "Cancel" [ref_4]
  button "More" [ref_5]
  button "More" [ref_6]
  checkbox "Subscribe to newsletter" [ref_7]
  heading "Newsletter sign-up" [ref_8]`

func TestCandidatesAreUniqueSameKindAndRanked(t *testing.T) {
	got := Candidates(changedTree, Target{Role: "button", Name: "Sign up"})
	want := []Target{
		{Role: "link", Name: "Sign up for the shop"}, // shares words
		{Role: "button", Name: "Join the list"},      // same role
		{Role: "button", Name: "Cancel"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("candidates %+v, want %+v (no duplicate More, no checkbox, no heading)", got, want)
	}
	if got := Candidates(changedTree, Target{Role: "textbox", Name: "E-mail"}); len(got) != 1 || got[0].Name != "Email" {
		t.Fatalf("field candidates %+v", got)
	}
	if got := Candidates(changedTree, Target{Role: "button", Name: "Cancel"}); len(got) != 2 || got[0].Name == "Cancel" || got[1].Name == "Cancel" {
		t.Fatalf("a target still on the page is not its own candidate: %+v", got)
	}
	many := ""
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		many += `button "` + n + `" [ref_` + n + "]\n"
	}
	if got := Candidates(many, Target{Role: "button", Name: "x"}); len(got) > MaxCandidates {
		t.Fatalf("%d candidates", len(got))
	}
}

func TestApplyRepairIsAtomicAgainstUpdatedAt(t *testing.T) {
	w := Workflow{Schema: Schema, Name: "w", UpdatedAt: 100, Steps: []Step{
		{Action: ActClick, Target: &Target{Role: "button", Name: "Sign up"}, Family: "https://a.example/form", Expect: "done"}}}
	to := Target{Role: "button", Name: "Join the list"}
	if err := w.ApplyRepair(0, to, 99, 200); !errors.Is(err, ErrConcurrentEdit) || w.Steps[0].Target.Name != "Sign up" {
		t.Fatalf("a repair over a concurrent edit: %v %+v", err, w.Steps[0])
	}
	if err := w.ApplyRepair(0, to, 100, 200); err != nil {
		t.Fatal(err)
	}
	if *w.Steps[0].Target != to || w.UpdatedAt != 200 || len(w.Repairs) != 1 || w.Repairs[0].Step != 1 || w.Repairs[0].From.Name != "Sign up" {
		t.Fatalf("after the repair %+v", w)
	}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	w.Repairs[0].Step = 5
	if err := w.Validate(); err == nil {
		t.Fatal("a repair of a step that does not exist validated")
	}
}
