package guard_test

import (
	"fmt"
	"slices"

	"github.com/webbrain/webbrain/wasm/guard"
)

// Classify reads what a click would do from the control the page shows,
// not from what the model says about it.
func ExampleClassify() {
	for _, c := range []guard.Control{
		{Tool: "click_ax", Tag: "button", Role: "button", Name: "Delete account"},
		{Tool: "click_ax", Tag: "button", Role: "button", Name: "Remove filter"},
		{Tool: "click_ax", Tag: "button", Role: "button", Name: "Konto löschen"},
	} {
		fmt.Printf("%s: %q\n", c.Name, guard.Classify(c).Category)
	}
	// Output:
	// Delete account: "delete"
	// Remove filter: ""
	// Konto löschen: "delete"
}

// Requested finds what the user's own words ask for; a negated or asked
// about verb does not count.
func ExampleRequested() {
	for _, task := range []string{"Delete the draft from yesterday", "Don't delete anything, just tell me what's there", "How do I delete my account?"} {
		var cats []string
		for c := range guard.Requested(task) {
			cats = append(cats, string(c))
		}
		slices.Sort(cats)
		fmt.Printf("%q: %v\n", task, cats)
	}
	// Output:
	// "Delete the draft from yesterday": [delete]
	// "Don't delete anything, just tell me what's there": []
	// "How do I delete my account?": []
}
