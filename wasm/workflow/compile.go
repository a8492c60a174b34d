package workflow

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/secrets"
	"github.com/webbrain/webbrain/wasm/tools"
)

// Node is an element a tree line (or a result naming elements) showed.
type Node struct {
	Role     string
	Name     string
	Ref      string
	Password bool
}

// Nodes lists the elements text names, in order: the first
// `role "name" [ref_N] attrs` of each line of a tree or of a result that
// names elements the same way. Refs of frames (fN:ref_M) are not taken:
// a step inside a frame is not replayable. Hand-written rather than a
// regular expression, which would add its package to the module.
func Nodes(text string) []Node {
	var out []Node
	for _, line := range strings.Split(text, "\n") {
		for i := range len(line) {
			if n, ok := nodeAt(line, i); ok {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// nodeAt reads `role "name" [ref_N] attrs` from line[i:], where i starts
// the line or follows a space, ':', ',' or '('.
func nodeAt(line string, i int) (Node, bool) {
	if i > 0 && !strings.ContainsRune(" \t:,(", rune(line[i-1])) || line[i] < 'a' || line[i] > 'z' {
		return Node{}, false
	}
	j := i
	for j < len(line) && (line[j] >= 'a' && line[j] <= 'z' || line[j] >= '0' && line[j] <= '9' || line[j] == '-') {
		j++
	}
	if !strings.HasPrefix(line[j:], ` "`) {
		return Node{}, false
	}
	open := j + 1
	k := open + 1
	for k < len(line) && line[k] != '"' {
		if line[k] == '\\' {
			k++
		}
		k++
	}
	if k >= len(line) || !strings.HasPrefix(line[k+1:], " [ref_") {
		return Node{}, false
	}
	d := k + 1 + len(" [ref_")
	e := d
	for e < len(line) && line[e] >= '0' && line[e] <= '9' {
		e++
	}
	if e == d || e >= len(line) || line[e] != ']' {
		return Node{}, false
	}
	name, err := strconv.Unquote(line[open : k+1])
	if err != nil {
		return Node{}, false
	}
	return Node{Role: line[i:j], Name: strings.Join(strings.Fields(name), " "), Ref: "ref_" + line[d:e],
		Password: strings.Contains(line[e+1:], "type=password")}, true
}

// lastPage is the page the last "URL: " line of text reports, or "".
func lastPage(text string) string {
	page := ""
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, "URL: "); ok {
			if f := strings.Fields(rest); len(f) > 0 && strings.HasPrefix(rest, f[0]) {
				page = f[0]
			}
		}
	}
	return page
}

// Compile turns the newest successful turn of a conversation into a
// workflow (without id, name and times) and the warnings the user sees:
// steps that could not be kept. It fails when no turn qualifies.
func Compile(conv []llm.Message) (Workflow, error) {
	start, end := newestSuccess(conv)
	if start < 0 {
		return Workflow{}, fmt.Errorf("this tab's conversation has no successful run that acted on the page")
	}
	c := compiler{refs: map[string]Node{}, params: map[string]bool{}}
	user := conv[start].Content
	words, _, _ := strings.Cut(user, "\n\nThe user is on this page:\n")
	c.observe(user)
	results := map[string]llm.Message{}
	for _, m := range conv[start:end] {
		if m.Role == llm.RoleTool {
			results[m.ToolCallID] = m
		}
	}
	for _, m := range conv[start+1 : end] {
		switch m.Role {
		case llm.RoleAssistant:
			for _, call := range m.ToolCalls {
				res, ok := results[call.ID]
				c.step(call, res.Content, ok)
				if ok {
					c.observe(res.Content)
				}
			}
		}
	}
	if len(c.steps) == 0 {
		return Workflow{}, fmt.Errorf("the newest successful run has no page action that can be replayed%s", warnList(c.warnings))
	}
	goal := strings.TrimSpace(words)
	for _, v := range c.values {
		if v.value != "" {
			goal = strings.ReplaceAll(goal, v.value, "{"+v.param+"}")
		}
	}
	goal = secrets.Mask(goal, nil)
	if r := []rune(goal); len(r) > MaxGoal {
		goal = string(r[:MaxGoal])
	}
	return Workflow{Schema: Schema, Goal: goal, Params: c.declared, Steps: c.steps, Warnings: c.warnings}, nil
}

func warnList(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	return ": " + strings.Join(ws, "; ")
}

// newestSuccess finds the newest turn (from its user message to its end)
// that acted on the page and ended with an answer, not with a done call
// saying it failed: a question asked after the run does not hide it.
func newestSuccess(conv []llm.Message) (int, int) {
	end := len(conv)
	for i := len(conv) - 1; i >= 0; i-- {
		if !turnStart(conv, i) {
			continue
		}
		if succeeded(conv[i+1:end]) && acts(conv[i+1:end]) {
			return i, end
		}
		end = i
	}
	return -1, -1
}

// turnStart: a user message of the request, not a screenshot or note the
// agent added mid-turn (those follow tool results).
func turnStart(conv []llm.Message, i int) bool {
	if conv[i].Role != llm.RoleUser || len(conv[i].Images) > 0 {
		return false
	}
	prev := llm.Message{Role: llm.RoleSystem}
	if i > 0 {
		prev = conv[i-1]
	}
	return prev.Role == llm.RoleSystem || prev.Role == llm.RoleAssistant && len(prev.ToolCalls) == 0
}

func succeeded(turn []llm.Message) bool {
	if len(turn) == 0 {
		return false
	}
	for _, m := range turn {
		for _, call := range m.ToolCalls {
			if call.Name == protocol.ToolDone {
				var a struct {
					Status string `json:"status"`
				}
				_ = json.Unmarshal([]byte(call.Arguments), &a)
				return a.Status == "success"
			}
		}
	}
	last := turn[len(turn)-1]
	return last.Role == llm.RoleAssistant && len(last.ToolCalls) == 0 && strings.TrimSpace(last.Content) != ""
}

// acts reports whether a turn called a tool that changes the page.
func acts(turn []llm.Message) bool {
	for _, m := range turn {
		for _, call := range m.ToolCalls {
			if !tools.ReadOnly(call.Name) && call.Name != protocol.ToolDone {
				return true
			}
		}
	}
	return false
}

type typed struct{ param, value string }

type compiler struct {
	refs     map[string]Node // what the newest result naming each ref said
	page     string          // the tab's page as last reported
	steps    []Step
	declared []Param
	params   map[string]bool
	values   []typed
	warnings []string
}

// observe learns the elements and the page a message reports.
func (c *compiler) observe(text string) {
	for _, n := range Nodes(text) {
		c.refs[n.Ref] = n
	}
	if p := lastPage(text); p != "" {
		c.page = p
	}
}

// failed reports whether a result is an error or a refusal.
func failed(result string) bool {
	r := strings.TrimSpace(result)
	return strings.HasPrefix(r, "Error") || strings.HasPrefix(r, "The user declined") || strings.Contains(r, "It was not done.")
}

// step adds the step a call makes, or a warning when it is not kept.
func (c *compiler) step(call llm.ToolCall, result string, answered bool) {
	if tools.ReadOnly(call.Name) || call.Name == protocol.ToolDone {
		return
	}
	warn := func(why string) { c.warnings = append(c.warnings, fmt.Sprintf("%s skipped: %s", call.Name, why)) }
	if !answered || failed(result) {
		warn("it failed or did not run")
		return
	}
	var a map[string]any
	if err := json.Unmarshal([]byte(orEmpty(call.Arguments)), &a); err != nil {
		warn("its arguments were not readable")
		return
	}
	family := Family(c.page)
	if call.Name == protocol.ToolNavigate {
		u, _ := a["url"].(string)
		if dest := stripURL(u); dest != "" {
			c.steps = append(c.steps, Step{Action: ActNavigate, URL: dest, Family: family, Expect: "done"})
		} else {
			warn("its address is not a web page")
		}
		return
	}
	s := Step{Family: family}
	switch call.Name {
	case protocol.ToolClickAX, protocol.ToolClick:
		s.Action, s.Expect = ActClick, "done"
	case protocol.ToolTypeAX, protocol.ToolTypeText:
		s.Action, s.Expect = ActType, "value"
		s.Submit, _ = a["submit"].(bool)
	case protocol.ToolSetField:
		if b, ok := a["checked"].(bool); ok {
			s.Action, s.Checked, s.Expect = ActCheck, &b, "state"
		} else if _, ok := a["value"].(string); ok {
			s.Action, s.Expect = ActSelect, "state"
		} else {
			warn("only one value or a checked state can be replayed")
			return
		}
	default:
		warn("this action is not replayable")
		return
	}
	ref, _ := a["ref"].(string)
	n, ok := c.refs[ref]
	switch {
	case ref == "":
		warn("it named no element (coordinates or focus are not replayable)")
		return
	case !ok || n.Name == "":
		warn("the element had no role and name in the tree")
		return
	case family == "":
		warn("the page it ran on is unknown")
		return
	}
	s.Target = &Target{Role: n.Role, Name: secrets.Mask(n.Name, nil)}
	if s.Action == ActType || s.Action == ActSelect {
		key := "text"
		if s.Action == ActSelect {
			key = "value"
		}
		value, _ := a[key].(string)
		s.Param = c.declare(n)
		c.values = append(c.values, typed{s.Param, value})
	}
	if len(c.steps) < MaxSteps {
		c.steps = append(c.steps, s)
	}
}

// declare names a parameter after the field's label.
func (c *compiler) declare(n Node) string {
	base := slug(n.Name)
	name := base
	for i := 2; c.params[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	c.params[name] = true
	secret := n.Password || secretLabel(n.Name)
	c.declared = append(c.declared, Param{Name: name, Label: secrets.Mask(n.Name, nil), Secret: secret})
	return name
}

// secretLabel reports whether a field's label names a secret.
func secretLabel(label string) bool {
	l := strings.ToLower(label)
	for _, w := range []string{"password", "passcode", "passphrase", "otp", "one-time", "secret", "token", "cvv", "cvc", "security code", "card number"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	for _, w := range strings.FieldsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if w == "pin" {
			return true
		}
	}
	return false
}

func slug(label string) string {
	var b strings.Builder
	sep := false
	for _, r := range strings.ToLower(label) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if sep && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			sep = false
		} else {
			sep = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	if b.Len() == 0 {
		return "value"
	}
	return b.String()
}

func orEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return "{}"
	}
	return s
}
