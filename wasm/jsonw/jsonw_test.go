package jsonw

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/tidwall/gjson"
)

var strs = []string{
	"", "plain", `quote " and \ backslash`, "<b>&amp;</b>", "tab\tnew\nline\rret\bbs\ffeed",
	"\x00\x01\x1f\x7f", "héllo wörld ✓ 日本", "\u2028\u2029", "bad \xff utf-8 \xe2\x82", "emoji 😀", "/slash/",
}

type withOwn struct{ A string }

func (w withOwn) AppendJSON(dst []byte) ([]byte, error) {
	return append(AppendString(append(dst, `{"A":`...), w.A), '}'), nil
}

type plainStruct struct {
	X int     `json:"x"`
	Y string  `json:"y,omitempty"`
	Z []int64 `json:"z"`
}

// Whatever Marshal writes, json.Marshal writes the same bytes.
func TestMarshalIsJSONMarshal(t *testing.T) {
	vals := []any{nil, true, false, 0, -7, int64(1) << 60, math.MaxInt64, math.MinInt64}
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 123456789e30, 3.14159265358979, 5e-324, math.MaxFloat64} {
		vals = append(vals, f)
	}
	for _, s := range strs {
		vals = append(vals, s)
	}
	vals = append(vals,
		json.RawMessage(`{"a" : [1, 2, {"b":"<x>"}], "c":"\u2028"}`), json.RawMessage(nil), json.RawMessage(`null`),
		map[string]any{"ok": true, "z": 1, "a": "x", "m": map[string]any{"é": nil, "<": []any{1.5, "s", nil}}},
		map[string]any(nil), map[string]string{"b": "1", "a": "<"}, map[string]string(nil),
		map[string]json.RawMessage{"k": json.RawMessage(` [ 1 ] `)}, []any{}, []any(nil), []string{"a", "<"}, []string(nil),
		map[string]any{"own": withOwn{A: "<&>"}, "struct": plainStruct{X: 1, Z: []int64{2}}, "ptr": &plainStruct{}},
		map[string]any{"ints": []int{1, 2}, "u": uint8(3), "f32": float32(0.1)},
	)
	for _, v := range vals {
		want, werr := json.Marshal(v)
		got, gerr := Marshal(v)
		if (werr == nil) != (gerr == nil) || string(got) != string(want) {
			t.Errorf("Marshal(%#v) = %s, %v; json.Marshal: %s, %v", v, got, gerr, want, werr)
		}
	}
	for _, v := range []any{math.NaN(), math.Inf(1), json.RawMessage(`{bad`), map[string]any{"x": math.Inf(-1)}} {
		if _, err := Marshal(v); err == nil {
			t.Errorf("Marshal(%#v): no error, json.Marshal has one", v)
		}
	}
}

func TestStringReadsAsUnmarshal(t *testing.T) {
	for _, s := range strs {
		for _, raw := range []string{string(AppendString(nil, s)), `"` + s + `"`} {
			if !json.Valid([]byte(raw)) {
				continue
			}
			got, ok := String(gjson.Parse(raw))
			if !ok {
				continue
			}
			var want string
			if err := json.Unmarshal([]byte(raw), &want); err != nil || got != want {
				t.Errorf("String(%s) = %q; json.Unmarshal: %q, %v", raw, got, want, err)
			}
		}
	}
	for _, raw := range []string{`"\u00e9"`, `"\ud83d\ude00"`, "\"\xff\"", `1`, `null`} {
		if _, ok := String(gjson.Parse(raw)); ok {
			t.Errorf("String(%s) took a shape it leaves to json.Unmarshal", raw)
		}
	}
	plain, ok := String(gjson.Parse(`"a\"b\\c\/d\n\t\r\b\f"`))
	if !ok || plain != "a\"b\\c/d\n\t\r\b\f" {
		t.Errorf("simple escapes: %q, %v", plain, ok)
	}
}

func TestReaders(t *testing.T) {
	raw := []byte(`{"a":1,"b":"x","c":{"d":[1, 2]},"e":null}`)
	got, ok := RawObject(raw)
	var want map[string]json.RawMessage
	if err := json.Unmarshal(raw, &want); err != nil || !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("RawObject = %s, %v; json.Unmarshal: %s", got, ok, want)
	}
	for _, bad := range []string{`[1]`, `{"a":1`, `null`, `{"\u0061":1}`, ``} {
		if _, ok := RawObject([]byte(bad)); ok {
			t.Errorf("RawObject(%s) read it", bad)
		}
	}
	keys, ok := Strings([]byte(`["a","b\n"]`))
	if !ok || !reflect.DeepEqual(keys, []string{"a", "b\n"}) {
		t.Errorf("Strings = %q, %v", keys, ok)
	}
	if keys, ok := Strings([]byte(`[]`)); !ok || keys == nil || len(keys) != 0 {
		t.Errorf("Strings([]) = %#v, %v", keys, ok)
	}
	for _, bad := range []string{`["a",1]`, `{}`, `["\u0061"]`} {
		if _, ok := Strings([]byte(bad)); ok {
			t.Errorf("Strings(%s) read it", bad)
		}
	}
	for raw, want := range map[string]bool{`12`: true, `-3`: true, `1.0`: false, `1e3`: false, `"1"`: false, `99999999999999999999`: false} {
		if _, ok := Int(gjson.Parse(raw)); ok != want {
			t.Errorf("Int(%s) ok = %v", raw, ok)
		}
	}
}
