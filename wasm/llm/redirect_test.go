package llm_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	. "github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/platform/nativefetch"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// opaque hides a manual redirect's status and location, as a browser does.
type opaque struct{ platform.Fetcher }

func (f opaque) Fetch(ctx context.Context, req *platform.Request) (*platform.Response, error) {
	resp, err := f.Fetcher.Fetch(ctx, req)
	if err == nil && req.Redirect == platform.RedirectManual && resp.Status >= 300 && resp.Status < 400 {
		resp.Status, resp.Header = 0, map[string]string{}
	}
	return resp, err
}

// A provider request carries the API key: a redirect is reported, never
// followed, whether or not the runtime shows where it pointed.
func TestProviderRedirectIsNeverFollowed(t *testing.T) {
	var followed atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/elsewhere") {
			followed.Add(1)
			return
		}
		http.Redirect(w, r, "/elsewhere"+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	const key = "sk-0123456789abcdef"
	for _, c := range []struct {
		name  string
		fetch platform.Fetcher
		want  string
	}{
		{"native", nativefetch.Fetcher{}, "redirect to /elsewhere/v1/chat/completions"},
		{"browser", opaque{nativefetch.Fetcher{}}, "answered with a redirect."},
	} {
		p, err := New(Config{Kind: protocol.KindOpenAIChat, Name: "Remote", BaseURL: srv.URL + "/v1", APIKey: key, Model: "m"}, c.fetch)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Chat(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindConfig || e.Retryable || !strings.Contains(e.Message, c.want) || !strings.Contains(e.Message, "base URL") || strings.Contains(e.Message, key) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if n := followed.Load(); n != 0 {
		t.Errorf("the redirect was followed %d times", n)
	}
}
