//go:build firefox

package firefox

import (
	"net/url"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// rebindHost looks public by name; the profile's network.dns.localDomains
// makes Firefox resolve it to this computer, as a hostile DNS record would.
const rebindHost = "rebind.webbrain.test"

// fetch_url asks Firefox's dns.resolve before reading a name, and refuses
// one that leads to a private address, though its own fixture server
// (the tab's host) answers on that address. The user did not name the
// host, so the gate asks first; approving the card does not open the way
// inside.
func TestFetchURLRefusesANameThatResolvesInside(t *testing.T) {
	e := sharedEnv(t)
	fixture, err := url.Parse(e.fixtures.URL)
	if err != nil {
		t.Fatal(err)
	}
	target := "http://" + rebindHost + ":" + fixture.Port() + "/station2.html"
	var result string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n == 0 {
			return scenario.CallTool("fetch_url", map[string]any{"url": target})
		}
		result = scenario.LastToolResult(req)
		return scenario.Answer("done")
	})
	s := openSession(t, "station1.html", srv)
	s.Send("ask", "Read the timetable.")
	got, cards := scenario.AnswerCardsUntilEnd(t, s, func(string) string { return "approve" })
	if got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if len(cards) != 1 || !strings.Contains(cards[0], rebindHost) {
		t.Errorf("cards %q, want one asking to fetch from %s", cards, rebindHost)
	}
	if !strings.Contains(result, rebindHost+" resolves to") || strings.Contains(result, "OTTER-77") {
		t.Errorf("fetch_url result %q, want a refusal naming the resolved address", result)
	}
	rows := scenario.ToolRows(t, s)
	if len(rows) != 1 || !rows[0].IsError {
		t.Errorf("tool rows %+v, want one failed fetch_url", rows)
	}
}
