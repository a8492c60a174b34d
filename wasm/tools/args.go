package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// property is the part of a JSON Schema property the validator reads.
type property struct {
	Type        string   `json:"type"`
	Description string   `json:"description"`
	Enum        []string `json:"enum"`
	Minimum     *float64 `json:"minimum"`
	Maximum     *float64 `json:"maximum"`
	Items       *struct {
		Type string `json:"type"`
	} `json:"items"`
}

type schema struct {
	Properties map[string]property `json:"properties"`
	Required   []string            `json:"required"`
}

// schemas holds each tool's decoded parameter schema, decoded on the first
// tool call rather than at start-up, which a woken worker pays on every
// wake. A catalog schema that does not decode is a programming error that
// the package's tests catch.
var schemas = sync.OnceValue(func() map[string]*schema {
	m := make(map[string]*schema, len(catalog))
	for _, t := range catalog {
		s := &schema{}
		if err := json.Unmarshal([]byte(t.params), s); err != nil {
			panic("tools: bad schema for " + t.name + ": " + err.Error())
		}
		m[t.name] = s
	}
	return m
})

// parseArgs decodes and checks a call's arguments against the tool's
// schema. It forgives what small models often get wrong and the meaning
// survives: numbers sent as strings, bare ref numbers, out-of-range sizes
// (clamped). Unknown properties are dropped so nothing unexpected reaches
// the page.
func parseArgs(t *tool, raw string) (map[string]any, error) {
	out, err := argsBySchema(t.name, schemas()[t.name], raw)
	if err != nil {
		return nil, err
	}
	if t.check != nil {
		if err := t.check(out); err != nil {
			return nil, fmt.Errorf("%s: %v", t.name, err)
		}
	}
	return out, nil
}

// argsBySchema decodes raw and checks it against s as parseArgs
// describes, for the tool named name.
func argsBySchema(name string, s *schema, raw string) (map[string]any, error) {
	in := map[string]any{}
	if strings.TrimSpace(raw) != "" {
		if err := json.Unmarshal([]byte(raw), &in); err != nil || in == nil {
			return nil, fmt.Errorf("arguments of %s must be a JSON object", name)
		}
	}
	out := make(map[string]any, len(in))
	for arg, v := range in {
		p, ok := s.Properties[arg]
		if !ok || v == nil {
			continue
		}
		cv, err := coerce(arg, p, v)
		if err != nil {
			return nil, fmt.Errorf("%s: argument %q %v", name, arg, err)
		}
		out[arg] = cv
	}
	for _, arg := range s.Required {
		if _, ok := out[arg]; !ok {
			return nil, fmt.Errorf("%s: missing required argument %q", name, arg)
		}
	}
	return out, nil
}

func coerce(name string, p property, v any) (any, error) {
	switch p.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			f, isNum := v.(float64)
			if !isNum {
				return nil, fmt.Errorf("must be a string")
			}
			s = strconv.FormatFloat(f, 'f', -1, 64)
		}
		if name == "ref" || name == "refId" || name == "sourceRef" || name == "targetRef" {
			s = normaliseRef(s)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, s) {
			return nil, fmt.Errorf("must be one of %s", strings.Join(p.Enum, ", "))
		}
		return s, nil
	case "integer", "number":
		f, ok := v.(float64)
		if !ok {
			s, isStr := v.(string)
			var err error
			if f, err = strconv.ParseFloat(strings.TrimSpace(s), 64); !isStr || err != nil {
				return nil, fmt.Errorf("must be a number")
			}
		}
		if p.Type == "integer" {
			f = math.Round(f)
		}
		if p.Minimum != nil && f < *p.Minimum {
			f = *p.Minimum
		}
		if p.Maximum != nil && f > *p.Maximum {
			f = *p.Maximum
		}
		return f, nil
	case "boolean":
		switch b := v.(type) {
		case bool:
			return b, nil
		case string:
			if b == "true" || b == "false" {
				return b == "true", nil
			}
		}
		return nil, fmt.Errorf("must be true or false")
	case "array":
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("must be an array")
		}
		for _, item := range list {
			if _, isStr := item.(string); !isStr && p.Items != nil && p.Items.Type == "string" {
				return nil, fmt.Errorf("must be an array of strings")
			}
		}
		return list, nil
	}
	return v, nil
}

// normaliseRef turns "12" into "ref_12": the tree prints refs in full,
// but small models sometimes pass the number alone.
func normaliseRef(s string) string {
	s = strings.TrimSpace(s)
	if _, err := strconv.Atoi(s); err == nil {
		return "ref_" + s
	}
	return s
}
