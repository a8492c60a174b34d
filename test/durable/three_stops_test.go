//go:build e2e

package durable

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"html"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/test/testenv"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Three stops per task: realistic multi-step tasks, driven through the
// panel by a scripted model that reads refs from the tree it is given,
// each interrupted by three service worker stops at different points of
// the same run, as Chrome does when it reclaims an idle worker. Every
// effect must happen exactly once and the run must end with the answer
// the page shows (docs/decisions/exactly-once.md).
//
// The stops are drawn from a seeded schedule over the run's events; the
// seed is printed, and WEBBRAIN_STOPS_SEED=<seed> replays it;
// WEBBRAIN_STOPS_TRACE=1 prints every model move, page event and stop.

// pointKind is where in a run a stop lands.
type pointKind int

const (
	// atModel: a model request is in flight: the fake model holds its
	// reply (or streams it slowly) until the stop, and the resumed run
	// asks again.
	atModel pointKind = iota
	// atDispatch: the run recorded the call as dispatched and has not sent
	// it: the worker holds the call's first message to the page (or the
	// tab update of navigate), set over CDP as the model replies.
	atDispatch
	// atMidInput: part of the call's input reached the page: the page's
	// report of the Nth keydown or of the mousedown is held by the fixture
	// server until the stop has landed.
	atMidInput
	// atSettling: the whole effect is in the page or the server and the
	// action's report is pending: the page's report of the event that
	// completes the effect is held until the stop has landed (the content
	// script shares the page's thread, so it cannot answer meanwhile), and
	// the page then keeps "saving" for a while; the server holds a form
	// post or a navigation's request until the resumed run has started
	// and a while longer, so the resumed call finds it still pending or
	// just answered.
	atSettling
	pointKinds
)

var pointNames = [...]string{"model request", "dispatched", "mid-input", "settling"}

func (k pointKind) String() string { return pointNames[k] }

// stopAt is one scheduled stop.
type stopAt struct {
	kind pointKind
	// move is the model's move for atModel ("tree", "step2", "fresh4",
	// "read", "answer"); step is the task step of the other kinds.
	move string
	step int
	// streaming: the reply streams slowly and the stop lands mid-stream.
	streaming bool
	n         int // atMidInput: the stop lands at the nth matching input event
	// holdMs, atSettling: how long the page keeps saving after the
	// effect; for a post or a navigation, how long the server holds its
	// answer after the resumed run has started.
	holdMs int
	server bool          // atSettling: the effect is a post or a navigation
	offset time.Duration // from the point to the stop
	// wake: a message wakes the worker right after the stop (as any
	// extension event would); else the panel's watchdog does, within
	// about two seconds.
	wake bool
}

func (p stopAt) String() string {
	if p.wake {
		p.wake = false
		return p.String() + ", woken"
	}
	switch p.kind {
	case atModel:
		if p.streaming {
			return "model request " + p.move + " (streaming)"
		}
		return "model request " + p.move
	case atMidInput:
		return fmt.Sprintf("mid-input step%d (#%d)", p.step, p.n)
	case atSettling:
		if p.server {
			return fmt.Sprintf("settling step%d (server answers %d ms after the resume)", p.step, p.holdMs)
		}
		return fmt.Sprintf("settling step%d (saving %d ms)", p.step, p.holdMs)
	}
	return fmt.Sprintf("%s step%d", p.kind, p.step)
}

// taskEvent is one event a task page or the fixture server saw.
type taskEvent struct{ page, ev, target, value string }

// match selects events; an empty value matches any.
type match struct{ ev, target, value string }

func (m match) matches(e taskEvent) bool {
	return m.ev == e.ev && m.target == e.target && (m.value == "" || m.value == e.value)
}

// step is one action of a task.
type step struct {
	tool string
	// call is the model's call for the step from what it read; retry
	// counts the earlier attempts the model found had not taken effect.
	call func(v *view, retry int) (string, map[string]any, error)
	// navigates: the page changes; the next step reads the tree first.
	navigates bool
	// middle is the input event of atMidInput (none for set_field and
	// navigate, which reach the page in one step); midMax bounds n.
	middle *match
	midMax int
	// effect is the event that completes the effect (atSettling).
	effect func(run string) match
	// After a result that leaves the effect uncertain the model reads the
	// page (verifyBy) and acts again unless verify says it took effect.
	verifyBy string
	verify   func(text string, v *view) bool
}

func (s step) readOnly() bool { return s.effect == nil }

// task is a multi-step task on a fixture page.
type task struct {
	name   string
	page   func(run string) string // path of the start page
	prompt func(run string) string
	steps  []step
	// lines are the starts of the lines of the final page the answer
	// quotes; want are those lines as they must read.
	lines   []string
	want    func(run string) []string
	effects []effectCheck
}

// view is what the model has read so far.
type view struct {
	run   string
	tree  string   // the newest accessibility tree
	reads []string // read_page results, oldest first
}

func (tk *task) answer(lines []string) string {
	return `The page says: "` + strings.Join(lines, `" / "`) + `".`
}

// --- the tasks -------------------------------------------------------------

const (
	signinUser  = "ada.lovelace"
	signinPass  = "correct horse battery staple"
	address     = "221B Baker Street, London"
	courierNote = "Ring twice, please"
	chatText    = "The build is green, shipping at five."
)

func treeLine(tree, role, name string) string {
	node := fmt.Sprintf("%s %q", role, name)
	for _, l := range strings.Split(tree, "\n") {
		if strings.Contains(l, node) {
			return l
		}
	}
	return ""
}

func refCall(tool, role, name string, args map[string]any) func(*view, int) (string, map[string]any, error) {
	return func(v *view, _ int) (string, map[string]any, error) {
		ref, err := scenario.FindRef(v.tree, role, name)
		a := map[string]any{"ref": ref}
		for k, x := range args {
			a[k] = x
		}
		return tool, a, err
	}
}

func hasValue(role, name string, text func(run string) string) func(string, *view) bool {
	return func(tree string, v *view) bool {
		return strings.Contains(treeLine(tree, role, name), "value="+strconv.Quote(text(v.run)))
	}
}

func says(s string) func(string, *view) bool {
	return func(text string, _ *view) bool { return strings.Contains(text, s) }
}

func fixedText(s string) func(string) string { return func(string) string { return s } }

// typeStep types text into the textbox role/name (element id target).
func typeStep(role, name, target string, text func(run string) string) step {
	return step{
		tool: protocol.ToolTypeAX,
		call: func(v *view, _ int) (string, map[string]any, error) {
			ref, err := scenario.FindRef(v.tree, role, name)
			return protocol.ToolTypeAX, map[string]any{"ref": ref, "text": text(v.run)}, err
		},
		middle: &match{ev: "keydown", target: target}, midMax: len(text("")),
		effect:   func(run string) match { return match{"input", target, text(run)} },
		verifyBy: protocol.ToolGetAccessibilityTree, verify: hasValue(role, name, text),
	}
}

// clickStep clicks role/name (element id target); effect is what the
// click does.
func clickStep(role, name, target string, effect match, navigates bool, verifyBy string, verify func(string, *view) bool) step {
	return step{
		tool: protocol.ToolClickAX, call: refCall(protocol.ToolClickAX, role, name, nil), navigates: navigates,
		middle: &match{ev: "mousedown", target: target}, midMax: 1,
		effect:   func(string) match { return effect },
		verifyBy: verifyBy, verify: verify,
	}
}

// switchedOn: the tree line of role/name is checked.
func switchedOn(role, name string) func(string, *view) bool {
	return func(tree string, _ *view) bool {
		l := treeLine(tree, role, name)
		return strings.Contains(l, " checked") && !strings.Contains(l, "unchecked")
	}
}

var codeRE = regexp.MustCompile(`\bHL-\d{4}-[A-Z]{2}\b`)

// trackingCode is the Hopper Labs tracking code of a run's table page.
func trackingCode(run string) string {
	h := fnv.New32a()
	h.Write([]byte(run))
	n := h.Sum32()
	return fmt.Sprintf("HL-%04d-%c%c", 1000+n%9000, 'A'+rune(n/9000%26), 'A'+rune(n/234000%26))
}

func searchURL(run string) string {
	return env.fixtures.URL + "/tasks/search?q=worker+restarts&run=" + run
}

var stopTasks = []*task{
	{
		name: "sign-in",
		page: func(run string) string { return "/tasks/signin.html?run=" + run },
		prompt: fixedText(`Sign in as "` + signinUser + `" with the password "` + signinPass +
			`": fill in the form and submit it, then tell me what the page says.`),
		steps: []step{
			typeStep("textbox", "User name", "user", fixedText(signinUser)),
			func() step {
				s := typeStep("textbox", "Password", "pass", fixedText(signinPass))
				// The tree shows a password as dots: when unsure, type it again
				// (it replaces the field's text).
				s.verify = func(string, *view) bool { return false }
				return s
			}(),
			clickStep("button", "Sign in", "signin", match{ev: "post", target: "signin"}, true, protocol.ToolReadPage, says("Signed in as")),
		},
		lines: []string{"Signed in as", "Sign-ins received:"},
		want:  func(string) []string { return []string{"Signed in as " + signinUser + ".", "Sign-ins received: 1."} },
		effects: []effectCheck{
			countOf("sign-in posts", "post", "signin", 1),
			postedValue("signin", "user", signinUser), postedValue("signin", "pass", signinPass),
			typedOnce("user", signinUser), typedOnce("pass", signinPass),
		},
	},
	{
		name: "delivery",
		page: func(run string) string { return "/tasks/delivery.html?run=" + run },
		prompt: fixedText(`Fill in the delivery form: street address "` + address + `", delivery speed Express, gift wrap on. ` +
			`Press Next, then write "` + courierNote + `" as the note for the courier and submit the request. Tell me what the page says.`),
		steps: []step{
			typeStep("textbox", "Street address", "address", fixedText(address)),
			{
				tool: protocol.ToolSetField, call: refCall(protocol.ToolSetField, "combobox", "Delivery speed", map[string]any{"value": "Express"}),
				effect:   func(string) match { return match{"change", "speed", "express"} },
				verifyBy: protocol.ToolGetAccessibilityTree, verify: hasValue("combobox", "Delivery speed", fixedText("Express")),
			},
			{
				tool: protocol.ToolSetField, call: refCall(protocol.ToolSetField, "checkbox", "Gift wrap", map[string]any{"checked": true}),
				effect:   func(string) match { return match{"change", "gift", "true"} },
				verifyBy: protocol.ToolGetAccessibilityTree, verify: switchedOn("checkbox", "Gift wrap"),
			},
			clickStep("button", "Next", "next", match{ev: "post", target: "next"}, true, protocol.ToolGetAccessibilityTree, says(`textbox "Note for the courier"`)),
			typeStep("textbox", "Note for the courier", "note", fixedText(courierNote)),
			clickStep("button", "Submit request", "submit", match{ev: "post", target: "submit"}, true, protocol.ToolReadPage, says("Request received")),
		},
		lines: []string{"Delivery:", "Courier note:", "Requests received:"},
		want: func(string) []string {
			return []string{"Delivery: Express to " + address + ", gift wrap: yes.", "Courier note: " + courierNote + ".", "Requests received: 1."}
		},
		effects: []effectCheck{
			typedOnce("address", address),
			countOf("speed changes", "change", "speed", 1), countOf("gift wrap changes", "change", "gift", 1),
			countOf("Next posts", "post", "next", 1),
			postedValue("next", "address", address), postedValue("next", "speed", "express"), postedValue("next", "gift", "on"),
			typedOnce("note", courierNote),
			countOf("request posts", "post", "submit", 1), postedValue("submit", "note", courierNote),
		},
	},
	{
		name: "chat",
		page: func(run string) string { return "/tasks/chat.html?run=" + run },
		prompt: fixedText(`Send Grace the message "` + chatText + `" in this chat: click the message box, type it and press Enter. ` +
			`Then tell me what the page says.`),
		steps: []step{
			{
				// Focus: clicking the box again does no harm, so when unsure the
				// model clicks again.
				tool: protocol.ToolClickAX, call: refCall(protocol.ToolClickAX, "textbox", "Message", nil),
				middle: &match{ev: "mousedown", target: "composer"}, midMax: 1,
				effect:   func(string) match { return match{"click", "composer", ""} },
				verifyBy: protocol.ToolGetAccessibilityTree, verify: func(string, *view) bool { return false },
			},
			{
				tool: protocol.ToolTypeText,
				call: func(v *view, retry int) (string, map[string]any, error) {
					if retry > 0 {
						// Unsure what arrived: replace the box's text instead of adding to it.
						ref, err := scenario.FindRef(v.tree, "textbox", "Message")
						return protocol.ToolTypeAX, map[string]any{"ref": ref, "text": chatText}, err
					}
					return protocol.ToolTypeText, map[string]any{"text": chatText}, nil
				},
				middle: &match{ev: "keydown", target: "composer"}, midMax: len(chatText),
				effect:   func(string) match { return match{"input", "composer", chatText} },
				verifyBy: protocol.ToolGetAccessibilityTree, verify: hasValue("textbox", "Message", fixedText(chatText)),
			},
			{
				tool: protocol.ToolPressKeys,
				call: func(*view, int) (string, map[string]any, error) {
					return protocol.ToolPressKeys, map[string]any{"keys": "Enter"}, nil
				},
				middle: &match{ev: "keydown", target: "composer", value: "Enter"}, midMax: 1,
				effect:   func(string) match { return match{"effect", "sent", chatText} },
				verifyBy: protocol.ToolReadPage, verify: says("You: " + chatText),
			},
		},
		lines: []string{"Messages sent:", "You:"},
		want:  func(string) []string { return []string{"Messages sent: 1", "You: " + chatText} },
		effects: []effectCheck{
			typedOnce("composer", chatText),
			countOf("messages sent", "effect", "sent", 1), sentValue("sent", chatText),
		},
	},
	{
		name:   "settings",
		page:   func(run string) string { return "/tasks/settings.html?run=" + run },
		prompt: fixedText(`Turn on dark mode in these settings and save the changes. Tell me what the page says afterwards.`),
		steps: []step{
			clickStep("switch", "Dark mode", "dark", match{"effect", "dark", "on"}, false, protocol.ToolGetAccessibilityTree, switchedOn("switch", "Dark mode")),
			clickStep("button", "Save changes", "save", match{ev: "post", target: "save"}, true, protocol.ToolReadPage, says("Settings saved")),
		},
		lines: []string{"Dark mode:", "Saves received:"},
		want:  func(string) []string { return []string{"Dark mode: on.", "Saves received: 1."} },
		effects: []effectCheck{
			countOf("dark mode flips", "effect", "dark", 1), countOf("alert flips", "effect", "alerts", 0),
			countOf("saves", "post", "save", 1), postedValue("save", "dark", "on"), postedValue("save", "alerts", "on"),
		},
	},
	{
		name: "table read",
		page: func(run string) string { return "/tasks/table?run=" + run },
		prompt: fixedText(`Find the tracking code of the Hopper Labs shipment in the table, enter it in the Tracking code field ` +
			`and submit it with Track. Tell me what the page says.`),
		steps: []step{
			{
				tool: protocol.ToolReadPage,
				call: func(*view, int) (string, map[string]any, error) { return protocol.ToolReadPage, map[string]any{}, nil },
			},
			func() step {
				s := typeStep("textbox", "Tracking code", "code", trackingCode)
				s.call = func(v *view, _ int) (string, map[string]any, error) {
					// The code is the one the page shows in the Hopper Labs row.
					var code string
					for _, r := range v.reads {
						for _, l := range strings.Split(r, "\n") {
							if strings.Contains(l, "Hopper Labs") {
								code = codeRE.FindString(l)
							}
						}
					}
					if code == "" {
						return "", nil, fmt.Errorf("no Hopper Labs code in what the page showed: %q", v.reads)
					}
					ref, err := scenario.FindRef(v.tree, "textbox", "Tracking code")
					return protocol.ToolTypeAX, map[string]any{"ref": ref, "text": code}, err
				}
				s.midMax = len("HL-0000-AA")
				return s
			}(),
			clickStep("button", "Track", "track", match{ev: "post", target: "track"}, true, protocol.ToolReadPage, says("Lookups received")),
		},
		lines: []string{"Shipment", "Lookups received:"},
		want: func(run string) []string {
			return []string{"Shipment " + trackingCode(run) + ": in transit.", "Lookups received: 1."}
		},
		effects: []effectCheck{
			typedOnceRun("code", trackingCode),
			countOf("lookups", "post", "track", 1), postedValueRun("track", "code", trackingCode),
		},
	},
	{
		name: "search",
		page: func(run string) string { return "/tasks/home.html?run=" + run },
		prompt: func(run string) string {
			return `Search the knowledge base for "worker restarts": open ` + searchURL(run) +
				`, then open the result about exactly once and tell me what the article says.`
		},
		steps: []step{
			{
				tool: protocol.ToolNavigate, navigates: true,
				call: func(v *view, _ int) (string, map[string]any, error) {
					return protocol.ToolNavigate, map[string]any{"url": searchURL(v.run)}, nil
				},
				effect:   func(string) match { return match{"get", "search", ""} },
				verifyBy: protocol.ToolReadPage, verify: says("Search results"),
			},
			clickStep("link", "Exactly once across worker restarts", "r2", match{ev: "get", target: "article-exactly"}, true,
				protocol.ToolReadPage, says("Article views")),
		},
		lines: []string{"Exactly once across worker restarts", "Article views:"},
		want: func(string) []string {
			return []string{"Exactly once across worker restarts", "Article views: 1."}
		},
		effects: []effectCheck{
			countOf("searches", "get", "search", 1), countOf("result clicks", "click", "r2", 1),
			countOf("article views", "get", "article-exactly", 1),
			countOf("other articles", "get", "article-durable", 0), countOf("other articles", "get", "article-receipts", 0),
		},
	},
}

// --- effects ---------------------------------------------------------------

// effectCheck judges one effect from the run's events: "ok", "doubled",
// "lost" or "wrong", with what it saw.
type effectCheck struct {
	name  string
	judge func(run string, evs []taskEvent) (verdict, got string)
}

func countOf(name, ev, target string, want int) effectCheck {
	return effectCheck{name, func(_ string, evs []taskEvent) (string, string) {
		n := 0
		for _, e := range evs {
			if e.ev == ev && e.target == target {
				n++
			}
		}
		got := strconv.Itoa(n)
		switch {
		case n > want && want == 0:
			return "wrong", got
		case n > want:
			return "doubled", got
		case n < want:
			return "lost", got
		}
		return "ok", got
	}}
}

// judgeValue: the value wanted, a doubled one (longer and holding it), a
// lost one (empty or cut short), or something else.
func judgeValue(want, got string) string {
	switch {
	case got == want:
		return "ok"
	case len(got) > len(want) && strings.Contains(got, want):
		return "doubled"
	case got == "" || strings.HasPrefix(want, got):
		return "lost"
	}
	return "wrong"
}

// postedValueRun judges field of the first post of form; a form never
// posted is judged by the form's count.
func postedValueRun(form, field string, want func(run string) string) effectCheck {
	return effectCheck{form + " " + field, func(run string, evs []taskEvent) (string, string) {
		for _, e := range evs {
			if e.ev == "post" && e.target == form {
				vals, _ := url.ParseQuery(e.value)
				got := vals.Get(field)
				return judgeValue(want(run), got), got
			}
		}
		return "ok", "(no post)"
	}}
}

func postedValue(form, field, want string) effectCheck {
	return postedValueRun(form, field, fixedText(want))
}

// sentValue judges the value of the first effect event target.
func sentValue(target, want string) effectCheck {
	return effectCheck{target + " text", func(_ string, evs []taskEvent) (string, string) {
		for _, e := range evs {
			if e.ev == "effect" && e.target == target {
				return judgeValue(want, e.value), e.value
			}
		}
		return "ok", "(none)"
	}}
}

// typedOnceRun: the field never held more than the text (typing doubled,
// even if later typing replaced it), and its last value is the text.
func typedOnceRun(target string, text func(run string) string) effectCheck {
	return effectCheck{"typing in " + target, func(run string, evs []taskEvent) (string, string) {
		want, last := text(run), ""
		for _, e := range evs {
			if e.ev == "input" && e.target == target {
				if judgeValue(want, e.value) == "doubled" {
					return "doubled", e.value
				}
				last = e.value
			}
		}
		return judgeValue(want, last), last
	}}
}

func typedOnce(target, text string) effectCheck { return typedOnceRun(target, fixedText(text)) }

// --- the fixture server's part ---------------------------------------------

var taskRuns sync.Map // run → *runCtl

func lookupRun(run string) *runCtl {
	c, _ := taskRuns.Load(run)
	ctl, _ := c.(*runCtl)
	return ctl
}

// tasksHandler serves the task pages and records what they report:
//
//	POST /tasks/ev?run=R&page=P&ev=E&target=T  an event of a page (body: its value)
//	POST /tasks/post/F?run=R                   form F's post; the answer is the next page
//	GET  /tasks/search?q=Q&run=R               search results
//	GET  /tasks/article?slug=S&run=R           an article
//	GET  /tasks/table?run=R                    the shipments table of the run
func tasksHandler(dir string) http.Handler {
	dir = filepath.Join(dir, "tasks")
	mux := http.NewServeMux()
	// hold keeps a request waiting until every channel of waits is
	// closed, then ms longer; it reports whether to answer.
	hold := func(r *http.Request, ms int, waits []<-chan struct{}) bool {
		for _, w := range waits {
			select {
			case <-w:
			case <-time.After(runTimeout):
			case <-r.Context().Done():
				return false
			}
		}
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
			return true
		case <-r.Context().Done():
			return false
		}
	}
	mux.HandleFunc("/tasks/ev", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		q := r.URL.Query()
		saving := 0
		if c := lookupRun(q.Get("run")); c != nil {
			var waits []<-chan struct{}
			saving, waits = c.event(taskEvent{page: q.Get("page"), ev: q.Get("ev"), target: q.Get("target"), value: string(body)})
			if !hold(r, 0, waits) {
				return
			}
		}
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, saving)
	})
	mux.HandleFunc("/tasks/post/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "post only", http.StatusMethodNotAllowed)
			return
		}
		form := strings.TrimPrefix(r.URL.Path, "/tasks/post/")
		run := r.URL.Query().Get("run")
		_ = r.ParseForm()
		c := lookupRun(run)
		var held []<-chan struct{}
		ms, n := 0, 0
		if c != nil {
			ms, held = c.event(taskEvent{page: "server", ev: "post", target: form, value: r.PostForm.Encode()})
			n = c.count("post", form)
		}
		if !hold(r, ms, held) {
			return
		}
		switch form {
		case "signin":
			taskPage(w, "signed-in", "Signed in", "", "Signed in as "+r.PostForm.Get("user")+".", fmt.Sprintf("Sign-ins received: %d.", n))
		case "next":
			http.ServeFile(w, r, filepath.Join(dir, "delivery2.html"))
		case "submit":
			speed, gift, addr := "?", "no", "?"
			if c != nil {
				if first := c.first("post", "next"); first != nil {
					vals, _ := url.ParseQuery(first.value)
					if sp := vals.Get("speed"); sp != "" {
						speed = strings.ToUpper(sp[:1]) + sp[1:]
					}
					addr = vals.Get("address")
					if vals.Get("gift") == "on" {
						gift = "yes"
					}
				}
			}
			taskPage(w, "received", "Request received", "", "Delivery: "+speed+" to "+addr+", gift wrap: "+gift+".",
				"Courier note: "+r.PostForm.Get("note")+".", fmt.Sprintf("Requests received: %d.", n))
		case "save":
			taskPage(w, "saved", "Settings saved", "", "Dark mode: "+r.PostForm.Get("dark")+".", "Email alerts: "+r.PostForm.Get("alerts")+".",
				fmt.Sprintf("Saves received: %d.", n))
		case "track":
			status := "unknown code"
			if r.PostForm.Get("code") == trackingCode(run) {
				status = "in transit"
			}
			taskPage(w, "tracked", "Tracking", "", "Shipment "+r.PostForm.Get("code")+": "+status+".", fmt.Sprintf("Lookups received: %d.", n))
		default:
			http.NotFound(w, r)
		}
	})
	mux.HandleFunc("/tasks/search", func(w http.ResponseWriter, r *http.Request) {
		run := r.URL.Query().Get("run")
		if c := lookupRun(run); c != nil {
			if ms, held := c.event(taskEvent{page: "server", ev: "get", target: "search", value: r.URL.Query().Get("q")}); !hold(r, ms, held) {
				return
			}
		}
		var links strings.Builder
		for i, a := range articles {
			fmt.Fprintf(&links, `<li><a id="r%d" href="/tasks/article?slug=%s&amp;run=%s">%s</a></li>`, i+1, a.slug, url.QueryEscape(run), a.title)
		}
		taskPage(w, "search", "Search results", "<ul>"+links.String()+"</ul>", "Results for "+r.URL.Query().Get("q")+".")
	})
	mux.HandleFunc("/tasks/article", func(w http.ResponseWriter, r *http.Request) {
		run, slug := r.URL.Query().Get("run"), r.URL.Query().Get("slug")
		n := 0
		if c := lookupRun(run); c != nil {
			if ms, held := c.event(taskEvent{page: "server", ev: "get", target: "article-" + slug}); !hold(r, ms, held) {
				return
			}
			n = c.count("get", "article-"+slug)
		}
		for _, a := range articles {
			if a.slug == slug {
				taskPage(w, "article", a.title, "", a.text, fmt.Sprintf("Article views: %d.", n))
				return
			}
		}
		http.NotFound(w, r)
	})
	mux.HandleFunc("/tasks/table", func(w http.ResponseWriter, r *http.Request) {
		run := r.URL.Query().Get("run")
		b, err := os.ReadFile(filepath.Join(dir, "table.html"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		code := trackingCode(run)
		page := strings.NewReplacer("{{CODE}}", code, "{{N1}}", code[3:7], "{{N2}}", code[3:7]).Replace(string(b))
		page = strings.Replace(page, "LL-"+code[3:7], "LL-"+reverse(code[3:7]), 1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, page)
	})
	files := http.StripPrefix("/tasks/", http.FileServer(http.Dir(dir)))
	mux.HandleFunc("/tasks/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		files.ServeHTTP(w, r)
	})
	return mux
}

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

var articles = []struct{ slug, title, text string }{
	{"durable", "Durable runs overview", "A run survives the worker's restarts."},
	{"exactly", "Exactly once across worker restarts", "Receipts kept by the page make an interrupted action run once."},
	{"receipts", "Receipts in the page", "The content script keeps the receipts."},
}

// taskPage writes a page the server renders; it reports its events too.
func taskPage(w http.ResponseWriter, page, title, extra string, lines ...string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s</title></head><body data-page="%s"><h1>%s</h1>`,
		html.EscapeString(title), page, html.EscapeString(title))
	for _, l := range lines {
		fmt.Fprintf(w, "<p>%s</p>", html.EscapeString(l))
	}
	fmt.Fprintf(w, `%s<script src="/tasks/tasks.js"></script></body></html>`, extra)
}

// --- the run controller ----------------------------------------------------

// runCtl is one run: its events, its schedule, and the points that fired.
type runCtl struct {
	task  *task
	run   string
	tabID int
	sched []stopAt

	mu       sync.Mutex
	events   []taskEvent
	next     int            // the next point of sched to fire
	replied  map[int]bool   // steps whose call the model has sent
	matched  int            // mid-input events seen since the point became next
	asked    map[string]int // model requests per move label
	sent     map[int]string // the tool of the newest call sent for each step
	fired    chan int
	release  []chan struct{} // closed once stop i has landed
	back     []chan struct{} // closed once the run resumed after stop i
	problems []string        // harness trouble found off the test goroutine
}

func newRunCtl(tk *task, run string, sched []stopAt) *runCtl {
	c := &runCtl{task: tk, run: run, sched: sched, replied: map[int]bool{}, asked: map[string]int{}, sent: map[int]string{}, fired: make(chan int, len(sched)+1)}
	for range sched {
		c.release = append(c.release, make(chan struct{}))
		c.back = append(c.back, make(chan struct{}))
	}
	return c
}

func (c *runCtl) pending() (*stopAt, int) {
	if c.next < len(c.sched) {
		return &c.sched[c.next], c.next
	}
	return nil, -1
}

func (c *runCtl) fire(i int) {
	c.next, c.matched = i+1, 0
	c.fired <- i
}

// event records an event and says how long the page keeps saving after
// it (or the server holds its answer), and what to wait for before
// answering: the stop to have landed, when it is the point.
func (c *runCtl) event(e taskEvent) (int, []<-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events = append(c.events, e)
	if os.Getenv("WEBBRAIN_STOPS_TRACE") != "" {
		fmt.Printf("%s %s event %s %s %s %.30q\n", time.Now().Format("15:04:05.000"), c.run, e.page, e.ev, e.target, e.value)
	}
	p, i := c.pending()
	if p == nil || p.kind == atModel {
		return 0, nil
	}
	st := c.task.steps[p.step]
	switch p.kind {
	case atDispatch:
		if e.ev == "held" {
			c.fire(i)
		}
	case atMidInput:
		if c.replied[p.step] && st.middle.matches(e) {
			c.matched++
			if c.matched == p.n {
				c.fire(i)
				return 0, []<-chan struct{}{c.release[i]}
			}
		}
	case atSettling:
		if c.replied[p.step] && st.effect(c.run).matches(e) {
			c.fire(i)
			if e.page == "server" {
				return p.holdMs, []<-chan struct{}{c.release[i], c.back[i]}
			}
			return p.holdMs, []<-chan struct{}{c.release[i]}
		}
	}
	return 0, nil
}

func (c *runCtl) count(ev, target string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.events {
		if e.ev == ev && e.target == target {
			n++
		}
	}
	return n
}

func (c *runCtl) first(ev, target string) *taskEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.events {
		if e.ev == ev && e.target == target {
			return &e
		}
	}
	return nil
}

func (c *runCtl) snapshot() []taskEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.events)
}

func (c *runCtl) problem(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// model is the fake model's script: the task's next move, held or slowed
// when it is the scheduled point, after setting the worker's hold when
// the call it sends is to be held.
func (c *runCtl) model(n int, req llmtest.Request) llmtest.Turn {
	mv := c.task.decide(n, req, c.run)
	if os.Getenv("WEBBRAIN_STOPS_TRACE") != "" {
		fmt.Printf("%s %s model #%d -> %s\n", time.Now().Format("15:04:05.000"), c.run, n, mv.label)
	}
	c.mu.Lock()
	c.asked[mv.label]++
	p, i := c.pending()
	if p != nil && p.kind == atModel && p.move == mv.label {
		c.fire(i)
		c.mu.Unlock()
		if p.streaming {
			mv.turn.ChunkDelay = 400 * time.Millisecond
		} else {
			mv.turn.Delay = 30 * time.Second // ended by the stop: the worker's fetch dies with it
		}
		return mv.turn // the reply never arrives whole
	}
	hold := false
	if mv.step >= 0 {
		c.replied[mv.step], c.sent[mv.step] = true, mv.tool
		p, _ = c.pending()
		hold = p != nil && p.kind == atDispatch && p.step == mv.step
	}
	c.mu.Unlock()
	if hold {
		if err := holdCall(c.tabID, mv.tool, env.fixtures.URL+"/tasks/ev?ev=held&run="+url.QueryEscape(c.run)); err != nil {
			c.problem("set the hold of %s in the worker: %v", mv.tool, err)
		}
	}
	return mv.turn
}

// holdCall makes the service worker hold its first message to the page
// for tool (or navigate's tab update) and post mark instead. It returns an
// error instead of failing the test: the model's goroutine calls it too.
func holdCall(tabID int, tool, mark string) error {
	var err error
	for try := 0; try < 3; try++ {
		var info *target.Info
		if info, _, err = testenv.ExtensionWorker(env.browser, 5*time.Second); err != nil {
			continue
		}
		ctx, cancel := chromedp.NewContext(env.browser, chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
		var ok bool
		ok, err = chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
			const h = globalThis.wbHost, tab = %d, tool = %q, mark = %q;
			if (!h) return false;
			const send = h.content.send, update = h.tabs.update;
			const restore = () => { h.content.send = send; h.tabs.update = update; };
			const hold = () => {
				restore();
				fetch(mark, { method: 'POST' }).catch(() => {});
				return new Promise(() => {}); // the stop ends this worker
			};
			const ours = (m) => m && (m.name === tool || (m.name === 'trusted_prepare' && m.args && m.args.tool === tool));
			if (tool === 'navigate') {
				h.tabs.update = function (tabId, url) { return tabId === tab ? hold() : update.apply(this, arguments); };
			} else {
				h.content.send = function (tabId, msg) { return tabId === tab && ours(msg) ? hold() : send.apply(this, arguments); };
			}
			return true;
		})()`, tabID, tool, mark)))
		cancel()
		if err == nil && !ok {
			err = fmt.Errorf("the worker has no wbHost")
		}
		if err == nil {
			return nil
		}
	}
	return err
}

// wakeWorker sends the background a message, which starts the worker
// again: what the panel's watchdog does when it has heard nothing for a
// while.
func wakeWorker(t *testing.T, tabID int) {
	t.Helper()
	evalIn[chromedp.Void](t, env.control, fmt.Sprintf(`void chrome.runtime.sendMessage({action: %q, tabId: %d, requestId: '', afterSeq: 0}).catch(() => {})`,
		protocol.ActionRunState, tabID))
}

// --- the model -------------------------------------------------------------

// move is the model's next turn: label names it ("tree", "step2",
// "fresh4", "verify2", "read", "wait", "answer"); step is the task step
// whose call it sends, or -1.
type move struct {
	label string
	step  int
	tool  string
	turn  llmtest.Turn
}

// labelled is a tool result with the label of the move that called it
// (the model names its calls by move: call_<label>_<n>).
type labelled struct {
	label, name, content string
}

func labelledResults(req llmtest.Request) []labelled {
	var out []labelled
	for _, r := range toolResultsWithIDs(req) {
		parts := strings.Split(r.id, "_")
		label := ""
		if len(parts) == 3 {
			label = parts[1]
		}
		out = append(out, labelled{label, r.name, r.content})
	}
	return out
}

type idResult struct{ id, name, content string }

func toolResultsWithIDs(req llmtest.Request) []idResult {
	calls := map[string]llm.ToolCall{}
	var out []idResult
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			calls[c.ID] = c
		}
		if m.Role == llm.RoleTool {
			out = append(out, idResult{m.ToolCallID, calls[m.ToolCallID].Name, m.Content})
		}
	}
	return out
}

func splitLabel(l string) (string, int) {
	i := strings.IndexAny(l, "0123456789")
	if i < 0 {
		return l, -1
	}
	n, _ := strconv.Atoi(l[i:])
	return l[:i], n
}

// uncertain: the result does not say the action took effect.
func uncertain(result string) bool {
	return strings.HasPrefix(result, "Interrupted") || strings.HasPrefix(result, "Error") || strings.Contains(result, "unknown")
}

// decide is the model: it replays what its calls returned and makes the
// next move. It reads the tree first, acts step by step with refs from
// the newest tree (reading it again after the page changed), reads the
// page after a result that leaves an effect uncertain and acts again
// unless the page shows the effect, reads the final page and answers
// with its lines.
func (tk *task) decide(n int, req llmtest.Request, run string) move {
	v := &view{run: run}
	k, verifying, needTree := 0, -1, true
	retries := map[int]int{}
	var final []string
	waits := 0
	for _, r := range labelledResults(req) {
		kind, s := splitLabel(r.label)
		switch kind {
		case "tree", "fresh":
			v.tree, needTree = r.content, false
		case "verify":
			st := tk.steps[s]
			if st.verifyBy == protocol.ToolGetAccessibilityTree {
				v.tree, needTree = r.content, false
			}
			verifying = -1
			if st.verify(r.content, v) {
				k = s + 1
				if st.navigates && st.verifyBy != protocol.ToolGetAccessibilityTree {
					needTree = true
				}
			} else {
				k = s
				retries[s]++
			}
		case "step":
			st := tk.steps[s]
			if st.readOnly() {
				v.reads = append(v.reads, r.content)
				k = s + 1
				continue
			}
			if uncertain(r.content) {
				verifying = s
				continue
			}
			k = s + 1
			if st.navigates {
				needTree = true
			}
		case "read":
			final = append(final, r.content)
		case "wait":
			waits++
		}
	}
	call := func(label string, step int, tool string, args map[string]any) move {
		b, _ := json.Marshal(args)
		return move{label: label, step: step, tool: tool, turn: llmtest.Turn{ToolCalls: []llm.ToolCall{
			{ID: fmt.Sprintf("call_%s_%d", label, n), Name: tool, Arguments: string(b)}}}}
	}
	tree := map[string]any{"filter": "interactive"}
	switch {
	case verifying >= 0:
		st := tk.steps[verifying]
		args := map[string]any{}
		if st.verifyBy == protocol.ToolGetAccessibilityTree {
			args = tree
		}
		return call(fmt.Sprintf("verify%d", verifying), -1, st.verifyBy, args)
	case k < len(tk.steps) && needTree && v.tree == "":
		return call("tree", -1, protocol.ToolGetAccessibilityTree, tree)
	case k < len(tk.steps) && needTree:
		return call(fmt.Sprintf("fresh%d", k), -1, protocol.ToolGetAccessibilityTree, tree)
	case k < len(tk.steps):
		tool, args, err := tk.steps[k].call(v, retries[k])
		if err != nil {
			return move{label: "failed", step: -1, turn: scenario.ScriptFailed(err)}
		}
		return call(fmt.Sprintf("step%d", k), k, tool, args)
	}
	// Done acting: read the final page until it shows the lines.
	if len(final) > 0 {
		var lines []string
		for _, start := range tk.lines {
			// A line of the page starts with it (after a heading's "#").
			if m := regexp.MustCompile(`(?m)^[#*\-\s]*(` + regexp.QuoteMeta(start) + `[^\n]*)`).FindStringSubmatch(final[len(final)-1]); m != nil {
				lines = append(lines, strings.TrimSpace(m[1]))
			}
		}
		if len(lines) == len(tk.lines) {
			return move{label: "answer", step: -1, turn: llmtest.Turn{Text: tk.answer(lines)}}
		}
		if len(final) >= 3 {
			return move{label: "answer", step: -1, turn: llmtest.Turn{Text: "The page does not show what I expected: " + scenario.Clip(final[len(final)-1], 1500)}}
		}
		if waits < len(final) {
			return call("wait", -1, protocol.ToolWaitForStable, map[string]any{"timeoutMs": 3000})
		}
	}
	return call("read", -1, protocol.ToolReadPage, map[string]any{})
}

// moves lists the task's model requests in a run without trouble, in
// order: the points atModel can stop at.
func (tk *task) moves() []string {
	out := []string{"tree"}
	for k := range tk.steps {
		if k > 0 && tk.steps[k-1].navigates {
			out = append(out, fmt.Sprintf("fresh%d", k))
		}
		out = append(out, fmt.Sprintf("step%d", k))
	}
	return append(out, "read", "answer")
}

// candidates lists every point of the task's run, in run order.
func (tk *task) candidates() []stopAt {
	var out []stopAt
	for _, mv := range tk.moves() {
		out = append(out, stopAt{kind: atModel, move: mv, step: -1})
		kind, s := splitLabel(mv)
		if kind != "step" || tk.steps[s].readOnly() {
			continue
		}
		out = append(out, stopAt{kind: atDispatch, step: s})
		if tk.steps[s].middle != nil {
			out = append(out, stopAt{kind: atMidInput, step: s})
		}
		out = append(out, stopAt{kind: atSettling, step: s})
	}
	return out
}

// schedule draws three points per task, in run order, with their
// parameters; it draws again until every kind of point is hit across
// the tasks.
func schedule(seed uint64, tasks []*task) [][]stopAt {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for {
		var all [][]stopAt
		hit := map[pointKind]bool{}
		for _, tk := range tasks {
			cands := tk.candidates()
			pick := rng.Perm(len(cands))[:3]
			slices.Sort(pick)
			var sched []stopAt
			for _, i := range pick {
				p := cands[i]
				switch p.kind {
				case atModel:
					p.streaming = rng.IntN(3) == 0
					if p.streaming {
						p.offset = time.Duration(300+rng.IntN(500)) * time.Millisecond
					} else {
						p.offset = time.Duration(rng.IntN(400)) * time.Millisecond
					}
				case atDispatch:
					p.offset = time.Duration(rng.IntN(300)) * time.Millisecond
				case atMidInput:
					p.n = 1
					if m := tk.steps[p.step].midMax; m > 3 {
						p.n = 2 + rng.IntN(m/2)
					}
					p.offset = time.Duration(rng.IntN(200)) * time.Millisecond
				case atSettling:
					if st := tk.steps[p.step]; st.effect("").ev == "post" || st.effect("").ev == "get" {
						p.server, p.holdMs = true, rng.IntN(2000)
					} else {
						p.holdMs = 1500 + rng.IntN(1500)
					}
					p.offset = time.Duration(rng.IntN(200)) * time.Millisecond
				}
				p.wake = rng.IntN(2) == 0
				hit[p.kind] = true
				sched = append(sched, p)
			}
			all = append(all, sched)
		}
		if len(hit) == int(pointKinds) || len(tasks) < 2 {
			return all
		}
	}
}

// --- the test --------------------------------------------------------------

// taskResult is what one run of a task showed.
type taskResult struct {
	ran     bool
	task    string
	stops   int
	verdict string // "ok", or what went wrong first
	doubled int
	lost    int
	wrong   []string // effects not ok, with what was seen
	reports []string // results that left an effect uncertain
	landed  []string // what each stop interrupted
	took    time.Duration
}

// runTask runs tk once with the stops of sched (none for the control).
func runTask(t *testing.T, tk *task, sched []stopAt, res *taskResult) {
	start := time.Now()
	defer func() { res.took = time.Since(start) }()
	run := fmt.Sprintf("t%d", runSeq.Add(1))
	c := newRunCtl(tk, run, sched)
	taskRuns.Store(run, c)
	t.Cleanup(func() { taskRuns.Delete(run) })
	srv := llmtest.New(c.model)
	s := openSessionAt(t, srv, tk.page(run))
	c.tabID = s.tabID
	harness := func(format string, args ...any) {
		t.Helper()
		res.verdict = "harness: " + fmt.Sprintf(format, args...)
		t.Fatalf("harness: "+format, args...)
	}
	s.typeEnter("act", tk.prompt(run), false)

	for i, p := range sched {
		select {
		case got := <-c.fired:
			if got != i {
				harness("point %d fired, want %d", got, i)
			}
		case <-time.After(runTimeout):
			harness("stop %d (%s) never came; the run is %s; problems: %q", i+1, p, s.status(), c.problems)
		}
		time.Sleep(p.offset)
		stopWorker(t)
		at := time.Since(start).Round(time.Millisecond)
		if os.Getenv("WEBBRAIN_STOPS_TRACE") != "" {
			tab := evalIn[map[string]any](t, env.control, fmt.Sprintf(`chrome.tabs.get(%d).then((t) => ({url: t.url, pendingUrl: t.pendingUrl, status: t.status}))`, s.tabID), chromedp.EvalAwaitPromise)
			fmt.Printf("%s %s stopped; the tab: %v\n", time.Now().Format("15:04:05.000"), run, tab)
		}
		inFlight := dispatchedCall(t, s.tabID)
		if p.kind == atMidInput || p.kind == atSettling {
			time.Sleep(150 * time.Millisecond)
			close(c.release[i])
		}
		if p.wake {
			wakeWorker(t, s.tabID)
		}
		// Every stop is followed by a resume: the panel shows its notice.
		resumed := fmt.Sprintf(`[...document.querySelectorAll('.msg.notice')].filter((e) => e.innerText.includes('restarted')).length >= %d`, i+1)
		if ok, err := pollUntil(s.panel, resumed, runTimeout); !ok {
			fail := fmt.Sprintf("no resumed notice after stop %d (%s) in %v (last error: %v)", i+1, p, runTimeout, err)
			res.verdict = fail
			t.Fatal(fail)
		}
		close(c.back[i])
		if os.Getenv("WEBBRAIN_STOPS_TRACE") != "" {
			fmt.Printf("%s %s resumed\n", time.Now().Format("15:04:05.000"), run)
		}
		// The stop landed where the point says: no call in flight during a
		// model request, the step's call in flight at the other points.
		c.mu.Lock()
		want := c.sent[p.step]
		c.mu.Unlock()
		if p.kind == atModel {
			want = ""
		}
		if inFlight != want {
			harness("stop %d (%s): the checkpoint records %q as dispatched, want %q", i+1, p, inFlight, want)
		}
		res.landed = append(res.landed, fmt.Sprintf("%s @%v", p, at))
		t.Logf("stop %d at %v: %s; in flight: %q", i+1, at, p, inFlight)
	}

	st := s.waitRunEnd()
	t.Logf("the run ended %s after %v", st, time.Since(start).Round(time.Millisecond))
	c.mu.Lock()
	problems := slices.Clone(c.problems)
	for i, p := range sched {
		// A model request stopped in flight is asked again.
		if p.kind == atModel && c.asked[p.move] < 2 {
			problems = append(problems, fmt.Sprintf("stop %d (%s) landed after the reply: the request was not asked again", i+1, p))
		}
	}
	c.mu.Unlock()
	if len(problems) > 0 {
		harness("%s", strings.Join(problems, "; "))
	}
	fail := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		t.Error(msg)
		if res.verdict == "ok" {
			res.verdict = msg
		}
	}
	res.verdict = "ok"
	evs := c.snapshot()
	for _, e := range tk.effects {
		v, got := e.judge(run, evs)
		switch v {
		case "ok":
			continue
		case "doubled":
			res.doubled++
		case "lost":
			res.lost++
		}
		res.wrong = append(res.wrong, fmt.Sprintf("%s %s (%q)", e.name, v, clipText(got, 40)))
		fail("effect %s: %s, got %q", e.name, v, got)
	}
	if st != "done" {
		fail("the run ended %s", st)
	}
	want := tk.answer(tk.want(run))
	if answers := s.texts(".msg.assistant"); len(answers) != 1 || answers[0] != want {
		fail("answers in the panel: %q, want [%q]", answers, want)
	}
	transcript := evalIn[string](t, s.panel, `document.querySelector('#transcript').innerText`)
	if strings.Contains(transcript, "I stopped because I kept repeating") {
		fail("the loop detector stopped the run")
	}
	if len(sched) > 0 {
		if notices := strings.Join(s.texts(".msg.notice"), "\n"); !strings.Contains(notices, "resumed") {
			fail("no resumed notice; notices: %q", notices)
		}
	}
	if reqs := srv.Requests(); len(reqs) > 0 {
		for _, r := range labelledResults(reqs[len(reqs)-1]) {
			if kind, _ := splitLabel(r.label); kind == "step" && uncertain(r.content) {
				res.reports = append(res.reports, fmt.Sprintf("%s %s: %s", r.label, r.name, clipText(r.content, 160)))
			}
		}
	}
	if t.Failed() {
		var b strings.Builder
		for _, e := range evs {
			if e.ev != "keydown" && e.ev != "input" {
				fmt.Fprintf(&b, "%s %s %s %q; ", e.page, e.ev, e.target, clipText(e.value, 40))
			}
		}
		t.Logf("events (without keys and inputs): %s", b.String())
		t.Logf("uncertain results: %q", res.reports)
	}
}

// TestThreeStopsPerTask runs each task once without stops (the control)
// and once with three worker stops, and checks the run ends done with the
// page's answer, every effect exactly once.
func TestThreeStopsPerTask(t *testing.T) {
	start := time.Now()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("WEBBRAIN_STOPS_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("WEBBRAIN_STOPS_SEED: %v", err)
		}
		seed = n
	}
	scheds := schedule(seed, stopTasks)
	fmt.Printf("three stops: seed %d (replay with WEBBRAIN_STOPS_SEED=%d)\n", seed, seed)
	t.Logf("seed %d (replay with WEBBRAIN_STOPS_SEED=%d)", seed, seed)

	var control, stopped []*taskResult
	for i, tk := range stopTasks {
		name := strings.ReplaceAll(tk.name, " ", "_")
		cr := &taskResult{task: tk.name, verdict: "harness: did not finish"}
		control = append(control, cr)
		t.Run(name+"/control", func(t *testing.T) {
			cr.ran = true
			runTask(t, tk, nil, cr)
		})
		sr := &taskResult{task: tk.name, stops: 3, verdict: "harness: did not finish"}
		stopped = append(stopped, sr)
		var plan []string
		for _, p := range scheds[i] {
			plan = append(plan, p.String())
		}
		t.Run(name+"/three_stops", func(t *testing.T) {
			sr.ran = true
			t.Logf("stops: %s", strings.Join(plan, "; "))
			runTask(t, tk, scheds[i], sr)
		})
	}

	var b strings.Builder
	var right, ran, controlRight, controlRan, doubled, lost int
	for i, sr := range stopped {
		cr := control[i]
		if cr.ran {
			controlRan++
			if cr.verdict == "ok" {
				controlRight++
			}
		}
		if !sr.ran {
			continue
		}
		ran++
		if sr.verdict == "ok" {
			right++
		}
		doubled += sr.doubled
		lost += sr.lost
		ctl := "control not run"
		if cr.ran {
			ctl = fmt.Sprintf("control %s in %v", cr.verdict, cr.took.Round(100*time.Millisecond))
		}
		fmt.Fprintf(&b, "three stops %-11s %s in %v (%s)\n    stops: %s\n",
			sr.task+":", sr.verdict, sr.took.Round(100*time.Millisecond), ctl, strings.Join(sr.landed, "; "))
		if len(sr.wrong) > 0 {
			fmt.Fprintf(&b, "    effects: %s\n", strings.Join(sr.wrong, "; "))
		}
		if len(sr.reports) > 0 {
			fmt.Fprintf(&b, "    uncertain results: %s\n", strings.Join(sr.reports, "; "))
		}
	}
	hit := map[pointKind]int{}
	for _, s := range scheds {
		for _, p := range s {
			hit[p.kind]++
		}
	}
	var kinds []string
	for k := pointKind(0); k < pointKinds; k++ {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, hit[k]))
	}
	fmt.Fprintf(&b, "three stops: points hit: %s (seed %d)\n", strings.Join(kinds, ", "), seed)
	fmt.Fprintf(&b, "three stops: %d/%d tasks right with 3 stops each (control %d/%d without stops), %d doubled, %d lost effects (%s)\n",
		right, ran, controlRight, controlRan, doubled, lost, time.Since(start).Round(time.Second))
	t.Log("\n" + b.String())
	fmt.Print(b.String())
}
