package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"

	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// Patch kinds of a record.
const (
	PatchCSS     = "css"
	PatchElement = "element"
)

// Prefixes of patch ids: the model tells the two kinds apart by them.
const (
	cssIDPrefix     = "css"
	elementIDPrefix = "patch"
)

// Patch is one Dev change to a page, kept per tab in storage.session
// (devPatches:<tabId>) so a restarted worker can still undo it. Doc is the
// document it was made in (the content script's wb_doc id): a record of
// another document is void, never applied to a replacement page.
type Patch struct {
	ID      string   `json:"id"`
	Kind    string   `json:"kind"`
	Doc     string   `json:"doc"`
	URL     string   `json:"url"`
	CSS     string   `json:"css,omitempty"`     // as inserted, its unique marker first
	Target  string   `json:"target,omitempty"`  // the element, as the page names it
	Changes []Change `json:"changes,omitempty"` // element patches: exact before and after
	At      int64    `json:"at"`                // ms since the epoch
}

// Change is one value patch_element set: kind style, class or attribute;
// Before/After nil mean absent.
type Change struct {
	Kind     string  `json:"kind"`
	Name     string  `json:"name"`
	Before   *string `json:"before"`
	After    *string `json:"after"`
	Priority string  `json:"priority,omitempty"` // a style's "important" before the change
	// Whole is a class change's whole class attribute before the patch, so
	// an undo restores the order of the classes too.
	Whole *string `json:"whole,omitempty"`
}

// patchMu orders the read-modify-write of every tab's records: the run's
// tools and the panel's revert may touch them at once.
var patchMu sync.Mutex

func patchKey(tabID int) string { return protocol.TabKey(protocol.KeyDevPatches, tabID) }

func loadPatches(ctx context.Context, s platform.Storage, tabID int) ([]Patch, error) {
	got, err := s.Get(ctx, patchKey(tabID))
	if err != nil {
		return nil, err
	}
	var out []Patch
	if raw, ok := got[patchKey(tabID)]; ok {
		if err := json.Unmarshal(raw, &out); err != nil {
			return nil, fmt.Errorf("the stored Dev patches are unreadable: %v", err)
		}
	}
	return out, nil
}

func savePatches(ctx context.Context, s platform.Storage, tabID int, list []Patch) error {
	if len(list) == 0 {
		return s.Remove(ctx, patchKey(tabID))
	}
	raw, err := json.Marshal(list)
	if err != nil {
		return err
	}
	return s.Set(ctx, map[string]json.RawMessage{patchKey(tabID): raw})
}

// editPatches applies fn to the tab's records under patchMu and saves them.
func editPatches(ctx context.Context, s platform.Storage, tabID int, fn func([]Patch) []Patch) error {
	patchMu.Lock()
	defer patchMu.Unlock()
	list, err := loadPatches(ctx, s, tabID)
	if err != nil {
		return err
	}
	return savePatches(ctx, s, tabID, fn(list))
}

// newPatchID is a fresh id from the runtime's entropy-seeded generator: a
// page cannot predict the marker of CSS it did not see injected.
func newPatchID(prefix string) string {
	return fmt.Sprintf("%s_%016x", prefix, rand.Uint64())
}

// cssMarker starts every injected stylesheet, so removeCSS matches this
// patch's text and nothing a page or another patch added.
func cssMarker(id string) string { return "/* webbrain-patch " + id + " */\n" }

// checkCSS refuses CSS that could load or run something: a test style
// needs neither imports nor script URLs.
func checkCSS(args map[string]any) error {
	css, _ := args["css"].(string)
	if strings.TrimSpace(css) == "" {
		return errors.New("css is empty")
	}
	if len(css) > 20000 {
		return errors.New("css is longer than 20,000 characters")
	}
	low := strings.ToLower(css)
	for _, bad := range []string{"@import", "javascript:", "expression(", "-moz-binding", "behavior:"} {
		if strings.Contains(low, bad) {
			return fmt.Errorf("css may not contain %q", bad)
		}
	}
	if strings.Contains(low, "*/") && strings.Contains(low, "webbrain-patch") {
		return errors.New("css may not imitate WebBrain's patch markers")
	}
	return nil
}

// urlAttributes hold URLs a browser may load or run.
var urlAttributes = map[string]bool{
	"href": true, "src": true, "action": true, "formaction": true, "xlink:href": true, "data": true,
	"poster": true, "background": true, "cite": true, "codebase": true, "ping": true, "srcset": true,
	"lowsrc": true, "dynsrc": true, "longdesc": true, "manifest": true, "icon": true,
}

// elementPatch is patch_element's arguments, canonicalised and checked.
type elementPatch struct {
	Style       map[string]*string `json:"style,omitempty"`
	AddClass    []string           `json:"addClass,omitempty"`
	RemoveClass []string           `json:"removeClass,omitempty"`
	Attributes  map[string]*string `json:"attributes,omitempty"`
}

// styleName canonicalises a style property as the browser does:
// camelCase to kebab-case, lower case; custom properties (--x) as written.
func styleName(n string) string {
	n = strings.TrimSpace(n)
	if strings.HasPrefix(n, "--") {
		return n
	}
	var b strings.Builder
	for _, r := range n {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('-')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	s := b.String()
	if strings.HasPrefix(s, "webkit-") || strings.HasPrefix(s, "moz-") || strings.HasPrefix(s, "ms-") {
		s = "-" + s // WebkitTransform → -webkit-transform
	}
	return s
}

// unsafeURL reports a javascript: (or vbscript:/data:text/html) URL,
// reading it as a browser would: whitespace and control characters inside
// the scheme are ignored.
func unsafeURL(v string) bool {
	var b strings.Builder
	for _, r := range strings.ToLower(v) {
		if r > ' ' && r != 0x7f {
			b.WriteRune(r)
		}
	}
	s := b.String()
	for _, p := range []string{"javascript:", "vbscript:", "data:text/html"} {
		if strings.HasPrefix(s, p) || (strings.Contains(s, ","+p)) || strings.Contains(s, " "+p) {
			return true
		}
	}
	return false
}

// parsePatch reads patch_element's arguments: names canonicalised,
// contradictions and script-bearing values refused.
func parsePatch(args map[string]any) (elementPatch, error) {
	var p elementPatch
	raw, _ := json.Marshal(map[string]any{"style": args["style"], "addClass": args["addClass"], "removeClass": args["removeClass"], "attributes": args["attributes"]})
	var in elementPatch
	if err := json.Unmarshal(raw, &in); err != nil {
		return p, errors.New("style and attributes map names to a string or null; addClass and removeClass are lists of class names")
	}
	if len(in.Style) > 0 {
		p.Style = map[string]*string{}
		for _, k := range sortedKeys(in.Style) {
			n := styleName(k)
			if n == "" || strings.ContainsAny(n, " :;{}") {
				return p, fmt.Errorf("%q is not a CSS property name", k)
			}
			if _, dup := p.Style[n]; dup {
				return p, fmt.Errorf("style names %s twice", n)
			}
			v := in.Style[k]
			if v != nil && unsafeCSSValue(*v) {
				return p, fmt.Errorf("the value of %s may not load or run script", n)
			}
			p.Style[n] = v
		}
	}
	seen := map[string]bool{}
	for _, list := range [][]string{in.AddClass, in.RemoveClass} {
		for _, c := range list {
			if c = strings.TrimSpace(c); c == "" || strings.ContainsAny(c, " \t\n") {
				return p, fmt.Errorf("%q is not one class name", c)
			}
		}
	}
	for _, c := range in.AddClass {
		seen[strings.TrimSpace(c)] = true
		p.AddClass = append(p.AddClass, strings.TrimSpace(c))
	}
	for _, c := range in.RemoveClass {
		c = strings.TrimSpace(c)
		if seen[c] {
			return p, fmt.Errorf("class %q is both added and removed", c)
		}
		p.RemoveClass = append(p.RemoveClass, c)
	}
	if len(in.Attributes) > 0 {
		p.Attributes = map[string]*string{}
		for _, k := range sortedKeys(in.Attributes) {
			n := strings.ToLower(strings.TrimSpace(k))
			switch {
			case n == "" || strings.ContainsAny(n, " \"'>/="):
				return p, fmt.Errorf("%q is not an attribute name", k)
			case strings.HasPrefix(n, "on"):
				return p, fmt.Errorf("%s is an event handler: patch_element does not add script", n)
			case n == "srcdoc":
				return p, errors.New("srcdoc holds a whole document: patch_element does not set it")
			case n == "style" && len(p.Style) > 0:
				return p, errors.New("set the style attribute or style properties, not both")
			case n == "class" && len(p.AddClass)+len(p.RemoveClass) > 0:
				return p, errors.New("set the class attribute or addClass/removeClass, not both")
			}
			if _, dup := p.Attributes[n]; dup {
				return p, fmt.Errorf("attributes names %s twice", n)
			}
			v := in.Attributes[k]
			if v != nil && urlAttributes[n] && unsafeURL(*v) {
				return p, fmt.Errorf("%s may not be a javascript: URL", n)
			}
			if v != nil && n == "style" && unsafeCSSValue(*v) {
				return p, errors.New("the style attribute may not load or run script")
			}
			p.Attributes[n] = v
		}
	}
	if len(p.Style)+len(p.AddClass)+len(p.RemoveClass)+len(p.Attributes) == 0 {
		return p, errors.New("give at least one of style, addClass, removeClass, attributes")
	}
	return p, nil
}

func unsafeCSSValue(v string) bool {
	low := strings.ToLower(v)
	return strings.Contains(low, "javascript:") || strings.Contains(low, "expression(") || strings.Contains(low, "-moz-binding")
}

func checkPatch(args map[string]any) error {
	if err := requireOne("ref", "selector")(args); err != nil {
		return err
	}
	_, err := parsePatch(args)
	return err
}

func sortedKeys(m map[string]*string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// describeChanges is a patch's before → after lines for the model and the
// panel.
func describeChanges(cs []Change) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "- %s %s: %s → %s\n", c.Kind, c.Name, shown(c.Before), shown(c.After))
	}
	return b.String()
}

func shown(v *string) string {
	if v == nil {
		return "(none)"
	}
	return fmt.Sprintf("%q", *v)
}
