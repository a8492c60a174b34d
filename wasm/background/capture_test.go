package background

import (
	"testing"
	"time"
)

func TestShotNames(t *testing.T) {
	now := time.Date(2026, 12, 7, 9, 5, 3, 0, time.UTC)
	for in, want := range map[string]string{
		"":                     "webbrain-20261207-090503",
		"checkout":             "checkout",
		"My order.PNG":         "My-order",
		"../../etc/passwd":     "passwd",
		`C:\Users\me\shot.jpg`: "shot",
		"  ..hidden  ":         "hidden",
		"résumé page":          "résumé-page",
		"///":                  "webbrain-20261207-090503",
		"a/b/..":               "webbrain-20261207-090503",
		"a?b*c":                "a-b-c",
	} {
		if got := newShots(in, false, now).Base; got != want {
			t.Errorf("newShots(%q) = %q, want %q", in, got, want)
		}
	}
}
