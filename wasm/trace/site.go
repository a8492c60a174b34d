package trace

import "net/url"

// siteOf keeps only the host of a URL: paths and queries may carry what
// the user is doing or a token.
func siteOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
