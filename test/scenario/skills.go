package scenario

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// UserSkillIsLoadedInTheNextRun: a skill the user imports in Settings is
// listed, offered in the next run's catalog, and load_skill gives the
// model its instructions.
func UserSkillIsLoadedInTheNextRun(t *testing.T, d Driver) {
	const instructions = "Group the closed tickets by project and keep the report under 200 words."
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return CallTool("load_skill", map[string]any{"skill_id": "weekly-report"})
		}
		if strings.Contains(LastToolResult(req), instructions) {
			return Answer("Loaded your weekly-report skill.")
		}
		return Answer("SCRIPT FAILED: load_skill returned " + Clip(LastToolResult(req), 200))
	})
	s := d.Open(t, "article.html", srv, OpenAIChat)
	md := "# Weekly report\\n\\nWrite my weekly status report.\\n\\n" + instructions
	saved := Eval[string](t, s, Panel, fmt.Sprintf(`%s.runtime.sendMessage({action: 'skill_save', skill: {id: 'weekly-report', markdown: "%s", enabled: true}})
		.then(r => r.ok ? r.skills.filter(x => !x.packaged).map(x => x.id + ':' + x.name).join(',') : 'error: ' + r.error)`, extAPI, md))
	if saved != "weekly-report:Weekly report" {
		t.Fatalf("skills after saving: %q", saved)
	}
	s.Send("act", "Write my weekly report.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q", got)
	}
	if got := Text(t, s, "#transcript .msg.assistant"); !strings.Contains(got, "Loaded your weekly-report skill") {
		t.Fatalf("answer %q", got)
	}
	if sys := srv.Requests()[0].Messages[0].Content; !strings.Contains(sys, "weekly-report") {
		t.Fatalf("the catalog lacks the skill")
	}
	Eval[bool](t, s, Panel, fmt.Sprintf(`%s.runtime.sendMessage({action: 'skill_delete', id: 'weekly-report'}).then(r => r.ok)`, extAPI))
}
