package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// warnedCalls returns the 1-based numbers of the tool calls whose result
// carried a loop warning.
func warnedCalls(h *harness) []int {
	var warned []int
	for i, e := range h.eventsOf(protocol.EventToolResult) {
		if strings.Contains(e.Result, "Loop warning:") {
			warned = append(warned, i+1)
		}
	}
	return warned
}

// runLoop runs an Ask or Act turn whose model calls next(n) at request n.
func runLoop(t *testing.T, mode string, next func(n int) llm.ToolCall) (*harness, Outcome, []int) {
	t.Helper()
	asked := 0 // requests of the loop; compaction's summary requests offer no tools
	h := newHarness(t, mode, "mid", func(_ int, req llmtest.Request) llmtest.Turn {
		if len(req.Tools) == 0 {
			return llmtest.Turn{Text: "Summary of the earlier steps."}
		}
		n := asked
		asked++
		if n >= 40 {
			return llmtest.Turn{Text: "giving up"}
		}
		return llmtest.Turn{ToolCalls: []llm.ToolCall{next(n)}}
	})
	h.opts.MaxSteps = 40
	out, err := h.run(context.Background(), nil, "task")
	if err != nil {
		t.Fatal(err)
	}
	checkPairs(t, out.Conversation)
	return h, out, warnedCalls(h)
}

func TestRepeatDetectorNudgesThenStops(t *testing.T) {
	h, out, warned := runLoop(t, protocol.ModeAsk, func(n int) llm.ToolCall {
		return call("get_window_info", map[string]any{})
	})
	// Nudges from the 3rd identical call; the 8th (call 10) stops.
	if fmt.Sprint(warned) != "[3 4 5 6 7 8 9]" {
		t.Errorf("warnings at calls %v", warned)
	}
	if out.Final != loopStopMessage || len(h.srv.Requests()) != 10 {
		t.Errorf("final = %q after %d requests", out.Final, len(h.srv.Requests()))
	}
	if n := len(h.eventsOf(protocol.EventLoopWarning)); n != 8 {
		t.Errorf("%d loop_warning events", n)
	}
}

func TestRepeatDetectorCatchesAlternation(t *testing.T) {
	h, out, warned := runLoop(t, protocol.ModeAsk, func(n int) llm.ToolCall {
		dir := []string{"down", "up"}[n%2]
		return call("scroll", map[string]any{"direction": dir})
	})
	if len(warned) == 0 || warned[0] != 4 {
		t.Fatalf("warnings at calls %v", warned)
	}
	if !strings.Contains(h.eventsOf(protocol.EventLoopWarning)[0].Text, "alternating") {
		t.Errorf("first warning = %q", h.eventsOf(protocol.EventLoopWarning)[0].Text)
	}
	if out.Final != loopStopMessage || len(h.srv.Requests()) != 11 {
		t.Errorf("final %q, warnings %v", out.Final, warned)
	}
}

func TestHealthyCallsResetTheStopCount(t *testing.T) {
	// Bursts of identical calls separated by two different ones never
	// reach eight nudges in a row.
	h, out, warned := runLoop(t, protocol.ModeAsk, func(n int) llm.ToolCall {
		if n%6 >= 4 {
			return call("read_page", map[string]any{"maxChars": 1000 + n})
		}
		return call("get_window_info", map[string]any{})
	})
	if out.Final == loopStopMessage || len(h.srv.Requests()) < 40 || len(warned) < 10 {
		t.Errorf("final %q after %d requests, warnings %v", out.Final, len(h.srv.Requests()), warned)
	}
}

func TestCoordinateClickDetector(t *testing.T) {
	h, out, warned := runLoop(t, protocol.ModeAct, func(n int) llm.ToolCall {
		// Different points inside one 5px bucket, different results: only
		// the coordinate detector can see the loop.
		return call("click", map[string]any{"x": 100 + n%5, "y": 50.5, "note": n})
	})
	if fmt.Sprint(warned) != "[5 6 7]" {
		t.Errorf("warnings at calls %v", warned)
	}
	if out.Final != loopStopMessage || len(h.srv.Requests()) != 8 {
		t.Errorf("final %q after %d requests", out.Final, len(h.srv.Requests()))
	}
}

func TestNavigationDetector(t *testing.T) {
	pages := []string{"https://a.example/", "https://b.example/"}
	h, out, warned := runLoopWith(t, func(hh *harness) {
		hh.content.reply = func(ctx context.Context, name string, args map[string]any) (string, error) {
			ref := args["ref"].(string)
			var i int
			fmt.Sscanf(ref, "ref_%d", &i)
			hh.tabs.load(pages[i%2])
			return "clicked " + ref, nil
		}
	}, func(n int) llm.ToolCall {
		if n == 6 {
			return llm.ToolCall{}
		}
		return call("click_ax", map[string]any{"ref": fmt.Sprintf("ref_%d", n)})
	})
	// a, b, a, b, a: the fifth click is the third arrival at a.
	if len(warned) == 0 || warned[0] != 5 {
		t.Fatalf("warnings at calls %v", warned)
	}
	if w := h.eventsOf(protocol.EventLoopWarning)[0].Text; !strings.Contains(w, "visit 3 to https://a.example/") {
		t.Errorf("warning = %q", w)
	}
	if out.Final != "giving up" {
		t.Errorf("final = %q", out.Final)
	}
}

// runLoopWith is runLoop with a setup hook; a zero ToolCall from next
// makes the model answer with text.
func runLoopWith(t *testing.T, setup func(*harness), next func(n int) llm.ToolCall) (*harness, Outcome, []int) {
	t.Helper()
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		c := next(n)
		if c.Name == "" {
			return llmtest.Turn{Text: "giving up"}
		}
		return llmtest.Turn{ToolCalls: []llm.ToolCall{c}}
	})
	setup(h)
	out, err := h.run(context.Background(), nil, "task")
	if err != nil {
		t.Fatal(err)
	}
	checkPairs(t, out.Conversation)
	return h, out, warnedCalls(h)
}

// The detector's memory goes through the checkpoint (JSON, and JavaScript
// numbers in storage): a run resumed after two identical calls is warned
// at the third, as it would have been without the restart, and one that
// was nudged to the edge is still stopped.
func TestLoopStateSurvivesACheckpoint(t *testing.T) {
	same := observation{name: "click_ax", args: `{"ref":"e1"}`, result: "No visible change."}
	d := newLoopDetector("https://example.com/")
	d.observe(same)
	d.observe(same)
	d.observe(observation{name: "click", args: `{"x":10,"y":10}`, result: "Clicked."})
	d.visits["https://example.com/b"] = 2

	raw, err := json.Marshal(d.state())
	if err != nil {
		t.Fatal(err)
	}
	var st LoopState
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	r := restoreLoopDetector(&st, "https://example.com/")
	if v := r.observe(same); !strings.Contains(v.nudge, "3 times") {
		t.Fatalf("third identical call after the restart: %+v", v)
	}
	if got := r.clicks[[2]int{2, 2}]; got != 1 {
		t.Errorf("coordinate clicks restored as %d", got)
	}
	if got := r.visits["https://example.com/b"]; got != 2 {
		t.Errorf("visits restored as %d", got)
	}
	if fresh := restoreLoopDetector(nil, "https://example.com/"); fresh.visits["https://example.com/"] != 1 {
		t.Errorf("no saved state: want a fresh detector at the page")
	}
}
