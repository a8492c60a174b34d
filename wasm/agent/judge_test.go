package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// claimsSuccess calls done with status success on every turn, whatever
// the results say: a model that believes its own summary.
func claimsSuccess(n int, req llmtest.Request) llmtest.Turn {
	return llmtest.Turn{ToolCalls: []llm.ToolCall{call("done", map[string]any{"summary": "Your order is placed.", "status": "success"})}}
}

func finalEvent(t *testing.T, h *harness) Event {
	t.Helper()
	fs := h.eventsOf(protocol.EventFinal)
	if len(fs) != 1 {
		t.Fatalf("%d final events", len(fs))
	}
	return fs[0]
}

func TestSuccessClaimAgainstAPageErrorIsNotSuccess(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", claimsSuccess)
	h.content.errors = []string{"Card number: Your card number is incomplete.", "Payment failed. Check your details."}
	out, err := h.run(context.Background(), nil, "place the order")
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want the claim sent back once", len(reqs))
	}
	sentBack := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	if !strings.Contains(sentBack, "Not finished") || !strings.Contains(sentBack, "<"+h.opts.Boundary.Tag()+">") || !strings.Contains(sentBack, "card number is incomplete") {
		t.Fatalf("the model was sent back:\n%s", sentBack)
	}
	f := finalEvent(t, h)
	if f.Outcome != "failed" || !strings.Contains(out.Final, "could not confirm") || !strings.Contains(out.Final, "“Payment failed. Check your details.”") {
		t.Fatalf("outcome %q, final %q", f.Outcome, out.Final)
	}
}

func TestAModelThatFixesTheErrorSucceeds(t *testing.T) {
	var h *harness
	h = newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 1 {
			h.content.mu.Lock()
			h.content.errors = nil // the model fixed the field
			h.content.mu.Unlock()
		}
		return claimsSuccess(n, req)
	})
	h.content.errors = []string{"Email: Enter a valid email address."}
	if _, err := h.run(context.Background(), nil, "sign me up"); err != nil {
		t.Fatal(err)
	}
	if f := finalEvent(t, h); f.Outcome != "success" {
		t.Fatalf("outcome %q", f.Outcome)
	}
}

func TestHonestFailureIsReportedAsFailed(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{ToolCalls: []llm.ToolCall{call("done", map[string]any{"summary": "The card was declined.", "status": "failed"})}}
	})
	h.content.errors = []string{"Your card was declined."}
	out, err := h.run(context.Background(), nil, "pay")
	if err != nil {
		t.Fatal(err)
	}
	if f := finalEvent(t, h); f.Outcome != "failed" || out.Final != "The card was declined." || len(h.srv.Requests()) != 1 {
		t.Fatalf("outcome %q, final %q, %d requests", f.Outcome, out.Final, len(h.srv.Requests()))
	}
}

func TestAskAnswersAreNotJudged(t *testing.T) {
	h := newHarness(t, protocol.ModeAsk, "mid", func(int, llmtest.Request) llmtest.Turn { return llmtest.Turn{Text: "It says hello."} })
	h.content.errors = []string{"Something failed"}
	if _, err := h.run(context.Background(), nil, "what does it say?"); err != nil {
		t.Fatal(err)
	}
	if f := finalEvent(t, h); f.Outcome != "" {
		t.Fatalf("an Ask answer got outcome %q", f.Outcome)
	}
}

// A plain answer is a claim too: it does not get around the judge.
func TestPlainAnswerAgainstAPageErrorIsNotSuccess(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "Done, your order is placed."}
	})
	h.content.errors = []string{"Card number: Your card number is incomplete."}
	out, err := h.run(context.Background(), nil, "place the order")
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want the answer sent back once", len(reqs))
	}
	back := reqs[1].Messages[len(reqs[1].Messages)-1]
	if back.Role != llm.RoleUser || !strings.HasPrefix(back.Content, "[WebBrain] Not finished") || !strings.Contains(back.Content, "card number is incomplete") {
		t.Fatalf("sent back: %+v", back)
	}
	if f := finalEvent(t, h); f.Outcome != outcomeFailed || !strings.Contains(out.Final, "could not confirm") {
		t.Fatalf("outcome %q, final %q", f.Outcome, out.Final)
	}
	if len(h.eventsOf(protocol.EventTextReset)) != 1 {
		t.Fatal("the sent-back answer stayed on screen")
	}
}

func TestPlainAnswerOnACleanPageEndsTheRun(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "The mug costs 12 €."}
	})
	out, err := h.run(context.Background(), nil, "how much is the mug?")
	if err != nil || out.Final != "The mug costs 12 €." || len(h.srv.Requests()) != 1 {
		t.Fatalf("%v %q after %d requests", err, out.Final, len(h.srv.Requests()))
	}
	if f := finalEvent(t, h); f.Outcome != "" {
		t.Fatalf("a plain answer got outcome %q", f.Outcome)
	}
}

// A field a page script emptied after the run typed into it sends the
// success claim back once with what the field holds; claimed again, the
// answer stands (a page may reformat a value on purpose).
func TestReadbackSendsBackAFieldThatLostItsValue(t *testing.T) {
	var h *harness
	h = newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{
				call("type_ax", map[string]any{"ref": "ref_4", "text": "Ada Lovelace"}),
				call("type_ax", map[string]any{"ref": "ref_5", "text": "ada@example.org"}),
			}}
		}
		if n == 1 {
			h.content.mu.Lock()
			h.content.fields["ref_5"] = "" // the page's script cleared it
			h.content.mu.Unlock()
		}
		return claimsSuccess(n, req)
	})
	if _, err := h.run(context.Background(), nil, "sign me up as Ada Lovelace, ada@example.org"); err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want the claim sent back once", len(reqs))
	}
	back := reqs[2].Messages[len(reqs[2].Messages)-1].Content
	if !strings.Contains(back, "read back") || !strings.Contains(back, `the run typed "ada@example.org"`) || strings.Contains(back, "Ada Lovelace") {
		t.Fatalf("sent back %q", back)
	}
	if f := finalEvent(t, h); f.Outcome != outcomeSuccess {
		t.Fatalf("outcome %q", f.Outcome)
	}
}

func TestReadbackOfFieldsThatHoldTheirValuesPasses(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("type_ax", map[string]any{"ref": "ref_4", "text": "Ada"})}}
		}
		return claimsSuccess(n, req)
	})
	if _, err := h.run(context.Background(), nil, "type Ada"); err != nil {
		t.Fatal(err)
	}
	if n := len(h.srv.Requests()); n != 2 {
		t.Fatalf("%d requests: a field holding its value was sent back", n)
	}
}

// A form that empties itself after it was sent is not read back: the
// values were typed before the click that sent it.
func TestReadbackIgnoresFieldsBeforeTheClickThatSentThem(t *testing.T) {
	var h *harness
	h = newHarness(t, protocol.ModeAct, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{
				call("type_ax", map[string]any{"ref": "ref_4", "text": "Ada"}),
				call("click_ax", map[string]any{"ref": "ref_9"}),
			}}
		}
		if n == 1 {
			h.content.mu.Lock()
			h.content.fields["ref_4"] = "" // the sent form was emptied
			h.content.mu.Unlock()
		}
		return claimsSuccess(n, req)
	})
	if _, err := h.run(context.Background(), nil, "send Ada's name"); err != nil {
		t.Fatal(err)
	}
	if n := len(h.srv.Requests()); n != 2 {
		t.Fatalf("%d requests: a sent form was read back", n)
	}
}
