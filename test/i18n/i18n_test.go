// Package i18n checks the interface's message catalogs
// (extension/_locales/<folder>/messages.json, docs/decisions/localisation.md)
// against each other and against the code that uses them: every language
// has exactly English's messages, with the plural forms its language has
// and the same placeholders; every key the code names exists in English,
// and every English key is named somewhere. The background's texts
// (uitext.T in wasm/, docs/decisions/background-texts.md) count as names,
// and their English templates must be English's messages word for word.
// Plain `go test ./test/i18n/`.
package i18n

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/webbrain/webbrain/test/testenv"
)

// folders are the interface languages as the _locales folders name them,
// with the plural categories of each language (CLDR, as Intl.PluralRules
// reports them). Chrome calls Tagalog "fil"; the Firefox build copies it
// to "tl".
var folders = map[string][]string{
	"en":    {"one", "other"},
	"es":    {"one", "many", "other"},
	"fr":    {"one", "many", "other"},
	"tr":    {"one", "other"},
	"zh_CN": {"other"},
	"ru":    {"one", "few", "many", "other"},
	"uk":    {"one", "few", "many", "other"},
	"ar":    {"zero", "one", "two", "few", "many", "other"},
	"ja":    {"other"},
	"ko":    {"other"},
	"id":    {"other"},
	"th":    {"other"},
	"ms":    {"other"},
	"fil":   {"one", "other"},
	"pl":    {"one", "few", "many", "other"},
	"he":    {"one", "two", "other"},
}

type message struct {
	Message      string `json:"message"`
	Description  string `json:"description"`
	Placeholders map[string]struct {
		Content string `json:"content"`
	} `json:"placeholders"`
}

var (
	keyName     = regexp.MustCompile(`^[A-Za-z0-9_@]+$`)
	placeholder = regexp.MustCompile(`\$([A-Za-z0-9_]+)\$`)
	// A "$" that is neither part of $name$ nor the escape $$.
	strayDollar = regexp.MustCompile(`\$(\$|[A-Za-z0-9_]+\$)`)
)

func root(t *testing.T) string {
	t.Helper()
	dir, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func load(t *testing.T, dir, folder string) map[string]message {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "extension", "_locales", folder, "messages.json"))
	if err != nil {
		t.Fatalf("%s: %v", folder, err)
	}
	var m map[string]message
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s/messages.json: %v", folder, err)
	}
	return m
}

// split returns a key's base and plural category ("" when it has none).
func split(key string) (string, string) {
	base, form, ok := strings.Cut(key, "__")
	if !ok {
		return key, ""
	}
	return base, form
}

func names(text string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		n := strings.ToLower(m[1])
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func TestEveryLanguageHasEnglishsMessages(t *testing.T) {
	dir := root(t)
	entries, err := os.ReadDir(filepath.Join(dir, "extension", "_locales"))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, e := range entries {
		found = append(found, e.Name())
		if _, ok := folders[e.Name()]; !ok {
			t.Errorf("_locales/%s is not one of the interface languages", e.Name())
		}
	}
	en := load(t, dir, "en")
	enPlural := map[string]bool{} // base → true for a plural message
	for key := range en {
		if base, form := split(key); form != "" {
			enPlural[base] = true
		}
	}
	for folder, forms := range folders {
		if !slices.Contains(found, folder) {
			t.Errorf("_locales/%s is missing", folder)
			continue
		}
		t.Run(folder, func(t *testing.T) {
			checkCatalog(t, folder, forms, load(t, dir, folder), en, enPlural)
		})
	}
}

func checkCatalog(t *testing.T, folder string, forms []string, got, en map[string]message, enPlural map[string]bool) {
	lower := map[string]string{}
	same := 0
	for key, m := range got {
		if !keyName.MatchString(key) {
			t.Errorf("key %q: a browser accepts only letters, digits, _ and @", key)
		}
		if other, dup := lower[strings.ToLower(key)]; dup {
			t.Errorf("keys %q and %q differ only in case: browsers read them as one", key, other)
		}
		lower[strings.ToLower(key)] = key
		base, form := split(key)
		var ref message
		switch {
		case form == "" && enPlural[base]:
			t.Errorf("extra key %q: English has it only with plural forms", key)
			continue
		case form == "":
			r, ok := en[key]
			if !ok {
				t.Errorf("extra key %q: not in English", key)
				continue
			}
			ref = r
		case !enPlural[base]:
			t.Errorf("extra key %q: English has no plural message %q", key, base)
			continue
		case !slices.Contains(forms, form):
			t.Errorf("extra key %q: this language has no plural form %q (it has %v)", key, form, forms)
			continue
		default:
			ref = en[base+"__other"]
		}
		if m.Message == "" {
			t.Errorf("%s: empty message", key)
		}
		if folder != "en" && m.Message == ref.Message && form == "" {
			same++
		}
		// The same placeholders as English, each declared with English's
		// position. A plural form other than "other" may leave the number
		// out ("one conversation", Arabic's dual).
		a, b := names(m.Message), names(ref.Message)
		withoutCount := slices.DeleteFunc(slices.Clone(b), func(n string) bool { return n == "count" })
		if !slices.Equal(a, b) && (form == "" || form == "other" || !slices.Equal(a, withoutCount)) {
			t.Errorf("%s: placeholders %v, English has %v (%q)", key, a, b, m.Message)
		}
		for _, n := range names(m.Message) {
			p, ok := lookup(m.Placeholders, n)
			if !ok {
				t.Errorf("%s: $%s$ is used but not declared in placeholders: the browser refuses the file", key, n)
				continue
			}
			if r, _ := lookup(ref.Placeholders, n); p.Content != r.Content {
				t.Errorf("%s: $%s$ is %q, English says %q", key, n, p.Content, r.Content)
			}
		}
		for n := range m.Placeholders {
			if !slices.Contains(names(m.Message), strings.ToLower(n)) {
				t.Errorf("%s: placeholder %q is declared but not used", key, n)
			}
		}
		if rest := strayDollar.ReplaceAllString(m.Message, ""); strings.Contains(rest, "$") {
			t.Errorf("%s: a lone $ (write $$ for the sign): %q", key, m.Message)
		}
	}
	// Nothing missing: every English message, in every plural form of this language.
	for key := range en {
		base, form := split(key)
		if form == "" {
			if _, ok := got[key]; !ok {
				t.Errorf("missing key %q", key)
			}
			continue
		}
		if form != "other" {
			continue
		}
		for _, f := range forms {
			if _, ok := got[base+"__"+f]; !ok {
				t.Errorf("missing key %q (plural form %q of this language)", base+"__"+f, f)
			}
		}
	}
	// Translated, not copied: a few words (names, "CSS") may stay as English has them.
	if limit := len(got) / 12; same > limit {
		t.Errorf("%d messages are the English text unchanged (at most %d expected)", same, limit)
	}
}

func lookup[V any](m map[string]V, name string) (V, bool) {
	for k, v := range m {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	var zero V
	return zero, false
}

var (
	// t("key"), tp("key", n), N_("key") in JS; data-i18n="key" and its
	// -title, -placeholder, -aria-label forms in HTML; __MSG_key__ in manifests.
	callRef   = regexp.MustCompile(`\b(t|tp|N_)\(\s*["']([^"']+)["']`)
	attrRef   = regexp.MustCompile(`data-i18n(?:-title|-placeholder|-aria-label)?=["']([^"']+)["']`)
	msgRef    = regexp.MustCompile(`__MSG_(\w+)__`)
	dynamicTp = regexp.MustCompile(`\btp\(\s*[^"'\s]`)
)

var (
	// uitext.T("key", "English template", …) and uitext.Errorf in the Go
	// background: both literals, so that this test can read them.
	goRef     = regexp.MustCompile(`uitext\.(?:T|Errorf)\(\s*"([A-Za-z0-9_]+)",\s*("(?:[^"\\]|\\.)*")`)
	goDynamic = regexp.MustCompile(`uitext\.(?:T|Errorf)\(\s*(?:[^"\s]|"[^"]*"\s*[^,\s])`)
)

// goTexts collects the keys the background names with their English
// templates, as key → template, and where each is named.
func goTexts(t *testing.T, dir string) (templates, where map[string]string) {
	templates, where = map[string]string{}, map[string]string{}
	err := filepath.WalkDir(filepath.Join(dir, "wasm"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".go" || strings.HasSuffix(p, "_test.go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		text := string(data)
		if filepath.Base(filepath.Dir(p)) == "uitext" {
			return nil // the package's own documentation
		}
		for _, m := range goRef.FindAllStringSubmatch(text, -1) {
			tmpl, err := strconv.Unquote(m[2])
			if err != nil {
				t.Errorf("%s: %s: %v", rel, m[1], err)
				continue
			}
			if old, ok := templates[m[1]]; ok && old != tmpl {
				t.Errorf("%s: %q has two English texts: %q and %q", rel, m[1], old, tmpl)
			}
			templates[m[1]], where[m[1]] = tmpl, rel
		}
		if m := goDynamic.FindString(text); m != "" {
			t.Errorf("%s: %q: name the key and its English as literals, so this test can check them", rel, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return templates, where
}

func TestBackgroundTextsAreEnglishs(t *testing.T) {
	dir := root(t)
	en := load(t, dir, "en")
	templates, where := goTexts(t, dir)
	if len(templates) < 50 {
		t.Fatalf("found only %d background texts: is the pattern still right?", len(templates))
	}
	for key, tmpl := range templates {
		m, ok := en[key]
		switch {
		case !ok:
			t.Errorf("%s names %q, which extension/_locales/en/messages.json lacks (English: %q)", where[key], key, tmpl)
		case m.Message != tmpl:
			t.Errorf("%s: %q says %q in Go and %q in English's catalog", where[key], key, tmpl, m.Message)
		}
	}
}

// usage collects the keys the code names, as key → where.
func usage(t *testing.T, dir string) (plain, plural map[string]string) {
	plain, plural = map[string]string{}, map[string]string{}
	var files []string
	err := filepath.WalkDir(filepath.Join(dir, "extension"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "_locales" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if ext := filepath.Ext(p); ext == ".js" || ext == ".mjs" || ext == ".html" {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(dir, "chrome", "manifest.json"), filepath.Join(dir, "firefox", "manifest.json"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		text := string(data)
		if filepath.Base(p) == "i18n.js" {
			text = stripComments(text) // its own examples are not uses
		}
		for _, m := range callRef.FindAllStringSubmatch(text, -1) {
			if m[1] == "tp" {
				plural[m[2]] = rel
			} else {
				plain[m[2]] = rel
			}
		}
		for _, m := range attrRef.FindAllStringSubmatch(text, -1) {
			plain[m[1]] = rel
		}
		for _, m := range msgRef.FindAllStringSubmatch(text, -1) {
			plain[m[1]] = rel
		}
		if filepath.Base(p) != "i18n.js" && dynamicTp.MatchString(text) {
			t.Errorf("%s: tp() with a computed key: name the key, so this test can check it", rel)
		}
	}
	templates, where := goTexts(t, dir)
	for key := range templates {
		plain[key] = where[key]
	}
	return plain, plural
}

func stripComments(text string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

func TestCodeAndEnglishAgree(t *testing.T) {
	dir := root(t)
	en := load(t, dir, "en")
	plain, plural := usage(t, dir)
	for key, where := range plain {
		if _, ok := en[key]; !ok {
			t.Errorf("%s uses %q, which extension/_locales/en/messages.json lacks", where, key)
		}
	}
	for key, where := range plural {
		if _, ok := en[key+"__other"]; !ok {
			t.Errorf("%s uses plural %q, which English lacks (%s__one, %s__other)", where, key, key, key)
		}
	}
	for key := range en {
		base, form := split(key)
		_, asPlain := plain[key]
		_, asPlural := plural[base]
		if (form == "" && !asPlain) || (form != "" && !asPlural) {
			t.Errorf("English message %q is used nowhere in extension/ or the manifests", key)
		}
	}
}

// The background shows system notifications in the interface language
// itself (jsglue/host.js): its table of languages is the panel's.
func TestNotificationsKnowThePanelsLanguages(t *testing.T) {
	dir := root(t)
	read := func(parts ...string) string {
		b, err := os.ReadFile(filepath.Join(append([]string{dir}, parts...)...))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	panel := map[string]string{}
	for _, m := range regexp.MustCompile(`\{ code: "(\w+)", folder: "(\w+)"`).FindAllStringSubmatch(read("extension", "common", "i18n.js"), -1) {
		panel[m[1]] = m[2]
	}
	host := read("jsglue", "host.js")
	start := strings.Index(host, "const UI_FOLDERS = {")
	end := strings.Index(host[start:], "};")
	if start < 0 || end < 0 {
		t.Fatal("jsglue/host.js has no UI_FOLDERS table")
	}
	bg := map[string]string{}
	for _, m := range regexp.MustCompile(`(\w+): "(\w+)"`).FindAllStringSubmatch(host[start:start+end], -1) {
		bg[m[1]] = m[2]
	}
	if len(panel) != len(folders) || !maps.Equal(panel, bg) {
		t.Errorf("the panel's languages %v, the background's %v", panel, bg)
	}
	for _, f := range bg {
		if _, ok := folders[f]; !ok {
			t.Errorf("the background names a folder %q that is no interface language", f)
		}
	}
}
