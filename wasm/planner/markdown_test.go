package planner_test

import (
	"testing"

	"github.com/webbrain/webbrain/wasm/planner"
)

// The plan shown to the user keeps the model's words as data; only the
// Risks heading is WebBrain's, and carries a key.
func TestMarkdownTextKeysOnlyTheRisksHeading(t *testing.T) {
	p := planner.Plan{
		Summary: "Pay the invoice", Steps: []string{"Open the invoice", "Pay it"}, Risks: []string{"Money leaves the account"},
		Localized: &planner.Localized{Summary: "Pagar la factura", Steps: []string{"Abrir la factura", "Pagarla"}, Risks: []string{"Sale dinero de la cuenta"}},
	}
	got := p.MarkdownText(true)
	if got.English != p.Markdown(true) {
		t.Fatalf("English %q, Markdown %q", got.English, p.Markdown(true))
	}
	if got.Msg == nil || got.Msg.Key != "bg_plan_risks" {
		t.Fatalf("no key: %+v", got.Msg)
	}
	if got.Msg.Params["plan"] != "Pagar la factura\n1. Abrir la factura\n2. Pagarla" || got.Msg.Params["risks"] != "- Sale dinero de la cuenta" {
		t.Errorf("params %#v", got.Msg.Params)
	}

	p.Risks, p.Localized.Risks = nil, nil
	if got := p.MarkdownText(true); got.Msg != nil || got.English != p.Markdown(true) {
		t.Errorf("a plan without risks has no word of WebBrain's: %+v", got)
	}
}
