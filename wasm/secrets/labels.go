package secrets

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// labelClass decides what value a label announces.
type labelClass uint8

const (
	classPassword labelClass = iota // any word-like value on the same line
	classKey                        // a high-entropy token: api_key
	classToken                      // a high-entropy token: token
	classOTP                        // 4–8 digits
	classCVV                        // 3–4 digits
	classCode                       // security code: 3 digits are a CVV, 4–8 a one-time code
)

// label is a word that announces a secret. In name, a space matches one
// space, underscore or dash, or nothing ("api key" matches "API_KEY",
// "api-key" and "apiKey"); ASCII letters match in any case. explicit
// labels need ":" "=" or a verb ("is", "lautet", "est", "是", "は"…)
// before the value: bare "code" or "password" are common words.
type label struct {
	name     string
	class    labelClass
	explicit bool
}

var labels = []label{
	// English
	{"password", classPassword, true}, {"passwd", classPassword, true}, {"passphrase", classPassword, true},
	{"pass phrase", classPassword, true},
	{"api key", classKey, false}, {"api secret", classKey, false}, {"access key", classKey, false},
	{"secret key", classKey, false}, {"secret access key", classKey, false}, {"client secret", classKey, false},
	{"app secret", classKey, false}, {"secret", classKey, true}, {"private key", classKey, true},
	{"token", classToken, true}, {"access token", classToken, false}, {"auth token", classToken, false},
	{"refresh token", classToken, false}, {"session token", classToken, false}, {"session id", classToken, false},
	{"sessionid", classToken, false}, {"session", classToken, true},
	{"code", classOTP, true}, {"otp", classOTP, false}, {"one-time code", classOTP, false},
	{"one time code", classOTP, false}, {"one-time password", classOTP, false}, {"verification code", classOTP, false},
	{"confirmation code", classOTP, false}, {"login code", classOTP, false}, {"sign-in code", classOTP, false},
	{"authentication code", classOTP, false}, {"2fa code", classOTP, false}, {"passcode", classOTP, false},
	{"pin", classOTP, true}, {"pin code", classOTP, false}, {"security code", classCode, false},
	{"cvv", classCVV, false}, {"cvv2", classCVV, false}, {"cvc", classCVV, false}, {"cvc2", classCVV, false},
	{"csc", classCVV, true},
	// German
	{"passwort", classPassword, true}, {"kennwort", classPassword, true},
	{"api-schlüssel", classKey, false}, {"api schlüssel", classKey, false}, {"geheimer schlüssel", classKey, false},
	{"zugangsschlüssel", classKey, false}, {"zugriffstoken", classToken, false},
	{"bestätigungscode", classOTP, false}, {"verifizierungscode", classOTP, false}, {"einmalcode", classOTP, false},
	{"einmalpasswort", classOTP, false}, {"anmeldecode", classOTP, false}, {"tan", classOTP, true},
	{"sicherheitscode", classCode, false}, {"kartenprüfnummer", classCVV, false}, {"prüfnummer", classCVV, false},
	// French
	{"mot de passe", classPassword, true},
	{"clé api", classKey, false}, {"clé d'api", classKey, false}, {"clé secrète", classKey, false},
	{"clé d'accès", classKey, false}, {"jeton", classToken, true}, {"jeton d'accès", classToken, false},
	{"code de vérification", classOTP, false}, {"code de confirmation", classOTP, false},
	{"code à usage unique", classOTP, false}, {"code d'accès", classOTP, false},
	{"code de sécurité", classCode, false}, {"cryptogramme", classCVV, false},
	// Spanish
	{"contraseña", classPassword, true}, {"contrasena", classPassword, true}, {"clave de acceso", classPassword, true},
	{"clave api", classKey, false}, {"clave de api", classKey, false}, {"clave secreta", classKey, false},
	{"código", classOTP, true}, {"codigo", classOTP, true}, {"código de verificación", classOTP, false},
	{"código de confirmación", classOTP, false}, {"código de seguridad", classCode, false},
	// Portuguese
	{"senha", classPassword, true},
	{"chave de api", classKey, false}, {"chave api", classKey, false}, {"chave secreta", classKey, false},
	{"chave de acesso", classKey, false}, {"token de acesso", classToken, false},
	{"código de verificação", classOTP, false}, {"código de confirmação", classOTP, false},
	{"código de segurança", classCode, false},
	// Chinese
	{"密码", classPassword, false}, {"密碼", classPassword, false}, {"口令", classPassword, false},
	{"密钥", classKey, false}, {"秘钥", classKey, false}, {"金鑰", classKey, false}, {"令牌", classToken, false},
	{"验证码", classOTP, false}, {"驗證碼", classOTP, false}, {"校验码", classOTP, false}, {"动态码", classOTP, false},
	{"安全码", classCVV, false},
	// Japanese
	{"パスワード", classPassword, false}, {"暗証番号", classOTP, false},
	{"apiキー", classKey, false}, {"シークレット", classKey, false}, {"アクセスキー", classKey, false},
	{"トークン", classToken, false}, {"アクセストークン", classToken, false},
	{"認証コード", classOTP, false}, {"確認コード", classOTP, false}, {"ワンタイムパスワード", classOTP, false},
	{"セキュリティコード", classCode, false},
}

// labelsByByte indexes labels by their first byte, longest first, so
// "security code" is tried before "code" would be at the same place.
var labelsByByte = sync.OnceValue(func() *[256][]label {
	var t [256][]label
	for _, l := range labels {
		c := l.name[0]
		t[c] = append(t[c], l)
	}
	for c := range t {
		ls := t[c]
		for i := 1; i < len(ls); i++ { // insertion sort by length, descending
			for j := i; j > 0 && len(ls[j].name) > len(ls[j-1].name); j-- {
				ls[j], ls[j-1] = ls[j-1], ls[j]
			}
		}
	}
	return &t
})

// notSecretCodes are words that, just before "code", "código" or "pin",
// make it an ordinary code: a postcode, a discount, an HTTP status.
var notSecretCodes = []string{
	"postal", "zip", "post", "area", "promo", "promotional", "discount", "coupon", "voucher", "gift", "country",
	"product", "item", "article", "order", "reference", "tracking", "error", "status", "http", "response",
	"exit", "source", "qr", "bar", "iso", "language", "currency", "color", "colour", "style", "class",
	"dialing", "dial", "airport", "station", "course", "tax", "vat", "sort", "bank", "swift", "routing",
	"branch", "region", "city", "customer", "sku", "part", "model", "event", "booking", "ticket", "invite",
	"referral",
}

// notSecretAfter are words that, just after "code"/"código", make it an
// ordinary code ("code postal", "código postal", "code promo").
var notSecretAfter = []string{"postal", "promo", "de réduction", "de descuento", "de promoción", "de barras", "iso", "client"}

// scanLabelled adds the values that follow a label.
func scanLabelled(text string, out []Match) []Match {
	byByte := labelsByByte()
	for i := 0; i < len(text); i++ {
		c := text[i]
		// An ASCII label starts a word (or a camelCase part of one).
		if i > 0 && isLetter(c) && isAlnum(text[i-1]) && !(isLower(text[i-1]) && isUpper(c)) {
			continue
		}
		for _, l := range byByte[lower(c)] {
			end, ok := labelAt(text, i, l.name)
			if !ok {
				continue
			}
			if m, ok := valueAfter(text, i, end, l); ok {
				out = append(out, m)
				i = m.End - 1
			} else {
				i = end - 1
			}
			break
		}
	}
	return out
}

// labelAt matches name at text[i] with word boundaries for ASCII words;
// end is just past it.
func labelAt(text string, i int, name string) (end int, ok bool) {
	if isLetter(name[0]) && i > 0 {
		prev := text[i-1]
		camel := isLower(prev) && isUpper(text[i])
		if (isAlnum(prev) && !camel) || prev >= 0x80 && isLetterBefore(text, i) {
			return 0, false
		}
	}
	j := i
	for k := 0; k < len(name); k++ {
		c := name[k]
		if c == ' ' {
			if j < len(text) && (text[j] == ' ' || text[j] == '_' || text[j] == '-') {
				j++
			}
			continue
		}
		if j >= len(text) || lower(text[j]) != c {
			return 0, false
		}
		j++
	}
	if last := name[len(name)-1]; isAlnum(last) && j < len(text) && (isAlnum(text[j]) || text[j] >= 0x80 && isLetterAt(text, j)) {
		return 0, false
	}
	return j, true
}

// valueAfter reads the value a label at text[start:end] announces.
func valueAfter(text string, start, end int, l label) (Match, bool) {
	if l.class == classOTP || l.class == classCode {
		if ordinaryCode(text, start, end) {
			return Match{}, false
		}
	}
	cross := l.class != classPassword
	j, explicit, quote := skipGap(text, end, cross)
	if l.explicit && !explicit {
		return Match{}, false
	}
	switch l.class {
	case classPassword:
		return passwordAt(text, j, quote)
	case classKey, classToken:
		v := run(text, j, isTokenChar)
		for v > j && strings.IndexByte(".,=", text[v-1]) >= 0 {
			v--
		}
		if !highEntropy(text[j:v]) {
			return Match{}, false
		}
		kind := KindAPIKey
		if l.class == classToken {
			kind = KindToken
		}
		return Match{Kind: kind, Value: text[j:v], Start: j, End: v}, true
	}
	v, n, ok := digitsAt(text, j)
	if !ok {
		return Match{}, false
	}
	switch {
	case n == 3 && (l.class == classCVV || l.class == classCode), n == 4 && l.class == classCVV:
		return Match{Kind: KindCVV, Value: text[j:v], Start: j, End: v}, true
	case n >= 4 && n <= 8 && l.class != classCVV:
		return Match{Kind: KindOTP, Value: text[j:v], Start: j, End: v}, true
	}
	return Match{}, false
}

// skipGap skips what lies between a label and its value: spaces,
// punctuation, quotes, Markdown emphasis and a linking verb, for at most
// 24 bytes. explicit reports a ":" "=" or verb; quote is the quote just
// before the value, if any.
func skipGap(text string, i int, crossLines bool) (j int, explicit bool, quote byte) {
	j = i
	for j < len(text) && j-i < 24 {
		c := text[j]
		switch {
		case c == ':' || c == '=':
			explicit = true
		case c == ' ' || c == '\t' || c == '*' || c == '>' || c == '-' || c == '|':
		case c == '"' || c == '\'' || c == '`':
			quote = c
			j++
			continue
		case c == '\n' || c == '\r':
			if !crossLines {
				return j, explicit, 0
			}
		case strings.HasPrefix(text[j:], "："):
			explicit = true
			j += len("：")
			quote = 0
			continue
		case strings.HasPrefix(text[j:], "\u00a0"):
			j += len("\u00a0")
			quote = 0
			continue
		default:
			if n := linkingVerb(text, j); n > 0 {
				explicit = true
				j += n
				quote = 0
				continue
			}
			return j, explicit, quote
		}
		quote = 0
		j++
	}
	return j, explicit, quote
}

// linkingVerbs introduce a value: "your code is", "Ihr Code lautet",
// "votre code est", "tu código es", "seu código é", "验证码是", "コードは".
var linkingVerbs = []string{"is", "ist", "lautet", "est", "es", "é", "era", "是", "为", "為", "は", "が"}

func linkingVerb(text string, j int) int {
	for _, v := range linkingVerbs {
		if !hasPrefixFold(text[j:], v) {
			continue
		}
		k := j + len(v)
		if isLetter(v[0]) && k < len(text) && (isAlnum(text[k]) || text[k] >= 0x80) {
			continue
		}
		return len(v)
	}
	return 0
}

// ordinaryCode reports a "code" label that names a postcode, a discount
// code or the like, by the word before or after it.
func ordinaryCode(text string, start, end int) bool {
	w := strings.TrimRight(text[max(0, start-16):start], " _-")
	if k := strings.LastIndexAny(w, " \n\t(\"'"); k >= 0 {
		w = w[k+1:]
	}
	for _, n := range notSecretCodes {
		if strings.EqualFold(w, n) {
			return true
		}
	}
	after := strings.TrimLeft(text[end:min(len(text), end+24)], " ")
	for _, n := range notSecretAfter {
		if hasPrefixFold(after, n) {
			return true
		}
	}
	return false
}

// digitsAt reads a code of digits at text[j], allowing one space or dash
// between two halves ("123 456"); n is the count of digits. A number that
// goes on as a price, a date, a time or a longer number is not a code.
func digitsAt(text string, j int) (end, n int, ok bool) {
	e := run(text, j, isDigit)
	n = e - j
	if n == 0 {
		return 0, 0, false
	}
	if e+1 < len(text) && (text[e] == ' ' || text[e] == '-') && n == 3 {
		if e2 := run(text, e+1, isDigit); e2-e-1 == 3 {
			e, n = e2, 6
		}
	}
	if e < len(text) {
		c := text[e]
		if isLetter(c) || c == '_' {
			return 0, 0, false
		}
		if strings.IndexByte(".,/:-", c) >= 0 && e+1 < len(text) && isDigit(text[e+1]) {
			return 0, 0, false
		}
		if c == ' ' && e+1 < len(text) && isDigit(text[e+1]) {
			return 0, 0, false
		}
	}
	return e, n, true
}

// passwordAt reads a password: up to the closing quote when it is
// quoted, else to the end of the word. Masked values ("••••") and prose
// ("Password: must be 8 characters") are not passwords.
func passwordAt(text string, j int, quote byte) (Match, bool) {
	var v int
	if quote != 0 {
		q := strings.IndexByte(text[j:min(len(text), j+130)], quote)
		if q <= 0 || strings.ContainsAny(text[j:j+q], "\n\r") {
			return Match{}, false
		}
		v = j + q
	} else {
		v = j
		for v < len(text) && !passwordEnd(text, v) {
			_, size := utf8.DecodeRuneInString(text[v:])
			v += size
		}
		for v > j && strings.IndexByte(".,;:)]}{", text[v-1]) >= 0 {
			v--
		}
	}
	val := text[j:v]
	if len(val) < 4 || len(val) > 128 || masked(val) || strings.IndexByte("([{<", val[0]) >= 0 || placeholder(val) {
		return Match{}, false
	}
	if quote == 0 && isWord(val) && nextWordOnLine(text, v) {
		return Match{}, false
	}
	return Match{Kind: KindPassword, Value: val, Start: j, End: v}, true
}

// passwordEnd reports where an unquoted password ends: a space, a quote
// or angle bracket of the markup around it, CJK text, or the next
// parameter of a query string ("password=x&next=y").
func passwordEnd(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	switch {
	case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\u00a0' || r >= 0x2e80:
		return true
	case r == '"' || r == '\'' || r == '`' || r == '<' || r == '>':
		return true
	case r == '&':
		k := run(text, i+1, isWordChar)
		return k > i+1 && k < len(text) && text[k] == '='
	}
	return false
}

// placeholders stand where a form or a log shows no password.
var placeholders = []string{"none", "null", "empty", "unset", "hidden", "redacted", "required", "optional", "unknown", "unchanged", "changeme"}

func placeholder(v string) bool {
	for _, p := range placeholders {
		if strings.EqualFold(v, p) {
			return true
		}
	}
	return false
}

// masked reports a value made only of mask characters.
func masked(v string) bool {
	for _, r := range v {
		if !strings.ContainsRune("*•●·xX∙", r) {
			return false
		}
	}
	return true
}

// isWord reports a value of letters only (any script).
func isWord(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < 0x80 && !isLetter(v[i]) {
			return false
		}
	}
	return true
}

// nextWordOnLine reports whether another word follows on the same line.
func nextWordOnLine(text string, i int) bool {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i < len(text) && (isLetter(text[i]) || text[i] >= 0x80 && isLetterAt(text, i))
}

// highEntropy reports a value that looks generated: long, of letters and
// digits mixed, not a word or a repeated pattern.
func highEntropy(v string) bool {
	if len(v) < 16 || len(v) > 512 || !hasDigit(v) || !hasLetter(v) {
		return false
	}
	var seen [256]bool
	distinct := 0
	for i := 0; i < len(v); i++ {
		if !seen[v[i]] {
			seen[v[i]] = true
			distinct++
		}
	}
	return distinct >= 8
}

// isLetterAt and isLetterBefore report a non-ASCII letter (not CJK,
// whose words need no spaces) at or just before text[i].
func isLetterAt(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	return r >= 0xc0 && r < 0x2e80
}

func isLetterBefore(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return r >= 0xc0 && r < 0x2e80
}
