package tools

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// namedEntities (built on first use) are the named character references that matter for reading
// text. Package html's complete table (2,200 names) would add about 80 KB
// to the module for characters real pages almost never name.
var namedEntities = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"amp": "&", "lt": "<", "gt": ">", "quot": `"`, "apos": "'", "nbsp": "\u00a0",
		"ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’",
		"ldquo": "“", "rdquo": "”", "laquo": "«", "raquo": "»", "bull": "•",
		"middot": "·", "copy": "©", "reg": "®", "trade": "™", "euro": "€",
		"pound": "£", "yen": "¥", "cent": "¢", "sect": "§", "para": "¶",
		"deg": "°", "plusmn": "±", "times": "×", "divide": "÷", "frac12": "½",
		"frac14": "¼", "frac34": "¾", "shy": "\u00ad", "zwj": "\u200d", "zwnj": "\u200c",
		"thinsp": "\u2009", "ensp": "\u2002", "emsp": "\u2003", "larr": "←", "rarr": "→",
		"uarr": "↑", "darr": "↓", "hearts": "♥", "check": "✓", "minus": "−",
		"auml": "ä", "ouml": "ö", "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü",
		"szlig": "ß", "eacute": "é", "egrave": "è", "ecirc": "ê", "aacute": "á",
		"agrave": "à", "acirc": "â", "iacute": "í", "oacute": "ó", "uacute": "ú",
		"ntilde": "ñ", "ccedil": "ç", "Eacute": "É", "aring": "å", "oslash": "ø",
		"aelig": "æ",
	}
})

// unescapeHTML decodes character references: numeric ones fully, named ones
// from namedEntities; an unknown name stays as written.
func unescapeHTML(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		end := strings.IndexByte(s, ';')
		if end < 2 || end > 32 {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		if r, ok := entity(s[1:end]); ok {
			b.WriteString(r)
			s = s[end+1:]
			continue
		}
		b.WriteByte('&')
		s = s[1:]
	}
}

func entity(name string) (string, bool) {
	if name[0] != '#' {
		r, ok := namedEntities()[name]
		return r, ok
	}
	num, base := name[1:], 10
	if strings.HasPrefix(num, "x") || strings.HasPrefix(num, "X") {
		num, base = num[1:], 16
	}
	n, err := strconv.ParseUint(num, base, 32)
	if err != nil {
		return "", false
	}
	if n == 0 || n > utf8.MaxRune || (n >= 0xD800 && n <= 0xDFFF) {
		return "\uFFFD", true
	}
	return string(rune(n)), true
}
