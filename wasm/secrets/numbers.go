package secrets

import "strings"

// scanNumbers adds payment card numbers (Luhn-checked) and IBANs
// (checksum-checked), labelled or not.
func scanNumbers(text string, out []Match) []Match {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if i > 0 && (isAlnum(text[i-1]) || text[i-1] == '+' || text[i-1] == '_' || joined(text, i)) {
			continue
		}
		var m Match
		ok := false
		switch {
		case c >= '2' && c <= '6':
			m, ok = cardAt(text, i)
		case isUpper(c):
			m, ok = ibanAt(text, i)
		}
		if ok {
			out = append(out, m)
			i = m.End - 1
		}
	}
	return out
}

// joined reports a number glued to what precedes it: the fraction of a
// decimal ("1.2511263318488451"), the end of an id ("ca-pub-6865…",
// "~~V1~~3178…", "/items/4111…").
func joined(text string, i int) bool {
	return i >= 2 && strings.IndexByte(".,-_/~:", text[i-1]) >= 0 && (isAlnum(text[i-2]) || text[i-2] == '~')
}

// cardAt reads a card number written together or in groups of 3–6 digits
// split by one space or dash each (the same throughout): an issuer's
// prefix and length (cardLength), Luhn-valid. When the digits go on (a CVV
// or expiry after the number), shorter group prefixes are tried. 13-digit
// numbers are left out: no card in use has them, and EAN-13 barcodes on
// shop pages do.
func cardAt(text string, i int) (Match, bool) {
	var buf [8]int
	groups := buf[:0] // end of each group
	sep := byte(0)
	j := i
	for {
		e := run(text, j, isDigit)
		if e == j {
			break
		}
		groups = append(groups, e)
		if e+1 >= len(text) || !isDigit(text[e+1]) || (text[e] != ' ' && text[e] != '-') || (sep != 0 && text[e] != sep) {
			break
		}
		sep = text[e]
		j = e + 1
	}
	if last := groups[len(groups)-1]; last < len(text) && (isLetter(text[last]) || (strings.IndexByte(".,", text[last]) >= 0 && last+1 < len(text) && isDigit(text[last+1]))) {
		return Match{}, false // part of a word, a decimal or a thousands-separated amount
	}
	for k := len(groups); k >= 1; k-- {
		v := text[i:groups[k-1]]
		n := groups[k-1] - i - (k - 1) // digits: the span less its separators
		if !cardLength(v, n) || (k > 1 && !evenGroups(text, i, groups[:k])) || !luhn(v) {
			continue
		}
		return Match{Kind: KindCard, Value: v, Start: i, End: groups[k-1]}, true
	}
	return Match{}, false
}

// cardLength reports whether n digits fit the issuer v's first digits
// name: Visa 16 or 19, Mastercard 16, Amex 15, Diners 14–19, JCB,
// Discover and UnionPay 16–19. Random 15–19 digit ids pass Luhn one time in
// ten; most of those fail here.
func cardLength(v string, n int) bool {
	var p [4]byte
	k := 0
	for i := 0; i < len(v) && k < 4; i++ {
		if isDigit(v[i]) {
			p[k] = v[i]
			k++
		}
	}
	two := int(p[0]-'0')*10 + int(p[1]-'0')
	four := two*100 + int(p[2]-'0')*10 + int(p[3]-'0')
	switch {
	case p[0] == '4':
		return n == 16 || n == 19
	case two >= 51 && two <= 55, four >= 2221 && four <= 2720:
		return n == 16
	case two == 34 || two == 37:
		return n == 15
	case two == 36 || two == 38 || two == 39 || four >= 3000 && four <= 3059:
		return n >= 14 && n <= 19
	case four >= 3528 && four <= 3589, four == 6011, two == 62, two == 64 && p[2] >= '4', two == 65:
		return n >= 16 && n <= 19
	}
	return false
}

// evenGroups reports groups of 3–6 digits, as cards are printed.
func evenGroups(text string, start int, ends []int) bool {
	from := start
	for _, e := range ends {
		if n := e - from; n < 3 || n > 6 {
			return false
		}
		from = e + 1
	}
	return true
}

// luhn checks the digits of v, skipping its separators.
func luhn(v string) bool {
	sum, i := 0, 0
	for k := len(v) - 1; k >= 0; k-- {
		if !isDigit(v[k]) {
			continue
		}
		n := int(v[k] - '0')
		if i%2 == 1 {
			n *= 2
			if n > 9 {
				n -= 9
			}
		}
		sum += n
		i++
	}
	return sum%10 == 0
}

// ibanLengths is each IBAN country's length, two letters then two digits.
const ibanLengths = "AD24AE23AL28AT20AZ28BA20BE16BG22BH22BR29CH21CR22CY28CZ24DE22DK18DO28EE20EG29ES24FI18FO18FR27GB22GE22GI23GL18GR27GT28HR21HU28IE22IL23IQ23IS26IT27JO30KW30KZ20LB28LC32LI21LT20LU20LV21MC27MD24ME22MK19MR27MT31MU30NL18NO15PK24PL28PS29PT25QA29RO24RS22SA24SC31SE24SI19SK24SM27TL23TN24TR26UA29VA22VG24XK20"

func ibanLength(cc string) int {
	for i := 0; i+4 <= len(ibanLengths); i += 4 {
		if ibanLengths[i:i+2] == cc {
			return int(ibanLengths[i+2]-'0')*10 + int(ibanLengths[i+3]-'0')
		}
	}
	return 0
}

// ibanAt reads an IBAN, compact or in groups of four split by single
// spaces, of its country's length and with a valid checksum.
func ibanAt(text string, i int) (Match, bool) {
	if i+4 > len(text) || !isUpper(text[i+1]) || !isDigit(text[i+2]) || !isDigit(text[i+3]) {
		return Match{}, false
	}
	want := ibanLength(text[i : i+2])
	if want == 0 {
		return Match{}, false
	}
	var b strings.Builder
	j := i
	for j < len(text) && b.Len() < want {
		c := text[j]
		switch {
		case isUpper(c) || isDigit(c):
			b.WriteByte(c)
		case c == ' ' && j > i && text[j-1] != ' ' && b.Len()%4 == 0:
		default:
			return Match{}, false
		}
		j++
	}
	if b.Len() != want || (j < len(text) && isAlnum(text[j])) || !mod97(b.String()) {
		return Match{}, false
	}
	return Match{Kind: KindIBAN, Value: text[i:j], Start: i, End: j}, true
}

// mod97 is the IBAN check: the country and check digits moved to the end,
// letters as 10–35, the number modulo 97 must be 1.
func mod97(iban string) bool {
	r := 0
	for _, c := range []byte(iban[4:] + iban[:4]) {
		if isDigit(c) {
			r = (r*10 + int(c-'0')) % 97
		} else {
			r = (r*100 + int(c-'A'+10)) % 97
		}
	}
	return r == 1
}
