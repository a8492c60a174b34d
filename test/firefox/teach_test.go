//go:build firefox

package firefox

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/webbrain/webbrain/test/scenario"
)

// perform sends WebDriver BiDi input actions to the fixture tab: events the
// page sees as trusted.
func (s *session) perform(t testing.TB, actions ...map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.env.ff.bidi.call(ctx, "input.performActions", map[string]any{"context": s.page, "actions": actions}, nil); err != nil {
		t.Fatalf("input.performActions: %v", err)
	}
}

// UserClick implements scenario.UserInput: a mouse click in the middle of
// the element.
func (s *session) UserClick(t testing.TB, css string) {
	t.Helper()
	var pt struct{ X, Y float64 }
	if err := s.Eval(scenario.Page, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
		return {x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2)}; })()`, css), &pt); err != nil {
		t.Fatalf("find %s: %v", css, err)
	}
	s.perform(t, map[string]any{"type": "pointer", "id": "mouse", "parameters": map[string]any{"pointerType": "mouse"},
		"actions": []map[string]any{
			{"type": "pointerMove", "x": int(pt.X), "y": int(pt.Y), "origin": "viewport"},
			{"type": "pointerDown", "button": 0},
			{"type": "pointerUp", "button": 0},
		}})
}

// UserType implements scenario.UserInput: a click into the element, then
// a key press per character.
func (s *session) UserType(t testing.TB, css, text string) {
	t.Helper()
	s.UserClick(t, css)
	var keys []map[string]any
	for _, r := range text {
		keys = append(keys, map[string]any{"type": "keyDown", "value": string(r)}, map[string]any{"type": "keyUp", "value": string(r)})
	}
	s.perform(t, map[string]any{"type": "key", "id": "keyboard", "actions": keys})
}

func TestTeachRecordedAndReplayed(t *testing.T) {
	scenario.TeachRecordedAndReplayed(t, firefoxDriver{})
}

func TestTeachFollowsSinglePageNavigation(t *testing.T) {
	scenario.TeachFollowsSinglePageNavigation(t, firefoxDriver{})
}
