//go:build browser

package content

import (
	"testing"
	"time"
)

func TestWaitForElementAppearing(t *testing.T) {
	p := open(t, "/dynamic.html")
	p.ok("click_ax", map[string]any{"ref": p.ref("#load")})
	res := p.ok("wait_for_element", map[string]any{"text": "open result three"})
	contains(t, "text wait", res, `Found button "Open result three" [ref_`, "(visible)")
	res = p.ok("wait_for_element", map[string]any{"selector": "#spinner", "state": "hidden"})
	contains(t, "hidden wait", res, "is visible")

	start := time.Now()
	err := p.failing("wait_for_element", map[string]any{"selector": ".never", "timeoutMs": 300})
	contains(t, "timeout", err, "Timed out after 300 ms", "nothing matches")
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("a 300 ms wait took %v", d)
	}
	err = p.failing("wait_for_element", map[string]any{"selector": "div[", "timeoutMs": 300})
	contains(t, "bad selector", err, "not a valid CSS selector")
}

func TestWaitForStable(t *testing.T) {
	p := open(t, "/dynamic.html")
	p.do(`window.churn(600)`)
	start := time.Now()
	res := p.ok("wait_for_stable", map[string]any{"quietMs": 300})
	contains(t, "stable", res, "The page is stable")
	if d := time.Since(start); d < 600*time.Millisecond {
		t.Errorf("returned after %v while the page was still changing", d)
	}
	p.do(`window.churn(3000)`)
	res = p.ok("wait_for_stable", map[string]any{"quietMs": 300, "timeoutMs": 800})
	contains(t, "unstable", res, "still changing after 800 ms")
}
