package nativefetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/webbrain/webbrain/wasm/platform"
)

func TestRedirectModes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/from" {
			http.Redirect(w, r, "/to", http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	f := Fetcher{}
	get := func(mode string) (*platform.Response, error) {
		return f.Fetch(context.Background(), &platform.Request{URL: srv.URL + "/from", Redirect: mode})
	}
	resp, err := get(platform.RedirectFollow)
	if err != nil || resp.Status != http.StatusNoContent || resp.URL != srv.URL+"/to" {
		t.Errorf("follow: %v %+v", err, resp)
	}
	resp, err = get(platform.RedirectManual)
	if err != nil || resp.Status != http.StatusFound || resp.Header["location"] != "/to" || resp.URL != srv.URL+"/from" {
		t.Errorf("manual: %v %+v", err, resp)
	}
	if resp, err := get(platform.RedirectError); err == nil {
		t.Errorf("error mode followed or returned the redirect: %+v", resp)
	}
}
