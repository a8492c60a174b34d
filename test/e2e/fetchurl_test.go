//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// In Ask mode the model reads a second fixture page with fetch_url, which
// the built extension fetches itself while the tab stays where it is. The
// fixture server is on 127.0.0.1: the same host as the tab is allowed, the
// same server under another name (localhost) is refused as a local address.
func TestFetchURLReadsAnotherPage(t *testing.T) {
	fixtures, err := url.Parse(env.fixtures.URL)
	if err != nil {
		t.Fatal(err)
	}
	page2 := env.fixtures.URL + "/page2.html?test=" + url.QueryEscape(t.Name())
	viaLocalhost := "http://localhost:" + fixtures.Port() + "/page2.html"
	var code string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		switch n {
		case 0:
			return callTool("fetch_url", map[string]any{"url": viaLocalhost})
		case 1:
			if r := lastToolResult(req); !strings.Contains(r, "local network") {
				return answer("SCRIPT FAILED: fetch_url of localhost was not refused: " + r)
			}
			return callTool("fetch_url", map[string]any{"url": page2})
		}
		r := lastToolResult(req)
		m := departureCode.FindStringSubmatch(r)
		if m == nil || !strings.Contains(r, "Title: Station Two") || !strings.Contains(r, "<untrusted_page_content_") {
			return answer("SCRIPT FAILED: fetch_url did not return page 2 as page content: " + r)
		}
		code = m[1]
		return answer("Page two says the departure code is " + code + ".")
	})
	s := openSession(t, "page1.html", srv, openAIChat)
	s.send("ask", "What departure code does the timetable page give?")

	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if got := s.text("#transcript .msg.assistant"); !strings.Contains(got, "ZEBRA-42") {
		t.Errorf("answer %q lacks page 2's departure code ZEBRA-42", got)
	}
	rows := s.toolRows()
	if len(rows) != 2 || rows[0].Tool != "fetch_url" || rows[1].Tool != "fetch_url" {
		t.Fatalf("tool rows %+v, want two fetch_url", rows)
	}
	if !rows[0].IsError || rows[1].IsError {
		t.Errorf("errors %v %v, want the localhost fetch refused and the same-host one read", rows[0].IsError, rows[1].IsError)
	}
	tabURL := evalIn[string](t, env.worker, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.url)`, s.tabID), chromedp.EvalAwaitPromise)
	if tabURL != s.pageURL {
		t.Errorf("tab URL %s after fetch_url, want it unchanged at %s", tabURL, s.pageURL)
	}
}

// In Chrome a redirect fetched with redirect "manual" is opaque: fetch_url
// lets the browser follow it and judges the URL that answered. A redirect
// within the tab's host is read; one to another local host returns
// nothing.
func TestFetchURLRedirectsInTheBrowser(t *testing.T) {
	fixtures, err := url.Parse(env.fixtures.URL)
	if err != nil {
		t.Fatal(err)
	}
	// The file server redirects a file's path with a trailing slash to the file.
	sameHost := env.fixtures.URL + "/page2.html/"
	toLocalhost := env.fixtures.URL + "/bounce?to=" + url.QueryEscape("http://localhost:"+fixtures.Port()+"/page2.html")
	var results []string
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Turn {
		if n > 0 {
			results = append(results, lastToolResult(req))
		}
		switch n {
		case 0:
			return callTool("fetch_url", map[string]any{"url": sameHost})
		case 1:
			return callTool("fetch_url", map[string]any{"url": toLocalhost})
		}
		return answer("done")
	})
	s := openSession(t, "page1.html", srv, openAIChat)
	s.send("ask", "Read the timetable page.")
	if got := s.waitRunEnd(); got != "done" {
		t.Fatalf("run status %q, want done", got)
	}
	if len(results) != 2 {
		t.Fatalf("results %q", results)
	}
	if r := results[0]; !strings.Contains(r, "ZEBRA-42") || !strings.Contains(r, "(redirected from "+sameHost+")") {
		t.Errorf("same-host redirect: %s", r)
	}
	if r := results[1]; !strings.Contains(r, "redirected to http://localhost:") || strings.Contains(r, "ZEBRA-42") {
		t.Errorf("redirect to localhost: %s", r)
	}
}
