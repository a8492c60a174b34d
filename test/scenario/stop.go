package scenario

import (
	"slices"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// StopInTheMiddleOfARun: Stop while the model is thinking ends the run at
// once; the model is not asked again and the page is not touched again.
func StopInTheMiddleOfARun(t *testing.T, d Driver) {
	var addRef string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{})
		case 1:
			ref, err := FindRef(LastToolResult(req), "button", "Add one")
			if err != nil {
				return ScriptFailed(err)
			}
			addRef = ref
			return CallTool("click_ax", map[string]any{"ref": addRef})
		}
		// A slow model: the user stops the run while it waits.
		turn := CallTool("click_ax", map[string]any{"ref": addRef})
		turn.Delay = time.Minute
		return turn
	})
	s := d.Open(t, "buttons.html", srv, OpenAIChat)
	s.Send("act", "Click Add one many times.")

	deadline := time.Now().Add(RunTimeout)
	for len(srv.Requests()) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("the run never reached its third model request (status %s)", RunStatus(t, s))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := RunStatus(t, s); got != "running" {
		t.Fatalf("status %q while the model is thinking, want running", got)
	}
	if enabled := Eval[bool](t, s, Panel, `!document.querySelector('#stop').disabled`); !enabled {
		t.Fatal("#stop is disabled during a run")
	}
	clicked := time.Now()
	s.Click("#stop")
	WaitFor(t, s, "data-run-status=stopped", 3*time.Second,
		`document.querySelector('#transcript').dataset.runStatus === 'stopped'`)
	t.Logf("stopped %v after the click", time.Since(clicked).Round(time.Millisecond))

	time.Sleep(2 * time.Second) // anything still running would show now
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d model requests after Stop, want 3", n)
	}
	if got := PageRecord(t, s); !slices.Equal(got, []string{"add"}) {
		t.Errorf("the page recorded %q, want the one click before Stop", got)
	}
	if got := RunStatus(t, s); got != "stopped" {
		t.Errorf("status %q two seconds after Stop", got)
	}
	if j := RunState(t, s); j.Status != "stopped" {
		t.Errorf("run_state status %q after Stop, want stopped", j.Status)
	}
	if disabled := Eval[bool](t, s, Panel, `document.querySelector('#stop').disabled`); !disabled {
		t.Error("#stop is still enabled after the run stopped")
	}
	if Count(t, s, "#transcript .msg.notice") == 0 {
		t.Error("no .msg.notice tells the user the run was stopped")
	}
}
