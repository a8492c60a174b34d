//go:build e2e

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/scenario"
)

// UserClick implements scenario.UserInput: a click through the debugger's
// input events, which the page sees as trusted.
func (s *session) UserClick(t testing.TB, css string) {
	t.Helper()
	if err := chromedp.Do(s.page, chromedp.Click(chromedp.CSS(css))); err != nil {
		t.Fatalf("click %s in the page: %v", css, err)
	}
}

// UserType implements scenario.UserInput: key events into the element.
func (s *session) UserType(t testing.TB, css, text string) {
	t.Helper()
	if err := chromedp.Do(s.page, chromedp.SendKeys(chromedp.CSS(css), text)); err != nil {
		t.Fatalf("type into %s in the page: %v", css, err)
	}
}

func TestTeachRecordedAndReplayed(t *testing.T) { scenario.TeachRecordedAndReplayed(t, chrome{}) }

func TestTeachFollowsSinglePageNavigation(t *testing.T) {
	scenario.TeachFollowsSinglePageNavigation(t, chrome{})
}
