// Package secrets finds credentials and other secrets in text (page text,
// tool arguments, model replies): well-known key formats, tokens, private
// keys, labelled passwords, one-time codes and keys, payment card numbers,
// IBANs and CVVs. Labels are recognised in English, German, French,
// Spanish, Portuguese, Chinese and Japanese.
//
// Detection is by hand-written scanners, not regular expressions: the
// wasm module links no regexp, and one pass over an 8,000-character page
// must stay cheap. It errs towards missing an unlabelled secret rather
// than flagging prices, dates, phone numbers, order numbers or hashes.
package secrets

import "strings"

// Kind is what sort of secret a match is.
type Kind string

// Kinds of secrets.
const (
	KindAPIKey     Kind = "api_key"
	KindToken      Kind = "token" // JWT, bearer, session and access tokens
	KindPrivateKey Kind = "private_key"
	KindPassword   Kind = "password"
	KindOTP        Kind = "otp" // one-time, verification and PIN codes
	KindCard       Kind = "card"
	KindIBAN       Kind = "iban"
	KindCVV        Kind = "cvv"
)

// Match is one secret in a text: Value is text[Start:End] (byte offsets).
// For a labelled secret only the value is matched, not its label.
type Match struct {
	Kind       Kind
	Value      string
	Start, End int
}

// Find returns the secrets in text, in order and without overlaps. Where
// two detections overlap, the one that starts first wins, then the
// longer one.
func Find(text string) []Match {
	var all []Match
	all = scanFormats(text, all)
	all = scanLabelled(text, all)
	all = scanNumbers(text, all)
	if len(all) == 0 {
		return nil
	}
	// Each scanner adds its matches (nearly) in order, so the list is
	// three sorted runs: an insertion sort is quick, and smaller in the
	// module than a generic sort.
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && before(all[j], all[j-1]); j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	out := all[:0]
	end := 0
	for _, m := range all {
		if m.Start >= end {
			out = append(out, m)
			end = m.End
		}
	}
	return out
}

// before orders matches by start, the longer first.
func before(a, b Match) bool {
	return a.Start < b.Start || a.Start == b.Start && a.End > b.End
}

// Mask replaces every match that keep does not keep (nil keeps none) with
// a mask that says what was there and keeps a hint: a key's public prefix,
// a card's or IBAN's last four digits.
func Mask(text string, keep func(Match) bool) string {
	ms := Find(text)
	if len(ms) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		if keep != nil && keep(m) {
			continue
		}
		b.WriteString(text[last:m.Start])
		b.WriteString(m.Masked())
		last = m.End
	}
	b.WriteString(text[last:])
	return b.String()
}

// Masked is the text that replaces m in Mask.
func (m Match) Masked() string {
	switch m.Kind {
	case KindAPIKey:
		if p := knownPrefix(m.Value); p != "" {
			return p + "…[API key hidden]"
		}
		return "[API key hidden]"
	case KindToken:
		if strings.HasPrefix(m.Value, "eyJ") {
			return "eyJ…[token hidden]"
		}
		return "[token hidden]"
	case KindPrivateKey:
		return "[private key hidden]"
	case KindPassword:
		return "[password hidden]"
	case KindOTP:
		return "[one-time code hidden]"
	case KindCard:
		return "[card number ending " + lastDigits(m.Value, 4) + " hidden]"
	case KindIBAN:
		return m.Value[:2] + "…[IBAN ending " + lastDigits(m.Value, 4) + " hidden]"
	case KindCVV:
		return "[CVV hidden]"
	}
	return "[secret hidden]"
}

// Contains reports whether value, a secret, appears in text. A value of
// digits (a card number, a PIN) matches whatever spaces, dashes or dots
// text puts between its digits, but not inside a longer number.
func Contains(text, value string) bool {
	value = strings.TrimSpace(value)
	if value == "" {
		return false
	}
	digits := onlyDigits(value)
	if digits == "" {
		return strings.Contains(text, value)
	}
	for i := 0; i < len(text); i++ {
		if text[i] != digits[0] || (i > 0 && isDigit(text[i-1])) {
			continue
		}
		if j, ok := matchDigits(text, i, digits); ok && (j == len(text) || !isDigit(text[j])) {
			return true
		}
	}
	return false
}

// matchDigits matches digits at text[i], allowing single separators
// between them; end is just past the last digit.
func matchDigits(text string, i int, digits string) (end int, ok bool) {
	k := 0
	for ; i < len(text) && k < len(digits); i++ {
		switch {
		case text[i] == digits[k]:
			k++
		case k > 0 && isDigitSeparator(text[i]) && i+1 < len(text) && isDigit(text[i+1]):
		default:
			return 0, false
		}
	}
	return i, k == len(digits)
}

// onlyDigits returns value's digits when it is made of digits and
// spaces, dashes or dots only, else "".
func onlyDigits(value string) string {
	var b strings.Builder
	for i := 0; i < len(value); i++ {
		switch c := value[i]; {
		case isDigit(c):
			b.WriteByte(c)
		case isDigitSeparator(c):
		default:
			return ""
		}
	}
	return b.String()
}

func isDigitSeparator(c byte) bool { return c == ' ' || c == '-' || c == '.' }

// lastDigits returns the last n digits of s, in order.
func lastDigits(s string, n int) string {
	d := make([]byte, n)
	k := n
	for i := len(s) - 1; i >= 0 && k > 0; i-- {
		if isDigit(s[i]) {
			k--
			d[k] = s[i]
		}
	}
	return string(d[k:])
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isUpper(c byte) bool  { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool  { return c >= 'a' && c <= 'z' }
func isLetter(c byte) bool { return isUpper(c) || isLower(c) }
func isAlnum(c byte) bool  { return isDigit(c) || isLetter(c) }

func lower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}
