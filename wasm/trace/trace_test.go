package trace_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/guard"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform/platformtest"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/trace"
	"github.com/webbrain/webbrain/wasm/trace/tracetest"
)

type sink struct{ last json.RawMessage }

func (s *sink) Put(_ context.Context, raw json.RawMessage) error {
	s.last = append(json.RawMessage(nil), raw...)
	return nil
}

type model struct {
	res llm.Result
	err error
}

func (m model) Chat(context.Context, llm.Request) (llm.Result, error) { return m.res, m.err }
func (m model) Test(context.Context) (string, error)                  { return "m", nil }

const secret = "sk-proj-Zq81LmN4vB7xC2pR9tY6wK3jH5gF0dS8aQ1e"

// record runs a small Act run through a recorder and returns the export.
func record(t *testing.T) (trace.Run, []byte) {
	t.Helper()
	clock := platformtest.NewClock()
	out := &sink{}
	rec := trace.Start(clock, out, trace.Run{ID: "r1", TabID: 3, Site: "https://shop.example/cart?session=" + secret,
		Mode: protocol.ModeAuto, RecordedByWebBrainVersion: "1.2.3",
		Provider: trace.Provider{Kind: protocol.KindAnthropic, Tier: protocol.TierFull}})
	mode := protocol.ModeAsk
	prov := rec.Provider(model{res: llm.Result{Content: "answer " + secret, FinishReason: "stop", Usage: llm.Usage{InputTokens: 10, OutputTokens: 3}}},
		protocol.TierFull, func() string { return mode })
	req := llm.Request{
		Messages: []llm.Message{{Role: llm.RoleSystem, Content: "system prompt"}, {Role: llm.RoleUser, Content: "my key is " + secret}},
		Tools:    []llm.ToolSpec{{Name: protocol.ToolReadPage}, {Name: protocol.ToolClickAX}},
	}
	if _, err := prov.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	rec.Observe(agent.Event{Kind: protocol.EventRunMode, Reason: protocol.RouteDecisionModel}, protocol.ModeAct)
	clock.After(40 * time.Millisecond)
	rec.Observe(agent.Event{Kind: protocol.EventToolCall, ID: "c1", Name: protocol.ToolTypeAX, Args: `{"ref":"e1","text":"` + secret + `"}`}, "")
	clock.After(15 * time.Millisecond)
	rec.Observe(agent.Event{Kind: protocol.EventToolResult, ID: "c1", Name: protocol.ToolTypeAX, Result: "typed into the field"}, "")
	rec.Observe(agent.Event{Kind: protocol.EventApproval, Approval: &guard.Approval{Tool: protocol.ToolClickAX, Category: protocol.CategoryPayment,
		Site: "shop.example", URL: "https://shop.example/pay?card=" + secret, Details: []guard.Detail{{Label: "Card", Value: secret}}}}, "")
	rec.Observe(agent.Event{Kind: protocol.EventApprovalResolved, Decision: protocol.DecisionDecline, Reason: protocol.ResolvedUser}, "")
	rec.Observe(agent.Event{Kind: protocol.EventTextDelta, Text: "page text " + secret}, "")
	rec.Observe(agent.Event{Kind: protocol.EventFinal, Text: "Done with " + secret, Outcome: "partial"}, "")
	rec.End(protocol.StatusDone, protocol.ModeAct)
	var run trace.Run
	if err := json.Unmarshal(out.last, &run); err != nil {
		t.Fatal(err)
	}
	doc, _ := json.Marshal(map[string]any{"format": "webbrain-trace/1", "exportedByWebBrainVersion": "1.2.4", "runs": []json.RawMessage{out.last}})
	return run, doc
}

func TestTraceEventsCarryNoContent(t *testing.T) {
	run, doc := record(t)
	if strings.Contains(string(doc), secret) || strings.Contains(string(doc), "system prompt") {
		t.Fatalf("the trace holds content: %s", doc)
	}
	for _, word := range []string{"answer ", "typed into", "page text", "Done with", "my key"} {
		if strings.Contains(string(doc), word) {
			t.Errorf("the trace holds %q", word)
		}
	}
	if run.Site != "shop.example" || run.Status != protocol.StatusDone || run.Outcome != "partial" || run.FinalMode != protocol.ModeAct {
		t.Errorf("run %+v", run)
	}
	var types []string
	for _, ev := range run.Events {
		types = append(types, ev.Type+":"+ev.Decision)
	}
	if got := strings.Join(types, " "); got != "llm_request: decision:run_mode tool: decision:approval decision:approval_resolved end:" {
		t.Errorf("events %s", got)
	}
	req := run.Events[0]
	p := req.Provenance
	if req.Phase != "agent" || p.SystemPromptChars != len("system prompt") || p.Roles["user"] != 1 || p.ToolsOffered != 2 ||
		p.Checks.ReadOnlyToolsInAsk || !p.Checks.SystemPromptPresent || p.PromptVariant != "ask/full" || req.InputTokens != 10 {
		t.Errorf("request %+v provenance %+v", req, p)
	}
	tool := run.Events[2]
	if tool.Tool != protocol.ToolTypeAX || strings.Join(tool.ArgNames, ",") != "ref,text" || tool.ResultChars != len("typed into the field") ||
		tool.DurationMs != 15 || tool.At != 40 {
		t.Errorf("tool %+v", tool)
	}
	if appr := run.Events[3]; appr.Category != protocol.CategoryPayment || appr.Site != "shop.example" {
		t.Errorf("approval %+v", appr)
	}
}

func TestExportValidatesAgainstTheSchema(t *testing.T) {
	schema, err := tracetest.Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	_, doc := record(t)
	if errs := schema.Validate(doc); len(errs) > 0 {
		t.Fatalf("the export breaks the schema:\n%s\n%s", strings.Join(errs, "\n"), doc)
	}
	// The validator itself fails on what the schema forbids.
	var bad map[string]any
	_ = json.Unmarshal(doc, &bad)
	bad["format"] = "webbrain-trace/2"
	bad["runs"].([]any)[0].(map[string]any)["prompt"] = "text"
	raw, _ := json.Marshal(bad)
	if errs := schema.Validate(raw); len(errs) != 2 {
		t.Fatalf("want 2 errors, got %v", errs)
	}
}

func TestFailedRequestRecordsAMaskedError(t *testing.T) {
	out := &sink{}
	rec := trace.Start(platformtest.NewClock(), out, trace.Run{ID: "r"})
	prov := rec.Provider(model{err: &llm.Error{Message: "The key " + secret + " was refused"}}, "mid", func() string { return "act" })
	_, _ = prov.Chat(context.Background(), llm.Request{})
	if strings.Contains(string(out.last), secret) || !strings.Contains(string(out.last), "was refused") {
		t.Fatalf("error event: %s", out.last)
	}
}

// Adapter notes record WebBrain's own identifiers only, and validate.
func TestAdapterNotesValidate(t *testing.T) {
	schema, err := tracetest.Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := &sink{}
	rec := trace.Start(platformtest.NewClock(), out, trace.Run{ID: "r2", Mode: protocol.ModeAct, RecordedByWebBrainVersion: "1.2.3",
		Provider: trace.Provider{Kind: protocol.KindAnthropic, Tier: protocol.TierFull}})
	rec.AdapterMatch("github", 2, true)
	rec.SiteJob("github", 2, "create-issue")
	rec.AdapterMatch("wikipedia", 3, false)
	rec.End(protocol.StatusDone, protocol.ModeAct)
	var run trace.Run
	if err := json.Unmarshal(out.last, &run); err != nil {
		t.Fatal(err)
	}
	if len(run.Events) != 3 || run.Events[0].Note != "adapter_match" || !run.Events[0].NotesInjected || run.Events[1].Job != "create-issue" ||
		run.Events[2].Adapter != "wikipedia" || run.Events[2].NotesInjected {
		t.Fatalf("events %+v", run.Events)
	}
	doc, _ := json.Marshal(map[string]any{"format": "webbrain-trace/1", "exportedByWebBrainVersion": "1.2.4", "runs": []json.RawMessage{out.last}})
	if errs := schema.Validate(doc); len(errs) > 0 {
		t.Fatalf("the export breaks the schema:\n%s", strings.Join(errs, "\n"))
	}
	var none *trace.Recorder // traces off: the run has no recorder
	none.AdapterMatch("github", 2, true)
	none.SiteJob("github", 2, "create-issue")
}
