package skills

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// withTools is a user skill whose manifest holds the given tools JSON.
func withTools(toolsJSON string) string {
	return "# Weather\n\nLook up the weather for a place the user names.\n\n```webbrain-tools\n{\"tools\": [" + toolsJSON + "]}\n```\n"
}

const forecastTool = `{"name": "get_forecast", "kind": "http", "readOnly": true, "method": "GET",
	"endpoint": "https://api.weather.example/v1/forecast/{city}?units=metric",
	"description": "Forecast for a city.",
	"parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1, "maximum": 7}}, "required": ["city"]}}`

func TestManifestParsesAndStaysOutOfTheInstructions(t *testing.T) {
	s, err := ParseUser("weather", withTools(forecastTool))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 1 || s.Tools[0].Name != "get_forecast" || s.Tools[0].Host() != "api.weather.example" {
		t.Fatalf("tools %+v", s.Tools)
	}
	if strings.Contains(s.Instructions, "webbrain-tools") || strings.Contains(s.Instructions, "endpoint") {
		t.Errorf("instructions carry the manifest: %q", s.Instructions)
	}
	if !s.Tools[0].PlainRead(false) {
		t.Error("a read-only GET is not a plain read")
	}
	spec := s.Tools[0].Spec(s)
	if !strings.Contains(spec.Description, "api.weather.example") || !json.Valid(spec.Parameters) {
		t.Errorf("spec %+v", spec)
	}
}

func TestManifestErrorsSayWhatIsWrong(t *testing.T) {
	swap := func(from, to string) string { return strings.Replace(forecastTool, from, to, 1) }
	cases := map[string]struct{ tools, want string }{
		"plain http":        {swap("https://api.weather.example", "http://api.weather.example"), "https://"},
		"loopback":          {swap("https://api.weather.example", "https://127.0.0.1"), "public hosts"},
		"private name":      {swap("https://api.weather.example", "https://nas.local"), "public hosts"},
		"custom port":       {swap("api.weather.example/v1", "api.weather.example:8443/v1"), "default port"},
		"credentials":       {swap("https://api", "https://me:pw@api"), "user name"},
		"unknown field":     {swap(`"readOnly": true`, `"readOnly": true, "cache": true`), "unknown field"},
		"bad kind":          {swap(`"kind": "http"`, `"kind": "ftp"`), "kind"},
		"bad method":        {swap(`"method": "GET"`, `"method": "DELETE"`), "method"},
		"builtin name":      {swap("get_forecast", "fetch_url"), "WebBrain's own tools"},
		"bad name":          {swap("get_forecast", "Get-Forecast"), "name"},
		"undeclared holder": {swap("{city}", "{town}"), "{town} is not a parameter"},
		"array param":       {swap(`"days": {"type": "integer", "minimum": 1, "maximum": 7}`, `"days": {"type": "array"}`), "type"},
		"required unknown":  {swap(`"required": ["city"]`, `"required": ["town"]`), "required"},
		"trusted results":   {swap(`"readOnly": true`, `"readOnly": true, "resultPolicy": "trusted"`), "resultPolicy"},
		"cookie header":     {swap(`"readOnly": true`, `"readOnly": true, "headers": {"Cookie": "a=b"}`), "cannot set Cookie"},
		"auth header":       {swap(`"readOnly": true`, `"readOnly": true, "headers": {"Authorization": "Bearer x"}`), "cannot set Authorization"},
		"secret header":     {swap(`"readOnly": true`, `"readOnly": true, "headers": {"X-Token": "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"}`), ""},
		"allowlist alone":   {swap(`"readOnly": true`, `"readOnly": true, "inputUrlAllowlist": ["youtube.com"]`), "needs inputUrlArg"},
		"tab arg not param": {swap(`"readOnly": true`, `"readOnly": true, "activeTabUrlArg": "page"`), "activeTabUrlArg"},
		"read-only job":     {swap(`"kind": "http"`, `"kind": "httpDownloadJob"`), "method"},
		"twice":             {forecastTool + "," + forecastTool, "twice"},
	}
	for name, c := range cases {
		_, err := ParseUser("weather", withTools(c.tools))
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not say %q", name, err, c.want)
		}
	}
	if _, err := ParseUser("weather", "# W\n\nText.\n\n```webbrain-tools\n{\"tools\": []}\n```\n"); err == nil {
		t.Error("an empty manifest was accepted")
	}
	if _, err := ParseUser("weather", "# W\n\nText.\n\n```webbrain-tools\n{\"tools\": [\n"); err == nil {
		t.Error("an unclosed manifest fence was accepted")
	}
}

func TestBuildFillsTheEndpointAndEscapes(t *testing.T) {
	s, err := ParseUser("weather", withTools(forecastTool))
	if err != nil {
		t.Fatal(err)
	}
	call, values, err := s.Tools[0].Build(`{"city": "São Paulo/../admin", "days": "3", "extra": "dropped"}`, "https://news.example/")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(call.URL)
	if u.Host != "api.weather.example" || u.EscapedPath() != "/v1/forecast/S%C3%A3o%20Paulo%2F..%2Fadmin" {
		t.Errorf("URL %s", call.URL)
	}
	if q := u.Query(); q.Get("units") != "metric" || q.Get("days") != "3" || q.Has("extra") {
		t.Errorf("query %v", q)
	}
	if call.Method != "GET" || call.Body != nil || len(values) != 2 {
		t.Errorf("call %+v values %v", call, values)
	}
	if _, _, err := s.Tools[0].Build(`{"days": 2}`, ""); err == nil || !strings.Contains(err.Error(), `"city"`) {
		t.Errorf("missing city: %v", err)
	}
}

func TestBuildPostsJSONAndChecksInputURLs(t *testing.T) {
	tool := `{"name": "read_transcript", "kind": "http", "readOnly": true, "method": "POST",
		"endpoint": "https://api.transcripts.example/v1/transcript", "activeTabUrlArg": "url", "inputUrlArg": "url",
		"inputUrlAllowlist": ["youtube.com"], "resultPolicy": "untrusted",
		"parameters": {"type": "object", "properties": {"url": {"type": "string"}, "lang": {"type": "string"}}, "required": []}}`
	s, err := ParseUser("transcripts", withTools(tool))
	if err != nil {
		t.Fatal(err)
	}
	tl := s.Tools[0]
	if tl.PlainRead(false) || !tl.PlainRead(true) {
		t.Error("a read-only POST is a plain read only in a packaged skill")
	}
	call, _, err := tl.Build(`{"lang": "en"}`, "https://www.youtube.com/watch?v=abc#t=10")
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]string
	if err := json.Unmarshal(call.Body, &body); err != nil || body["url"] != "https://www.youtube.com/watch?v=abc" || body["lang"] != "en" {
		t.Errorf("body %s (%v)", call.Body, err)
	}
	for _, bad := range []string{"https://evil.example/watch", "http://localhost/x", "file:///etc/passwd", "https://u:p@www.youtube.com/"} {
		if _, _, err := tl.Build(`{"url": "`+bad+`"}`, ""); err == nil {
			t.Errorf("input URL %s accepted", bad)
		}
	}
	if _, _, err := tl.Build(`{}`, "chrome://newtab/"); err == nil {
		t.Error("a non-web tab URL was used")
	}
}

func TestMastodonRuleTakesOnlyStatusPermalinks(t *testing.T) {
	tool := `{"name": "save_post", "kind": "http", "readOnly": true, "method": "POST", "endpoint": "https://api.media.example/v1/save",
		"inputUrlArg": "url", "inputUrlAllowlist": ["bsky.app", {"siteAdapter": "mastodon"}],
		"parameters": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]}}`
	s, err := ParseUser("media", withTools(tool))
	if err != nil {
		t.Fatal(err)
	}
	tl := s.Tools[0]
	for in, want := range map[string]struct{ url, verify string }{
		"https://mastodon.social/@alice/111222333?utm=x#top":          {"https://mastodon.social/@alice/111222333", ""},
		"https://social.example/@alice/111222333":                     {"https://social.example/@alice/111222333", "social.example"},
		"https://Social.Example/users/alice/statuses/42":              {"https://social.example/users/alice/statuses/42", "social.example"},
		"https://social.example/@alice@other.example/111222333?ref=1": {"https://social.example/@alice@other.example/111222333", "social.example"},
		"https://bsky.app/profile/alice.bsky.social/post/3k":          {"https://bsky.app/profile/alice.bsky.social/post/3k", ""},
	} {
		call, _, err := tl.Build(`{"url": "`+in+`"}`, "")
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		var body map[string]string
		_ = json.Unmarshal(call.Body, &body)
		if body["url"] != want.url || call.MastodonHost != want.verify {
			t.Errorf("%s: sent %q, verify %q; want %q, %q", in, body["url"], call.MastodonHost, want.url, want.verify)
		}
	}
	for _, bad := range []string{
		"https://social.example/@alice",                // a profile
		"https://social.example/tags/cats",             // a feed
		"https://social.example:8443/@alice/111222333", // a custom port
		"http://social.example/@alice/111222333",       // not https
		"https://me:pw@social.example/@alice/1",        // credentials
		"https://10.0.0.5/@alice/111222333",            // a local address
	} {
		if _, _, err := tl.Build(`{"url": "`+bad+`"}`, ""); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if _, err := ParseUser("media", withTools(strings.Replace(tool, `{"siteAdapter": "mastodon"}`, `{"siteAdapter": "pixelfed"}`, 1))); err == nil || !strings.Contains(err.Error(), "siteAdapter") {
		t.Errorf("an unknown site rule: %v", err)
	}
	if _, err := ParseUser("media", withTools(strings.Replace(tool, `{"siteAdapter": "mastodon"}`, `{"site": "mastodon"}`, 1))); err == nil {
		t.Error("a rule with an unknown field was accepted")
	}
}

func TestNameAndPathShapes(t *testing.T) {
	for s, want := range map[string]bool{"get_post": true, "abc": true, "ab": false, "Get": false, "1ab": false, "a-b-c": false, "a" + strings.Repeat("b", 47): true, "a" + strings.Repeat("b", 48): false} {
		if validToolName(s) != want {
			t.Errorf("validToolName(%q) = %v", s, !want)
		}
	}
	for s, want := range map[string]bool{"X-Api-Version": true, "": false, "X_Y": false, strings.Repeat("a", 65): false} {
		if validHeaderName(s) != want {
			t.Errorf("validHeaderName(%q) = %v", s, !want)
		}
	}
	for p, want := range map[string]bool{
		"/@alice/123": true, "/@alice@mas.to/123": true, "/users/alice/statuses/9": true,
		"/@alice/": false, "/@alice/12a": false, "/@/1": false, "/@a@/1": false, "/@a@h/1/x": false,
		"/users/alice/statuses/": false, "/users//statuses/1": false, "/users/alice/1": false, "/alice/1": false,
	} {
		if mastodonStatusPath(p) != want {
			t.Errorf("mastodonStatusPath(%q) = %v", p, !want)
		}
	}
	var names []string
	got := fillPlaceholders("/{a}/{{b_1}}/{}/{c-d}/{e", func(n string) string { names = append(names, n); return "<" + n + ">" })
	if got != "/<a>/{<b_1>}/{}/{c-d}/{e" || strings.Join(names, ",") != "a,b_1" {
		t.Errorf("fillPlaceholders = %q %v", got, names)
	}
}
