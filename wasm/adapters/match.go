package adapters

import (
	"errors"
	"net/url"
	"slices"
	"strings"
)

// Host patterns: "example.com" is that host only; a leading "*." also
// matches the bare domain and any subdomain ("*.wikipedia.org" matches
// en.wikipedia.org and wikipedia.org); a trailing ".*" matches a country
// or generic suffix such as com, de or co.uk ("*.amazon.*").

// secondLevel lists the labels that form two-label public suffixes
// (co.uk, com.au, ne.jp). A trailing ".*" accepts one label, or two when
// the first is one of these, so "amazon.*" never matches amazon.evil.com.
var secondLevel = []string{"co", "com", "net", "org", "gov", "edu", "ac", "ne", "or", "gob", "gouv"}

// Match returns the adapter for a page URL, or nil. Only one adapter
// applies: the most specific match (more literal host labels, then a
// longer path prefix), ties going to the lower id.
func Match(pageURL string) *Adapter {
	all, _ := Packaged()
	return MatchIn(all, pageURL)
}

// MatchIn is Match over a given adapter list.
func MatchIn(all []Adapter, pageURL string) *Adapter {
	u, err := url.Parse(pageURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	p := u.Path
	if p == "" {
		p = "/"
	}
	var best *Adapter
	bestScore := -1
	for i := range all {
		for _, r := range all[i].Match {
			s := r.score(host, p)
			if s > bestScore || (s == bestScore && s >= 0 && all[i].ID < best.ID) {
				best, bestScore = &all[i], s
			}
		}
	}
	return best
}

// score is -1 when the rule does not match, else its specificity.
func (r Rule) score(host, p string) int {
	labels, ok := matchHost(r.Host, host)
	if !ok {
		return -1
	}
	if len(r.Paths) == 0 {
		return labels * 1000
	}
	best := -1
	for _, prefix := range r.Paths {
		if underPath(p, prefix) {
			best = max(best, labels*1000+len(prefix))
		}
	}
	return best
}

// matchHost reports whether host fits pattern and how many literal labels
// the pattern has.
func matchHost(pattern, host string) (int, bool) {
	anySub := strings.HasPrefix(pattern, "*.")
	anySuffix := strings.HasSuffix(pattern, ".*")
	core := strings.TrimSuffix(strings.TrimPrefix(pattern, "*."), ".*")
	literal := strings.Count(core, ".") + 1
	hl := strings.Split(host, ".")
	cl := strings.Split(core, ".")
	if anySuffix {
		// Try each suffix length the rule allows.
		for n := 1; n <= 2 && n < len(hl); n++ {
			suffix := hl[len(hl)-n:]
			if n == 2 && !slices.Contains(secondLevel, suffix[0]) {
				continue
			}
			if prefixMatches(cl, hl[:len(hl)-n], anySub) {
				return literal, true
			}
		}
		return 0, false
	}
	return literal, prefixMatches(cl, hl, anySub)
}

// prefixMatches compares host labels with the pattern's literal labels:
// equal, or ending with them when subdomains are allowed.
func prefixMatches(core, host []string, anySub bool) bool {
	if len(host) < len(core) || (!anySub && len(host) != len(core)) {
		return false
	}
	return slices.Equal(host[len(host)-len(core):], core)
}

// underPath reports whether p is prefix or below it: "/search" matches
// "/search" and "/search/x", not "/searching".
func underPath(p, prefix string) bool {
	if strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(p, prefix)
	}
	return p == prefix || strings.HasPrefix(p, prefix+"/")
}

// validHostPattern accepts lowercase DNS labels with at most a leading
// "*." and a trailing ".*".
func validHostPattern(pattern string) error {
	core := strings.TrimSuffix(strings.TrimPrefix(pattern, "*."), ".*")
	if core == "" {
		return errors.New("empty host pattern")
	}
	for _, label := range strings.Split(core, ".") {
		if label == "" || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return errors.New("host " + pattern + " has an empty or malformed label")
		}
		for _, c := range label {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
				return errors.New("host " + pattern + ": use lowercase letters, digits, hyphens and a leading *. or trailing .*")
			}
		}
	}
	return nil
}

// pathOf is the path of an http(s) URL ("/" when empty), or "" for any
// other URL.
func pathOf(pageURL string) string {
	u, err := url.Parse(pageURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	if u.Path == "" {
		return "/"
	}
	return u.Path
}

// underAny reports whether p lies under one of the prefixes.
func underAny(p string, prefixes []string) bool {
	if p == "" {
		return false
	}
	for _, prefix := range prefixes {
		if underPath(p, prefix) {
			return true
		}
	}
	return false
}
