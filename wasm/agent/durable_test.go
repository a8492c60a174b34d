package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// fakeSteering is a Steering the test feeds.
type fakeSteering struct {
	mu    sync.Mutex
	items []Correction
	ch    chan struct{}
}

func newSteering() *fakeSteering { return &fakeSteering{ch: make(chan struct{}, 1)} }

func (s *fakeSteering) add(text string) {
	s.mu.Lock()
	s.items = append(s.items, Correction{ID: fmt.Sprintf("s%d", len(s.items)+1), Text: text})
	s.mu.Unlock()
	select {
	case s.ch <- struct{}{}:
	default:
	}
}

func (s *fakeSteering) Pending() []Correction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.items)
}

func (s *fakeSteering) Arrived() <-chan struct{} { return s.ch }

// corrections returns the correction texts in msgs, in order.
func corrections(msgs []llm.Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role == llm.RoleUser && strings.HasPrefix(m.Content, "Correction from the user") {
			out = append(out, m.Content[strings.Index(m.Content, ": ")+2:])
		}
	}
	return out
}

func TestCorrectionAbortsTheModelRequestAndIsAppliedOnce(t *testing.T) {
	h := newHarness(t, protocol.ModeAsk, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{Text: "never", Delay: time.Minute}
		}
		return llmtest.Turn{Text: "Answer for the red mug."}
	})
	st := newSteering()
	h.opts.Steering = st
	go func() {
		for len(h.srv.Requests()) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		st.add("I meant the red mug")
		st.add("and in euros")
	}()
	start := time.Now()
	out, err := h.run(context.Background(), nil, "Price of the mug?")
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 5*time.Second || out.Final != "Answer for the red mug." {
		t.Fatalf("final %q after %v", out.Final, time.Since(start))
	}
	reqs := h.srv.Requests()
	last := reqs[len(reqs)-1].Messages
	if got := corrections(last); !slices.Equal(got, []string{"I meant the red mug", "and in euros"}) {
		t.Fatalf("corrections in the last request: %q", got)
	}
	if got := corrections(out.Conversation); len(got) != 2 {
		t.Fatalf("corrections in the conversation: %q", got)
	}
	if len(h.eventsOf(protocol.EventCorrection)) != 2 || len(h.eventsOf(protocol.EventTextReset)) == 0 {
		t.Fatalf("events %v", h.kinds())
	}
}

func TestCorrectionDuringAToolSkipsTheRestOfTheBatch(t *testing.T) {
	st := newSteering()
	h := newHarness(t, protocol.ModeAct, "full", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{
				call("click_ax", map[string]any{"ref": "e1"}),
				call("click_ax", map[string]any{"ref": "e2"}),
			}}
		}
		return llmtest.Turn{Text: "done"}
	})
	h.opts.Steering = st
	h.content.reply = func(ctx context.Context, name string, args map[string]any) (string, error) {
		st.add("click e3 instead")
		return "clicked", nil
	}
	out, err := h.run(context.Background(), nil, "click e1 and e2")
	if err != nil {
		t.Fatal(err)
	}
	if got := h.content.names(); len(got) != 1 {
		t.Fatalf("page calls %v: the running tool finishes, the rest is skipped", got)
	}
	checkPairs(t, out.Conversation)
	tm := toolMessages(out.Conversation)
	if len(tm) != 2 || !strings.Contains(tm[0].Content, "clicked") || tm[1].Content != resultSteered {
		t.Fatalf("tool results %+v", tm)
	}
	second := h.srv.Requests()[1].Messages
	if n := len(second); second[n-1].Role != llm.RoleUser || corrections(second[n-1:])[0] != "click e3 instead" {
		t.Fatalf("the correction is not the last message before the next request: %+v", second[n-1])
	}
}

func TestCheckpointsBracketEveryDispatch(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "full", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("click_ax", map[string]any{"ref": "e1"})}}
		}
		return llmtest.Turn{Text: "ok"}
	})
	var cps []Checkpoint
	h.opts.Checkpoint = func(cp Checkpoint) error {
		cps = append(cps, cp)
		return nil
	}
	if _, err := h.run(context.Background(), nil, "click"); err != nil {
		t.Fatal(err)
	}
	// step 1, before the click, after the click, step 2.
	if len(cps) != 4 {
		t.Fatalf("%d checkpoints", len(cps))
	}
	before, after := cps[1], cps[2]
	if before.Dispatched == "" || len(openCalls(before.Conversation)) != 1 || before.Step != 1 {
		t.Fatalf("before dispatch: %+v", before)
	}
	if after.Dispatched != "" || len(openCalls(after.Conversation)) != 0 {
		t.Fatalf("after the result: %+v", after)
	}
	if cps[3].Step != 2 {
		t.Fatalf("last checkpoint step %d", cps[3].Step)
	}
}

func TestFailedCheckpointSendsNothing(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "full", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{ToolCalls: []llm.ToolCall{call("click_ax", map[string]any{"ref": "e1"})}}
	})
	saves := 0
	h.opts.Checkpoint = func(cp Checkpoint) error {
		saves++
		if cp.Dispatched != "" {
			return errors.New("storage full")
		}
		return nil
	}
	out, err := h.run(context.Background(), nil, "click")
	if err == nil || len(h.content.names()) != 0 || len(h.eventsOf(protocol.EventError)) != 1 {
		t.Fatalf("err %v, page calls %v, events %v", err, h.content.names(), h.kinds())
	}
	checkPairs(t, out.Conversation)
}

// interruptedCheckpoint is the state after the model asked for calls and
// the first was sent to the page, as a restart finds it.
func interruptedCheckpoint(calls ...llm.ToolCall) Checkpoint {
	conv := []llm.Message{{Role: llm.RoleSystem, Content: "s"}, {Role: llm.RoleUser, Content: "task"}}
	calls = withCallIDs(calls, 1)
	conv = append(conv, llm.Message{Role: llm.RoleAssistant, ToolCalls: calls})
	return Checkpoint{Conversation: conv, Task: 1, Step: 1, Dispatched: calls[0].ID}
}

func TestResumeDoesNotRepeatAnInterruptedAction(t *testing.T) {
	h := newHarness(t, protocol.ModeAct, "full", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "Re-read the page; all good."}
	})
	cp := interruptedCheckpoint(call("click_ax", map[string]any{"ref": "e1"}), call("read_page", map[string]any{}))
	out, err := Resume(context.Background(), h.opts, cp)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.content.names(); !slices.Equal(got, []string{"read_page"}) {
		t.Fatalf("page calls after resume %v: the click must not be sent again", got)
	}
	checkPairs(t, out.Conversation)
	tm := toolMessages(out.Conversation)
	if tm[0].Content != resultInterrupted || out.Final != "Re-read the page; all good." {
		t.Fatalf("results %+v final %q", tm, out.Final)
	}
	if len(h.srv.Requests()) != 1 || h.srv.Requests()[0].Messages[1].Content != "task" {
		t.Fatal("the resumed run did not continue the saved conversation")
	}
}

func TestResumeRepeatsAnInterruptedRead(t *testing.T) {
	h := newHarness(t, protocol.ModeAsk, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "ok"}
	})
	cp := interruptedCheckpoint(call("read_page", map[string]any{}))
	out, err := Resume(context.Background(), h.opts, cp)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.content.names(); !slices.Equal(got, []string{"read_page"}) {
		t.Fatalf("page calls %v", got)
	}
	tm := toolMessages(out.Conversation)
	if !strings.Contains(tm[0].Content, "read_page done") {
		t.Fatalf("result %+v", tm)
	}
	// The new background's boundary wraps the result, and the system
	// prompt the model gets names it.
	tag := h.opts.Boundary.Tag()
	if sys := h.srv.Requests()[0].Messages[0].Content; !strings.Contains(sys, "<"+tag+">") || !strings.Contains(tm[0].Content, "</"+tag+">") {
		t.Errorf("system prompt %q does not name the result's boundary %s", sys, tag)
	}
}

func TestResumeAppliesOnlyUnappliedCorrections(t *testing.T) {
	h := newHarness(t, protocol.ModeAsk, "mid", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "ok"}
	})
	st := newSteering()
	st.add("first")
	st.add("second")
	h.opts.Steering = st
	conv := []llm.Message{{Role: llm.RoleSystem, Content: "s"}, {Role: llm.RoleUser, Content: "task"},
		{Role: llm.RoleUser, Content: "Correction from the user (it takes precedence over the earlier request): first"}}
	out, err := Resume(context.Background(), h.opts, Checkpoint{Conversation: conv, Task: 1, Step: 2, Applied: []string{"s1"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := corrections(out.Conversation); !slices.Equal(got, []string{"first", "second"}) {
		t.Fatalf("corrections %q", got)
	}
	if ev := h.eventsOf(protocol.EventStep); ev[0].Step != 2 {
		t.Fatalf("resumed at step %d", ev[0].Step)
	}
}

// dispatchedCheckpoint runs a turn that clicks once on page and returns the
// checkpoint saved just before the click was sent: what a restart between
// dispatch and result finds.
func dispatchedCheckpoint(t *testing.T, page *fakeContent) Checkpoint {
	t.Helper()
	h := newHarness(t, protocol.ModeAct, "full", func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{call("click_ax", map[string]any{"ref": "e1"})}}
		}
		return llmtest.Turn{Text: "ok"}
	})
	h.content = page
	h.opts.Executor = h.dispatcher()
	var dispatched *Checkpoint
	h.opts.Checkpoint = func(cp Checkpoint) error {
		if cp.Dispatched != "" && dispatched == nil {
			dispatched = &cp
		}
		return nil
	}
	if _, err := h.run(context.Background(), nil, "click"); err != nil {
		t.Fatal(err)
	}
	if dispatched == nil || dispatched.Receipt == nil || dispatched.Receipt.At != "doc-1" {
		t.Fatalf("dispatch checkpoint %+v: want a receipt for the page's document", dispatched)
	}
	return *dispatched
}

// resumeOn resumes cp against page with a model that answers at once.
func resumeOn(t *testing.T, page *fakeContent, cp Checkpoint) Outcome {
	t.Helper()
	h := newHarness(t, protocol.ModeAct, "full", func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "Clicked."}
	})
	h.content = page
	h.opts.Executor = h.dispatcher()
	out, err := Resume(context.Background(), h.opts, cp)
	if err != nil {
		t.Fatal(err)
	}
	checkPairs(t, out.Conversation)
	return out
}

func TestResumeTakesAnActionThePageRanFromItsReceipt(t *testing.T) {
	page := &fakeContent{}
	cp := dispatchedCheckpoint(t, page) // the click ran; its result was lost with the worker
	out := resumeOn(t, page, cp)
	if got := page.names(); !slices.Equal(got, []string{"click_ax"}) {
		t.Fatalf("page actions %v: the click must run exactly once", got)
	}
	if tm := toolMessages(out.Conversation); !strings.Contains(tm[0].Content, "click_ax done") {
		t.Fatalf("result %q: want the page's own report of the click", tm[0].Content)
	}
}

func TestResumeSendsAnActionThePageNeverGot(t *testing.T) {
	cp := dispatchedCheckpoint(t, &fakeContent{})
	page := &fakeContent{} // the same document, which the click never reached
	out := resumeOn(t, page, cp)
	if got := page.names(); !slices.Equal(got, []string{"click_ax"}) {
		t.Fatalf("page actions %v: the lost click must be sent once", got)
	}
	if tm := toolMessages(out.Conversation); !strings.Contains(tm[0].Content, "click_ax done") {
		t.Fatalf("result %q", tm[0].Content)
	}
}

func TestResumeOnAnotherDocumentReportsTheEffectUnknown(t *testing.T) {
	cp := dispatchedCheckpoint(t, &fakeContent{})
	page := &fakeContent{doc: "doc-2"} // the tab loaded another page meanwhile
	out := resumeOn(t, page, cp)
	if got := page.names(); len(got) != 0 {
		t.Fatalf("page actions %v: nothing may run on the new page", got)
	}
	if tm := toolMessages(out.Conversation); !strings.Contains(tm[0].Content, "whether it took effect is unknown") {
		t.Fatalf("result %q", tm[0].Content)
	}
}

func TestResumeWithoutAReceiptReportsTheEffectUnknown(t *testing.T) {
	cp := dispatchedCheckpoint(t, &fakeContent{})
	cp.Receipt = nil // a checkpoint from before receipts, or a page that could not name its document
	page := &fakeContent{}
	out := resumeOn(t, page, cp)
	if got := page.names(); len(got) != 0 {
		t.Fatalf("page actions %v", got)
	}
	if tm := toolMessages(out.Conversation); tm[0].Content != resultInterrupted {
		t.Fatalf("result %q", tm[0].Content)
	}
}

func TestReceiptIDsAreRandomHex(t *testing.T) {
	a, b := newReceiptID(), newReceiptID()
	if a == b {
		t.Fatalf("two receipt ids are equal: %s", a)
	}
	for _, id := range []string{a, b} {
		if len(id) != 24 || strings.Trim(id, "0123456789abcdef") != "" {
			t.Errorf("receipt id %q is not 24 lowercase hex digits", id)
		}
	}
}
