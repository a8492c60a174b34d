package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// FindFrameRef returns the frame ref ("f3:ref_12") of the line with this
// role and name in a frame's tree.
func FindFrameRef(tree, role, name string) (string, error) {
	node := fmt.Sprintf("%s %q", role, name)
	for _, line := range strings.Split(tree, "\n") {
		if m := frameRefPattern.FindStringSubmatch(line); m != nil && strings.Contains(line, node) {
			return m[1], nil
		}
	}
	return "", fmt.Errorf("no frame ref for %s in:\n%s", node, Clip(tree, 3000))
}

var (
	frameRefPattern = regexp.MustCompile(`\[(f\d+:ref_\d+)\]`)
	sameOrigin      = regexp.MustCompile(`(?m)^(f\d+) same-origin: \S+/frame-note\.html`)
	crossOrigin     = regexp.MustCompile(`(?m)^f\d+ cross-origin: \S+/frame-pay\.html`)
	srcdocFrame     = regexp.MustCompile(`(?m)^f\d+ same origin as its parent: about:srcdoc "" \d+×\d+, iframe "Terms" \[ref_\d+\]`)
	closedAt        = regexp.MustCompile(`"Accept terms" at x=(\d+) y=(\d+)`)
)

// FramesAndShadowDOM: on a Full-tier Act run the model types and clicks
// inside a cross-origin iframe (iframe_read, iframe_type, iframe_click),
// inside a same-origin one it promoted (promote_iframe, then the tree and
// the *_ax tools with the frame's refs), and inside a web component's open
// shadow root (get_interactive_elements); in Chrome it also finds a button
// in a closed shadow root (shadow_dom_query) and clicks it at its point.
// The page records what each click carried.
func FramesAndShadowDOM(t *testing.T, d Driver, chrome bool) {
	refs := map[string]string{}
	find := func(tree, key, role, name string, inFrame bool) error {
		var ref string
		var err error
		if inFrame {
			ref, err = FindFrameRef(tree, role, name)
		} else {
			ref, err = FindRef(tree, role, name)
		}
		refs[key] = ref
		return err
	}
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		last := LastToolResult(req)
		var err error
		switch n {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{"filter": "interactive"})
		case 1:
			if err = find(last, "pay", "iframe", "Payment form", false); err == nil {
				return CallTool("iframe_read", map[string]any{"frame": refs["pay"], "filter": "interactive"})
			}
		case 2:
			if err = find(last, "holder", "textbox", "Name on card", true); err == nil {
				if err = find(last, "apply", "button", "Use this name", true); err == nil {
					return CallTool("iframe_type", map[string]any{"ref": refs["holder"], "text": "Ada Lovelace"})
				}
			}
		case 3:
			return CallTool("iframe_click", map[string]any{"ref": refs["apply"]})
		case 4:
			return CallTool("get_frames", map[string]any{})
		case 5:
			m := sameOrigin.FindStringSubmatch(last)
			if m == nil || !crossOrigin.MatchString(last) || !srcdocFrame.MatchString(last) {
				return ScriptFailed(fmt.Errorf("get_frames does not list the same-origin, the cross-origin and the srcdoc frame:\n%s", last))
			}
			return CallTool("promote_iframe", map[string]any{"frame": m[1]})
		case 6:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 7:
			if err = find(last, "note", "textbox", "Delivery note", true); err == nil {
				if err = find(last, "keep", "button", "Keep note", true); err == nil {
					return CallTool("type_ax", map[string]any{"ref": refs["note"], "text": "Leave at door"})
				}
			}
		case 8:
			return CallTool("click_ax", map[string]any{"ref": refs["keep"]})
		case 9:
			return CallTool("promote_iframe", map[string]any{"frame": "f0"})
		case 10:
			return CallTool("get_interactive_elements", map[string]any{})
		case 11:
			if err = find(last, "gift", "textbox", "Gift message", false); err == nil {
				if err = find(last, "save", "button", "Save gift message", false); err == nil {
					return CallTool("type_ax", map[string]any{"ref": refs["gift"], "text": "Happy birthday"})
				}
			}
		case 12:
			return CallTool("click_ax", map[string]any{"ref": refs["save"]})
		case 13:
			return CallTool("get_shadow_dom", map[string]any{})
		case 14:
			if !strings.Contains(last, "#shadow-root (open)") || !strings.Contains(last, `button "Save gift message"`) {
				return ScriptFailed(fmt.Errorf("get_shadow_dom does not show the widget's shadow root:\n%s", last))
			}
			if !chrome {
				return Answer("Done.")
			}
			if !strings.Contains(last, "#shadow-root (closed)") || !strings.Contains(last, `"Accept terms"`) {
				return ScriptFailed(fmt.Errorf("get_shadow_dom in Chrome does not outline the closed root:\n%s", last))
			}
			return CallTool("shadow_dom_query", map[string]any{"selector": "button"})
		case 15:
			m := closedAt.FindStringSubmatch(last)
			if m == nil {
				return ScriptFailed(fmt.Errorf("shadow_dom_query gives no point for the closed root's button:\n%s", last))
			}
			var x, y int
			fmt.Sscan(m[1], &x)
			fmt.Sscan(m[2], &y)
			return CallTool("click", map[string]any{"x": x, "y": y})
		default:
			return Answer("Done.")
		}
		return ScriptFailed(err)
	})
	s := d.Open(t, "frames.html", srv, Provider{Kind: "openai-chat", Tier: "full"})
	s.Send("act", "Put Ada Lovelace as the name on card and use this name, write Leave at door as the delivery note and keep it, save the gift message Happy birthday, and accept the terms.")

	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done; model requests:\n%s", got, SummarizeRequests(srv.Requests()))
	}
	for _, r := range ToolRows(t, s) {
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
	}
	want := []string{"pay:Ada Lovelace:" + fmt.Sprint(chrome), "note:Leave at door", "shadow-save:Happy birthday"}
	if chrome {
		want = append(want, "closed-click:true")
	}
	got := PageRecord(t, s)
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("the page recorded %q, want %q among them (all of %q)", got, w, want)
		}
	}
	if len(got) != len(want) {
		t.Errorf("the page recorded %q, want exactly %q", got, want)
	}
}
