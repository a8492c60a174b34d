package background

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/tools"
)

const helperTab = 900

// chatGPT fakes the helper tab: where it is, and what its page answers.
type chatGPT struct {
	fakeTabs
	mu      sync.Mutex
	url     string // the helper tab's address
	opened  []string
	typed   []string
	reads   int
	signIn  bool
	answer  string
	content fakeContent
}

func (c *chatGPT) Get(ctx context.Context, id int) (platform.Tab, error) {
	if id != helperTab {
		return c.fakeTabs.Get(ctx, id)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return platform.Tab{ID: id, URL: c.url, Status: "complete"}, nil
}

func (c *chatGPT) OpenTab(_ context.Context, _ int, url string) (platform.Tab, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.opened = append(c.opened, url)
	return platform.Tab{ID: helperTab, URL: url}, nil
}

func (c *chatGPT) CloseTab(context.Context, int) error { return nil }

func (c *chatGPT) ListTabs(context.Context) ([]platform.Tab, error) { return nil, nil }

func (c *chatGPT) Resize(context.Context, int, int, int) (platform.Window, error) {
	return platform.Window{}, nil
}

func (c *chatGPT) Send(ctx context.Context, tabID int, msg json.RawMessage) (json.RawMessage, error) {
	if tabID != helperTab {
		return c.content.Send(ctx, tabID, msg)
	}
	var m struct {
		Name string
		Args struct{ Op, Text string }
	}
	_ = json.Unmarshal(msg, &m)
	c.mu.Lock()
	defer c.mu.Unlock()
	var result any
	switch m.Args.Op {
	case "probe":
		result = map[string]any{"composer": !c.signIn, "signedOut": c.signIn}
	case "send":
		c.typed = append(c.typed, m.Args.Text)
		result = map[string]any{"sent": true, "count": 0}
	case "read":
		c.reads++
		result = map[string]any{"count": 1, "streaming": c.reads < 2, "text": c.answer, "links": []string{"https://example.org/source"}}
	}
	return json.Marshal(map[string]any{"ok": true, "result": result})
}

// delegates asks delegate_research once and answers with what it got.
func delegates(question string) *llmtest.Server {
	return llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleTool {
			return llmtest.Turn{Text: "Research: " + last.Content}
		}
		args, _ := json.Marshal(map[string]any{"research_request": question})
		return llmtest.Turn{ToolCalls: []llm.ToolCall{{ID: "c1", Name: tools.DelegateResearch, Arguments: string(args)}}}
	})
}

func researchEnv(t *testing.T, srv *llmtest.Server, gpt *chatGPT) *env {
	e := newEnv(t, srv)
	e.r.p.Tabs, e.r.p.Windows, e.r.p.Content = gpt, gpt, gpt
	s, _ := settings.Load(context.Background(), e.local)
	s.ResearchEscalation = true
	_ = settings.Save(context.Background(), e.local, s)
	return e
}

func ask(tabID int, text string) map[string]any {
	return map[string]any{"action": "chat_start", "tabId": tabID, "text": text, "mode": "ask", "requestId": "req-1"}
}

// answerResearch approves or declines the research card when it shows.
func answerResearch(t *testing.T, e *env, tabID int, decision string) Entry {
	var card Entry
	eventually(t, "the research card", func() bool {
		ru := e.r.active(tabID)
		if ru == nil {
			return false
		}
		c, ok := ru.j.find(protocol.EventApproval, "appr_research_1")
		card = c
		return ok
	})
	e.mustOK(answerCard(tabID, "appr_research_1", decision))
	return card
}

// advance keeps the fake clock moving so the helper's polls go on.
func advance(t *testing.T, e *env) {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				e.clock.Advance(time.Second)
			}
		}
	}()
}

func TestApprovedResearchAsksChatGPTAndReturnsEvidence(t *testing.T) {
	gpt := &chatGPT{url: "https://chatgpt.com/", answer: "Lanterns were first floated in 1952."}
	e := researchEnv(t, delegates("When were paper lanterns first floated at Pier 9?"), gpt)
	e.mustOK(ask(60, "When did this festival start?"))
	card := answerResearch(t, e, 60, "approve")
	if card.Approval.Category != protocol.CategoryResearch || card.Approval.Details[0].Value != "When were paper lanterns first floated at Pier 9?" ||
		card.Approval.Choices[0] != "decline" {
		t.Fatalf("card %+v", card.Approval)
	}
	advance(t, e)
	j := e.waitEnd(60)
	if j.Status != protocol.StatusDone || !strings.Contains(j.Final, "1952") {
		t.Fatalf("journal %+v", j)
	}
	if len(gpt.opened) != 1 || gpt.opened[0] != "https://chatgpt.com/" || len(gpt.typed) != 1 {
		t.Fatalf("opened %v, typed %v", gpt.opened, gpt.typed)
	}
	res := e.srv.Requests()[1].Messages
	if got := res[len(res)-1].Content; !strings.Contains(got, "untrusted evidence") || !strings.Contains(got, "https://example.org/source") || !strings.Contains(got, "<untrusted_page_content_") {
		t.Fatalf("the model got %q", got)
	}
}

func TestDeclinedResearchSendsNothing(t *testing.T) {
	gpt := &chatGPT{url: "https://chatgpt.com/"}
	e := researchEnv(t, delegates("what is the capital of Peru?"), gpt)
	e.mustOK(ask(61, "capital of Peru?"))
	answerResearch(t, e, 61, "decline")
	e.waitEnd(61)
	if len(gpt.opened) != 0 || len(gpt.typed) != 0 {
		t.Fatalf("a declined question went out: opened %v typed %v", gpt.opened, gpt.typed)
	}
}

// A helper that lands on a sign-in page on another site never gets the
// question.
func TestResearchNeverTypesOffChatGPT(t *testing.T) {
	gpt := &chatGPT{url: "https://auth.openai.com/log-in"}
	e := researchEnv(t, delegates("question"), gpt)
	e.mustOK(ask(62, "q"))
	answerResearch(t, e, 62, "approve")
	advance(t, e)
	e.waitEnd(62)
	if len(gpt.typed) != 0 {
		t.Fatalf("typed %v off chatgpt.com", gpt.typed)
	}
	res := e.srv.Requests()[1].Messages
	if got := res[len(res)-1].Content; !strings.Contains(got, "another site") {
		t.Fatalf("the model was told %q", got)
	}
}

func TestResearchIsOfferedOnlyInAskWithTheSetting(t *testing.T) {
	for _, tc := range []struct {
		mode string
		on   bool
		want bool
	}{{"ask", true, true}, {"ask", false, false}, {"act", true, false}} {
		e := newEnv(t, answerOnly())
		s, _ := settings.Load(context.Background(), e.local)
		s.ResearchEscalation = tc.on
		_ = settings.Save(context.Background(), e.local, s)
		e.mustOK(map[string]any{"action": "chat_start", "tabId": 63, "text": "hi", "mode": tc.mode, "requestId": "r"})
		e.waitEnd(63)
		if got := offered(e.srv.Requests()[0], tools.DelegateResearch); got != tc.want {
			t.Errorf("%s with the setting %v: offered %v", tc.mode, tc.on, got)
		}
	}
}
