package adapters

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	data "github.com/webbrain/webbrain/adapters"
	"github.com/webbrain/webbrain/wasm/packaged"
)

func TestPackagedAdaptersAreValid(t *testing.T) {
	all, err := Packaged()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 10 {
		t.Fatalf("only %d packaged adapters", len(all))
	}
	for _, a := range all {
		if err := a.Validate(); err != nil {
			t.Errorf("%s: %v", a.ID, err)
		}
		// Notes are shown to the model as WebBrain's own text; they must
		// not look like the untrusted page wrapper.
		if strings.Contains(a.Notes, "untrusted_page_content") {
			t.Errorf("%s: notes mention the untrusted wrapper", a.ID)
		}
	}
}

func TestEveryPackagedAdapterMatchesItsOwnSite(t *testing.T) {
	cases := map[string]string{
		"https://github.com/webbrain/webbrain/issues":                     "github",
		"https://mail.google.com/mail/u/0/#inbox":                         "gmail",
		"https://www.google.com/search?q=go+wasm":                         "google-search",
		"https://www.google.co.uk/search?q=tea":                           "google-search",
		"https://en.wikipedia.org/wiki/WebAssembly":                       "wikipedia",
		"https://www.amazon.de/dp/B000000000":                             "amazon",
		"https://www.amazon.co.uk/s?k=kettle":                             "amazon",
		"https://www.linkedin.com/in/someone/":                            "linkedin",
		"https://x.com/home":                                              "x",
		"https://mobile.twitter.com/someone":                              "x",
		"https://www.youtube.com/watch?v=abc":                             "youtube",
		"https://old.reddit.com/r/golang/":                                "reddit",
		"https://stackoverflow.com/questions/1/how":                       "stackoverflow",
		"https://unix.stackexchange.com/questions/2":                      "stackoverflow",
		"https://user:secret@github.com/private?token=1#frag":             "github",
		"https://WWW.YOUTUBE.COM./results?search_query=x":                 "youtube",
		"http://en.m.wikipedia.org/wiki/Go_(programming_language)#Syntax": "wikipedia",
		"https://outlook.office.com/mail/inbox":                           "outlook",
		"https://calendar.google.com/calendar/u/0/r/week":                 "google-calendar",
		"https://docs.google.com/document/d/abc/edit":                     "google-docs",
		"https://docs.google.com/spreadsheets/d/abc/edit#gid=0":           "google-sheets",
		"https://drive.google.com/drive/my-drive":                         "google-drive",
		"https://www.notion.so/team/Roadmap-123":                          "notion",
		"https://gitlab.com/group/project/-/merge_requests/1":             "gitlab",
		"https://www.ebay.co.uk/itm/123":                                  "ebay",
		"https://www.etsy.com/listing/123/mug":                            "etsy",
		"https://www.booking.com/hotel/fr/x.html":                         "booking",
		"https://www.airbnb.de/rooms/123":                                 "airbnb",
		"https://www.google.com/maps/place/Paris":                         "google-maps",
		"https://www.facebook.com/groups/123":                             "facebook",
		"https://bsky.app/profile/someone.bsky.social":                    "bluesky",
		"https://app.slack.com/client/T1/C1":                              "slack",
		"https://acme.atlassian.net/browse/ABC-1":                         "atlassian",
		"https://web.whatsapp.com/":                                       "whatsapp",
		"https://web.telegram.org/k/#@someone":                            "telegram",
		"https://discord.com/channels/1/2":                                "discord",
		"https://www.douyin.com/chat":                                     "douyin",
		"https://www.instagram.com/direct/inbox/":                         "instagram",
		"https://www.tiktok.com/@someone/video/1":                         "tiktok",
		"https://mastodon.social/@someone":                                "mastodon",
		"https://teams.microsoft.com/v2/":                                 "microsoft-teams",
		"https://www.dropbox.com/home":                                    "dropbox",
		"https://trello.com/b/abc/board":                                  "trello",
		"https://www.paypal.com/myaccount/summary":                        "paypal",
		"https://www.walmart.com/search?q=tv":                             "walmart",
		"https://de.aliexpress.com/item/1.html":                           "aliexpress",
		"https://www.target.com/s?searchTerm=lamp":                        "target",
		"https://www.expedia.co.uk/Hotel-Search":                          "expedia",
		"https://www.tripadvisor.de/Hotel_Review-1":                       "tripadvisor",
		"https://www.bing.com/search?q=go":                                "bing",
		"https://duckduckgo.com/?q=go":                                    "duckduckgo",
		"https://translate.google.de/?sl=auto&tl=en":                      "google-translate",
		"https://finance.yahoo.com/quote/AAPL":                            "yahoo",
		"https://mail.yahoo.com/d/folders/1":                              "yahoo-mail",
		"https://www.bbc.co.uk/news/world-1":                              "bbc",
		"https://www.nytimes.com/2024/01/01/world/x.html":                 "nytimes",
		"https://www.washingtonpost.com/world/2024/01/01/x/":              "washington-post",
		"https://www.theverge.com/2024/1/1/x":                             "theverge",
		"https://medium.com/@someone/story-123":                           "medium",
		"https://someone.tumblr.com/post/1/x":                             "tumblr",
		"https://www.webmd.com/news/x":                                    "webmd",
		"https://www.msn.com/en-us/news":                                  "msn",
		"https://starwars.fandom.com/wiki/Yoda":                           "fandom",
		"https://www.quora.com/What-is-Go":                                "quora",
		"https://www.netflix.com/browse":                                  "netflix",
		"https://open.spotify.com/playlist/1":                             "spotify",
		"https://www.zillow.com/homes/Seattle_rb/":                        "zillow",
		"https://secure.chase.com/web/auth/dashboard":                     "chase",
		"https://meet.google.com/abc-defg-hij":                            "google-meet",
		"https://www.messenger.com/t/123":                                 "messenger",
	}
	for _, c := range siteCases { // site_table_test.go
		for _, u := range c.own {
			cases[u] = c.id
		}
	}
	all, _ := Packaged()
	covered := map[string]bool{}
	for u, want := range cases {
		a := Match(u)
		if a == nil || a.ID != want {
			t.Errorf("Match(%q) = %v, want %s", u, a, want)
			continue
		}
		covered[a.ID] = true
	}
	for _, a := range all {
		if !covered[a.ID] {
			t.Errorf("no matching test for packaged adapter %s", a.ID)
		}
	}
}

func TestMatchRejectsLookalikesAndOtherPages(t *testing.T) {
	for _, u := range []string{
		"https://example.com/",
		"https://github.com.evil.example/",
		"https://notgithub.com/",
		"https://gist.github.com/x", // a different site: "github.com" is exact
		"https://amazon.evil.com/dp/1",
		"https://www.google.com/mapsearch", // /maps is the maps adapter's, /search the search adapter's
		"https://www.google.com/searching",
		"file:///home/user/github.com",
		"chrome://settings",
		"not a url",
		"",
	} {
		if a := Match(u); a != nil {
			t.Errorf("Match(%q) = %s, want none", u, a.ID)
		}
	}
}

func TestMostSpecificAdapterWins(t *testing.T) {
	all := []Adapter{
		{ID: "a-broad", Match: []Rule{{Host: "*.example.*"}}},
		{ID: "b-host", Match: []Rule{{Host: "*.shop.example.com"}}},
		{ID: "c-path", Match: []Rule{{Host: "shop.example.com", Paths: []string{"/cart"}}}},
		{ID: "d-deeper", Match: []Rule{{Host: "shop.example.com", Paths: []string{"/cart/checkout"}}}},
	}
	cases := map[string]string{
		"https://www.example.org/":                     "a-broad",
		"https://shop.example.com/":                    "b-host",
		"https://shop.example.com/cart":                "c-path",
		"https://shop.example.com/cart/checkout/step2": "d-deeper",
	}
	for u, want := range cases {
		if a := MatchIn(all, u); a == nil || a.ID != want {
			t.Errorf("MatchIn(%q) = %v, want %s", u, a, want)
		}
	}
	// Equal specificity: the lower id, whatever the list order.
	tie := []Adapter{{ID: "zz", Match: []Rule{{Host: "site.test"}}}, {ID: "aa", Match: []Rule{{Host: "site.test"}}}}
	if a := MatchIn(tie, "https://site.test/"); a == nil || a.ID != "aa" {
		t.Errorf("tie went to %v", a)
	}
}

func TestLoadReportsBadAdaptersAndKeepsGoodOnes(t *testing.T) {
	good := `{"id":"good","name":"Good","revision":1,"match":[{"host":"good.test"}],"notes":"Use the search box."}`
	fsys := fstest.MapFS{
		"good.json":     {Data: []byte(good)},
		"badhost.json":  {Data: []byte(`{"id":"badhost","name":"B","revision":1,"match":[{"host":"Bad Host"}],"notes":"n"}`)},
		"nonotes.json":  {Data: []byte(`{"id":"nonotes","name":"N","revision":1,"match":[{"host":"n.test"}],"notes":" "}`)},
		"wrongid.json":  {Data: []byte(`{"id":"other","name":"W","revision":1,"match":[{"host":"w.test"}],"notes":"n"}`)},
		"norev.json":    {Data: []byte(`{"id":"norev","name":"R","match":[{"host":"r.test"}],"notes":"n"}`)},
		"badpath.json":  {Data: []byte(`{"id":"badpath","name":"P","revision":1,"match":[{"host":"p.test","paths":["cart"]}],"notes":"n"}`)},
		"nomatch.json":  {Data: []byte(`{"id":"nomatch","name":"M","revision":1,"match":[],"notes":"n"}`)},
		"notjson.json":  {Data: []byte(`{`)},
		"Upper.json":    {Data: []byte(`{"id":"Upper","name":"U","revision":1,"match":[{"host":"u.test"}],"notes":"n"}`)},
		"longname.json": {Data: []byte(`{"id":"longname","name":"` + strings.Repeat("x", 61) + `","revision":1,"match":[{"host":"l.test"}],"notes":"n"}`)},
	}
	ids := []string{"missing"}
	for name := range fsys {
		ids = append(ids, strings.TrimSuffix(name, ".json"))
	}
	all, err := Load(fsys.ReadFile, ids)
	if len(all) != 1 || all[0].ID != "good" {
		t.Fatalf("loaded %v", all)
	}
	if err == nil {
		t.Fatal("no error for the bad adapters")
	}
	for _, name := range []string{"missing", "badhost", "nonotes", "wrongid", "norev", "badpath", "nomatch", "notjson", "Upper", "longname"} {
		if !strings.Contains(err.Error(), name+".json") {
			t.Errorf("error does not name %s.json: %v", name, err)
		}
	}
}

// The runtime decoder ignores unknown fields to stay small; a misspelt
// field in a packaged adapter fails here.
func TestPackagedAdaptersHaveOnlyKnownFields(t *testing.T) {
	for _, id := range packaged.FileIDs(data.Files, ".json") {
		raw, err := data.Files.ReadFile(id + ".json")
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var a Adapter
		if err := dec.Decode(&a); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}
