package clip

import "testing"

func TestRunes(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"too long here", 5, "too …"},
		{"größer als", 3, "gr…"},
		{"日本語のテキスト", 4, "日本語…"},
		{"x", 0, ""},
	} {
		if got := Runes(c.in, c.n); got != c.want {
			t.Errorf("Runes(%q, %d) = %q; want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestLine(t *testing.T) {
	if got := Line("  a\n\tb   c  ", 10); got != "a b c" {
		t.Errorf("Line = %q", got)
	}
	if got := Line("one two three", 6); got != "one t…" {
		t.Errorf("Line = %q", got)
	}
}
