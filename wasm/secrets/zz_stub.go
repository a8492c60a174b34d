// Package secrets: TEMPORARY stub, replaced by the secrets branch.
package secrets

import "strings"

type Kind string

type Match struct {
	Kind       Kind
	Value      string
	Start, End int
}

func Find(text string) []Match {
	var out []Match
	for i := 0; i+3 <= len(text); i++ {
		if strings.HasPrefix(text[i:], "sk-") {
			j := i
			for j < len(text) && text[j] != ' ' && text[j] != '"' && text[j] != '\n' {
				j++
			}
			out = append(out, Match{Kind: "api_key", Value: text[i:j], Start: i, End: j})
			i = j
		}
	}
	return out
}

func Mask(text string, keep func(Match) bool) string {
	ms := Find(text)
	var b strings.Builder
	last := 0
	for _, m := range ms {
		if keep != nil && keep(m) {
			continue
		}
		b.WriteString(text[last:m.Start])
		b.WriteString("[hidden]")
		last = m.End
	}
	b.WriteString(text[last:])
	return b.String()
}

func Contains(text, value string) bool { return strings.Contains(text, value) }
