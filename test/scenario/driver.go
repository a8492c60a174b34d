// Package scenario holds the end-to-end scenarios both browser suites run:
// the fake model's script, the fixture page (testdata/) and the assertions
// on what the page recorded, the tool results and the panel. test/e2e
// (Chrome) and test/firefox (Firefox) each implement Driver and call one
// function per scenario, so a scenario is written once and checked in both.
package scenario

import (
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// Target is where a Session evaluates an expression.
type Target int

const (
	// Page is the fixture tab.
	Page Target = iota
	// Panel is the side panel bound to the fixture tab; runtime messages
	// are sent from here.
	Panel
	// Extension is a context with the extension's storage: Chrome's service
	// worker, Firefox's bridge page.
	Extension
)

// Provider is the part of the saved settings a scenario chooses.
type Provider struct {
	Kind   string // "openai-chat" or "anthropic"
	APIKey string
	Tier   string // "" is mid
	// WebMCP turns on the setting Experimental WebMCP.
	WebMCP bool
}

// OpenAIChat is the provider most scenarios use: OpenAI chat, no key.
var OpenAIChat = Provider{Kind: "openai-chat"}

// Session is one fixture tab with a panel bound to it, in one browser.
type Session interface {
	// TabID is the extension's id of the fixture tab.
	TabID() int
	// Eval evaluates the JavaScript expression expr in target, awaits it
	// when it is a promise and decodes its JSON value into out (unless nil).
	// It returns errors rather than failing the test: the fake model's
	// script calls it from the server's goroutine.
	Eval(target Target, expr string, out any) error
	// Send picks mode ("ask" or "act") in the panel, enters prompt and
	// clicks Send, the way this browser's suite acts as the user.
	Send(mode, prompt string)
	// Click clicks the panel element matching css.
	Click(css string)
}

// Driver opens sessions in one browser.
type Driver interface {
	// Open loads fixture (a file of testdata/) in a new tab, opens the panel
	// for it and saves settings whose only provider is srv, of kind p.
	Open(t *testing.T, fixture string, srv *llmtest.Server, p Provider) Session
}
