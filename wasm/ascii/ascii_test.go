package ascii

import "testing"

func TestRun(t *testing.T) {
	for _, c := range []struct {
		s        string
		in       Class
		min, max int
		want     bool
	}{
		{"abc", Lower, 1, 3, true},
		{"abcd", Lower, 1, 3, false},
		{"", Lower, 1, 3, false},
		{"", Lower, 0, 3, true},
		{"aB", Lower, 1, 3, false},
		{"a_1", Word, 1, 3, true},
		{"a-1", Word, 1, 3, false},
		{"a-1", Or(Alnum, Bytes("-")), 1, 3, true},
		{"é", Letter, 1, 3, false},
	} {
		if got := Run(c.s, c.in, c.min, c.max); got != c.want {
			t.Errorf("Run(%q, %d, %d) = %v, want %v", c.s, c.min, c.max, got, c.want)
		}
	}
	if n := Span("12ab", Digit); n != 2 {
		t.Errorf("Span = %d, want 2", n)
	}
}
