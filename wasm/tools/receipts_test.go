package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func TestLocateNamesThePageDocumentOrTheTab(t *testing.T) {
	r := newRig(protocol.ModeAct, "mid")
	r.content.reply = func(name string, args map[string]any) (json.RawMessage, error) {
		if name == "wb_doc" {
			return json.RawMessage(`{"ok":true,"result":{"doc":"d-42","url":"https://shop.example/"}}`), nil
		}
		return okReply(name + " ok")
	}
	ctx := context.Background()
	for _, c := range []struct{ tool, args, want string }{
		{"click_ax", `{"ref":"ref_1"}`, "d-42"},
		{"type_ax", `{"ref":"ref_1","text":"x"}`, "d-42"},
		{"navigate", `{"url":"https://news.example/"}`, "https://shop.example/"},
		{"read_page", `{}`, ""}, // changes nothing
		{"go_back", `{}`, ""},   // no receipt: the history index cannot be read back
		{"fetch_url", `{}`, ""}, // read-only
		{"done", `{"summary":"x"}`, ""},
	} {
		got, err := r.d.Locate(ctx, llm.ToolCall{Name: c.tool, Arguments: c.args})
		if err != nil || got != c.want {
			t.Errorf("Locate(%s) = %q, %v; want %q", c.tool, got, err, c.want)
		}
	}
}

func TestAReceiptRidesWithThePageAction(t *testing.T) {
	r := newRig(protocol.ModeAct, "mid")
	_, err := r.d.ExecuteOnce(context.Background(), llm.ToolCall{Name: "click_ax", Arguments: `{"ref":"ref_1"}`}, Receipt{ID: "r1", At: "d-42"})
	if err != nil {
		t.Fatal(err)
	}
	rc, _ := r.content.msgs[len(r.content.msgs)-1]["receipt"].(map[string]any)
	if rc["id"] != "r1" || rc["doc"] != "d-42" {
		t.Fatalf("receipt sent %v", rc)
	}
}

func TestAChangedPageIsReportedAsUnknown(t *testing.T) {
	r := newRig(protocol.ModeAct, "mid")
	r.content.reply = func(name string, args map[string]any) (json.RawMessage, error) {
		return json.RawMessage(`{"ok":false,"changed":true,"error":"ignored <b>page</b> words"}`), nil
	}
	_, err := r.d.ExecuteOnce(context.Background(), llm.ToolCall{Name: "click_ax", Arguments: `{"ref":"ref_1"}`}, Receipt{ID: "r1", At: "d-1", Resumed: true})
	if err == nil || !strings.Contains(err.Error(), "whether it took effect is unknown") || strings.Contains(err.Error(), "page</b>") {
		t.Fatalf("err = %v", err)
	}
}

func TestAResumedNavigateRunsOnlyIfTheTabHasNotMoved(t *testing.T) {
	ctx := context.Background()
	nav := llm.ToolCall{Name: "navigate", Arguments: `{"url":"https://news.example"}`}

	// The navigation had happened: the tab is at the target.
	r := newRig(protocol.ModeAct, "mid")
	r.tabs.tab.URL = "https://news.example/"
	out, err := r.d.ExecuteOnce(ctx, nav, Receipt{ID: "r1", At: "https://shop.example/", Resumed: true})
	if err != nil || len(r.tabs.navs) != 0 || !strings.Contains(out, "had been sent") {
		t.Fatalf("at the target: out %q err %v navs %v", out, err, r.tabs.navs)
	}

	// It had not: the tab is where it was.
	r = newRig(protocol.ModeAct, "mid")
	if _, err := r.d.ExecuteOnce(ctx, nav, Receipt{ID: "r1", At: "https://shop.example/", Resumed: true}); err != nil || len(r.tabs.navs) != 1 {
		t.Fatalf("where it was: err %v navs %v", err, r.tabs.navs)
	}

	// Elsewhere: unknown, and not sent.
	r = newRig(protocol.ModeAct, "mid")
	r.tabs.tab.URL = "https://other.example/x"
	_, err = r.d.ExecuteOnce(ctx, nav, Receipt{ID: "r1", At: "https://shop.example/", Resumed: true})
	if err == nil || !strings.Contains(err.Error(), "unknown") || len(r.tabs.navs) != 0 {
		t.Fatalf("elsewhere: err %v navs %v", err, r.tabs.navs)
	}
}

// Trusted input keeps one receipt through prepare, the synthetic
// fallback and finish, so the page can tell a resumed prepare from a new
// one.
func TestTrustedInputCarriesTheReceiptThroughout(t *testing.T) {
	r, _ := trustedRig(`{"steps":[{"mouse":{"x":10,"y":20}}]}`)
	if _, err := r.d.ExecuteOnce(context.Background(), llm.ToolCall{Name: "click_ax", Arguments: `{"ref":"ref_3"}`}, Receipt{ID: "r9", At: "d-1"}); err != nil {
		t.Fatal(err)
	}
	for _, m := range r.content.msgs {
		rc, _ := m["receipt"].(map[string]any)
		if rc["id"] != "r9" || rc["doc"] != "d-1" {
			t.Errorf("%s went with receipt %v", m["name"], rc)
		}
	}

	// A page that had finished it answers the prepare with done: no input.
	r, dbg := trustedRig(`{"done":"Clicked button \"Save\"."}`)
	out, err := r.d.ExecuteOnce(context.Background(), llm.ToolCall{Name: "click_ax", Arguments: `{"ref":"ref_3"}`}, Receipt{ID: "r9", At: "d-1", Resumed: true})
	if err != nil || len(dbg.calls) != 0 || !strings.Contains(out, "Clicked button") {
		t.Fatalf("out %q err %v input %v", out, err, dbg.summary())
	}
}

// A navigation still loading when the worker stopped shows the old URL
// and the target as pending: it was sent, and is not sent again.
func TestAResumedNavigateStillLoadingIsNotSentAgain(t *testing.T) {
	r := newRig(protocol.ModeAct, "mid")
	r.tabs.tab.Status, r.tabs.tab.PendingURL = "loading", "https://news.example/"
	r.tabs.pending = 2
	out, err := r.d.ExecuteOnce(context.Background(), llm.ToolCall{Name: "navigate", Arguments: `{"url":"https://news.example"}`},
		Receipt{ID: "r1", At: "https://shop.example/", Resumed: true})
	if err != nil || len(r.tabs.navs) != 0 || !strings.Contains(out, "had been sent") {
		t.Fatalf("out %q err %v navs %v", out, err, r.tabs.navs)
	}
}
