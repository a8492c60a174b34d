//go:build firefox

package firefox

import (
	"slices"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// Stop while the model is thinking: the run ends at once, the model is not
// asked again and the page is not touched again.
func TestStopInTheMiddleOfARun(t *testing.T) {
	var addRef string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return callTool("get_accessibility_tree", map[string]any{})
		case 1:
			ref, err := findRef(lastToolResult(req), "button", "Add one")
			if err != nil {
				return scriptFailed(err)
			}
			addRef = ref
			return callTool("click_ax", map[string]any{"ref": addRef})
		}
		// A slow model: the user stops the run while it waits.
		turn := callTool("click_ax", map[string]any{"ref": addRef})
		turn.Delay = time.Minute
		return turn
	})
	s := openSession(t, "buttons.html", srv)
	s.send("act", "Click Add one many times.")

	deadline := time.Now().Add(runTimeout)
	for len(srv.Requests()) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("the run never reached its third model request (status %s)", s.runStatus())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := s.runStatus(); got != "running" {
		t.Fatalf("status %q while the model is thinking, want running", got)
	}
	if enabled := evalIn[bool](t, s.env.ff, s.panel, s.panelExpr(`!document.querySelector('#stop').disabled`)); !enabled {
		t.Fatal("#stop is disabled during a run")
	}
	clicked := time.Now()
	evalIn[bool](t, s.env.ff, s.panel, s.panelExpr(`(document.querySelector('#stop').click(), true)`))
	s.waitFor(s.panel, "data-run-status=stopped", 3*time.Second,
		s.panelExpr(`document.querySelector('#transcript').dataset.runStatus === 'stopped'`))
	t.Logf("stopped %v after the click", time.Since(clicked).Round(time.Millisecond))

	time.Sleep(2 * time.Second) // anything still running would show now
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d model requests after Stop, want 3", n)
	}
	if got := s.pageRecord(); !slices.Equal(got, []string{"add"}) {
		t.Errorf("the page recorded %q, want the one click before Stop", got)
	}
	if got := s.runStatus(); got != "stopped" {
		t.Errorf("status %q two seconds after Stop", got)
	}
	if j := s.runState(); j.Status != "stopped" {
		t.Errorf("run_state status %q after Stop, want stopped", j.Status)
	}
	if disabled := evalIn[bool](t, s.env.ff, s.panel, s.panelExpr(`document.querySelector('#stop').disabled`)); !disabled {
		t.Error("#stop is still enabled after the run stopped")
	}
	if s.count("#transcript .msg.notice") == 0 {
		t.Error("no .msg.notice tells the user the run was stopped")
	}
}
