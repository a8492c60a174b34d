package tools

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

func TestPrivateHostReadsURLsAsABrowserDoes(t *testing.T) {
	for raw, private := range map[string]bool{
		"http://127.0.0.1:8080/":            true,
		"http://example.com@127.0.0.1/":     true, // userinfo, then the real host
		"http://[::ffff:192.168.0.1]:81/":   true,
		"http://LOCALHOST./":                true,
		"http://2130706433/":                true,
		"http://0x7f.0x0.0x0.0x1/":          true,
		"http://10.0.0.0x1/":                true,
		"http://router/admin":               true,
		"http://100.100.100.100/":           true,
		"http://１２７.０.０.１/":                 true, // fullwidth, as a browser maps it
		"http://ｌｏｃａｌｈｏｓｔ:3000/":            true,
		"https://example.com/":              false,
		"https://127.0.0.1.nip.example/":    false, // a name: only a resolver can tell
		"https://user:pw@example.com:8443/": false,
		"http://[2001:4860:4860::8888]/":    false,
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := PrivateHost(u) != ""; got != private {
			t.Errorf("PrivateHost(%s) = %q, want private %v", raw, PrivateHost(u), private)
		}
	}
}

// opaqueFetcher behaves like a browser's fetch: a redirect fetched with
// RedirectManual comes back as status 0 without its location.
type opaqueFetcher struct{ platform.Fetcher }

func (f opaqueFetcher) Fetch(ctx context.Context, req *platform.Request) (*platform.Response, error) {
	resp, err := f.Fetcher.Fetch(ctx, req)
	if err == nil && req.Redirect == platform.RedirectManual && isRedirect(resp.Status) {
		return &platform.Response{Status: 0, URL: req.URL, Header: map[string]string{}, Body: resp.Body}, nil
	}
	return resp, err
}

// fakeResolver answers from a table; names not in it fail to resolve.
type fakeResolver struct {
	mu    sync.Mutex
	addrs map[string][]string
	asked []string
}

func (f *fakeResolver) Resolve(ctx context.Context, host string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, host)
	if a, ok := f.addrs[host]; ok {
		return a, nil
	}
	return nil, errors.New("NS_ERROR_UNKNOWN_HOST")
}

// redirectRig serves a fixed set of hosts through one local server and
// records every request by host and path.
func redirectRig(t *testing.T, tabURL string, routes map[string]string) (*fetchRig, func() []string) {
	var mu sync.Mutex
	var seen []string
	r := newFetchRig(t, protocol.ModeAct, tabURL, func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		seen = append(seen, req.Host+req.URL.Path)
		mu.Unlock()
		if to, ok := routes[req.Host+req.URL.Path]; ok {
			http.Redirect(w, req, to, http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "landed on "+req.Host+req.URL.Path)
	})
	return r, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

func TestFetchURLChecksEachRedirectBeforeFollowing(t *testing.T) {
	r, seen := redirectRig(t, "https://start.example/", map[string]string{
		"bounce.example/":   "http://127.0.0.1:9/admin",
		"meta.example/":     "http://169.254.169.254/latest/meta-data/",
		"decimal.example/":  "http://2130706433/",
		"file.example/":     "file:///etc/passwd",
		"moved.example/":    "http://new.example/here",
		"relative.example/": "/elsewhere",
		"named.example/":    "http://router/status",
	})
	for _, u := range []string{"http://bounce.example/", "http://meta.example/", "http://decimal.example/", "http://file.example/"} {
		got, err := r.fetch(context.Background(), map[string]any{"url": u})
		if err == nil || !strings.Contains(err.Error(), "redirected") {
			t.Errorf("%s: error %v, want a refused redirect\n%s", u, err, got)
		}
	}
	for _, s := range seen() {
		if !strings.HasSuffix(s, ".example/") {
			t.Errorf("a refused redirect target was requested: %s", s)
		}
	}

	got, err := r.fetch(context.Background(), map[string]any{"url": "http://moved.example/"})
	if err != nil || !strings.Contains(got, "URL: http://new.example/here (redirected from http://moved.example/)") || !strings.Contains(got, "landed on new.example/here") {
		t.Errorf("public redirect: %v\n%s", err, got)
	}
	got, err = r.fetch(context.Background(), map[string]any{"url": "http://relative.example/"})
	if err != nil || !strings.Contains(got, "landed on relative.example/elsewhere") {
		t.Errorf("relative redirect: %v\n%s", err, got)
	}

	// The user named the router: its redirect target may be read.
	_, err = r.fetch(context.Background(), map[string]any{"url": "http://named.example/"})
	if err == nil || !strings.Contains(err.Error(), "single-label") || !strings.Contains(err.Error(), "user") {
		t.Errorf("unnamed router: error %v", err)
	}
	r.d.AllowHosts([]string{"router"})
	got, err = r.fetch(context.Background(), map[string]any{"url": "http://named.example/"})
	if err != nil || !strings.Contains(got, "landed on router/status") {
		t.Errorf("named router: %v\n%s", err, got)
	}
}

func TestFetchURLBoundsRedirects(t *testing.T) {
	routes := map[string]string{}
	for i := range 10 {
		routes[fmt.Sprintf("loop.example/%d", i)] = fmt.Sprintf("/%d", i+1)
	}
	r, seen := redirectRig(t, "https://start.example/", routes)
	_, err := r.fetch(context.Background(), map[string]any{"url": "http://loop.example/0"})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d times", maxRedirects)) {
		t.Errorf("error %v, want the redirect limit", err)
	}
	if n := len(seen()); n != maxRedirects+1 {
		t.Errorf("%d requests, want %d", n, maxRedirects+1)
	}
}

// A redirect within the local app the tab shows is that app's own page.
func TestFetchURLFollowsRedirectsWithinTheTabsHost(t *testing.T) {
	r, _ := redirectRig(t, "", nil)
	u, _ := url.Parse(r.srv.URL)
	r.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/old" {
			http.Redirect(w, req, "/new", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "app page "+req.URL.Path)
	})
	got, err := r.fetch(context.Background(), map[string]any{"url": "http://" + u.Host + "/old"})
	if err != nil || !strings.Contains(got, "app page /new") {
		t.Errorf("%v\n%s", err, got)
	}
}

// In a browser the location of a manual redirect is hidden: fetch_url lets
// the browser follow and refuses content from a private final URL.
func TestFetchURLOpaqueRedirectsAreJudgedWhereTheyEnd(t *testing.T) {
	r, _ := redirectRig(t, "https://start.example/", map[string]string{
		"bounce.example/": "http://10.0.0.1/admin",
		"moved.example/":  "http://www.moved.example/",
	})
	r.d.p.Fetch = opaqueFetcher{r.d.p.Fetch}
	got, err := r.fetch(context.Background(), map[string]any{"url": "http://bounce.example/"})
	if err == nil || !strings.Contains(err.Error(), "redirected to http://10.0.0.1/admin") || strings.Contains(got, "landed") {
		t.Errorf("opaque redirect to a private host: %v\n%s", err, got)
	}
	got, err = r.fetch(context.Background(), map[string]any{"url": "http://moved.example/"})
	if err != nil || !strings.Contains(got, "landed on www.moved.example/") || !strings.Contains(got, "(redirected from http://moved.example/)") {
		t.Errorf("opaque public redirect: %v\n%s", err, got)
	}
}

func TestResolverRefusesNamesThatLeadInside(t *testing.T) {
	r, seen := redirectRig(t, "https://start.example/", map[string]string{
		"public.example/": "http://rebind.example/",
	})
	res := &fakeResolver{addrs: map[string][]string{
		"rebind.example": {"93.184.216.34", "10.0.0.7"},
		"public.example": {"93.184.216.34", "2606:2800:220:1::"},
		"v6.example":     {"fd12::1"},
	}}
	r.d.p.Resolve = res
	for _, c := range []struct{ url, want string }{
		{"http://rebind.example/", "rebind.example resolves to 10.0.0.7, a private network address"},
		{"http://v6.example/", "unique-local"},
		{"http://public.example/", "redirected to http://rebind.example/"},
	} {
		_, err := r.fetch(context.Background(), map[string]any{"url": c.url})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.url, err, c.want)
		}
	}
	if got := seen(); len(got) != 1 || got[0] != "public.example/" {
		t.Errorf("requests sent: %v, want only public.example/", got)
	}
	// A name the resolver cannot find is left to the browser's request.
	if got, err := r.fetch(context.Background(), map[string]any{"url": "http://unlisted.example/"}); err != nil || !strings.Contains(got, "landed on unlisted.example/") {
		t.Errorf("unresolved name: %v\n%s", err, got)
	}
	// Addresses are not looked up; the user may name a host that leads inside.
	res.asked = nil
	r.d.AllowHosts([]string{"rebind.example"})
	if _, err := r.fetch(context.Background(), map[string]any{"url": "http://rebind.example/"}); err != nil {
		t.Errorf("named host: %v", err)
	}
	for _, u := range []string{"http://8.8.8.8/", "http://0x08080808/"} {
		if _, err := r.fetch(context.Background(), map[string]any{"url": u}); err != nil {
			t.Errorf("public address %s: %v", u, err)
		}
	}
	if len(res.asked) != 0 {
		t.Errorf("looked up %v; named hosts and addresses need no lookup", res.asked)
	}
}

func TestNavigateRefusesPrivateHostsTheUserDidNotName(t *testing.T) {
	for _, u := range []string{"http://192.168.1.1/", "http://localhost:3000/", "http://router/", "http://2130706433/", "http://[fd00::1]/", "http://nas.home.arpa/"} {
		r := newRig(protocol.ModeAct, "mid")
		_, err := r.run("navigate", `{"url":`+jsonString(u)+`}`)
		if err == nil || !strings.Contains(err.Error(), "navigate: refused") || !strings.Contains(err.Error(), "user's own message") {
			t.Errorf("%s: error %v, want a refusal naming the user", u, err)
		}
		if len(r.tabs.navs) != 0 {
			t.Errorf("%s reached the tab", u)
		}
	}

	r := newRig(protocol.ModeAct, "mid")
	r.d.AllowHosts([]string{"http://localhost:3000/app", "192.168.1.1", " Router. "})
	for _, u := range []string{"http://localhost:3000/login", "http://192.168.1.1:8080/", "http://router/", "http://3232235777/"} {
		if _, err := r.run("navigate", `{"url":`+jsonString(u)+`}`); err != nil {
			t.Errorf("%s: %v though the user named it", u, err)
		}
	}
	if _, err := r.run("navigate", `{"url":"http://localhost:4000/"}`); err == nil {
		t.Error("localhost:4000 opened though the user named only port 3000")
	}

	// The tab already shows the local app: its other pages may be opened.
	r = newRig(protocol.ModeAct, "mid")
	r.tabs.tab.URL = "http://127.0.0.1:5173/"
	if _, err := r.run("navigate", `{"url":"http://127.0.0.1:5173/settings"}`); err != nil {
		t.Errorf("tab's own host: %v", err)
	}
}

func TestNavigateChecksResolvedAddresses(t *testing.T) {
	r := newRig(protocol.ModeAct, "mid")
	r.d.p.Resolve = &fakeResolver{addrs: map[string][]string{"rebind.example": {"127.0.0.1"}, "news.example": {"93.184.216.34"}}}
	if _, err := r.run("navigate", `{"url":"https://rebind.example/"}`); err == nil || !strings.Contains(err.Error(), "resolves to 127.0.0.1") {
		t.Errorf("error %v, want a refusal naming the address", err)
	}
	if _, err := r.run("navigate", `{"url":"https://news.example/"}`); err != nil {
		t.Error(err)
	}
	if len(r.tabs.navs) != 1 || r.tabs.navs[0] != "https://news.example/" {
		t.Errorf("navigations %v", r.tabs.navs)
	}
}

// The browser follows a navigation's redirects: a public URL that leads
// the tab to a private host is refused where it lands, and the tab goes
// back.
func TestNavigateSendsTheTabBackFromARedirectInside(t *testing.T) {
	r := newRig(protocol.ModeAct, "mid")
	r.tabs.redirect = map[string]string{"https://short.example/x": "http://192.168.0.1/admin", "https://short.example/y": "https://long.example/y"}
	_, err := r.run("navigate", `{"url":"https://short.example/x"}`)
	if err == nil || !strings.Contains(err.Error(), "led the tab to http://192.168.0.1/admin") || !strings.Contains(err.Error(), "sent back") {
		t.Errorf("error %v, want a refused landing", err)
	}
	if r.tabs.tab.URL != "https://shop.example/" {
		t.Errorf("tab left on %s", r.tabs.tab.URL)
	}
	if out, err := r.run("navigate", `{"url":"https://short.example/y"}`); err != nil || !strings.Contains(out, "URL: https://long.example/y") {
		t.Errorf("public redirect: %v\n%s", err, out)
	}
}
