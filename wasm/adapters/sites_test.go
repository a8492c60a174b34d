package adapters

import (
	"strings"
	"testing"
)

// hostFor makes a concrete host from a pattern: "*.x.org" → "www.x.org",
// "www.amazon.*" → "www.amazon.com".
func hostFor(pattern string) string {
	h := strings.TrimSuffix(pattern, ".*")
	if h != pattern {
		h += ".com"
	}
	if strings.HasPrefix(h, "*.") {
		h = "www." + strings.TrimPrefix(h, "*.")
	}
	return h
}

// registrable is the pattern's host without the wildcard parts.
func registrable(pattern string) string {
	return strings.TrimSuffix(strings.TrimPrefix(pattern, "*."), ".*")
}

// Every rule of every packaged adapter: a page on its own host (under its
// first path) gets that adapter; look-alike hosts built from it get no
// adapter of the same id.
func TestEachAdapterMatchesItsHostAndNotLookalikes(t *testing.T) {
	all, err := Packaged()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range all {
		for _, r := range a.Match {
			p := "/"
			if len(r.Paths) > 0 {
				p = r.Paths[0]
			}
			own := "https://" + hostFor(r.Host) + p
			if got := Match(own); got == nil || got.ID != a.ID {
				t.Errorf("%s: Match(%q) = %v", a.ID, own, got)
			}
			core := registrable(r.Host)
			labels := strings.Split(core, ".")
			last := len(labels) - 1
			if strings.HasSuffix(r.Host, ".*") {
				last = len(labels)
			}
			spoofed := append([]string{}, labels...)
			if last > 0 {
				spoofed[last-1] += "-login"
			} else {
				spoofed[0] += "-login"
			}
			lookalikes := []string{
				"https://" + hostFor(r.Host) + ".attacker.test" + p,      // the real name as a subdomain
				"https://" + strings.Join(spoofed, ".") + ".example" + p, // a look-alike label
				"https://attacker.test/" + hostFor(r.Host) + p,           // the name in the path
			}
			if strings.Contains(core, ".") {
				// dots turned into hyphens: github.com → github-com.test
				lookalikes = append(lookalikes, "https://"+strings.ReplaceAll(core, ".", "-")+".test"+p)
			}
			for _, u := range lookalikes {
				if got := Match(u); got != nil && got.ID == a.ID {
					t.Errorf("%s: look-alike %q matched", a.ID, u)
				}
			}
		}
	}
}

// An adapter's notes belong to its site: no other packaged adapter's
// pages carry them, and a page of no adapter carries none.
func TestNotesOnlyOnTheirSite(t *testing.T) {
	all, _ := Packaged()
	for _, a := range all {
		own := "https://" + hostFor(a.Match[0].Host) + "/"
		if len(a.Match[0].Paths) > 0 {
			own = "https://" + hostFor(a.Match[0].Host) + a.Match[0].Paths[0]
		}
		for _, b := range all {
			if b.ID == a.ID {
				continue
			}
			other := "https://" + hostFor(b.Match[0].Host) + "/"
			if len(b.Match[0].Paths) > 0 {
				other = "https://" + hostFor(b.Match[0].Host) + b.Match[0].Paths[0]
			}
			if got := Match(other); got != nil && got.ID == a.ID {
				t.Errorf("%s's notes appear on %s (%s)", a.ID, other, b.ID)
			}
		}
		if Match(own).Notes != a.Notes {
			t.Errorf("%s: its own page gets other notes", a.ID)
		}
	}
	if a := Match("https://example.org/some/page"); a != nil {
		t.Errorf("an unknown site got %s", a.ID)
	}
}

func TestPackagedSpecBreadth(t *testing.T) {
	all, _ := Packaged()
	if len(all) < 110 {
		t.Errorf("%d packaged adapters, the specification asks for 110 or more", len(all))
	}
	var jobs, messaging int
	for _, a := range all {
		if a.Workflow != nil {
			jobs++
		}
		if a.Messaging != nil {
			messaging++
		}
	}
	if jobs < 3 || messaging < 3 {
		t.Errorf("%d adapters with jobs and %d with a messaging policy", jobs, messaging)
	}
}
