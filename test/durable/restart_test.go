//go:build e2e

package durable

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// The task every restart run performs: read the tree, click "Add one"
// once, wait for "Saved", answer.
const counterAnswer = "I clicked Add one once and the page saved it: the counter now shows 1."

// Where a run is when the worker is stopped.
const (
	atFirstRequest  = iota // model request 1, nothing done yet
	atClickRequest         // model request 2, the tree read
	atAfterClick           // model request 3: between the click and the next tool
	atAnswerRequest        // model request 4, before any text
	atToolCall             // during wait_for_element (after request 3)
	atStreaming            // while the answer streams (request 4)
	stopPoints
)

var stopNames = []string{"first request", "before the click", "between tool calls", "final request", "during a tool call", "while streaming"}

var refRE = regexp.MustCompile(`button "Add one" \[(ref_\w+)\]`)

// counterModel scripts the task from what the extension sent. The request
// of stage hold is slow until stopped is set, so the test can stop the
// worker while it is in flight; the answer streams slowly for atStreaming.
func counterModel(hold int, stopped *atomic.Bool) func(n int, req llmtest.Request) llmtest.Turn {
	return func(n int, req llmtest.Request) llmtest.Turn {
		name, content := lastTool(req)
		stage := map[string]int{"": atFirstRequest, "get_accessibility_tree": atClickRequest,
			"click_ax": atAfterClick, "wait_for_element": atAnswerRequest}[name]
		var turn llmtest.Turn
		switch stage {
		case atFirstRequest:
			turn = tool("get_accessibility_tree", map[string]any{"filter": "interactive"})
		case atClickRequest:
			m := refRE.FindStringSubmatch(content)
			if m == nil {
				return llmtest.Turn{Text: "SCRIPT FAILED: no Add one button in " + content}
			}
			turn = tool("click_ax", map[string]any{"ref": m[1]})
		case atAfterClick:
			turn = tool("wait_for_element", map[string]any{"selector": "#done", "timeoutMs": 8000})
		default:
			turn = llmtest.Turn{Text: counterAnswer}
			if hold == atStreaming && !stopped.Load() {
				turn.ChunkDelay = 150 * time.Millisecond
			}
		}
		if stage == hold && hold != atStreaming && !stopped.Load() {
			turn.Delay = 20 * time.Second // ended by the stop: the worker's fetch dies with it
		}
		return turn
	}
}

func tool(name string, args map[string]any) llmtest.Turn {
	b, _ := json.Marshal(args)
	return llmtest.Turn{ToolCalls: []llm.ToolCall{{Name: name, Arguments: string(b)}}}
}

// TestRunsSurviveWorkerStops stops the service worker once in each run, at
// a different point, and checks every run ends with the right answer and
// the page action done exactly once.
func TestRunsSurviveWorkerStops(t *testing.T) {
	const runs = 20
	var completed, duplicates, interrupted int
	for i := 0; i < runs; i++ {
		point := i % stopPoints
		// Later rounds stop later into the same point.
		offset := time.Duration(100+(i/stopPoints)*250) * time.Millisecond
		t.Run(fmt.Sprintf("%02d_%s", i, strings.ReplaceAll(stopNames[point], " ", "_")), func(t *testing.T) {
			var stopped atomic.Bool
			s := openSession(t, llmtest.New(counterModel(point, &stopped)))
			s.typeEnter("act", "Click Add one once, wait until it is saved, then tell me the count.", false)
			switch point {
			case atToolCall:
				s.waitRequests(atAfterClick + 1) // the third reply asks for wait_for_element
				waitFor(t, s.page, "the click", runTimeout, `(window.__record ?? []).length === 1`)
			case atStreaming:
				s.waitRequests(atAnswerRequest + 1)
				waitFor(t, s.panel, "streamed text", runTimeout, `!!document.querySelector('.msg.assistant')?.innerText.trim()`)
			default:
				s.waitRequests(point + 1)
			}
			time.Sleep(offset)
			stopped.Store(true)
			stopWorker(t)
			interrupted++
			if st := s.waitRunEnd(); st != "done" {
				t.Fatalf("run ended %s", st)
			}
			answers := s.texts(".msg.assistant")
			if len(answers) != 1 || answers[0] != counterAnswer {
				t.Fatalf("answers in the panel: %q", answers)
			}
			notices := strings.Join(s.texts(".msg.notice"), "\n")
			if !strings.Contains(notices, "resumed") {
				t.Fatalf("no resumed notice; notices: %q", notices)
			}
			n := s.clicks()
			if n > 1 {
				duplicates += n - 1
			}
			if n != 1 {
				t.Fatalf("the page was clicked %d times", n)
			}
			completed++
		})
	}
	t.Logf("survival: %d/%d interrupted runs completed, %d duplicate page actions", completed, interrupted, duplicates)
	fmt.Printf("survival: %d/%d interrupted runs completed, %d duplicate page actions\n", completed, interrupted, duplicates)
}
