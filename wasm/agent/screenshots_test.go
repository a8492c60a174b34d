package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// shots gives the harness a camera whose nth picture has data "shot<n>".
func shots(h *harness) *atomic.Int32 {
	var n atomic.Int32
	h.opts.Screenshot = func(ctx context.Context) (llm.Image, error) {
		return llm.Image{MediaType: "image/jpeg", Data: fmt.Sprintf("shot%d", n.Add(1))}, nil
	}
	return &n
}

// imagesIn lists the image data of every message, in order.
func imagesIn(msgs []llm.Message) []string {
	var out []string
	for _, m := range msgs {
		for _, im := range m.Images {
			out = append(out, im.Data)
		}
	}
	return out
}

func TestScreenshotOnFirstMessageAndAfterPageChange(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, protocol.TierMid, func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("get_accessibility_tree", map[string]any{})}}
		case 1:
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("click_ax", map[string]any{"ref": "ref_1"}), call("read_page", map[string]any{})}}
		}
		return llmtest.Turn{Text: "Clicked."}
	})
	shots(h)
	out, err := h.run(context.Background(), nil, "Click the buy button.")
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := reqs[0].Messages[1]
	if first.Role != llm.RoleUser || len(first.Images) != 1 || first.Images[0].Data != "shot1" ||
		first.Images[0].MediaType != "image/jpeg" || !strings.Contains(first.Content, "untrusted") {
		t.Fatalf("first user message %+v", first)
	}
	// A read-only batch adds no screenshot.
	if got := roles(reqs[1].Messages); got != "system user assistant tool " {
		t.Fatalf("after the tree: %s", got)
	}
	// The click's batch ends with both results, then the screenshot.
	msgs := reqs[2].Messages
	if got := roles(msgs); got != "system user assistant tool assistant tool tool user " {
		t.Fatalf("after the click: %s", got)
	}
	last := msgs[len(msgs)-1]
	if !strings.HasPrefix(last.Content, afterActionsText) || len(last.Images) != 1 || last.Images[0].Data != "shot2" {
		t.Fatalf("screenshot message %+v", last)
	}
	checkPairs(t, out.Conversation)
	if got := imagesIn(out.Conversation); strings.Join(got, ",") != "shot1,shot2" {
		t.Fatalf("stored images %v", got)
	}
}

func TestAskGetsTheFirstScreenshot(t *testing.T) {
	h := newHarness(t, protocol.ModeAsk, protocol.TierMid, func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "A blue mug."}
	})
	shots(h)
	if _, err := h.run(context.Background(), nil, "What is this?"); err != nil {
		t.Fatal(err)
	}
	if got := imagesIn(h.srv.Requests()[0].Messages); len(got) != 1 {
		t.Fatalf("images %v", got)
	}
}

func TestNoScreenshotsWithoutVision(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, protocol.TierMid, func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("click_ax", map[string]any{"ref": "ref_1"})}}
		}
		return llmtest.Turn{Text: "Clicked."}
	})
	if _, err := h.run(context.Background(), nil, "Click it."); err != nil {
		t.Fatal(err)
	}
	for i, r := range h.srv.Requests() {
		if got := imagesIn(r.Messages); len(got) > 0 || strings.Contains(roles(r.Messages), "tool user") {
			t.Fatalf("request %d: images %v, roles %s", i, got, roles(r.Messages))
		}
	}
}

// Only the last four screenshots travel and stay stored; older ones leave
// a marker in their message.
func TestScreenshotsArePrunedToFour(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, protocol.TierMid, func(n int, req llmtest.Request) llmtest.Turn {
		if n < 6 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("navigate", map[string]any{"url": fmt.Sprintf("https://shop.example/p%d", n)})}}
		}
		return llmtest.Turn{Text: "Seen them all."}
	})
	shots(h)
	out, err := h.run(context.Background(), nil, "Look at six pages.")
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if got := imagesIn(reqs[len(reqs)-1].Messages); strings.Join(got, ",") != "shot4,shot5,shot6,shot7" {
		t.Fatalf("last request images %v", got)
	}
	for i, r := range reqs {
		if n := len(imagesIn(r.Messages)); n > keepImages {
			t.Fatalf("request %d carried %d images", i, n)
		}
	}
	if got := imagesIn(out.Conversation); len(got) != keepImages {
		t.Fatalf("stored images %v", got)
	}
	if task := out.Conversation[1]; len(task.Images) != 0 || !strings.HasSuffix(task.Content, llm.ImageOmitted) {
		t.Fatalf("first message not pruned: %+v", task)
	}
}

func TestScreenshotFailureDoesNotFailTheRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		shot func(ctx context.Context) (llm.Image, error)
		want string
	}{
		{"error", func(ctx context.Context) (llm.Image, error) { return llm.Image{}, errors.New("tab is hidden") }, "tab is hidden"},
		{"too large", func(ctx context.Context) (llm.Image, error) {
			return llm.Image{MediaType: "image/jpeg", Data: strings.Repeat("A", maxImageBase64+1)}, nil
		}, "too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, protocol.ModeAct, protocol.TierMid, func(n int, req llmtest.Request) llmtest.Turn {
				if n == 0 {
					return llmtest.Turn{ToolCalls: []llm.ToolCall{call("click_ax", map[string]any{"ref": "ref_1"})}}
				}
				return llmtest.Turn{Text: "Clicked."}
			})
			h.opts.Screenshot = tc.shot
			out, err := h.run(context.Background(), nil, "Click it.")
			if err != nil || out.Final != "Clicked." {
				t.Fatalf("run: %q %v", out.Final, err)
			}
			msgs := h.srv.Requests()[1].Messages
			if got := imagesIn(msgs); len(got) != 0 {
				t.Fatalf("images sent: %d", len(got))
			}
			last := msgs[len(msgs)-1]
			if !strings.Contains(msgs[1].Content, tc.want) || last.Role != llm.RoleUser || !strings.Contains(last.Content, tc.want) {
				t.Fatalf("notes: first %q, last %+v", msgs[1].Content, last.Content)
			}
		})
	}
}
