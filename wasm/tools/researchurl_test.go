package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// helperTabs is the rig's tab plus the background tab research_url opens,
// which ends on final.
type helperTabs struct {
	*fakeTabs
	final string
}

func (h helperTabs) Get(ctx context.Context, tabID int) (platform.Tab, error) {
	if tabID == 91 {
		return platform.Tab{ID: 91, URL: h.final, Status: "complete"}, nil
	}
	return h.fakeTabs.Get(ctx, tabID)
}

func researchRig(mode, final string) (*rig, *fakeWindows) {
	r, w := windowRig()
	r.d.mode = mode
	r.d.p.Tabs = helperTabs{r.tabs, final}
	r.content.reply = func(name string, args map[string]any) (json.RawMessage, error) {
		if name != protocol.PageText {
			return okReply(name + " ok")
		}
		return json.Marshal(map[string]any{"ok": true, "result": map[string]any{
			"title": "Lantern festival", "text": "Rendered by script: the festival starts at 8 pm.", "total": 48}})
	}
	return r, w
}

func TestResearchURLReadsTheRenderedPageAndClosesItsTab(t *testing.T) {
	r, w := researchRig(protocol.ModeAsk, "https://shop.example/festival")
	out, err := r.run(protocol.ToolResearchURL, `{"url":"https://shop.example/festival#today"}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.opened) != 1 || w.opened[0] != "https://shop.example/festival" || len(w.closed) != 1 || w.closed[0] != 91 {
		t.Fatalf("opened %v, closed %v", w.opened, w.closed)
	}
	if !strings.Contains(out, tbOpen) || !strings.Contains(out, "the festival starts at 8 pm") || !strings.Contains(out, "Title: Lantern festival") {
		t.Fatalf("result %q", out)
	}
}

// A redirect to this computer's addresses is not read, and the tab is
// closed all the same.
func TestResearchURLRefusesWhereARedirectLed(t *testing.T) {
	r, w := researchRig(protocol.ModeAct, "http://127.0.0.1:8080/admin")
	_, err := r.run(protocol.ToolResearchURL, `{"url":"https://news.example/story"}`)
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1") {
		t.Fatalf("err %v", err)
	}
	if len(w.closed) != 1 {
		t.Fatalf("closed %v", w.closed)
	}
	for _, m := range r.content.msgs {
		if m["name"] == protocol.PageText {
			t.Fatal("the local page was read")
		}
	}
}

func TestResearchURLRefusesLocalAddresses(t *testing.T) {
	r, w := researchRig(protocol.ModeAsk, "")
	if _, err := r.run(protocol.ToolResearchURL, `{"url":"http://192.168.1.1/"}`); err == nil {
		t.Fatal("a local address was opened")
	}
	if len(w.opened) != 0 {
		t.Fatalf("opened %v", w.opened)
	}
}
