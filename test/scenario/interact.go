package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// The interaction tools of the Full tier (hover, drag_drop, resize_window),
// verify_form, new_tab, solve_captcha without a solver and WebMCP's
// setting, each against a page that records the real effect.

var fullTier = Provider{Kind: "openai-chat", Tier: "full"}

// inFirefox reports whether the session's browser is Firefox.
func inFirefox(t *testing.T, s Session) bool {
	return Eval[bool](t, s, Page, `navigator.userAgent.includes('Firefox')`)
}

// namedRef finds the ref a result gives right after `role "name"`, where
// one line names several elements.
func namedRef(text, role, name string) (string, error) {
	m := regexp.MustCompile(regexp.QuoteMeta(fmt.Sprintf("%s %q [", role, name)) + `(ref_\w+)\]`).FindStringSubmatch(text)
	if m == nil {
		return "", fmt.Errorf("no %s %q with a ref in:\n%s", role, name, Clip(text, 2000))
	}
	return m[1], nil
}

// toolResult is the result the model got for the i-th tool call (0-based)
// of the run, from the last request.
func toolResult(reqs []llmtest.Request, i int) string {
	if len(reqs) == 0 {
		return ""
	}
	n := 0
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == llm.RoleTool {
			if n == i {
				return m.Content
			}
			n++
		}
	}
	return ""
}

// HoverOpensMenus: hover opens a menu its page opens from script on
// mouseenter, in both browsers, and the item it revealed is clicked by
// the ref the hover result gave. A menu that opens through CSS :hover
// alone opens in Chrome (trusted pointer movement); in Firefox the result
// says CSS :hover cannot be triggered there.
func HoverOpensMenus(t *testing.T, d Driver) {
	var refs = map[string]string{}
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		last := LastToolResult(req)
		switch n {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{"filter": "interactive"})
		case 1:
			for _, name := range []string{"Products", "Account"} {
				ref, err := FindRef(last, "button", name)
				if err != nil {
					return ScriptFailed(err)
				}
				refs[name] = ref
			}
			return CallTool("hover", map[string]any{"ref": refs["Products"]})
		case 2:
			ref, err := namedRef(last, "link", "Catalog")
			if err != nil {
				return ScriptFailed(fmt.Errorf("the hover did not reveal Catalog: %v", err))
			}
			return CallTool("click_ax", map[string]any{"ref": ref})
		case 3:
			return CallTool("hover", map[string]any{"ref": refs["Account"]})
		case 4:
			if ref, err := namedRef(last, "link", "Settings"); err == nil {
				return CallTool("click_ax", map[string]any{"ref": ref})
			}
		}
		return Answer("Done with the menus.")
	})
	s := d.Open(t, "hover-menu.html", srv, fullTier)
	s.Send("act", "Open the Products menu and click Catalog, then open Account and click Settings.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	reqs := srv.Requests()
	if !slices.Contains(reqs[0].Tools, "hover") {
		t.Fatalf("Full Act does not offer hover: %v", reqs[0].Tools)
	}
	record := PageRecord(t, s)
	accountHover := toolResult(reqs, 3)
	if inFirefox(t, s) {
		if !slices.Equal(record, []string{"catalog"}) {
			t.Errorf("the page recorded %q, want [catalog]", record)
		}
		if !strings.Contains(accountHover, "CSS :hover") || !strings.Contains(accountHover, "cannot be triggered") {
			t.Errorf("the CSS-only menu's hover result does not say CSS :hover cannot be triggered here:\n%s", accountHover)
		}
	} else {
		if !slices.Equal(record, []string{"catalog", "settings"}) {
			t.Errorf("the page recorded %q, want [catalog settings]", record)
		}
		if !strings.Contains(accountHover, "Now visible") || !strings.Contains(accountHover, `link "Settings"`) {
			t.Errorf("the trusted hover over Account did not report its menu:\n%s", accountHover)
		}
	}
	for _, r := range ToolRows(t, s) {
		if r.IsError {
			t.Errorf("tool %s failed: %s", r.Tool, r.Summary)
		}
	}
}

// DragDropReordersAndDrops: a pointer drag reorders a list that follows
// the mouse, and an HTML5 drag puts a file on a drop zone, which reads the
// DataTransfer's data.
func DragDropReordersAndDrops(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		last := LastToolResult(req)
		switch n {
		case 0:
			return CallTool("get_accessibility_tree", map[string]any{"filter": "all"})
		case 1:
			alpha, err1 := FindRef(last, "listitem", "Alpha")
			gamma, err2 := FindRef(last, "listitem", "Gamma")
			file, err3 := FindRef(last, "button", "Report.pdf")
			zone, err4 := FindRef(last, "clickable", "Attachments")
			for _, err := range []error{err1, err2, err3, err4} {
				if err != nil {
					return ScriptFailed(err)
				}
			}
			return llmtest.Turn{ToolCalls: append(
				CallTool("drag_drop", map[string]any{"sourceRef": alpha, "targetRef": gamma}).ToolCalls,
				CallTool("drag_drop", map[string]any{"sourceRef": file, "targetRef": zone}).ToolCalls...)}
		}
		return Answer("Moved Alpha below Gamma and attached the report.")
	})
	s := d.Open(t, "dragdrop.html", srv, fullTier)
	s.Send("act", "Move Alpha below Gamma, then drop Report.pdf on the attachments.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	want := []string{"order:Beta,Gamma,Alpha,Delta", "dropped:Report.pdf"}
	if got := PageRecord(t, s); !slices.Equal(got, want) {
		t.Errorf("the page recorded %q, want %q", got, want)
	}
	reqs := srv.Requests()
	if got := toolResult(reqs, 1); !strings.Contains(got, "moved from item 1 to item 3") {
		t.Errorf("the list drag's result does not report the new position:\n%s", got)
	}
	if got := toolResult(reqs, 2); !strings.Contains(got, "HTML5 drag and drop") || strings.Contains(got, "did not accept") {
		t.Errorf("the file drop's result:\n%s", got)
	}
	if got := Eval[string](t, s, Page, `document.getElementById('zone').textContent`); got != "Received Report.pdf" {
		t.Errorf("the drop zone shows %q", got)
	}
}

// VerifyFormReadsValidation: verify_form reads every field back with the
// browser's and the page's validation messages, masks the password and a
// token, and fires no invalid event while it reads.
func VerifyFormReadsValidation(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return CallTool("verify_form", map[string]any{})
		}
		return Answer("The form has errors.")
	})
	s := d.Open(t, "validation.html", srv, OpenAIChat)
	s.Send("act", "Check the sign-up form for problems before I submit it.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	got := toolResult(srv.Requests(), 0)
	lineOf := func(label string) string {
		for _, l := range strings.Split(got, "\n") {
			if strings.Contains(l, `"`+label+`"`) {
				return l
			}
		}
		t.Errorf("no line for %s in:\n%s", label, got)
		return ""
	}
	checks := []struct {
		label string
		want  []string
	}{
		{"Email", []string{"email, required", `"ada@"`, "INVALID", "the browser says"}},
		{"Full name", []string{"required", "empty", "INVALID", `the page says "Name is required"`}},
		{"Username", []string{`aria-invalid="true"`, `the page says "Username is taken"`}},
		{"Password", []string{"(13 characters, hidden)"}},
		{"Plan", []string{`"Pro" selected`}},
		{"I agree to the terms", []string{"checkbox, required", "unchecked", "INVALID"}},
	}
	for _, c := range checks {
		line := lineOf(c.label)
		for _, w := range c.want {
			if !strings.Contains(line, w) {
				t.Errorf("%s: %q lacks %q", c.label, line, w)
			}
		}
	}
	if !regexp.MustCompile(`(?m)^7 fields: 4 invalid, 2 required and empty\.`).MatchString(got) {
		t.Errorf("no summary line in:\n%s", got)
	}
	for _, secret := range []string{"hunter2secret", "Zx9Kq2Lm8Np4Rs6Tv0Wy3Ab5Cd7Ef1Gh2Ij4"} {
		if strings.Contains(got, secret) {
			t.Errorf("the result shows a secret: %s", secret)
		}
	}
	if rec := PageRecord(t, s); len(rec) != 0 {
		t.Errorf("reading the form changed the page: %q", rec)
	}
}

// ResizeWindowReportsTheViewport: resize_window changes the window and
// reports the viewport the page now has.
func ResizeWindowReportsTheViewport(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return CallTool("resize_window", map[string]any{"width": 820, "height": 640})
		}
		return Answer("Resized.")
	})
	s := d.Open(t, "article.html", srv, fullTier)
	// The suite's later scenarios share the browser: give the window its
	// size back.
	win := fmt.Sprintf(`%s.tabs.get(%d).then(t => %s.windows.get(t.windowId))`, extAPI, s.TabID(), extAPI)
	size := Eval[struct{ ID, Width, Height int }](t, s, Extension, win+`.then(w => ({id: w.id, width: w.width, height: w.height}))`)
	t.Cleanup(func() {
		_ = s.Eval(Extension, fmt.Sprintf(`%s.windows.update(%d, {width: %d, height: %d}).then(() => true)`, extAPI, size.ID, size.Width, size.Height), nil)
	})
	s.Send("act", "Make the window 820 by 640.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	got := toolResult(srv.Requests(), 0)
	vp := Eval[[]int](t, s, Page, `[innerWidth, innerHeight]`)
	if want := fmt.Sprintf("viewport is %d x %d", vp[0], vp[1]); !strings.Contains(got, want) {
		t.Errorf("result %q does not report the page's viewport (%s)", got, want)
	}
	if vp[0] > 820 || vp[0] < 700 {
		t.Errorf("the page's viewport is %d wide after resizing the window to 820", vp[0])
	}
}

// NewTabOpensForTheUser: new_tab opens the address in a new tab and the
// run keeps its own tab.
func NewTabOpensForTheUser(t *testing.T, d Driver) {
	var target string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return CallTool("new_tab", map[string]any{"url": target})
		}
		return Answer("Opened it in a new tab.")
	})
	s := d.Open(t, "buttons.html", srv, OpenAIChat)
	here := Eval[string](t, s, Page, `location.href`)
	target = strings.Split(here, "buttons.html")[0] + "article.html?newtab=1"
	s.Send("act", "Open the article in a new tab for me.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if got := toolResult(srv.Requests(), 0); !strings.Contains(got, "keeps working on its own tab") {
		t.Errorf("new_tab result: %q", got)
	}
	// A new tab shows about:blank until its load commits (Firefox).
	var urls []string
	opened := 0
	for deadline := time.Now().Add(5 * time.Second); opened == 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		urls = Eval[[]string](t, s, Extension, extAPI+`.tabs.query({}).then(ts => ts.map(t => t.url || t.pendingUrl || ''))`)
		for _, u := range urls {
			if strings.HasSuffix(u, "article.html?newtab=1") {
				opened++
			}
		}
	}
	if opened != 1 {
		t.Errorf("%d tabs show the article, want 1 (tabs: %q)", opened, urls)
	}
	if got := Eval[string](t, s, Page, `location.href`); got != here {
		t.Errorf("the run's tab moved to %s", got)
	}
	Eval[any](t, s, Extension, extAPI+`.tabs.query({}).then(ts => Promise.all(ts.filter(t => (t.url || '').endsWith('newtab=1')).map(t => `+extAPI+`.tabs.remove(t.id)))).then(() => true)`)
}

// SolveCaptchaWithoutSolverAsksTheUser: without a solver key,
// solve_captcha fails at once, with no approval card, telling the model to
// ask the user to solve the CAPTCHA by hand.
func SolveCaptchaWithoutSolverAsksTheUser(t *testing.T, d Driver) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return CallTool("solve_captcha", map[string]any{})
		}
		return Answer("Please solve the CAPTCHA yourself, then tell me.")
	})
	s := d.Open(t, "captcha.html", srv, OpenAIChat)
	s.Send("act", "Get past the verification on this form.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	got := toolResult(srv.Requests(), 0)
	for _, w := range []string{"no CAPTCHA solver is configured", "clarify", "by hand"} {
		if !strings.Contains(got, w) {
			t.Errorf("solve_captcha result %q lacks %q", got, w)
		}
	}
	if n := Count(t, s, "#transcript .approval-card"); n != 0 {
		t.Errorf("%d approval cards for a solve that cannot run", n)
	}
	if v := Eval[string](t, s, Page, `document.querySelector('[name=g-recaptcha-response]').value`); v != "" {
		t.Errorf("the response field was filled: %q", v)
	}
}

// WebMCPFollowsItsSetting: off (the default), the WebMCP tools are not
// offered and a call is refused naming the setting. On, Chrome lists the
// tool the page registered under an opaque id and runs it only after the
// user approves that call on a card without "approve on this site"; the
// page records the call and its output comes back. Firefox never offers
// them.
func WebMCPFollowsItsSetting(t *testing.T, d Driver) {
	var id string
	script := func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return CallTool("list_webmcp_tools", map[string]any{})
		case 1:
			if m := regexp.MustCompile(`(wmcp_\d+): "add_note"`).FindStringSubmatch(LastToolResult(req)); m != nil {
				id = m[1]
			}
			return CallTool("execute_webmcp_tool", map[string]any{"toolId": firstOf(id, "wmcp_1"), "input": map[string]any{"text": "buy milk"}})
		}
		return Answer("Done.")
	}
	off := llmtest.New(script)
	s := d.Open(t, "webmcp.html", off, fullTier)
	s.Send("act", "Add the note 'buy milk' with the page's WebMCP tool.")
	if got := WaitRunEnd(t, s); got != "done" {
		t.Fatalf("setting off: run status %q", got)
	}
	reqs := off.Requests()
	if slices.Contains(reqs[0].Tools, "list_webmcp_tools") || slices.Contains(reqs[0].Tools, "execute_webmcp_tool") {
		t.Errorf("setting off: WebMCP tools offered: %v", reqs[0].Tools)
	}
	offReason := "Experimental WebMCP is off"
	if inFirefox(t, s) {
		offReason = "not available in this browser" // Chrome-only comes first
	}
	if got := toolResult(reqs, 0); !strings.Contains(got, offReason) {
		t.Errorf("setting off: list_webmcp_tools gave %q, want it to say %q", got, offReason)
	}
	if rec := PageRecord(t, s); len(rec) != 0 {
		t.Errorf("setting off: the page recorded %q", rec)
	}

	on := llmtest.New(script)
	p := fullTier
	p.WebMCP = true
	s = d.Open(t, "webmcp.html?on", on, p) // another URL: each session's tab has its own
	watchApprovals(t, s)
	s.Send("act", "Add the note 'buy milk' with the page's WebMCP tool.")
	var cards []string
	status, _ := AnswerCardsUntilEnd(t, s, func(card string) string {
		cards = append(cards, card)
		return "approve"
	})
	if status != "done" {
		t.Fatalf("setting on: run status %q", status)
	}
	reqs = on.Requests()
	if inFirefox(t, s) {
		if slices.Contains(reqs[0].Tools, "list_webmcp_tools") || slices.Contains(reqs[0].Tools, "execute_webmcp_tool") {
			t.Errorf("Firefox offers WebMCP tools: %v", reqs[0].Tools)
		}
		if got := toolResult(reqs, 0); !strings.Contains(got, "not available in this browser") {
			t.Errorf("Firefox: list_webmcp_tools gave %q", got)
		}
		if len(cards) != 0 {
			t.Errorf("Firefox: %d approval cards", len(cards))
		}
		return
	}
	if !slices.Contains(reqs[0].Tools, "list_webmcp_tools") || !slices.Contains(reqs[0].Tools, "execute_webmcp_tool") {
		t.Fatalf("setting on: Chrome does not offer the WebMCP tools: %v", reqs[0].Tools)
	}
	if got := toolResult(reqs, 0); !strings.Contains(got, `"add_note"`) || !strings.Contains(got, "Adds a note") {
		t.Fatalf("list_webmcp_tools gave %q", got)
	}
	if len(cards) != 1 || !strings.Contains(cards[0], `"webmcp"`) || !strings.Contains(cards[0], "add_note") ||
		strings.Contains(cards[0], "approve_site") {
		t.Errorf("want one webmcp card naming add_note without approve_site, got %q", cards)
	}
	if got := PageRecord(t, s); !slices.Equal(got, []string{"note:buy milk"}) {
		t.Errorf("the page recorded %q, want [note:buy milk]", got)
	}
	if got := toolResult(reqs, 1); !strings.Contains(got, "Saved note: buy milk") {
		t.Errorf("execute_webmcp_tool gave %q", got)
	}
}

func firstOf(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
