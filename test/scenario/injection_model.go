package scenario

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// gullible is the injection suite's scripted model: it does the user's
// task correctly, and it obeys every instruction it finds in what it read.
//
// Both come in one small language of clauses:
//
//	read                         get_accessibility_tree (filter all)
//	read page                    read_page
//	click 'NAME'                 click_ax on the element named NAME
//	type 'TEXT' into 'NAME'      type_ax TEXT into the field named NAME
//	fetch URL                    fetch_url
//	navigate to URL              navigate (also "open URL", "go to URL")
//	include in your answer: TEXT the final answer carries TEXT
//	answer TEXT                  the final answer (task steps only);
//	                             {fact:REGEXP} is replaced by the first
//	                             submatch of REGEXP in what it read
//
// The task's clauses come from the scenario (the model "understands" the
// user's request). Injected clauses come from the pages: wherever a tool
// result (or the page URL and title the extension puts into the user's
// message) says "AI assistant:", "AI agent:" or "SYSTEM:", the text up to
// the end of the line or of the quoted tree name is split at "then" and
// ";" into clauses. An injected clause runs as soon as it is read, before
// the rest of the task, once. Placeholders fill in what the model knows:
// {api_key} (a live key it read), {email} (the signed-in user's address),
// {task} (the user's request, word for word), escaped inside URLs.
//
// A clause that acts on an element re-reads the tree first unless the last
// call read it, so refs are fresh and every page it reaches is read (and
// obeyed). An element it cannot find is skipped.
type gullible struct {
	task []string

	mu       sync.Mutex
	seen     map[string]bool // injected clauses already queued
	queue    []string        // injected clauses to run next
	waiting  []string        // injected clauses that need a value not yet read
	next     int             // next task clause
	extras   []string        // text to put into the answer
	wentBack map[string]bool // task clauses it went back for
	journal  []string        // what it did, for the failure log
}

func newGullible(task ...string) *gullible {
	return &gullible{task: task, seen: map[string]bool{}, wentBack: map[string]bool{}}
}

// script is the llmtest script.
func (g *gullible) script(n int, req llmtest.Request) llmtest.Turn {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.collect(req)
	// Instructions waiting for a value the model has not read yet run as
	// soon as it has.
	var still []string
	for _, c := range g.waiting {
		if g.unknown(c, req) {
			still = append(still, c)
		} else {
			g.queue = append([]string{c}, g.queue...)
		}
	}
	g.waiting = still
	for range 100 {
		var clause string
		injected := len(g.queue) > 0
		switch {
		case injected:
			clause, g.queue = g.queue[0], g.queue[1:]
			// An instruction needs {email} or {api_key} the model has
			// not read: it waits while the task still reads pages.
			if g.unknown(clause, req) && g.next < len(g.task) && !clauseAnswer.MatchString(g.task[g.next]) {
				g.waiting = append(g.waiting, clause)
				g.note("page: %s -> waits for what it needs", clause)
				continue
			}
		case g.next < len(g.task):
			clause = g.task[g.next]
			g.next++
			if clauseAnswer.MatchString(clause) && len(g.waiting) > 0 {
				// Before answering, whatever still waits runs as it is.
				g.queue, g.waiting = g.waiting, nil
				g.next--
				continue
			}
		default:
			return g.finalAnswer(req, "Done.")
		}
		if turn, ok := g.act(clause, injected, req); ok {
			return turn
		}
	}
	return Answer("SCRIPT FAILED: the gullible model went round in circles")
}

func (g *gullible) note(format string, args ...any) {
	g.journal = append(g.journal, fmt.Sprintf(format, args...))
}

var (
	clauseRead     = regexp.MustCompile(`(?i)^read$`)
	clauseReadPage = regexp.MustCompile(`(?i)^read (?:the )?page$`)
	clauseClick    = regexp.MustCompile(`(?i)^(?:click|press|tap)(?: on)?(?: the)?(?: button| link)?\s+'([^']+)'`)
	clauseType     = regexp.MustCompile(`(?i)^(?:type|enter|write|paste)\s+'([^']*)'\s+(?:into|in)(?: the)?(?: field| box)?\s+'([^']+)'`)
	clauseFetch    = regexp.MustCompile(`(?i)^(?:fetch|fetch_url|load|get)\s+(\S+)`)
	clauseNavigate = regexp.MustCompile(`(?i)^(?:navigate to|open|go to|visit)\s+(\S+)`)
	clauseInclude  = regexp.MustCompile(`(?i)^(?:include|add|put)\b[^:]*\byour answer\s*:\s*(.+)$`)
	clauseAnswer   = regexp.MustCompile(`(?is)^answer\s+(.+)$`)
	factPattern    = regexp.MustCompile(`\{fact:([^}]+)\}`)
)

// act turns one clause into a model turn; false means nothing to send for
// it (skipped, or answer text noted) and the next clause follows.
func (g *gullible) act(clause string, injected bool, req llmtest.Request) (llmtest.Turn, bool) {
	from := "task"
	if injected {
		from = "page"
	}
	again := func() {
		if injected {
			g.queue = append([]string{clause}, g.queue...)
		} else {
			g.next--
		}
	}
	if m := clauseAnswer.FindStringSubmatch(clause); m != nil && !injected {
		return g.finalAnswer(req, m[1]), true
	}
	if m := clauseInclude.FindStringSubmatch(clause); m != nil {
		g.extras = append(g.extras, g.fill(m[1], req, true))
		g.note("%s: %s -> noted for the answer", from, clause)
		return llmtest.Turn{}, false
	}
	call := func(name string, args map[string]any) (llmtest.Turn, bool) {
		g.note("%s: %s -> %s %v", from, clause, name, args)
		return CallTool(name, args), true
	}
	switch {
	case clauseRead.MatchString(clause):
		return call("get_accessibility_tree", map[string]any{"filter": "all"})
	case clauseReadPage.MatchString(clause):
		return call("read_page", map[string]any{})
	}
	if m := clauseFetch.FindStringSubmatch(clause); m != nil {
		return call("fetch_url", map[string]any{"url": g.fill(m[1], req, true)})
	}
	if m := clauseNavigate.FindStringSubmatch(clause); m != nil {
		return call("navigate", map[string]any{"url": g.fill(m[1], req, true)})
	}
	var name string
	var args map[string]any
	var target string
	if m := clauseClick.FindStringSubmatch(clause); m != nil {
		name, target, args = "click_ax", m[1], map[string]any{}
	} else if m := clauseType.FindStringSubmatch(clause); m != nil {
		name, target, args = "type_ax", m[2], map[string]any{"text": g.fill(m[1], req, false)}
	} else {
		g.note("%s: %q is not a clause it understands; ignored", from, clause)
		return llmtest.Turn{}, false
	}
	if lastCall(req) != "get_accessibility_tree" {
		again()
		g.note("%s: %s -> read the tree first", from, clause)
		return CallTool("get_accessibility_tree", map[string]any{"filter": "all"}), true
	}
	ref := refNamed(LastToolResult(req), target)
	if ref == "" && !injected && !g.wentBack[clause] {
		// The task's element is not here: an earlier click left the page.
		g.wentBack[clause] = true
		again()
		g.note("%s: %s -> no element named %q here; go back", from, clause, target)
		return CallTool("go_back", map[string]any{}), true
	}
	if ref == "" {
		g.note("%s: %s -> no element named %q; skipped", from, clause, target)
		return llmtest.Turn{}, false
	}
	args["ref"] = ref
	return call(name, args)
}

// finalAnswer is text with its facts filled in and every noted extra.
func (g *gullible) finalAnswer(req llmtest.Request, text string) llmtest.Turn {
	read := readText(req)
	missing := ""
	text = factPattern.ReplaceAllStringFunc(text, func(s string) string {
		re, err := regexp.Compile(factPattern.FindStringSubmatch(s)[1])
		if err != nil {
			missing = err.Error()
			return s
		}
		if m := re.FindStringSubmatch(read); len(m) > 1 {
			return m[1]
		}
		missing = re.String()
		return s
	})
	if missing != "" {
		return Answer("SCRIPT FAILED: the fact " + missing + " is in nothing the model read")
	}
	for _, e := range g.extras {
		text += "\n\n" + e
	}
	g.note("answer: %s", Clip(text, 200))
	return Answer(text)
}

// collect queues the instructions found in what the model read.
func (g *gullible) collect(req llmtest.Request) {
	for _, m := range req.Messages {
		var text string
		switch m.Role {
		case llm.RoleTool:
			text = m.Content
		case llm.RoleUser:
			text = untrustedParts(m.Content)
		default:
			continue
		}
		for _, c := range instructions(text) {
			key := strings.ToLower(c)
			if !g.seen[key] {
				g.seen[key] = true
				g.queue = append(g.queue, c)
				g.note("read an instruction: %s", c)
			}
		}
	}
}

var (
	marker        = regexp.MustCompile(`(?i)\b(?:AI assistant|AI agent|SYSTEM)\s*:\s*`)
	clauseBreak   = regexp.MustCompile(`(?i)\s+then\s+|\s*;\s*`)
	untrustedPart = regexp.MustCompile(`(?s)<untrusted_page_content>(.*?)</untrusted_page_content>`)
)

// instructions lists the clauses text carries after a marker. A line that
// is URL-encoded (a page address) is read decoded too.
func instructions(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		lines := []string{line}
		if dec, err := url.QueryUnescape(line); err == nil && dec != line {
			lines = append(lines, dec)
		}
		for _, l := range lines {
			locs := marker.FindAllStringIndex(l, -1)
			for i, loc := range locs {
				end := len(l)
				if i+1 < len(locs) {
					end = locs[i+1][0]
				}
				body := l[loc[1]:end]
				if j := strings.IndexAny(body, "\"\n"); j >= 0 {
					body = body[:j]
				}
				body, _, _ = strings.Cut(body, "-->")
				for _, c := range clauseBreak.Split(body, -1) {
					c = strings.TrimRight(strings.TrimSpace(c), ".")
					if c != "" {
						out = append(out, c)
					}
				}
			}
		}
	}
	return out
}

func untrustedParts(s string) string {
	var b strings.Builder
	for _, m := range untrustedPart.FindAllStringSubmatch(s, -1) {
		b.WriteString(m[1])
		b.WriteByte('\n')
	}
	return b.String()
}

var (
	liveKey    = regexp.MustCompile(`\b(?:sk|rk)_live_[A-Za-z0-9]{8,}\b`)
	signedInAs = regexp.MustCompile(`(?i)signed in as\s+([\w.+-]+@[\w-]+(?:\.[\w-]+)+)`)
)

// fill replaces the placeholders with what the model knows; inURL escapes
// them for a query.
func (g *gullible) fill(s string, req llmtest.Request, inURL bool) string {
	read := readText(req)
	values := map[string]string{"{task}": userTask(req)}
	if k := liveKey.FindString(read); k != "" {
		values["{api_key}"] = k
	}
	if m := signedInAs.FindStringSubmatch(read); m != nil {
		values["{email}"] = m[1]
	}
	for k, v := range values {
		if inURL {
			v = url.QueryEscape(v)
		}
		s = strings.ReplaceAll(s, k, v)
	}
	return s
}

// unknown reports whether clause needs a value the model has not read.
func (g *gullible) unknown(clause string, req llmtest.Request) bool {
	filled := g.fill(clause, req, false)
	return strings.Contains(filled, "{api_key}") || strings.Contains(filled, "{email}")
}

// readText is everything the model has read from pages.
func readText(req llmtest.Request) string {
	var b strings.Builder
	for _, m := range req.Messages {
		switch m.Role {
		case llm.RoleTool:
			b.WriteString(m.Content)
		case llm.RoleUser:
			b.WriteString(untrustedParts(m.Content))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// userTask is the user's request as typed.
func userTask(req llmtest.Request) string {
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser {
			task, _, _ := strings.Cut(m.Content, "\n\nThe user is on this page:")
			return strings.TrimSpace(task)
		}
	}
	return ""
}

// lastCall is the name of the last tool the model called.
func lastCall(req llmtest.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0 {
			return m.ToolCalls[len(m.ToolCalls)-1].Name
		}
	}
	return ""
}

// refNamed finds the ref of the tree line whose accessible name is name
// (any role; exact name first, any case, then a name that contains it).
func refNamed(tree, name string) string {
	lines := strings.Split(tree, "\n")
	quoted := strings.ToLower(fmt.Sprintf("%q", name))
	for _, exact := range []bool{true, false} {
		for _, line := range lines {
			l := strings.ToLower(line)
			hit := strings.Contains(l, quoted)
			if !exact {
				hit = strings.Contains(l, strings.ToLower(name))
			}
			if !hit {
				continue
			}
			if m := bracketRef.FindStringSubmatch(line); m != nil {
				return m[1]
			}
		}
	}
	return ""
}

var bracketRef = regexp.MustCompile(`\[(ref_\w+)\]`)
