// Package ascii holds the byte-class checks that replace regular
// expressions in the module: the regexp package and the Unicode tables it
// references cost about half a megabyte of the module and their start-up
// time, for a handful of simple shapes.
package ascii

// Class reports whether a byte belongs to a set.
type Class func(byte) bool

// Digit is 0-9.
func Digit(c byte) bool { return c >= '0' && c <= '9' }

// Lower is a-z.
func Lower(c byte) bool { return c >= 'a' && c <= 'z' }

// Letter is a-z and A-Z.
func Letter(c byte) bool { return Lower(c) || (c >= 'A' && c <= 'Z') }

// Alnum is a letter or a digit.
func Alnum(c byte) bool { return Letter(c) || Digit(c) }

// Word is a letter, a digit or '_'.
func Word(c byte) bool { return Alnum(c) || c == '_' }

// Or is the union of classes.
func Or(classes ...Class) Class {
	return func(c byte) bool {
		for _, in := range classes {
			if in(c) {
				return true
			}
		}
		return false
	}
}

// Bytes is the class of the given bytes.
func Bytes(set string) Class {
	return func(c byte) bool {
		for i := 0; i < len(set); i++ {
			if set[i] == c {
				return true
			}
		}
		return false
	}
}

// Span is the length of s's leading run of bytes in the class.
func Span(s string, in Class) int {
	n := 0
	for n < len(s) && in(s[n]) {
		n++
	}
	return n
}

// Run reports whether s is min to max bytes, all in the class.
func Run(s string, in Class, min, max int) bool {
	return len(s) >= min && len(s) <= max && Span(s, in) == len(s)
}

// Some reports whether s is one or more bytes, all in the class.
func Some(s string, in Class) bool { return s != "" && Span(s, in) == len(s) }
