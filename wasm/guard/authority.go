package guard

import (
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Authority is what the user's own words in a run cover: the request, its
// corrections and the user's answers to questions. Nothing a page or the
// model says enters it.
type Authority struct {
	request   string // the user's words as written
	words     string // the same, lowercased
	plain     string // the same without URLs, domains and addresses
	compact   string // the same without spaces, upper-cased (IBANs, card numbers)
	numbers   map[string]bool
	tokens    map[string]bool // significant words and CJK bigrams
	hosts     map[string]bool // hosts named in URLs or as domain names
	sites     map[string]bool
	start     string // the site of the page the run started on
	requested map[Category]bool
}

// NewAuthority reads the user's words. startURL is the page the run began
// on: the user is working on that site.
func NewAuthority(words []string, startURL string) *Authority {
	all := strings.Join(words, "\n")
	a := &Authority{
		request:   all,
		words:     strings.ToLower(all),
		numbers:   map[string]bool{},
		tokens:    map[string]bool{},
		hosts:     map[string]bool{},
		sites:     map[string]bool{},
		start:     SiteOf(HostOf(startURL)),
		requested: Requested(all),
	}
	a.compact = strings.ToUpper(strings.Map(dropSpace, all))
	var plain []string
	for _, f := range strings.Fields(a.words) {
		if !strings.ContainsAny(strings.TrimRight(f, ".,;:!?"), ".@/") {
			plain = append(plain, f)
		}
	}
	a.plain = strings.Join(plain, " ")
	for _, n := range numbersIn(all) {
		a.numbers[n] = true
	}
	for _, t := range significant(a.words) {
		a.tokens[t] = true
	}
	for _, h := range HostsIn(all) {
		a.hosts[h] = true
		a.sites[SiteOf(h)] = true
	}
	return a
}

// Requested reports whether the user's words ask for this kind of action.
// A generic submission is covered by any request to change something; a
// download changes nothing on a site.
func (a *Authority) Requested(c Category) bool {
	if c == CatSubmit {
		for r := range a.requested {
			if r != CatDownload {
				return true
			}
		}
		return false
	}
	if c == CatPurchase && a.requested[CatPayment] {
		return true // "buy" asks for both
	}
	return a.requested[c]
}

// Mentions reports whether the user's words contain value: an address, an
// account number, an amount or a text.
func (a *Authority) Mentions(value string) bool {
	v := strings.TrimSpace(value)
	if v == "" {
		return true
	}
	if strings.Contains(a.words, strings.ToLower(v)) {
		return true
	}
	if c := strings.ToUpper(strings.Map(dropSpace, v)); len(c) >= 6 && strings.Contains(a.compact, c) {
		return true
	}
	return false
}

// MentionsAmount reports whether every number in an amount is one the user
// wrote ("€500" and "500 euros" agree; "1.500,00" and "1500" agree).
func (a *Authority) MentionsAmount(amount string) bool {
	ns := numbersIn(amount)
	if len(ns) == 0 {
		return true
	}
	for _, n := range ns {
		if !a.numbers[n] {
			return false
		}
	}
	return true
}

// NamedSite reports whether the user named host's site: a URL or domain
// on it, or its name as a word ("amazon" for www.amazon.de).
func (a *Authority) NamedSite(host string) bool {
	if host == "" {
		return false
	}
	site := SiteOf(host)
	if a.hosts[host] || a.sites[site] {
		return true
	}
	label, _, _ := strings.Cut(site, ".")
	return utf8.RuneCountInString(label) >= 4 && hasLetter(label) && hasWord(a.plain, label)
}

// Request is the user's words as written: the request, corrections and
// answers, one per line.
func (a *Authority) Request() string { return a.request }

// StartSite is the site of the page the run began on.
func (a *Authority) StartSite() string { return a.start }

// SharesWord reports whether text (an item as the page shows it) has a
// significant word the user also wrote: "the USB-C cable" and "Anker USB-C
// Cable 2 m" share one; a gift card the page slipped in shares none.
func (a *Authority) SharesWord(text string) bool {
	for _, t := range significant(strings.ToLower(text)) {
		if a.tokens[t] {
			return true
		}
	}
	return false
}

// SaysPhrase reports whether the user wrote a caption of two or more words
// in its order, articles aside: "delete the item" covers a "Delete item"
// button whose words alone name nothing.
func (a *Authority) SaysPhrase(caption string) bool {
	want := phraseWords(strings.ToLower(caption))
	if len(want) < 2 {
		return false
	}
	have := phraseWords(a.plain)
	for i := 0; i+len(want) <= len(have); i++ {
		if slices.Equal(have[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// phraseWords splits text into words without articles.
func phraseWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) && r != '\'' }) {
		if !articles[w] {
			out = append(out, w)
		}
	}
	return out
}

var articles = setOf("the", "a", "an", "this", "that", "my", "der", "die", "das", "den", "dem", "ein", "eine", "einen",
	"le", "la", "les", "un", "une", "el", "los", "las", "o", "os", "as", "um", "uma", "una")

// hasLetter reports whether a label is a name, not a number.
func hasLetter(label string) bool {
	for _, r := range label {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

func dropSpace(r rune) rune {
	if unicode.IsSpace(r) || r == '-' || r == '.' {
		return -1
	}
	return r
}

// SiteOf is the site of a host: its last two labels (spec: hosts that
// share their last two labels count as one site); an IP address is its
// own site.
func SiteOf(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" || strings.Contains(host, ":") || isDotted(host) {
		return host
	}
	parts := strings.Split(host, ".")
	if len(parts) <= 2 {
		return host
	}
	return strings.Join(parts[len(parts)-2:], ".")
}

func isDotted(host string) bool {
	for _, r := range host {
		if r != '.' && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// HostOf is the lowercased host of a URL, "" when it has none.
func HostOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// HostsIn finds the hosts of URLs and bare domain names in text.
func HostsIn(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("<>()[]\"'`,;!?", r)
	}) {
		f = strings.TrimRight(f, ".:")
		if strings.Contains(f, "://") {
			if h := HostOf(f); h != "" {
				out = append(out, h)
			}
			continue
		}
		if at := strings.LastIndexByte(f, '@'); at >= 0 {
			f = f[at+1:] // an address names its domain
		}
		host, _, _ := strings.Cut(f, "/")
		name, _, _ := strings.Cut(host, ":") // a port
		if looksLikeDomain(name) || strings.EqualFold(name, "localhost") || (isDotted(name) && strings.Count(name, ".") == 3) {
			out = append(out, strings.ToLower(name))
		}
	}
	return out
}

// looksLikeDomain accepts "name.tld" forms whose last label is letters.
func looksLikeDomain(s string) bool {
	i := strings.LastIndexByte(s, '.')
	if i <= 0 || i == len(s)-1 {
		return false
	}
	tld := s[i+1:]
	if len(tld) < 2 {
		return false
	}
	for _, r := range tld {
		if !unicode.IsLetter(r) || r > unicode.MaxASCII {
			return false
		}
	}
	for _, r := range s[:i] {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '.') || r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// numbersIn returns the numbers of text in one normal form: digits with
// at most one decimal point, no grouping, no trailing zero decimals.
func numbersIn(text string) []string {
	var out []string
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if !unicode.IsDigit(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && (unicode.IsDigit(rs[j]) || ((rs[j] == '.' || rs[j] == ',' || rs[j] == '\'' || rs[j] == ' ') && j+1 < len(rs) && unicode.IsDigit(rs[j+1]))) {
			j++
		}
		out = append(out, normNumber(string(rs[i:j])))
		i = j
	}
	return out
}

// normNumber reads "1,500.00", "1.500,00", "1 500" and "1500" alike: a
// separator followed by exactly two digits at the end is the decimal mark.
func normNumber(s string) string {
	s = strings.ReplaceAll(s, " ", "")
	s = strings.ReplaceAll(s, "'", "")
	intPart, frac := s, ""
	if n := len(s); n >= 3 && (s[n-3] == '.' || s[n-3] == ',') {
		intPart, frac = s[:n-3], s[n-2:]
	}
	intPart = strings.NewReplacer(".", "", ",", "").Replace(intPart)
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	frac = strings.TrimRight(frac, "0")
	if frac != "" {
		return intPart + "." + frac
	}
	return intPart
}

// hasWord reports whether w occurs in s between non-letters.
func hasWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(s[:j])
		after, _ := utf8.DecodeRuneInString(s[j+len(w):])
		if !isWordRune(before) && !isWordRune(after) {
			return true
		}
		i = j + 1
	}
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// significant splits lowercased text into the words that can identify an
// item: Latin words of four or more letters that are not action or filler
// words, model numbers, and bigrams of CJK runs.
func significant(s string) []string {
	var out []string
	var word []rune
	flush := func() {
		if len(word) == 0 {
			return
		}
		if isCJK(word[0]) {
			for i := 0; i+1 < len(word); i++ {
				if b := string(word[i : i+2]); !stopWords[b] {
					out = append(out, b)
				}
			}
		} else if w := string(word); (len(word) >= 4 || hasDigitAndLetter(word)) && !stopWords[w] {
			out = append(out, w)
		}
		word = word[:0]
	}
	for _, r := range s {
		switch {
		case isCJK(r):
			if len(word) > 0 && !isCJK(word[0]) {
				flush()
			}
			word = append(word, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || (r == '-' && len(word) > 0):
			if len(word) > 0 && isCJK(word[0]) {
				flush()
			}
			word = append(word, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

func hasDigitAndLetter(w []rune) bool {
	var d, l bool
	for _, r := range w {
		d = d || unicode.IsDigit(r)
		l = l || unicode.IsLetter(r)
	}
	return d && l
}

// stopWords cannot identify an item: the words of actions, of shop and mail
// pages, and filler, in the languages the classifier reads.
var stopWords = setOf(
	// English
	"this", "that", "these", "those", "with", "from", "into", "your", "their", "please", "could", "would", "should",
	"what", "which", "when", "where", "there", "here", "then", "than", "them", "they", "have", "will", "also", "just",
	"only", "about", "page", "item", "items", "product", "products", "button", "click", "link", "cart", "basket", "order",
	"orders", "delete", "remove", "send", "email", "mail", "message", "post", "comment", "share", "account", "buy",
	"purchase", "checkout", "add", "now", "more", "less", "price", "total", "free", "shipping", "details", "view",
	"open", "close", "save", "submit", "confirm", "cancel", "continue", "next", "back", "settings", "user", "users",
	"my", "the", "and", "for", "new", "edit", "list", "all", "some", "cheapest", "first", "last", "one", "find",
	"show", "tell", "read", "check", "make", "want", "need", "like", "site", "website", "today",
	// German
	"bitte", "diese", "dieser", "dieses", "einen", "eine", "einem", "mein", "meine", "meinen", "warenkorb", "löschen",
	"senden", "kaufen", "konto", "nachricht", "artikel", "produkt", "seite", "jetzt", "alle", "und", "oder", "auch",
	// French
	"cette", "votre", "vos", "mon", "mes", "panier", "supprimer", "envoyer", "acheter", "compte", "article", "produit",
	"s'il", "plait", "avec", "dans", "pour", "tous", "aussi",
	// Spanish and Portuguese
	"este", "esta", "estos", "esse", "essa", "favor", "carrito", "carrinho", "cesta", "borrar", "eliminar", "excluir",
	"enviar", "comprar", "cuenta", "conta", "mensaje", "mensagem", "producto", "produto", "página", "pagina", "todos",
	"também", "también", "para", "com", "con",
	// CJK bigrams of action and shop words
	"购物", "物车", "删除", "发送", "购买", "账户", "账号", "请帮", "帮我", "这个", "一个", "商品", "订单",
	"カー", "ート", "削除", "送信", "購入", "注文", "商品", "アカ", "カウ", "ウン", "ント", "して", "くだ", "ださ", "さい",
)

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}
