package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// readsAs is a done_summary reader that answers kind for every answer and
// records what it read.
func readsAs(kind string, read *[]string) func(context.Context, string, string) string {
	return func(_ context.Context, _, summary string) string {
		*read = append(*read, summary)
		return kind
	}
}

func TestAClaimWithoutTheResultIsSentBackOnce(t *testing.T) {
	h := newHarness(t, protocol.ModeAsk, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{Text: "I have answered your question above."}
		}
		return llmtest.Turn{Text: "The mug costs 12 €."}
	})
	var read []string
	h.opts.SummaryKind = readsAs(SummaryClaim, &read)
	out, err := h.run(context.Background(), nil, "how much is the mug?")
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "actual result") {
		t.Fatalf("%d requests", len(reqs))
	}
	if out.Final != "The mug costs 12 €." || len(read) != 1 {
		t.Fatalf("final %q, %d readings: a second claim is not read again", out.Final, len(read))
	}
}

func TestAPlanInsteadOfDoneIsSentBack(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("done", map[string]any{"summary": "Next I will open the settings and turn off the newsletter.", "status": "success"})}}
		}
		return llmtest.Turn{ToolCalls: []llm.ToolCall{call("done", map[string]any{"summary": "The newsletter is off.", "status": "success"})}}
	})
	var read []string
	h.opts.SummaryKind = readsAs(SummaryPlan, &read)
	out, err := h.run(context.Background(), nil, "turn off the newsletter")
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "what you will do next") {
		t.Fatalf("%d requests", len(reqs))
	}
	if f := finalEvent(t, h); out.Final != "The newsletter is off." || f.Outcome != outcomeSuccess {
		t.Fatalf("final %q outcome %q", out.Final, f.Outcome)
	}
}

func TestAnswersWithContentAreNotRead(t *testing.T) {
	long := "Prices:\n- mug A 12 €\n- mug B 15 €"
	h := newHarness(t, protocol.ModeAsk, "mid", func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: long} })
	var read []string
	h.opts.SummaryKind = readsAs(SummaryClaim, &read)
	if out, err := h.run(context.Background(), nil, "prices?"); err != nil || out.Final != long || len(read) != 0 {
		t.Fatalf("%v %q, read %v", err, out.Final, read)
	}
	h = newHarness(t, protocol.ModeAsk, "mid", func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: "It costs 12 €."} })
	h.opts.SummaryKind = readsAs(SummaryResult, &read)
	if out, err := h.run(context.Background(), nil, "price?"); err != nil || out.Final != "It costs 12 €." || len(read) != 1 || len(h.srv.Requests()) != 1 {
		t.Fatalf("%v %q, read %v", err, out.Final, read)
	}
}
