//go:build e2e

package durable

import (
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// slowUntil answers slowly while hold is set, else with reply(req).
func slowUntil(hold *atomic.Bool, reply func(req llmtest.Request) llmtest.Turn) *llmtest.Server {
	return llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		t := reply(req)
		if hold.Load() {
			t.Delay = 20 * time.Second
		}
		return t
	})
}

func userTurns(req llmtest.Request) int {
	n := 0
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser && !strings.HasPrefix(m.Content, "Correction") {
			n++
		}
	}
	return n
}

// TestCorrectionsAppliedOnceInOrderAcrossARestart steers twice with
// Alt+Enter during a slow model request, stops the worker during the
// request that carries them, and checks every later request holds both
// corrections once, in order, and the run ends with their answer.
func TestCorrectionsAppliedOnceInOrderAcrossARestart(t *testing.T) {
	var hold atomic.Bool
	hold.Store(true)
	s := openSession(t, slowUntil(&hold, func(req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "Answer with " + strings.Join(corrections(req), " + ")}
	}))
	s.typeEnter("ask", "Describe the page.", false)
	s.waitRequests(1)
	s.typeEnter("ask", "only the heading", true)
	s.typeEnter("ask", "in one word", true)
	waitFor(t, s.panel, "two corrections in the transcript", runTimeout, `document.querySelectorAll('.msg.user.correction').length === 2`)
	deadline := time.Now().Add(runTimeout)
	for {
		reqs := s.srv.Requests()
		if got := corrections(reqs[len(reqs)-1]); len(got) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no request carried both corrections")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	hold.Store(false)
	stopWorker(t)
	if st := s.waitRunEnd(); st != "done" {
		t.Fatalf("run ended %s", st)
	}
	// Each request carries the corrections sent before it, once, in order.
	want := []string{"only the heading", "in one word"}
	reqs := s.srv.Requests()
	for i, r := range reqs {
		if got := corrections(r); !slices.Equal(got, want[:len(got)]) {
			t.Fatalf("request %d carries corrections %q", i, got)
		}
	}
	if got := corrections(reqs[len(reqs)-1]); len(got) != 2 {
		t.Fatalf("the last request carries %q", got)
	}
	if answers := s.texts(".msg.assistant"); len(answers) != 1 || answers[0] != "Answer with only the heading + in one word" {
		t.Fatalf("answers %q", answers)
	}
}

// TestQueueRunsNextAndPausesAfterStop queues a follow-up that runs by
// itself after a normal end, then queues one that Stop leaves paused
// until the user sends it.
func TestQueueRunsNextAndPausesAfterStop(t *testing.T) {
	var hold atomic.Bool
	hold.Store(true)
	s := openSession(t, slowUntil(&hold, func(req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: "answer " + strings.Repeat("I", userTurns(req))}
	}))
	s.typeEnter("ask", "first", false)
	s.waitRequests(1)
	s.typeEnter("ask", "second", false)
	waitFor(t, s.panel, "the queued message", runTimeout, `document.querySelectorAll('#queue li').length === 1`)
	hold.Store(false)
	stopWorker(t) // the slow request dies with the worker and is sent again
	waitFor(t, s.panel, "the queued message to run", runTimeout, `document.querySelectorAll('.msg.assistant').length === 2 && document.querySelector('#transcript').dataset.runStatus === 'done'`)
	if answers := s.texts(".msg.assistant"); !slices.Equal(answers, []string{"answer I", "answer II"}) {
		t.Fatalf("answers %q", answers)
	}

	hold.Store(true)
	before := len(s.srv.Requests()) + 1
	s.typeEnter("ask", "third", false)
	s.waitRequests(before)
	s.typeEnter("ask", "fourth", false)
	waitFor(t, s.panel, "the queued message", runTimeout, `document.querySelectorAll('#queue li').length === 1`)
	evalIn[bool](t, s.panel, `(document.querySelector('#stop').click(), true)`)
	s.waitStatus("stopped")
	waitFor(t, s.panel, "the paused row", runTimeout, `!!document.querySelector('#queue li.paused')`)
	hold.Store(false)
	if s.status() != "stopped" || len(s.srv.Requests()) != before {
		t.Fatalf("a paused message was sent by itself: status %s, %d requests (was %d)", s.status(), len(s.srv.Requests()), before)
	}
	// Sending it by hand is the proof that it did not go by itself: a
	// message sent in between would show as one request too many.
	evalIn[bool](t, s.panel, `(document.querySelector('#queue li .queue-send').click(), true)`)
	waitFor(t, s.panel, "the sent message's answer", runTimeout, `document.querySelector('#transcript').dataset.runStatus === 'done' && document.querySelectorAll('#queue li').length === 0`)
	if last := s.texts(".msg.assistant"); last[len(last)-1] != "answer IIII" {
		t.Fatalf("answers %q", last)
	}
	if n := len(s.srv.Requests()); n != before+1 {
		t.Fatalf("%d model requests after sending the paused message by hand, want %d: it also went by itself", n, before+1)
	}
}

// TestPanelReopenedMidStreamContinues closes the panel while the answer
// streams and opens it again: the transcript is the same and the text
// goes on to the whole answer, once.
func TestPanelReopenedMidStreamContinues(t *testing.T) {
	// Long enough to outlast a reopen on a loaded machine (about 5 s).
	words := strings.Repeat("streamed word ", 60)
	final := strings.TrimSpace(words)
	s := openSession(t, llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: final, ChunkDelay: 80 * time.Millisecond}
	}))
	s.typeEnter("ask", "Stream something.", false)
	waitFor(t, s.panel, "streamed text", runTimeout, `(document.querySelector('.msg.assistant')?.innerText.length ?? 0) > 40`)
	s.closePanel()
	time.Sleep(300 * time.Millisecond)
	s.openPanel()
	if users := s.texts(".msg.user"); !slices.Equal(users, []string{"Stream something."}) {
		t.Fatalf("reopened transcript users %q", users)
	}
	// The reopened panel restores its transcript first, then asks the
	// background for the run's journal.
	waitFor(t, s.panel, "the reopened panel to rejoin the running run", 5*time.Second,
		`document.querySelector('#transcript')?.dataset.runStatus !== 'idle'`)
	if st := s.status(); st != "running" {
		t.Fatalf("reopened mid-stream with status %s", st)
	}
	shown := s.texts(".msg.assistant")
	if len(shown) != 1 || !strings.HasPrefix(final, shown[0]) || len(shown[0]) >= len(final) {
		t.Fatalf("reopened text %q", shown)
	}
	if st := s.waitRunEnd(); st != "done" {
		t.Fatalf("ended %s", st)
	}
	if got := s.texts(".msg.assistant"); len(got) != 1 || got[0] != final {
		t.Fatalf("final text %q", got)
	}
}
