// Package uitext names the texts the background writes for the user, so
// the panel can show them in the interface language
// (docs/decisions/background-texts.md).
//
// The background keeps writing English: the event's text, what traces,
// notifications and the model see. Beside it goes a Msg, a key of the
// interface's one catalog (extension/_locales/<folder>/messages.json) and
// its parameters; the panel draws the key in the user's language and falls
// back to the English text when it does not know it.
//
//	uitext.T("bg_reason_other_site", "This happens on $site$, not on the site you started on or named.", "site", host)
//
// The key and the English template are string literals: the catalog test
// (test/i18n) reads them from the source and fails when English's
// messages.json lacks the key or says something else. A parameter is
// either data (a string, shown as it is, never translated: names,
// recipients, addresses, page text) or another Text of WebBrain's own.
package uitext

import (
	"errors"
	"strings"
)

// Msg is the form of a text the panel can localise: a catalog key and its
// named parameters, each a string or a Msg.
type Msg struct {
	Key    string         `json:"key"`
	Params map[string]any `json:"params,omitempty"`
}

// Text is one text WebBrain writes: English, and the key it came from.
type Text struct {
	English string
	Msg     *Msg
}

// T fills the English template's $name$ placeholders from kv, pairs of a
// name and a value (a string, or a Text). A value of another type, or a
// name the template lacks, panics: they are programming errors that the
// package's tests would see.
func T(key, english string, kv ...any) Text {
	if len(kv)%2 != 0 {
		panic("uitext: odd parameter list for " + key)
	}
	m := &Msg{Key: key}
	en := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		name, _ := kv[i].(string)
		if name == "" || !strings.Contains(english, "$"+name+"$") {
			panic("uitext: " + key + " has no $" + name + "$")
		}
		if m.Params == nil {
			m.Params = map[string]any{}
		}
		switch v := kv[i+1].(type) {
		case string:
			m.Params[name], en[name] = v, v
		case Text:
			if v.Msg != nil {
				m.Params[name] = *v.Msg
			} else {
				m.Params[name] = v.English
			}
			en[name] = v.English
		default:
			panic("uitext: parameter " + name + " of " + key + " is neither a string nor a Text")
		}
	}
	return Text{English: Fill(english, en), Msg: m}
}

// Plain is data shown as it is: a Text without a key.
func Plain(s string) Text { return Text{English: s} }

// String is the English text.
func (t Text) String() string { return t.English }

// Fill replaces each $name$ of template by values[name] (a name without a
// value stays as written) and $$ by $, as the browsers' catalogs do.
func Fill(template string, values map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(template); i++ {
		c := template[i]
		if c != '$' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(template) && template[i+1] == '$' {
			b.WriteByte('$')
			i++
			continue
		}
		end := strings.IndexByte(template[i+1:], '$')
		if end < 0 {
			b.WriteString(template[i:])
			break
		}
		name := template[i+1 : i+1+end]
		if v, ok := values[name]; ok && validName(name) {
			b.WriteString(v)
			i += end + 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// Error is an error whose message is a Text.
type Error struct{ Text Text }

func (e *Error) Error() string { return e.Text.English }

// Errorf is T as an error.
func Errorf(key, english string, kv ...any) error {
	return &Error{Text: T(key, english, kv...)}
}

// Of is the Text of err: its Msg when err is an *Error (or wraps one
// without adding words) or carries one (UIText), else its message as data.
func Of(err error) Text {
	if err == nil {
		return Text{}
	}
	var e *Error
	if errors.As(err, &e) && e.Text.English == err.Error() {
		return e.Text
	}
	var c interface{ UIText() (Text, bool) }
	if errors.As(err, &c) {
		if t, ok := c.UIText(); ok {
			return t
		}
	}
	return Plain(err.Error())
}

// Map returns a copy of m with f applied to every parameter that is data
// (nested texts included); nil stays nil. Used to mask secrets in what
// the panel receives as it is done to the English text.
func (m *Msg) Map(f func(string) string) *Msg {
	if m == nil {
		return nil
	}
	out := &Msg{Key: m.Key}
	if m.Params != nil {
		out.Params = make(map[string]any, len(m.Params))
	}
	for k, v := range m.Params {
		switch v := v.(type) {
		case string:
			out.Params[k] = f(v)
		case Msg:
			out.Params[k] = *v.Map(f)
		case *Msg:
			out.Params[k] = *v.Map(f)
		case map[string]any: // a Msg read back from JSON
			key, _ := v["key"].(string)
			params, _ := v["params"].(map[string]any)
			out.Params[k] = *(&Msg{Key: key, Params: params}).Map(f)
		default:
			out.Params[k] = v
		}
	}
	return out
}
