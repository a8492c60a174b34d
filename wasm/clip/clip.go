// Package clip shortens text for prompts, cards and results: by runes, so
// a cut never splits a character, and with "…" where it cut.
package clip

import (
	"strings"
	"unicode/utf8"
)

// Runes shortens s to at most n runes, the last being "…" when it cut.
func Runes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	i := 0
	for pos := range s {
		if i == n-1 {
			return s[:pos] + "…"
		}
		i++
	}
	return s
}

// Line is Runes of s on one line, its runs of white space made one space.
func Line(s string, n int) string {
	return Runes(strings.Join(strings.Fields(s), " "), n)
}
