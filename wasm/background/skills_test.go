package background

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// A skill the user saved is in the next run's catalog, and load_skill
// returns its instructions.
func TestUserSkillReachesTheNextRun(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "load_skill", Arguments: `{"skill_id":"weekly-report"}`}}}
		}
		return llmtest.Turn{Text: "Done."}
	})
	e := newEnv(t, srv)
	md := "# Weekly report\n\nWrite my weekly status report.\n\nGroup the tickets by project; at most 200 words."
	rep := e.mustOK(map[string]any{"action": "skill_save", "skill": map[string]any{"id": "weekly-report", "markdown": md, "enabled": true}})
	if raw, _ := json.Marshal(rep["skills"]); !strings.Contains(string(raw), `"id":"weekly-report"`) {
		t.Fatalf("skills %s", raw)
	}
	if rep := e.send(map[string]any{"action": "skill_save", "skill": map[string]any{"id": "humanizer", "markdown": md, "enabled": true}}); rep["ok"] != false {
		t.Fatal("a packaged id was taken")
	}
	e.mustOK(act(80, "write my weekly report"))
	e.waitEnd(80)
	reqs := e.srv.Requests()
	if !strings.Contains(reqs[0].Messages[0].Content, "weekly-report") {
		t.Fatalf("the catalog lacks the user's skill:\n%s", reqs[0].Messages[0].Content)
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	if !strings.Contains(last, "Group the tickets by project") {
		t.Fatalf("load_skill returned %q", last)
	}
	e.mustOK(map[string]any{"action": "skill_delete", "id": "weekly-report"})
}
