//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/runtime"
)

// consoleLog collects what a target writes to its console and its uncaught
// exceptions, for failure diagnostics.
type consoleLog struct {
	mu    sync.Mutex
	lines []string
}

// listen is a chromedp listener: it runs in the target's event loop, so it
// only formats and appends.
func (l *consoleLog) listen(ev any) {
	var line string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		parts := make([]string, 0, len(ev.Args))
		for _, a := range ev.Args {
			parts = append(parts, remoteText(a))
		}
		line = fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(parts, " "))
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + remoteText(d.Exception)
		}
		line = fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, text)
	default:
		return
	}
	l.mu.Lock()
	l.lines = append(l.lines, line)
	l.mu.Unlock()
}

// mark returns a position; since(mark) returns what came after it.
func (l *consoleLog) mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}

func (l *consoleLog) since(mark int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if mark > len(l.lines) {
		return nil
	}
	return append([]string(nil), l.lines[mark:]...)
}

func remoteText(o *runtime.RemoteObject) string {
	switch {
	case o == nil:
		return ""
	case o.Description != "":
		return o.Description
	case len(o.Value) > 0:
		return strings.Trim(string(o.Value), `"`)
	case o.UnserializableValue != "":
		return string(o.UnserializableValue)
	}
	return string(o.Type)
}
