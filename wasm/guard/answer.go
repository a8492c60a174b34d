package guard

import (
	"net/url"
	"strings"

	"github.com/webbrain/webbrain/wasm/clip"
	"github.com/webbrain/webbrain/wasm/secrets"
)

// CleanAnswer makes the answer shown to the user safe to click and to
// keep: a link to a host the user did not give and the run did not visit,
// or one whose URL carries data the user did not give, is shown inert with
// a warning; images are never loaded (their URL is where a secret would
// leak); secrets read from pages are masked unless the user asked for that
// value.
func (g *Gate) CleanAnswer(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		if end, out, ok := g.markdownLink(text, i); ok {
			b.WriteString(out)
			i = end
			continue
		}
		if end, out, ok := g.bareURL(text, i); ok {
			b.WriteString(out)
			i = end
			continue
		}
		b.WriteByte(text[i])
		i++
	}
	return g.maskAnswerSecrets(b.String())
}

// markdownLink rewrites "[text](url)", "![alt](url)" and "<url>" at i.
func (g *Gate) markdownLink(s string, i int) (end int, out string, ok bool) {
	image := false
	j := i
	if s[j] == '<' {
		k := strings.IndexByte(s[j:], '>')
		if k < 0 {
			return 0, "", false
		}
		raw := s[j+1 : j+k]
		if !isHTTP(raw) || strings.ContainsAny(raw, " \n") {
			return 0, "", false
		}
		return j + k + 1, g.linkOrInert("", raw), true
	}
	if s[j] == '!' && j+1 < len(s) && s[j+1] == '[' {
		image = true
		j++
	}
	if s[j] != '[' {
		return 0, "", false
	}
	closeText := matchingBracket(s, j)
	if closeText < 0 || closeText+1 >= len(s) || s[closeText+1] != '(' {
		return 0, "", false
	}
	closeURL := strings.IndexByte(s[closeText+1:], ')')
	if closeURL < 0 {
		return 0, "", false
	}
	label := s[j+1 : closeText]
	target := strings.TrimSpace(s[closeText+2 : closeText+1+closeURL])
	if t, _, found := strings.Cut(target, " "); found {
		target = t // drop a link title
	}
	target = strings.Trim(target, "<>")
	end = closeText + 1 + closeURL + 1
	if image {
		return end, imageText(label, target), true
	}
	return end, g.linkOrInert(label, target), true
}

// matchingBracket finds the "]" closing the "[" at i, allowing nesting.
func matchingBracket(s string, i int) int {
	depth := 0
	for k := i; k < len(s) && k < i+2000; k++ {
		switch s[k] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return k
			}
		case '\n':
			if k+1 < len(s) && s[k+1] == '\n' {
				return -1 // a paragraph ended
			}
		}
	}
	return -1
}

// bareURL rewrites a plain http(s) URL at i, which the panel would
// otherwise turn into a link.
func (g *Gate) bareURL(s string, i int) (end int, out string, ok bool) {
	if !isHTTP(s[i:min(len(s), i+8)]) || (i > 0 && (isWordRune(rune(s[i-1])) || s[i-1] == '/')) {
		return 0, "", false
	}
	end = i
	for end < len(s) && !strings.ContainsRune(" \t\n<>\"'`", rune(s[end])) {
		end++
	}
	raw := strings.TrimRight(s[i:end], ".,;:!?)")
	return i + len(raw), g.linkOrInert("", raw), true
}

func isHTTP(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// linkOrInert keeps a link the user can trust and defuses any other.
func (g *Gate) linkOrInert(label, raw string) string {
	if !isHTTP(raw) {
		if label == "" {
			return raw
		}
		return label // a link to anything but the web is not clickable
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return label
	}
	host := strings.ToLower(u.Hostname())
	trusted := g.cfg.Authority.NamedSite(host) || g.isVisited(SiteOf(host))
	data := g.dataIn(u, trusted)
	if trusted && len(data) == 0 {
		if label == "" {
			return "<" + raw + ">"
		}
		return "[" + label + "](" + raw + ")"
	}
	why := host + " is not a site you named or the task visited"
	if len(data) > 0 {
		why = "its address carries " + dataKinds(data)
	}
	shown := inertURL(u, len(data) > 0)
	if label != "" && strings.TrimSpace(label) != raw {
		return label + " (⚠ link removed: " + why + "; `" + shown + "`)"
	}
	return "`" + shown + "` (⚠ link removed: " + why + ")"
}

// inertURL shows where a link pointed; without its query and fragment
// when those carry data.
func inertURL(u *url.URL, dropData bool) string {
	c := *u
	if dropData {
		c.RawQuery, c.Fragment, c.RawFragment, c.User = "", "", "", nil
	}
	return strings.ReplaceAll(clip.Line(maskSecrets(c.String()), 120), "`", "'")
}

func imageText(alt, raw string) string {
	host := ""
	if u, err := url.Parse(raw); err == nil {
		host = u.Hostname()
	}
	alt = strings.TrimSpace(alt)
	if alt == "" {
		alt = "image"
	}
	if host == "" {
		return "[" + alt + "]"
	}
	return "[" + alt + " — image from " + host + " not loaded]"
}

// maskAnswerSecrets hides secrets the user did not ask for: a request
// about an API key may see it; nobody else's answer shows one.
func (g *Gate) maskAnswerSecrets(s string) string {
	auth := g.cfg.Authority
	return secrets.Mask(s, func(m secrets.Match) bool {
		return auth.Mentions(m.Value) || auth.asksFor(m.Kind)
	})
}

// asksFor reports whether the user's words ask to see a secret of kind k.
func (a *Authority) asksFor(k secrets.Kind) bool {
	for _, w := range secretCues[string(k)] {
		if strings.Contains(a.words, w) {
			return true
		}
	}
	return false
}

// secretCues are words with which a request asks to see a kind of secret,
// in the languages the classifier reads.
var secretCues = map[string][]string{
	"api_key":     {"api key", "api-key", "apikey", "key", "schlüssel", "clé", "clave", "chave", "密钥", "キー"},
	"token":       {"token", "jeton", "令牌", "トークン"},
	"private_key": {"private key", "privater schlüssel", "clé privée", "clave privada", "chave privada", "私钥", "秘密鍵"},
	"password":    {"password", "passwort", "kennwort", "mot de passe", "contraseña", "senha", "密码", "パスワード"},
	"otp":         {"code", "otp", "pin", "código", "codigo", "验证码", "コード"},
	"card":        {"card number", "kartennummer", "numéro de carte", "número de tarjeta", "número do cartão", "卡号", "カード番号"},
	"iban":        {"iban"},
	"cvv":         {"cvv", "cvc", "security code", "prüfnummer", "cryptogramme", "código de seguridad", "安全码", "セキュリティコード"},
}
