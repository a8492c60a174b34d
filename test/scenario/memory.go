package scenario

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// MemoryReachesTheModelAndLearnsFromTheUser: a note added with /memory
// --add reaches the next request's system prompt; a lasting preference
// the user states is learned after the run from their words alone; and
// /memory --forget removes it.
func MemoryReachesTheModelAndLearnsFromTheUser(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn { return Answer("Der Leuchtturm ist 47 m hoch.") })
	srv.Memory = func(req llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Text: `{"records":[{"text":"Prefers answers in German","kind":"preference","quote":"answer in German from now on"}]}`}
	}
	s := d.Open(t, "article.html", srv, Provider{Kind: "openai-chat"})

	s.Send("ask", "/memory --add I prefer metric units")
	WaitFor(t, s, "the remembered notice", 10*time.Second,
		`[...document.querySelectorAll('#transcript .msg.notice')].some(n => n.textContent.includes('Remembered') && n.textContent.includes('I prefer metric units'))`)

	s.Send("ask", "How tall is the lighthouse? Please answer in German from now on.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q", got)
	}
	if sys := srv.Requests()[0].Messages[0].Content; !strings.Contains(sys, "I prefer metric units") {
		t.Fatalf("the memory is not in the system prompt:\n%s", Clip(sys, 400))
	}
	list := func() string {
		return Eval[string](t, s, Panel, fmt.Sprintf(
			`%s.runtime.sendMessage({action: 'memory_list'}).then(r => r.memory.records.map(x => x.id + '|' + x.source + '|' + x.text).join('\n'))`, extAPI))
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(list(), "learned|Prefers answers in German") {
		if time.Now().After(deadline) {
			t.Fatalf("nothing learned; memory:\n%s", list())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n := len(srv.MemoryRequests()); n == 0 || strings.Contains(srv.MemoryRequests()[0].Messages[1].Content, "Leuchtturm") {
		t.Fatal("the learner saw the answer, not only the user's words")
	}

	var learned string
	for _, line := range strings.Split(list(), "\n") {
		if strings.Contains(line, "Prefers answers in German") {
			learned = strings.SplitN(line, "|", 2)[0]
		}
	}
	s.Send("ask", "/memory --forget "+learned)
	WaitFor(t, s, "the forgotten notice", 10*time.Second,
		`[...document.querySelectorAll('#transcript .msg.notice')].some(n => n.textContent === 'Forgotten.')`)
	if got := list(); strings.Contains(got, "German") || !strings.Contains(got, "metric") {
		t.Fatalf("memory after forget:\n%s", got)
	}
}
