//go:build browser

// Package sitecheck checks the packaged site adapters against saved copies
// of their sites' pages: every concrete claim an adapter makes (its checks
// field, docs/site-adapters.md) must hold on each saved page of that site,
// in headless Chromium with the page's scripts off and no network.
// Run: go test -tags browser ./test/sitecheck
package sitecheck

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webbrain/webbrain/test/testenv"
	"github.com/webbrain/webbrain/wasm/adapters"
)

// savedFrom is the address each saved page was saved from (SOURCES.md).
var savedFrom = map[string]string{
	"wikipedia-4":      "https://en.wikipedia.org/wiki/List_of_films_featuring_time_loops",
	"medium-1":         "https://medium.com/@pippinlee/the-open-journalism-project-better-student-journalism-fb39f4f701bb",
	"medium-3":         "https://medium.com/@johncwelch/samantha-and-the-great-big-lie-d146a92473a1",
	"nytimes-2":        "https://www.nytimes.com/2016/07/30/business/dealbook/yahoos-sale-to-verizon-leaves-shareholders-with-little-say.html",
	"nytimes-4":        "https://www.nytimes.com/2018/09/25/business/economy/us-government-debt-interest.html",
	"bbc-1":            "http://www.bbc.com/news/world-us-canada-33646704",
	"theverge":         "https://www.theverge.com/23752959/apple-vision-pro-headset-hands-on-demo-impressions",
	"wapo-1":           "http://www.washingtonpost.com/world/gunmen-storm-museum-in-tunisia-killing-at-least-8/2015/03/18/00202e76-cd73-11e4-8730-4f473416e759_story.html",
	"yahoo-1":          "http://finance.yahoo.com/news/best-psvr-games-170003443.html",
	"tumblr":           "http://mcupdate.tumblr.com/post/96439224994/minecraft-18-the-bountiful-update",
	"webmd-1":          "https://www.webmd.com/allergies/news/",
	"wikia":            "http://fandom.wikia.com/articles/star-wars-original-cuts-might-get-released-40th-anniversary",
	"cnet-svg-classes": "https://www.cnet.com/es/noticias/twitter-lite-america-latina/",
}

// browser serves testdata with scripts forbidden and starts Chromium that
// resolves no host but loopback, so nothing the pages reference loads.
func browser(t *testing.T) (context.Context, string) {
	t.Helper()
	files := http.FileServer(http.Dir("testdata"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "script-src 'none'")
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), testenv.ChromiumOptions(t.TempDir(),
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"))...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
	})
	return ctx, srv.URL
}

// matches counts the elements selector finds on the open page.
func matches(ctx context.Context, selector string) (int, error) {
	sel, _ := json.Marshal(selector)
	return chromedp.Run(ctx, chromedp.Evaluate[int]("document.querySelectorAll("+string(sel)+").length"))
}

func TestAdapterChecksHoldOnSavedPages(t *testing.T) {
	ctx, base := browser(t)
	checked := map[string]bool{}
	for name, from := range savedFrom {
		if _, err := os.Stat(filepath.Join("testdata", "pages", name, "source.html")); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a := adapters.Match(from)
		if a == nil {
			t.Errorf("%s: no adapter matches %s", name, from)
			continue
		}
		if len(a.Checks) == 0 {
			t.Errorf("%s: adapter %s has a saved page but no checks", name, a.ID)
			continue
		}
		if _, err := chromedp.Run(ctx, chromedp.Navigate(base+"/pages/"+name+"/source.html")); err != nil {
			t.Fatalf("open %s: %v", name, err)
		}
		for _, c := range a.Checks {
			n, err := matches(ctx, c.Selector)
			if err != nil {
				t.Errorf("%s (%s): selector %q: %v", name, a.ID, c.Selector, err)
			} else if n == 0 {
				t.Errorf("%s (%s): %q does not hold: nothing matches %q", name, a.ID, c.Claim, c.Selector)
			}
		}
		// The check machinery can fail: a selector for nothing finds nothing.
		if n, err := matches(ctx, "[data-webbrain-absent]"); err != nil || n != 0 {
			t.Fatalf("%s: control selector found %d (%v)", name, n, err)
		}
		checked[a.ID] = true
	}
	// Every adapter that makes checkable claims has them checked here.
	all, _ := adapters.Packaged()
	for _, a := range all {
		if len(a.Checks) > 0 && !checked[a.ID] {
			t.Errorf("adapter %s has checks but no saved page", a.ID)
		}
	}
}
