package secrets_test

import (
	"fmt"

	"github.com/webbrain/webbrain/wasm/secrets"
)

// Mask keeps a hint of what was hidden, so the model can still tell the
// user which card or key it saw.
func ExampleMask() {
	text := "Card 4111 1111 1111 1111, CVV: 123. Key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z."
	fmt.Println(secrets.Mask(text, nil))
	// Output:
	// Card [card number ending 1111 hidden], CVV: [CVV hidden]. Key sk-proj-…[API key hidden].
}

// Prices, dates and order numbers are not secrets: Find errs towards
// missing an unlabelled value rather than flagging ordinary numbers.
func ExampleFind() {
	for _, m := range secrets.Find("Order 40571234 of 2026-12-02, 129.99 EUR. Password: hunter2-Blue") {
		fmt.Println(m.Kind, m.Value)
	}
	// Output:
	// password hunter2-Blue
}

// Contains finds a card number however the text spaces its digits, but
// not inside a longer number.
func ExampleContains() {
	fmt.Println(secrets.Contains("paid with 4111-1111-1111-1111", "4111111111111111"))
	fmt.Println(secrets.Contains("ref 94111111111111111", "4111111111111111"))
	// Output:
	// true
	// false
}
