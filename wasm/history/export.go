package history

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/secrets"
)

// toolLineRunes bounds a tool call's line in the Markdown export.
const toolLineRunes = 160

// ExportInfo is the header of a Markdown export.
type ExportInfo struct {
	Version string // the exporting WebBrain's manifest version
	Site    string
	Title   string
	Now     time.Time
}

// Markdown renders a panel transcript (the tabChat:<tabId> record) for
// /export: the user's messages and the answers in full, each tool call on
// one line, and what became of each card; secrets masked.
func Markdown(transcript json.RawMessage, info ExportInfo) string {
	chat := transcriptItems(transcript)
	version := info.Version
	if version == "" {
		version = "unknown"
	}
	var b strings.Builder
	b.WriteString("# WebBrain conversation\n\n")
	if info.Title != "" {
		fmt.Fprintf(&b, "- Title: %s\n", secrets.Mask(clip.Line(info.Title, titleRunes), nil))
	}
	if info.Site != "" {
		fmt.Fprintf(&b, "- Site: %s\n", info.Site)
	}
	fmt.Fprintf(&b, "- Exported by WebBrain %s at %s\n", version, info.Now.UTC().Format(time.RFC3339))
	for _, it := range chat["items"].([]any) {
		m, ok := it.(map[string]any)
		if !ok || m["ephemeral"] == true {
			continue
		}
		if line := itemMarkdown(m); line != "" {
			b.WriteString("\n" + line + "\n")
		}
	}
	return b.String()
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func itemMarkdown(m map[string]any) string {
	text := strings.TrimSpace(str(m, "text"))
	switch str(m, "role") {
	case "user":
		if m["correction"] == true {
			return "**You (correction):** " + text
		}
		return "**You:** " + text
	case "assistant":
		label := map[string]string{"failed": " (not completed)", "partial": " (partly done)"}[str(m, "outcome")]
		return "**WebBrain" + label + ":**\n\n" + text
	case "tool":
		state := "running"
		if _, done := m["result"]; done {
			state = "done"
			if m["isError"] == true {
				state = "failed"
			}
		}
		return clip.Line(fmt.Sprintf("- Tool `%s` %s → %s", str(m, "name"), argSummary(str(m, "args")), state), toolLineRunes)
	case "clarify":
		answer := str(m, "answer")
		if answer == "" {
			answer = "(not answered)"
		}
		return fmt.Sprintf("- Question: %s → %s", clip.Line(text, toolLineRunes), answer)
	case "approval":
		return "- Approval card: " + clip.Line(text, toolLineRunes) + " → " + outcome(m)
	case "plan":
		return "- Plan review → " + outcome(m)
	case "plan-note":
		return "- Plan followed: " + clip.Line(text, toolLineRunes)
	case "error":
		return "> Error: " + text
	default:
		if text == "" {
			return ""
		}
		return "> " + clip.Line(text, 400)
	}
}

// outcome says how an approval or plan card ended.
func outcome(m map[string]any) string {
	d := str(m, "decision")
	switch {
	case d != "" && str(m, "reason") != "" && str(m, "reason") != "user":
		return d + " (" + str(m, "reason") + ")"
	case d != "":
		return d
	case m["expired"] == true:
		return "not answered"
	}
	return "pending"
}

// argSummary shows a tool call's arguments as name: value pairs, sorted.
func argSummary(raw string) string {
	var args map[string]any
	if json.Unmarshal([]byte(raw), &args) != nil {
		return clip.Line(raw, 80)
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v, _ := json.Marshal(args[k])
		parts = append(parts, k+": "+clip.Line(string(v), 40))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
