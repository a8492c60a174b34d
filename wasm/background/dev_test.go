package background

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

func dev(tabID int, text string) map[string]any {
	return map[string]any{"action": "chat_start", "tabId": tabID, "text": text, "mode": "dev", "requestId": "req-1"}
}

func setTier(t *testing.T, e *env, tier string) {
	t.Helper()
	s, _ := settings.Load(context.Background(), e.local)
	s.Providers[0].Tier = tier
	if err := settings.Save(context.Background(), e.local, s); err != nil {
		t.Fatal(err)
	}
}

// TestCompactDevIsBlockedBeforeAnyModelRequest: the run ends with an error
// naming the fix, and the provider never hears of it.
func TestCompactDevIsBlockedBeforeAnyModelRequest(t *testing.T) {
	e := newEnv(t, answerOnly())
	setTier(t, e, protocol.TierCompact)
	e.mustOK(dev(40, "Why is the header misaligned?"))
	j := e.waitEnd(40)
	if j.Status != protocol.StatusError || !strings.Contains(j.Error, "Mid or Full provider") || !strings.Contains(j.Error, "Compact") {
		t.Fatalf("status %s, error %q", j.Status, j.Error)
	}
	if n := len(e.srv.Requests()) + len(e.srv.DecisionRequests()) + len(e.srv.PlannerRequests()); n != 0 {
		t.Fatalf("%d model requests for a blocked Compact Dev run", n)
	}
}

// TestDevRunOffersTheDevColumnAndPlans: a Mid Dev run plans like Act and
// offers Act's tools, the Dev add-ons and the Dev prompt appendix.
func TestDevRunOffersTheDevColumnAndPlans(t *testing.T) {
	e := newEnv(t, answerOnly())
	e.mustOK(dev(41, "Why is the header misaligned?"))
	j := e.waitEnd(41)
	if j.Mode != protocol.ModeDev || j.Status != protocol.StatusDone {
		t.Fatalf("journal mode %s status %s (%s)", j.Mode, j.Status, j.Error)
	}
	if len(e.srv.PlannerRequests()) == 0 {
		t.Error("the planner did not run for Dev")
	}
	req := e.srv.Requests()[0]
	for _, name := range []string{"click_ax", "read_page_source", "execute_js", "inject_css", "read_console"} {
		if !offered(req, name) {
			t.Errorf("Dev offered no %s: %v", name, req.Tools)
		}
	}
	if !strings.Contains(req.Messages[0].Content, "This is Dev mode") || !strings.Contains(req.Messages[0].Content, "get_shadow_dom") {
		t.Errorf("the Mid Dev system prompt lacks the Dev appendix")
	}
	if reply := e.send(map[string]any{"action": "chat_start", "tabId": 42, "text": "x", "mode": "debug"}); reply["ok"] != false {
		t.Errorf("an unknown mode was accepted: %v", reply)
	}
}

// TestRoutingReachesDevAndCompactGetsAct: a sure "dev" starts
// Dev; a Compact provider gets Act instead.
func TestRoutingReachesDevAndCompactGetsAct(t *testing.T) {
	for _, c := range []struct{ tier, want string }{{protocol.TierFull, protocol.ModeDev}, {protocol.TierCompact, protocol.ModeAct}} {
		e := newEnv(t, answerOnly())
		setTier(t, e, c.tier)
		useDecisionModel(t, e, `{"choice":"dev","confidence":0.95,"quote":"check the console errors"}`)
		e.mustOK(auto(43, "Open the page's console errors and check the console errors of the checkout script"))
		if rm := runMode(t, e.waitEnd(43)); rm.Mode != c.want || rm.Reason != protocol.RouteDecisionModel {
			t.Errorf("%s: run_mode %+v, want %s", c.tier, rm, c.want)
		}
	}
}

// fakeCapture records capture starts and stops.
type fakeCapture struct {
	mu     sync.Mutex
	events []string
}

func (f *fakeCapture) StartCapture(_ context.Context, tabID int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, "start")
	return nil
}

func (f *fakeCapture) StopCapture(_ context.Context, tabID int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, "stop")
	return nil
}

func (f *fakeCapture) Captured(context.Context, int) (platform.Captured, error) {
	return platform.Captured{Capturing: true}, nil
}

func (f *fakeCapture) log() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.events, ",")
}

// TestCaptureLivesWhileTheTabStaysInDev: it starts with the Dev run,
// survives into the next Dev turn and stops when a turn ends in Act.
func TestCaptureLivesWhileTheTabStaysInDev(t *testing.T) {
	e := newEnv(t, answerOnly())
	capt := &fakeCapture{}
	e.r.p.Dev = capt
	e.mustOK(dev(44, "Inspect the header styles"))
	e.waitEnd(44)
	if got := capt.log(); got != "start" {
		t.Fatalf("after a Dev turn: %q", got)
	}
	e.mustOK(map[string]any{"action": "chat_start", "tabId": 44, "text": "Click Save", "mode": "act", "requestId": "req-2"})
	e.waitEnd(44)
	if got := capt.log(); got != "start,stop" {
		t.Fatalf("after an Act turn: %q", got)
	}
}

// TestHandOffReachesDevFromTheUsersWords: the page-free check's "dev"
// restarts the request in Dev with the Dev tools; for a Compact provider
// the same answer gives Act.
func TestHandOffReachesDevFromTheUsersWords(t *testing.T) {
	for _, c := range []struct{ tier, want string }{{protocol.TierMid, protocol.ModeDev}, {protocol.TierCompact, protocol.ModeAct}} {
		e := newEnv(t, handOffModel("find out why the checkout button ignores clicks"))
		setTier(t, e, c.tier)
		e.r.p.Content = &pageCounter{}
		e.srv.Decider = func(llmtest.Request) llmtest.Turn {
			return llmtest.Turn{Text: `{"choice":"dev","quote":"find out why the checkout button ignores clicks"}`}
		}
		e.mustOK(auto(45, "Please find out why the checkout button ignores clicks"))
		tick(t, e)
		j := e.waitEnd(45)
		var modes []string
		for _, ev := range j.Events {
			if ev.Kind == protocol.EventRunMode {
				modes = append(modes, ev.Mode+"/"+ev.Reason)
			}
		}
		if strings.Join(modes, " ") != "ask/default "+c.want+"/hand_off" {
			t.Errorf("%s: modes %v", c.tier, modes)
		}
		reqs := e.srv.Requests()
		if got := offered(reqs[len(reqs)-1], "execute_js"); got != (c.want == protocol.ModeDev) {
			t.Errorf("%s: the handed-off run offers execute_js = %v", c.tier, got)
		}
	}
}
