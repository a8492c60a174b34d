// Package tracetest checks exported traces against the webbrain-trace/1
// JSON Schema in docs/ for the native and end-to-end tests. It implements
// the part of JSON Schema (2020-12) that schema uses: type, const, enum,
// required, properties, additionalProperties, items, minimum, minLength
// and local $ref.
package tracetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// SchemaPath is the schema's place from the repository root.
const SchemaPath = "docs/webbrain-trace-1.schema.json"

// Schema is a parsed JSON Schema document.
type Schema struct{ root map[string]any }

// Load reads the schema from the repository root.
func Load(root string) (Schema, error) {
	raw, err := os.ReadFile(filepath.Join(root, SchemaPath))
	if err != nil {
		return Schema{}, err
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return Schema{}, err
	}
	return Schema{doc}, nil
}

// Validate returns every place where doc breaks the schema.
func (s Schema) Validate(doc []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []string{"not JSON: " + err.Error()}
	}
	var errs []string
	s.check(s.root, v, "$", &errs)
	return errs
}

func (s Schema) resolve(node map[string]any) map[string]any {
	ref, ok := node["$ref"].(string)
	if !ok {
		return node
	}
	cur := any(s.root)
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		m, _ := cur.(map[string]any)
		cur = m[part]
	}
	out, _ := cur.(map[string]any)
	return out
}

func typeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func (s Schema) check(node map[string]any, v any, at string, errs *[]string) {
	node = s.resolve(node)
	if node == nil {
		*errs = append(*errs, at+": unresolvable schema")
		return
	}
	fail := func(format string, a ...any) { *errs = append(*errs, at+": "+fmt.Sprintf(format, a...)) }
	if t, ok := node["type"].(string); ok {
		got := typeOf(v)
		if got != t && !(t == "number" && got == "integer") {
			fail("want %s, got %s", t, got)
			return
		}
	}
	if c, ok := node["const"]; ok && fmt.Sprint(c) != fmt.Sprint(v) {
		fail("want %v, got %v", c, v)
	}
	if enum, ok := node["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		fail("%v is not one of %v", v, enum)
	}
	if min, ok := node["minimum"].(float64); ok {
		if n, isNum := v.(json.Number); isNum {
			if f, _ := n.Float64(); f < min {
				fail("%v is below %v", f, min)
			}
		}
	}
	if min, ok := node["minLength"].(float64); ok {
		if str, isStr := v.(string); isStr && utf8.RuneCountInString(str) < int(min) {
			fail("shorter than %v", min)
		}
	}
	if obj, ok := v.(map[string]any); ok {
		for _, r := range asList(node["required"]) {
			if _, has := obj[r.(string)]; !has {
				fail("missing %q", r)
			}
		}
		props, _ := node["properties"].(map[string]any)
		for k, val := range obj {
			if p, ok := props[k].(map[string]any); ok {
				s.check(p, val, at+"."+k, errs)
				continue
			}
			switch extra := node["additionalProperties"].(type) {
			case bool:
				if !extra {
					fail("unexpected property %q", k)
				}
			case map[string]any:
				s.check(extra, val, at+"."+k, errs)
			}
		}
	}
	if arr, ok := v.([]any); ok {
		if items, ok := node["items"].(map[string]any); ok {
			for i, val := range arr {
				s.check(items, val, fmt.Sprintf("%s[%d]", at, i), errs)
			}
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
