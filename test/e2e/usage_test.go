//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// setCost saves the scripted model's price ($2 per million input tokens,
// $0.50 cached, $8 output: a local server is otherwise free) and the
// daily allowance, through settings_get and settings_save.
func setCost(t *testing.T, s *session, dailyUSD float64) {
	t.Helper()
	expr := fmt.Sprintf(`chrome.runtime.sendMessage({action: "settings_get"}).then((r) =>
		chrome.runtime.sendMessage({action: "settings_save", settings: {...r.settings,
			prices: {%q: {in: 2, cached: 0.5, out: 8}}, dailyAllowanceUsd: %v}}))`, llmtest.Model, dailyUSD)
	var r struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	if err := s.Eval(scenario.Panel, expr, &r); err != nil || !r.OK {
		t.Fatalf("save the price: %v %s", err, r.Error)
	}
}

// todaySpent is today's cost so far, from usage_get.
func todaySpent(t *testing.T, s *session) (float64, int) {
	t.Helper()
	var r struct {
		Days []struct {
			Calls   int     `json:"calls"`
			CostUSD float64 `json:"costUsd"`
		} `json:"days"`
	}
	if err := s.Eval(scenario.Panel, `chrome.runtime.sendMessage({action: "usage_get", days: 1})`, &r); err != nil || len(r.Days) != 1 {
		t.Fatalf("usage_get: %v %+v", err, r)
	}
	return r.Days[0].CostUSD, r.Days[0].Calls
}

// usageOf lists the usage events of the tab's stored journal and its
// run totals.
func usageOf(t *testing.T, s *session) (calls []map[string]any, total map[string]any) {
	t.Helper()
	var stored map[string]struct {
		Events []struct {
			Kind  string         `json:"kind"`
			Usage map[string]any `json:"usage"`
		} `json:"events"`
		Usage map[string]any `json:"usage"`
	}
	if err := json.Unmarshal([]byte(scenario.StoredJournal(t, s)), &stored); err != nil {
		t.Fatal(err)
	}
	j := stored[fmt.Sprintf("runUi:%d", s.tabID)]
	for _, ev := range j.Events {
		if ev.Kind == "usage" {
			calls = append(calls, ev.Usage)
		}
	}
	return calls, j.Usage
}

// panelShot saves the panel as <WB_SCREENSHOTS>/<name>.png when that
// variable names a folder.
func panelShot(t *testing.T, s *session, name string) {
	t.Helper()
	shot(t, s.panel, name)
}

// pageShot saves the tab's page the same way.
func pageShot(t *testing.T, s *session, name string) {
	t.Helper()
	shot(t, s.page, name)
}

func shot(t *testing.T, target context.Context, name string) {
	t.Helper()
	dir := os.Getenv("WB_SCREENSHOTS")
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(target, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A two-step run's tokens and cost come from the model's usage fields
// into the journal and the line under the answer; /usage lists the day.
// A daily allowance the first call's answer reaches pauses the run before
// its next call; Raise continues the same run.
func TestUsageAndCostAllowance(t *testing.T) {
	u1 := llm.Usage{InputTokens: 120000, CachedInputTokens: 100000, OutputTokens: 2000} // $0.04 + $0.05 + $0.016
	u2 := llm.Usage{InputTokens: 125000, OutputTokens: 300}                             // $0.25 + $0.0024
	withUsage := func(turn llmtest.Turn, u llm.Usage) llmtest.Turn { turn.Usage = &u; return turn }
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return withUsage(scenario.CallTool("read_page", map[string]any{}), u1)
		}
		return withUsage(scenario.Answer("Lanterns float at Pier 9."), u2)
	})
	s := openSession(t, "article.html", srv, scenario.OpenAIChat)
	setCost(t, s, 0)
	s.send("ask", "What floats at Pier 9?")
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q", got)
	}
	calls, total := usageOf(t, s)
	if len(calls) != 2 || calls[0]["inputTokens"] != 120000.0 || calls[0]["cachedInputTokens"] != 100000.0 ||
		calls[1]["outputTokens"] != 300.0 || calls[0]["priced"] != true {
		t.Fatalf("usage events %v", calls)
	}
	if c := total["costUsd"].(float64); total["calls"] != 2.0 || total["inputTokens"] != 245000.0 || c < 0.3583 || c > 0.3585 {
		t.Fatalf("run totals %v", total)
	}
	line := s.text(".msg.assistant .run-usage")
	if want := "Tokens: 245,000 in (100,000 cached) · 2,300 out · $0.358"; line != want {
		t.Fatalf("usage line %q, want %q", line, want)
	}
	panelShot(t, s, "usage-line")

	s.send("ask", "/usage")
	scenario.WaitFor(t, s, "the /usage table", 10*time.Second, `document.querySelector('.usage-report tbody tr') !== null`)
	today := s.text(".usage-report tbody tr")
	if !strings.HasPrefix(today, "Today (") || !strings.Contains(today, "$0.3") {
		t.Fatalf("/usage today row %q", today)
	}
	if rows := s.count(".usage-report tbody tr"); rows != 7 {
		t.Fatalf("/usage shows %d days, want 7", rows)
	}
	panelShot(t, s, "usage-report")

	// Second run, new tab: the allowance leaves $0.20 for today.
	srv2 := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return withUsage(scenario.CallTool("read_page", map[string]any{}), llm.Usage{InputTokens: 100000, OutputTokens: 2000}) // $0.216
		}
		return withUsage(scenario.Answer("Pier 9, first weekend of June."), llm.Usage{InputTokens: 2000, OutputTokens: 20})
	})
	s2 := openSessionAt(t, env.fixtures.URL+"/article.html?test=allowance", srv2, scenario.OpenAIChat)
	spent, _ := todaySpent(t, s2)
	setCost(t, s2, spent+0.20)
	s2.send("ask", "When do the lanterns float?")
	scenario.WaitFor(t, s2, "the allowance card", 30*time.Second, `document.querySelector('.allowance-card.pending .allowance-raise') !== null`)
	if n := len(srv2.Requests()); n != 1 {
		t.Fatalf("%d model requests before the pause, want 1", n)
	}
	card := s2.text(".allowance-card")
	if !strings.Contains(card, "Paused before the next model call") || !strings.Contains(card, "Today's cost allowance is") {
		t.Fatalf("card %q", card)
	}
	if notice := s2.text("#transcript"); !strings.Contains(notice, "This answer reached the cost allowance") {
		t.Fatalf("no notice of the call that reached it:\n%s", notice)
	}
	if got := s2.runStatus(); got != "running" {
		t.Fatalf("paused run status %q, want running", got)
	}
	panelShot(t, s2, "allowance-card")
	s2.Click(".allowance-card .allowance-raise")
	if got := s2.waitRunEnd(); got != "done" {
		t.Fatalf("run status after Raise %q", got)
	}
	if n := len(srv2.Requests()); n != 2 {
		t.Fatalf("%d model requests, want 2", n)
	}
	// The card offers the allowance again: today's is now twice it.
	if out, want := s2.text(".allowance-card .approval-outcome"), fmt.Sprintf("Raised by $%.2f", math.Ceil((spent+0.20)*100)/100); !strings.HasPrefix(out, want) {
		t.Fatalf("card outcome %q", out)
	}
	if answer := s2.text(".msg.assistant"); !strings.Contains(answer, "Pier 9, first weekend of June.") {
		t.Fatalf("answer %q", answer)
	}
	panelShot(t, s2, "allowance-raised")
}
