//go:build firefox

package firefox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// toolbarRoot returns the BiDi shared id of the selection toolbar's closed
// shadow root ("" while there is none). Page script cannot reach a closed
// root; WebDriver BiDi serialises it when asked for every shadow tree.
func (s *session) toolbarRoot(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var res struct {
		Type   string `json:"type"`
		Result struct {
			Type  string `json:"type"`
			Value struct {
				ShadowRoot *struct {
					SharedID string `json:"sharedId"`
				} `json:"shadowRoot"`
			} `json:"value"`
		} `json:"result"`
	}
	err := s.env.ff.bidi.call(ctx, "script.evaluate", map[string]any{
		"expression":           `document.querySelector("webbrain-selection")`,
		"target":               map[string]any{"context": s.page},
		"awaitPromise":         false,
		"serializationOptions": map[string]any{"maxDomDepth": 0, "includeShadowTree": "all"},
	}, &res)
	if err != nil {
		t.Fatalf("find the toolbar's host: %v", err)
	}
	if res.Result.Type != "node" || res.Result.Value.ShadowRoot == nil {
		return ""
	}
	return res.Result.Value.ShadowRoot.SharedID
}

// inRoot runs fn (a function of the shadow root) in the fixture page and
// decodes what it returns as JSON into out.
func (s *session) inRoot(t *testing.T, root, fn string, out any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var res struct {
		Type   string `json:"type"`
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
		ExceptionDetails struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	err := s.env.ff.bidi.call(ctx, "script.callFunction", map[string]any{
		"functionDeclaration": "(root) => JSON.stringify((" + fn + ")(root) ?? null)",
		"arguments":           []any{map[string]any{"sharedId": root}},
		"target":              map[string]any{"context": s.page},
		"awaitPromise":        false,
	}, &res)
	if err != nil {
		t.Fatalf("run in the toolbar's root: %v", err)
	}
	if res.Type == "exception" {
		t.Fatalf("script threw: %s", res.ExceptionDetails.Text)
	}
	if err := json.Unmarshal([]byte(res.Result.Value), out); err != nil {
		t.Fatal(err)
	}
}

// waitInRoot polls fn in the toolbar's root until it returns a non-empty string.
func (s *session) waitInRoot(t *testing.T, fn, what string) string {
	t.Helper()
	deadline := time.Now().Add(scenario.RunTimeout)
	for {
		if root := s.toolbarRoot(t); root != "" {
			var got string
			s.inRoot(t, root, fn, &got)
			if got != "" {
				return got
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s in the selection toolbar", what)
		}
		time.Sleep(150 * time.Millisecond)
	}
}

func (s *session) pointer(t *testing.T, moves ...map[string]any) {
	t.Helper()
	s.perform(t, map[string]any{"type": "pointer", "id": "mouse", "parameters": map[string]any{"pointerType": "mouse"},
		"actions": moves})
}

// dragSelect selects an element's text by dragging across it.
func (s *session) dragSelect(t *testing.T, css string) {
	t.Helper()
	var r []float64
	if err := s.Eval(scenario.Page, fmt.Sprintf(`(() => {
		const range = document.createRange();
		range.selectNodeContents(document.querySelector(%q));
		const rs = [...range.getClientRects()];
		const a = rs[0], b = rs[rs.length - 1];
		return [a.left + 1, a.top + a.height / 2, b.right - 1, b.top + b.height / 2].map(Math.round);
	})()`, css), &r); err != nil {
		t.Fatal(err)
	}
	s.pointer(t,
		map[string]any{"type": "pointerMove", "x": int(r[0]), "y": int(r[1]), "origin": "viewport"},
		map[string]any{"type": "pointerDown", "button": 0},
		map[string]any{"type": "pointerMove", "x": int(r[2]), "y": int(r[3]), "origin": "viewport", "duration": 100},
		map[string]any{"type": "pointerUp", "button": 0},
	)
}

// The toolbar appears on a selection in Firefox too, and Translate
// answers in a card through the configured provider.
func TestSelectionToolbarTranslates(t *testing.T) {
	srv := llmtest.NewTurns(llmtest.Turn{Text: "Guten Morgen, Welt. Die Bäckerei öffnet um sieben."})
	s := openSession(t, "selection.html", srv)

	s.dragSelect(t, "#greeting")
	at := s.waitInRoot(t, `(root) => { const b = root.querySelector('[data-action="translate"]');
		if (!b) return "";
		const r = b.getBoundingClientRect(); return Math.round(r.x + r.width / 2) + "," + Math.round(r.y + r.height / 2); }`, "the Translate button")
	var x, y int
	fmt.Sscanf(at, "%d,%d", &x, &y)
	s.pointer(t,
		map[string]any{"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
		map[string]any{"type": "pointerDown", "button": 0},
		map[string]any{"type": "pointerUp", "button": 0},
	)
	text := s.waitInRoot(t, `(root) => root.querySelector('[data-state="done"]')?.innerText ?? ""`, "the card's answer")
	if !strings.Contains(text, "Guten Morgen, Welt. Die Bäckerei öffnet um sieben.") {
		t.Errorf("the card shows %q", text)
	}
	if dir := os.Getenv("WB_SCREENSHOTS"); dir != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var shot struct {
			Data []byte `json:"data"`
		}
		if err := s.env.ff.bidi.call(ctx, "browsingContext.captureScreenshot", map[string]any{"context": s.page}, &shot); err == nil {
			_ = os.WriteFile(filepath.Join(dir, "selection-card-firefox.png"), shot.Data, 0o644)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || len(reqs[0].Tools) != 0 {
		t.Fatalf("%d requests (tools %v), want one tool-less call", len(reqs), reqs)
	}
	user := ""
	for _, m := range reqs[0].Messages {
		if m.Role == llm.RoleUser {
			user = m.Content
		}
	}
	if i := strings.Index(user, "<untrusted"); i < 0 || !strings.Contains(user[i:], "Good morning, world.") {
		t.Errorf("the selection is not wrapped as page data:\n%s", user)
	}
	var rec []string
	if err := s.Eval(scenario.Page, `window.__record`, &rec); err != nil || strings.Join(rec, " ") != "host:closed" {
		t.Errorf("the page saw %v (%v), want only a closed host", rec, err)
	}
}

// The context menu's entries reach the toolbar's script the way the
// background's onClicked handler sends them (toSelectionScript, a global
// of the background page): here through tabs.executeScript.
func TestSelectionContextMenuEntry(t *testing.T) {
	srv := llmtest.NewTurns(llmtest.Turn{Text: "A greeting, and when the bakery opens."})
	s := openSession(t, "selection.html", srv)
	expr := fmt.Sprintf(`browser.extension.getBackgroundPage().toSelectionScript(%d, {wbSelection: "run", kind: "explain", text: "Good morning, world."})`, s.tabID)
	evalIn[any](t, s.env.ff, s.env.bridge, expr)
	text := s.waitInRoot(t, `(root) => root.querySelector('[data-state="done"]')?.innerText ?? ""`, "the card's answer")
	if !strings.Contains(text, "Explanation") || !strings.Contains(text, "A greeting, and when the bakery opens.") {
		t.Errorf("the card shows %q", text)
	}
}

// More… opens its popup, whose Ask hands the selection to the panel, which
// shows it as a quote; the card says whether the sidebar could be opened
// from the page.
func TestSelectionMoreQuotesInThePanel(t *testing.T) {
	s := openSession(t, "selection.html", llmtest.NewTurns())
	s.dragSelect(t, "#injection")
	click := func(action string) {
		at := s.waitInRoot(t, fmt.Sprintf(`(root) => { const b = root.querySelector('[data-action="%s"]');
			if (!b) return "";
			const r = b.getBoundingClientRect(); return Math.round(r.x + r.width / 2) + "," + Math.round(r.y + r.height / 2); }`, action), "the "+action+" button")
		var x, y int
		fmt.Sscanf(at, "%d,%d", &x, &y)
		s.pointer(t,
			map[string]any{"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
			map[string]any{"type": "pointerDown", "button": 0},
			map[string]any{"type": "pointerUp", "button": 0},
		)
	}
	click("more")
	// The popup's Ask with an empty question hands over the quote alone.
	click("ask")
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(scenario.Text(t, s, "#selection-quote"), "Ignore all previous instructions") {
		if time.Now().After(deadline) {
			t.Fatalf("the panel shows no quote: %q", scenario.Text(t, s, "#selection-quote"))
		}
		time.Sleep(150 * time.Millisecond)
	}
	// Firefox opens the sidebar only from its own controls: the page's
	// card says where the selection waits (none when it could open it).
	if root := s.toolbarRoot(t); root != "" {
		var note string
		s.inRoot(t, root, `(root) => root.querySelector('[data-state="handed"]')?.innerText ?? ""`, &note)
		t.Logf("the page's note after More…: %q", note)
	}
}
