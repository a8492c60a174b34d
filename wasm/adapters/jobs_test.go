package adapters

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestJobBindingResolvesAgainstTheLiveAdapter(t *testing.T) {
	gh := Match("https://github.com/acme/tool/issues")
	if gh == nil || gh.Workflow == nil {
		t.Fatal("github has no workflow")
	}
	b := Bind(gh, "create-issue", "https://github.com/acme/tool")
	if b == nil || b.Adapter != "github" || b.Revision != gh.Revision || b.Job.Evidence.URLPath == "" {
		t.Fatalf("binding %+v", b)
	}
	// An id of another adapter, an unknown id, no adapter: nothing binds.
	slack := Match("https://app.slack.com/client/T1/C1")
	for _, c := range []struct {
		a   *Adapter
		id  string
		url string
	}{
		{gh, "send-message", "https://github.com/acme/tool"},
		{gh, "Create-Issue", "https://github.com/acme/tool"},
		{gh, "", "https://github.com/acme/tool"},
		{nil, "create-issue", "https://github.com/acme/tool"},
		{slack, "send-message", "https://app.slack.com/admin"}, // outside the job's paths
		{slack, "create-issue", "https://app.slack.com/client/T1/C1"},
	} {
		if b := Bind(c.a, c.id, c.url); b != nil {
			t.Errorf("Bind(%v, %q, %q) = %+v", c.a != nil, c.id, c.url, b)
		}
	}
	if b := Bind(slack, "send-message", "https://app.slack.com/client/T1/C1"); b == nil || !b.Job.Evidence.Recipient {
		t.Errorf("slack binding %+v", b)
	}
}

func TestEvidencePathPatterns(t *testing.T) {
	cases := []struct {
		pat, path string
		want      bool
	}{
		{"/*/*/issues/#", "/acme/tool/issues/42", true},
		{"/*/*/issues/#", "/acme/tool/issues/new", false},
		{"/*/*/issues/#", "/acme/tool/issues", false},
		{"/*/*/issues/#", "/acme/tool/issues/42/extra", false},
		{"/**/-/issues/#", "/group/sub/project/-/issues/7", true},
		{"/**/-/issues/#", "/-/issues/7", true},
		{"", "/anything", true},
	}
	for _, c := range cases {
		if got := (Evidence{URLPath: c.pat}).MatchesPath(c.path); got != c.want {
			t.Errorf("%q on %q = %v", c.pat, c.path, got)
		}
	}
}

func TestWorkflowValidation(t *testing.T) {
	job := func(extra string) string {
		return `{"id":"j","name":"J","revision":1,"match":[{"host":"j.test"}],"notes":"n","workflow":` + extra + `}`
	}
	good := `{"format":"webbrain-adapter-workflow/2","jobs":[{"id":"send","description":"Send one.","steps":["Send it."],"evidence":{"dispatch":"send","recipient":true}}]}`
	bad := map[string]string{
		"format":   `{"format":"webbrain-adapter-workflow/1","jobs":[{"id":"send","description":"d","steps":["s"],"evidence":{"dispatch":"send","notice":true}}]}`,
		"nojobs":   `{"format":"webbrain-adapter-workflow/2","jobs":[]}`,
		"dispatch": `{"format":"webbrain-adapter-workflow/2","jobs":[{"id":"send","description":"d","steps":["s"],"evidence":{"dispatch":"buy","notice":true}}]}`,
		"proof":    `{"format":"webbrain-adapter-workflow/2","jobs":[{"id":"send","description":"d","steps":["s"],"evidence":{"dispatch":"send"}}]}`,
		"steps":    `{"format":"webbrain-adapter-workflow/2","jobs":[{"id":"send","description":"d","steps":[],"evidence":{"dispatch":"send","notice":true}}]}`,
		"jobid":    `{"format":"webbrain-adapter-workflow/2","jobs":[{"id":"Send Now","description":"d","steps":["s"],"evidence":{"dispatch":"send","notice":true}}]}`,
		"repeat":   `{"format":"webbrain-adapter-workflow/2","jobs":[{"id":"a","description":"d","steps":["s"],"evidence":{"dispatch":"send","notice":true}},{"id":"a","description":"d","steps":["s"],"evidence":{"dispatch":"send","notice":true}}]}`,
	}
	fsys := fstest.MapFS{"j.json": {Data: []byte(job(good))}}
	if all, err := Load(fsys.ReadFile, []string{"j"}); err != nil || len(all) != 1 {
		t.Fatalf("good workflow: %v", err)
	}
	for name, w := range bad {
		fsys := fstest.MapFS{"j.json": {Data: []byte(job(w))}}
		if _, err := Load(fsys.ReadFile, []string{"j"}); err == nil || !strings.Contains(err.Error(), "workflow") {
			t.Errorf("%s: %v", name, err)
		}
	}
	msg := `{"id":"m","name":"M","revision":1,"match":[{"host":"m.test"}],"notes":"n","messaging":{"verifyActiveRecipient":false}}`
	if _, err := Load(fstest.MapFS{"m.json": {Data: []byte(msg)}}.ReadFile, []string{"m"}); err == nil {
		t.Error("a messaging policy that verifies nothing was accepted")
	}
}

func TestMessagingRoutes(t *testing.T) {
	for u, want := range map[string]bool{
		"https://www.douyin.com/chat":                   true,
		"https://www.douyin.com/chat/123":               true,
		"https://www.douyin.com/video/1":                false,
		"https://web.whatsapp.com/":                     true,
		"https://app.slack.com/client/T1/C1":            true,
		"https://www.linkedin.com/messaging/t/1":        true,
		"https://www.linkedin.com/feed/":                false,
		"https://x.com/messages/1-2":                    true,
		"https://bsky.app/messages/abc":                 true,
		"https://bsky.app/profile/someone":              false,
		"https://www.facebook.com/messages/t/1":         true,
		"https://www.messenger.com/t/1":                 true,
		"https://mail.google.com/mail/u/0/":             false, // mail: the To field is checked instead
		"https://chat.google.com/room/AAA":              true,
		"https://mail.google.com/chat/u/0/#chat/dm/abc": true,
		"https://www.snapchat.com/web/abc":              true,
		"https://web.snapchat.com/":                     true,
		"https://www.snapchat.com/add/someone":          false,
		"https://vk.com/im/convo/1":                     true,
		"https://vk.com/feed":                           false,
		"https://chatgpt.com/c/abc":                     false, // an AI chat has no recipient
		"https://mail.proton.me/u/0/inbox":              false,
		"https://example.org/chat":                      false,
	} {
		if got := Match(u).VerifiesRecipient(u); got != want {
			t.Errorf("VerifiesRecipient(%q) = %v", u, got)
		}
	}
}
