package secrets

import (
	"strings"
	"sync"
)

// format is a key whose public prefix says what it is; its body is a run
// of chars of between min and max bytes.
type format struct {
	prefix   string
	min, max int
	chars    func(byte) bool
	// mixed: the body must hold a letter and a digit (for short, common
	// prefixes such as "sk-").
	mixed bool
}

// formats are tried longest prefix first where prefixes share a start.
var formats = []format{
	{"sk-ant-", 32, 250, isKeyChar, false},     // Anthropic
	{"sk-proj-", 20, 250, isKeyChar, false},    // OpenAI project key
	{"sk-svcacct-", 20, 250, isKeyChar, false}, // OpenAI service account
	{"sk-admin-", 20, 250, isKeyChar, false},   // OpenAI admin key
	{"sk-or-v1-", 32, 128, isAlnum, false},     // OpenRouter
	{"sk-", 20, 250, isAlnum, true},            // OpenAI legacy, DeepSeek and other compatible services
	{"sk_live_", 16, 250, isAlnum, false},      // Stripe
	{"sk_test_", 16, 250, isAlnum, false},
	{"rk_live_", 16, 250, isAlnum, false},
	{"rk_test_", 16, 250, isAlnum, false},
	{"pk_live_", 16, 250, isAlnum, false},
	{"whsec_", 24, 250, isBase64Char, false},
	{"github_pat_", 22, 255, isWordChar, false}, // GitHub fine-grained token
	{"ghp_", 36, 255, isAlnum, false},           // GitHub classic tokens
	{"gho_", 36, 255, isAlnum, false},
	{"ghu_", 36, 255, isAlnum, false},
	{"ghs_", 36, 255, isAlnum, false},
	{"ghr_", 36, 255, isAlnum, false},
	{"glpat-", 20, 64, isKeyChar, false}, // GitLab
	{"xoxb-", 10, 255, isKeyChar, false}, // Slack
	{"xoxa-", 10, 255, isKeyChar, false},
	{"xoxp-", 10, 255, isKeyChar, false},
	{"xoxr-", 10, 255, isKeyChar, false},
	{"xoxs-", 10, 255, isKeyChar, false},
	{"AKIA", 16, 16, isUpperOrDigit, false}, // AWS access key id
	{"ASIA", 16, 16, isUpperOrDigit, false},
	{"AIza", 35, 35, isKeyChar, false},    // Google API key
	{"SK", 32, 32, isLowerHex, false},     // Twilio API key SID
	{"npm_", 36, 36, isAlnum, false},      // npm
	{"hf_", 34, 40, isAlnum, false},       // Hugging Face
	{"SG.", 66, 66, isSendGridChar, true}, // SendGrid: 22 + "." + 43
}

// formatsByByte indexes formats by their first byte. It and the tables
// below are built on first use, not on every wake of the worker.
var formatsByByte = sync.OnceValue(func() *[256][]format {
	var t [256][]format
	for _, f := range formats {
		t[f.prefix[0]] = append(t[f.prefix[0]], f)
	}
	return &t
})

// formatStart marks the bytes that can begin a format, a JWT, a PEM
// block or a bearer token.
var formatStart = sync.OnceValue(func() *[256]bool {
	var t [256]bool
	for _, f := range formats {
		t[f.prefix[0]] = true
	}
	for _, c := range "e-Bb" {
		t[c] = true
	}
	return &t
})

// scanFormats adds the secrets recognised by their shape alone.
func scanFormats(text string, out []Match) []Match {
	start := formatStart()
	for i := 0; i < len(text); i++ {
		if !start[text[i]] || (i > 0 && isKeyChar(text[i-1])) {
			continue
		}
		m, ok := formatAt(text, i)
		if !ok {
			continue
		}
		out = append(out, m)
		if strings.HasPrefix(m.Value, "AKIA") || strings.HasPrefix(m.Value, "ASIA") {
			if s, ok := awsSecretNear(text, m.End); ok {
				out = append(out, s)
			}
		}
		i = m.End - 1
	}
	return out
}

func formatAt(text string, i int) (Match, bool) {
	s := text[i:]
	switch {
	case strings.HasPrefix(s, "eyJ"):
		return jwtAt(text, i)
	case strings.HasPrefix(s, "-----BEGIN "):
		return pemAt(text, i)
	case hasPrefixFold(s, "bearer "):
		return bearerAt(text, i)
	}
	for _, f := range formatsByByte()[text[i]] {
		if !strings.HasPrefix(s, f.prefix) {
			continue
		}
		body := run(text, i+len(f.prefix), f.chars)
		n := body - i - len(f.prefix)
		// A key ends where its kind of word ends: "sk-" in a URL slug
		// ("/sk-summer2024sale-items") goes on with a dash.
		if n < f.min || n > f.max || (body < len(text) && isKeyChar(text[body])) {
			continue
		}
		v := text[i:body]
		if f.mixed && !(hasDigit(v[len(f.prefix):]) && hasLetter(v[len(f.prefix):])) {
			continue
		}
		if f.prefix == "SG." && strings.Count(v, ".") != 2 {
			continue
		}
		return Match{Kind: KindAPIKey, Value: v, Start: i, End: body}, true
	}
	return Match{}, false
}

// knownPrefix is the public prefix of a key of a known format, for the
// mask's hint.
func knownPrefix(v string) string {
	for _, f := range formats {
		if strings.HasPrefix(v, f.prefix) {
			return f.prefix
		}
	}
	return ""
}

// jwtAt reads header.payload.signature, both first parts being base64url
// JSON objects ("eyJ" is the encoding of `{"`).
func jwtAt(text string, i int) (Match, bool) {
	a := run(text, i, isBase64URLChar)
	if a-i < 10 || a >= len(text) || text[a] != '.' || !strings.HasPrefix(text[a+1:], "eyJ") {
		return Match{}, false
	}
	b := run(text, a+1, isBase64URLChar)
	if b-a-1 < 10 || b >= len(text) || text[b] != '.' {
		return Match{}, false
	}
	c := run(text, b+1, isBase64URLChar)
	return Match{Kind: KindToken, Value: text[i:c], Start: i, End: c}, true
}

// pemAt reads a PEM private key block to its END line, or to the end of
// its base64 when the text was cut before it.
func pemAt(text string, i int) (Match, bool) {
	head := i + len("-----BEGIN ")
	close := strings.Index(text[head:min(len(text), head+64)], "-----")
	if close < 0 || !strings.Contains(text[head:head+close], "PRIVATE KEY") {
		return Match{}, false
	}
	end := -1
	if e := strings.Index(text[head:], "-----END "); e >= 0 {
		tail := head + e + len("-----END ")
		if c := strings.Index(text[tail:min(len(text), tail+64)], "-----"); c >= 0 {
			end = tail + c + len("-----")
		}
	}
	if end < 0 {
		end = run(text, head+close+len("-----"), func(c byte) bool { return isBase64Char(c) || c == '\n' || c == '\r' || c == ' ' })
		end = len(strings.TrimRight(text[:end], " \r\n"))
	}
	return Match{Kind: KindPrivateKey, Value: text[i:end], Start: i, End: end}, true
}

// bearerAt reads "Bearer <token>"; the match is the token.
func bearerAt(text string, i int) (Match, bool) {
	j := i + len("bearer ")
	for j < len(text) && text[j] == ' ' {
		j++
	}
	end := run(text, j, isTokenChar)
	v := text[j:end]
	if len(v) < 16 || !hasDigit(v) || !hasLetter(v) {
		return Match{}, false
	}
	return Match{Kind: KindToken, Value: v, Start: j, End: end}, true
}

// awsSecretNear finds the 40-character secret access key that usually
// follows an access key id within a few lines.
func awsSecretNear(text string, from int) (Match, bool) {
	limit := min(len(text), from+300)
	for i := from; i < limit; i++ {
		if !isAWSSecretChar(text[i]) || (i > 0 && isAWSSecretChar(text[i-1])) {
			continue
		}
		end := run(text, i, isAWSSecretChar)
		v := text[i:end]
		if len(v) == 40 && (end == len(text) || text[end] != '=') && hasDigit(v) && hasUpper(v) && hasLower(v) {
			return Match{Kind: KindAPIKey, Value: v, Start: i, End: end}, true
		}
		i = end
	}
	return Match{}, false
}

// run returns the end of the run of bytes satisfying ok from i.
func run(text string, i int, ok func(byte) bool) int {
	for i < len(text) && ok(text[i]) {
		i++
	}
	return i
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

func isKeyChar(c byte) bool       { return isAlnum(c) || c == '_' || c == '-' }
func isWordChar(c byte) bool      { return isAlnum(c) || c == '_' }
func isBase64URLChar(c byte) bool { return isKeyChar(c) }
func isBase64Char(c byte) bool    { return isAlnum(c) || c == '+' || c == '/' || c == '=' }
func isAWSSecretChar(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }
func isSendGridChar(c byte) bool  { return isKeyChar(c) || c == '.' }
func isUpperOrDigit(c byte) bool  { return isUpper(c) || isDigit(c) }
func isLowerHex(c byte) bool      { return isDigit(c) || (c >= 'a' && c <= 'f') }
func isTokenChar(c byte) bool     { return isKeyChar(c) || strings.IndexByte("._~+/=", c) >= 0 }
func hasDigit(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 128 && isDigit(byte(r)) }) >= 0
}
func hasLetter(s string) bool { return hasUpper(s) || hasLower(s) }
func hasUpper(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 128 && isUpper(byte(r)) }) >= 0
}
func hasLower(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 128 && isLower(byte(r)) }) >= 0
}
