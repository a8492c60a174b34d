// Package jsonw writes and reads the JSON of the messages a woken worker
// answers first without encoding/json's reflection: the engine compiles
// each wasm function on its first call, and reflection-based JSON is a
// large part of what the first message after a wake would compile
// (docs/decisions/wake-and-size.md). What it writes is byte for byte what
// json.Marshal writes; any value it has no case for goes to json.Marshal,
// so callers lose nothing but speed on the paths it does not cover.
package jsonw

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Appender is a value that writes its own JSON, exactly as json.Marshal
// would write it.
type Appender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// Marshal is json.Marshal for the values Append covers.
func Marshal(v any) ([]byte, error) { return Append(nil, v) }

// Append appends v's JSON to dst: nil, bool, string, the integer types
// used here, float64, json.RawMessage, maps of string to any, string or
// json.RawMessage, []any, []string and Appenders are written here, any
// other value by json.Marshal.
func Append(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case Appender:
		return v.AppendJSON(dst)
	case bool:
		return strconv.AppendBool(dst, v), nil
	case string:
		return AppendString(dst, v), nil
	case int:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case float64:
		return AppendFloat(dst, v)
	case json.RawMessage:
		return AppendRaw(dst, v)
	case map[string]any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendMap(dst, v, Append)
	case map[string]string:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendMap(dst, v, func(dst []byte, s string) ([]byte, error) { return AppendString(dst, s), nil })
	case map[string]json.RawMessage:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendMap(dst, v, AppendRaw)
	case []any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendSlice(dst, v, Append)
	case []string:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendSlice(dst, v, func(dst []byte, s string) ([]byte, error) { return AppendString(dst, s), nil })
	}
	b, err := json.Marshal(v)
	return append(dst, b...), err
}

func appendMap[V any](dst []byte, m map[string]V, f func([]byte, V) ([]byte, error)) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys) // json.Marshal sorts a map's keys
	dst = append(dst, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, k)
		dst = append(dst, ':')
		if dst, err = f(dst, m[k]); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

func appendSlice[V any](dst []byte, s []V, f func([]byte, V) ([]byte, error)) ([]byte, error) {
	dst = append(dst, '[')
	var err error
	for i, v := range s {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = f(dst, v); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string the way json.Marshal writes
// it: <, > and & escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029
// escaped.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendFloat appends f as json.Marshal writes a float64 (ES6 number
// formatting); NaN and the infinities are json.Marshal's error.
func AppendFloat(dst []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		_, err := json.Marshal(f)
		return dst, err
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9, as json.Marshal writes it
		b := dst[start:]
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst, nil
}

// AppendRaw appends a raw JSON value as json.Marshal writes a
// json.RawMessage: compacted, with <, >, &, U+2028 and U+2029 escaped;
// nil is null. Compact and HTMLEscape are encoding/json's scanner, not
// its reflection.
func AppendRaw(dst []byte, raw json.RawMessage) ([]byte, error) {
	if raw == nil {
		return append(dst, "null"...), nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		_, err := json.Marshal(raw) // json.Marshal's own error
		return dst, err
	}
	out := bytes.NewBuffer(dst)
	json.HTMLEscape(out, compact.Bytes())
	return out.Bytes(), nil
}

// Object writes a JSON object member by member, for the AppendJSON
// methods of structs: each member in the struct's field order, as
// json.Marshal writes them.
type Object struct {
	b   []byte
	n   int
	err error
}

// NewObject starts an object at the end of dst.
func NewObject(dst []byte) *Object { return &Object{b: append(dst, '{')} }

func (o *Object) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = AppendString(o.b, k)
	o.b = append(o.b, ':')
}

// String writes a string member.
func (o *Object) String(k, v string) *Object {
	o.key(k)
	o.b = AppendString(o.b, v)
	return o
}

// Int writes an integer member.
func (o *Object) Int(k string, v int64) *Object {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
	return o
}

// Bool writes a boolean member.
func (o *Object) Bool(k string, v bool) *Object {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
	return o
}

// Float writes a number member.
func (o *Object) Float(k string, v float64) *Object {
	o.key(k)
	if o.err == nil {
		o.b, o.err = AppendFloat(o.b, v)
	}
	return o
}

// Value writes a member with Append.
func (o *Object) Value(k string, v any) *Object {
	o.key(k)
	if o.err == nil {
		o.b, o.err = Append(o.b, v)
	}
	return o
}

// End closes the object.
func (o *Object) End() ([]byte, error) { return append(o.b, '}'), o.err }
