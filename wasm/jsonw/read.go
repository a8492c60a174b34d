package jsonw

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// The readers below take the common shapes of the first messages after a
// wake (plain keys, plain strings, integers) and say false for anything
// else: the caller then decodes with json.Unmarshal as before, so a
// message reads the same either way.

// Members calls f for each member of the JSON object raw, in order, with
// its key. It reports false, having called f for none or some members,
// when raw is not a valid JSON object, a key has an escape or is not
// valid UTF-8, or f returns false.
func Members(raw []byte, f func(key string, v gjson.Result) bool) bool {
	if !gjson.ValidBytes(raw) {
		return false
	}
	obj := gjson.ParseBytes(raw)
	if !obj.IsObject() {
		return false
	}
	ok := true
	obj.ForEach(func(k, v gjson.Result) bool {
		key, plain := String(k)
		if !plain || !f(key, v) {
			ok = false
		}
		return ok
	})
	return ok
}

// String is a JSON string's value, as json.Unmarshal gives it, when it is
// valid UTF-8 and has no escapes other than \" \\ \/ \b \f \n \r \t.
func String(v gjson.Result) (string, bool) {
	raw := v.Raw
	if v.Type != gjson.String || len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	s := raw[1 : len(raw)-1]
	if !utf8.ValidString(s) {
		return "", false
	}
	if strings.IndexByte(s, '\\') < 0 {
		return s, true
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			return "", false
		}
		switch s[i] {
		case '"', '\\', '/':
			b.WriteByte(s[i])
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// Int is a JSON number's value as json.Unmarshal stores it in an int64:
// an integer literal in range.
func Int(v gjson.Result) (int64, bool) {
	if v.Type != gjson.Number {
		return 0, false
	}
	n, err := strconv.ParseInt(v.Raw, 10, 64)
	return n, err == nil
}

// Strings reads a JSON array of strings.
func Strings(raw []byte) ([]string, bool) {
	if !gjson.ValidBytes(raw) {
		return nil, false
	}
	arr := gjson.ParseBytes(raw)
	if !arr.IsArray() {
		return nil, false
	}
	out := []string{}
	ok := true
	arr.ForEach(func(_, v gjson.Result) bool {
		s, plain := String(v)
		out = append(out, s)
		ok = plain
		return ok
	})
	return out, ok
}

// RawObject reads a JSON object into its members' raw values, as
// json.Unmarshal does into a map[string]json.RawMessage.
func RawObject(raw []byte) (map[string]json.RawMessage, bool) {
	out := map[string]json.RawMessage{}
	ok := Members(raw, func(key string, v gjson.Result) bool {
		out[key] = json.RawMessage(v.Raw)
		return true
	})
	return out, ok
}

// ReadString stores v in dst as json.Unmarshal would into a string, and
// reports whether v is one.
func ReadString(v gjson.Result, dst *string) bool {
	s, ok := String(v)
	*dst = s
	return ok
}

// ReadInt stores v in dst as json.Unmarshal would into an int.
func ReadInt(v gjson.Result, dst *int) bool {
	n, ok := Int(v)
	*dst = int(n)
	return ok
}

// ReadBool stores v in dst as json.Unmarshal would into a bool.
func ReadBool(v gjson.Result, dst *bool) bool {
	switch v.Type {
	case gjson.True:
		*dst = true
	case gjson.False:
		*dst = false
	default:
		return false
	}
	return true
}
