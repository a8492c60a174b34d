package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

var patchID = regexp.MustCompile(`\b(css|patch)_[0-9a-f]{16}\b`)

// DevModeInspectsAndPatches: a Dev run on a page to debug. Both browsers
// offer the styles reader and execute_js (whose result is the page's,
// after the page's own fetch and XHR ran); Chrome also reports the console
// line and both requests from its debugger capture, finds the button's
// click listener, applies an element patch and reverts it exactly, and
// leaves injected CSS that the panel's "Revert page changes" undoes.
// Firefox refuses the Chrome-only tools as unavailable in this browser.
func DevModeInspectsAndPatches(t *testing.T, d Driver, chrome bool) {
	var (
		mu      sync.Mutex
		results = map[string]string{}
		seen    []string // page facts the script observed mid-run
	)
	var s Session
	pageStyle := func(expr string) string {
		var v string
		if err := s.Eval(Page, expr, &v); err != nil {
			return "eval error: " + err.Error()
		}
		return v
	}
	steps := []struct {
		tool string
		args func() map[string]any
	}{
		{"read_page_source", func() map[string]any { return map[string]any{"selector": "#banner"} }},
		{"inspect_element_styles", func() map[string]any {
			return map[string]any{"selector": "#load", "properties": []string{"background-color", "padding-top"}}
		}},
		{"execute_js", func() map[string]any {
			return map[string]any{"code": "const n = await loadOrders(); return {orders: n, title: document.title}"}
		}},
	}
	if chrome {
		steps = append(steps, []struct {
			tool string
			args func() map[string]any
		}{
			{"read_console", func() map[string]any { return map[string]any{} }},
			{"inspect_network_requests", func() map[string]any { return map[string]any{"urlContains": "dev-data"} }},
			{"inspect_event_listeners", func() map[string]any { return map[string]any{"selector": "#load"} }},
			{"highlight_element", func() map[string]any { return map[string]any{"selector": "#load", "label": "Load orders"} }},
			{"inject_css", func() map[string]any {
				return map[string]any{"css": "#load { background-color: rgb(0, 128, 0) !important; }"}
			}},
			{"patch_element", func() map[string]any {
				return map[string]any{"selector": "#banner", "style": map[string]any{"color": "rgb(255, 0, 0)"}, "attributes": map[string]any{"data-fixed": "yes"}}
			}},
			{"revert_patch", func() map[string]any {
				mu.Lock()
				defer mu.Unlock()
				return map[string]any{"patchId": patchID.FindString(results["patch_element"])}
			}},
		}...)
	} else {
		steps = append(steps, struct {
			tool string
			args func() map[string]any
		}{"inject_css", func() map[string]any { return map[string]any{"css": "#load { color: green }"} }})
	}
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n > 0 {
			mu.Lock()
			prev := steps[n-1].tool
			results[prev] = LastToolResult(req)
			switch prev {
			case "inject_css":
				seen = append(seen, "after inject_css: "+pageStyle(`getComputedStyle(document.querySelector('#load')).backgroundColor`))
			case "highlight_element":
				seen = append(seen, "after highlight_element: "+pageStyle(`String(document.querySelectorAll('[data-webbrain-highlight]').length) + '|' + (document.querySelector('[data-webbrain-highlight]')?.style.pointerEvents ?? '')`))
			case "patch_element":
				seen = append(seen, "after patch_element: "+pageStyle(`document.querySelector('#banner').style.color + '|' + document.querySelector('#banner').getAttribute('data-fixed')`))
			}
			mu.Unlock()
		}
		if n < len(steps) {
			return CallTool(steps[n].tool, steps[n].args())
		}
		return Answer("The button is red from .cta and the orders API returns 3 orders.")
	})
	s = d.Open(t, "devtools.html", srv, OpenAIChat)
	s.Send("dev", "Debug this page: run its loadOrders script, check the console and network, and try a style fix for the button.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done\n%s", got, SummarizeRequests(srv.Requests()))
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no model request")
	}
	for _, want := range []string{"click_ax", "read_page_source", "inspect_element_styles", "execute_js"} {
		if !slices.Contains(reqs[0].Tools, want) {
			t.Errorf("Dev offered no %s: %v", want, reqs[0].Tools)
		}
	}
	if got := slices.Contains(reqs[0].Tools, "inject_css"); got != chrome {
		t.Errorf("inject_css offered = %v, want %v (Chrome only)", got, chrome)
	}
	if !strings.Contains(reqs[0].Messages[0].Content, "Dev mode") {
		t.Errorf("the system prompt has no Dev appendix")
	}

	mu.Lock()
	defer mu.Unlock()
	expect := func(tool string, parts ...string) {
		t.Helper()
		for _, p := range parts {
			if !strings.Contains(results[tool], p) {
				t.Errorf("%s result lacks %q:\n%s", tool, p, Clip(results[tool], 1500))
			}
		}
	}
	expect("read_page_source", `<p id="banner" style="color: rgb(0, 0, 255);">Free shipping today</p>`, "untrusted_page_content")
	expect("inspect_element_styles", "background-color: rgb(255, 0, 0)", ".cta", "untrusted_page_content")
	expect("execute_js", `"orders":3`, `"title":"Dev fixture"`, "untrusted_page_content")
	if got := PageRecord(t, s); !slices.Equal(got, []string{"loaded"}) {
		t.Errorf("page record %q, want the script to have run loadOrders once", got)
	}
	if !chrome {
		expect("inject_css", "not available in this browser")
		return
	}
	expect("read_console", "loading orders from the API", "orders API returned 3 orders, xhr status 200", "[error]")
	expect("inspect_network_requests", "dev-data.json?via=fetch", "dev-data.json?via=xhr", "[Fetch]", "[XHR]", "200")
	expect("inspect_event_listeners", "click", "loadOrders")
	expect("patch_element", `style color: "rgb(0, 0, 255)" → "rgb(255, 0, 0)"`, `attribute data-fixed: (none) → "yes"`)
	expect("revert_patch", "Reverted patch_")
	expect("highlight_element", `Highlighted button "Load orders"`)
	wantSeen := []string{"after highlight_element: 1|none", "after inject_css: rgb(0, 128, 0)", "after patch_element: rgb(255, 0, 0)|yes"}
	if !slices.Equal(seen, wantSeen) {
		t.Errorf("page during the run: %q, want %q", seen, wantSeen)
	}
	if got := pageStyle(`document.querySelector('#banner').getAttribute('style') + '|' + document.querySelector('#banner').hasAttribute('data-fixed')`); got != "color: rgb(0, 0, 255);|false" {
		t.Errorf("banner after revert_patch: %q, want its original style and no data-fixed", got)
	}

	// The CSS patch is still applied: the panel offers to revert it.
	WaitFor(t, s, "the Revert page changes control", 5*time.Second,
		`(() => { const b = document.getElementById('revert-patches'); return !!b && !b.hidden && b.textContent.includes('(1)'); })()`)
	if got := pageStyle(`getComputedStyle(document.querySelector('#load')).backgroundColor`); got != "rgb(0, 128, 0)" {
		t.Fatalf("button background %q before the panel's revert, want the injected green", got)
	}
	s.Click("#revert-patches")
	WaitFor(t, s, "the control to hide after reverting", 5*time.Second, `document.getElementById('revert-patches').hidden`)
	if got := pageStyle(`getComputedStyle(document.querySelector('#load')).backgroundColor`); got != "rgb(255, 0, 0)" {
		t.Errorf("button background %q after the panel's revert, want the page's own red", got)
	}
	var stored string
	if err := s.Eval(Extension, fmt.Sprintf(`(globalThis.browser ?? chrome).storage.session.get('devPatches:%d').then((o) => JSON.stringify(o))`, s.TabID()), &stored); err != nil || stored != "{}" {
		t.Errorf("devPatches after revert: %q (%v), want none", stored, err)
	}
}
