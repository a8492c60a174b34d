// Command wasmsize prints what takes the space in a Go js/wasm module: the
// size of each section, and the code of each Go package, read from the
// module's function names. Those are only in a module built without -s
// (./build.sh bench builds one); the data section (strings, tables, type
// and function metadata) is not split by package.
//
//	go run ./test/bench/wasmsize -top 25 module.wasm
package main

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"strings"
)

func main() {
	top := flag.Int("top", 25, "packages to list")
	funcs := flag.String("funcs", "", "also list the largest functions whose names contain this (\".init\": package initializers)")
	flag.Parse()
	log.SetFlags(0)
	if flag.NArg() != 1 {
		log.Fatal("usage: wasmsize [-top n] [-funcs substring] module.wasm")
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	m, err := parse(b)
	if err != nil {
		log.Fatal("wasmsize: ", err)
	}
	fmt.Printf("%s: %d bytes\n", flag.Arg(0), len(b))
	for _, s := range m.sections {
		if s.size >= 10_000 {
			fmt.Printf("  section %-18s %9d\n", s.name, s.size)
		}
	}
	if len(m.names) == 0 {
		fmt.Println("  (no function names: built with -s)")
		return
	}
	code := map[string]int{}
	total := 0
	for i, size := range m.bodies {
		code[pkgOf(m.names[m.imported+i])] += size
		total += size
	}
	pkgs := make([]string, 0, len(code))
	for p := range code {
		pkgs = append(pkgs, p)
	}
	slices.SortFunc(pkgs, func(a, b string) int { return code[b] - code[a] })
	fmt.Printf("  code by package (of %d bytes)\n", total)
	for i, p := range pkgs {
		if i == *top {
			break
		}
		fmt.Printf("    %-44s %9d %5.1f%%\n", p, code[p], 100*float64(code[p])/float64(total))
	}
	if *funcs == "" {
		return
	}
	var found []int
	for i := range m.bodies {
		if strings.Contains(m.names[m.imported+i], *funcs) {
			found = append(found, i)
		}
	}
	slices.SortFunc(found, func(a, b int) int { return m.bodies[b] - m.bodies[a] })
	fmt.Printf("  largest functions named *%s*\n", *funcs)
	for i, f := range found {
		if i == *top {
			break
		}
		fmt.Printf("    %-70s %9d\n", m.names[m.imported+f], m.bodies[f])
	}
}

type section struct {
	name string
	size int
}

type module struct {
	sections []section
	imported int            // imported functions come first in the index space
	bodies   []int          // size of each defined function's body
	names    map[int]string // function index → name
}

var sectionNames = map[byte]string{1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global",
	7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "datacount"}

// reader reads LEB128 numbers and names from a section.
type reader struct {
	b   []byte
	err error
}

func (r *reader) u() int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errors.New("bad LEB128 number")
		r.b = nil
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *reader) bytes(n int) []byte {
	if n > len(r.b) {
		r.err = errors.New("truncated section")
		n = len(r.b)
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) byte() byte { return r.bytes(1)[0] }

func parse(b []byte) (*module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	m := &module{names: map[int]string{}}
	r := &reader{b: b[8:]}
	for len(r.b) > 0 && r.err == nil {
		id := r.byte()
		body := &reader{b: r.bytes(r.u())}
		name := sectionNames[id]
		size := len(body.b)
		switch id {
		case 0:
			name = "custom " + string(body.bytes(body.u()))
			if name == "custom name" {
				m.readNames(body)
			}
		case 2:
			m.imported = countFuncImports(body)
		case 10:
			for range body.u() {
				n := body.u()
				m.bodies = append(m.bodies, n)
				body.bytes(n)
			}
		}
		if body.err != nil {
			return nil, fmt.Errorf("section %s: %w", name, body.err)
		}
		m.sections = append(m.sections, section{name, size})
	}
	return m, r.err
}

// countFuncImports counts the imported functions; other imports take no
// function index.
func countFuncImports(r *reader) int {
	funcs := 0
	for range r.u() {
		r.bytes(r.u()) // module
		r.bytes(r.u()) // name
		switch r.byte() {
		case 0: // function: type index
			r.u()
			funcs++
		case 1: // table: element type, limits
			r.byte()
			limits(r)
		case 2: // memory: limits
			limits(r)
		case 3: // global: value type, mutability
			r.bytes(2)
		}
	}
	return funcs
}

func limits(r *reader) {
	if r.byte()&1 == 1 {
		r.u()
	}
	r.u()
}

// readNames reads the function names subsection of the name section.
func (m *module) readNames(r *reader) {
	for len(r.b) > 0 && r.err == nil {
		id := r.byte()
		sub := &reader{b: r.bytes(r.u())}
		if id != 1 {
			continue
		}
		for range sub.u() {
			i := sub.u()
			m.names[i] = string(sub.bytes(sub.u()))
		}
		r.err = sub.err
	}
}

// pkgOf returns the package of a Go function name as the wasm linker
// writes it: the import path with "/" turned into "_", then ".Func" or
// ".__T_.Method". The package ends at the first "." after the host name
// of a path that has one ("github.com_owner_repo_pkg").
func pkgOf(name string) string {
	start := 0
	if u := strings.IndexByte(name, '_'); u > 0 && isHost(name[:u]) {
		start = u
	}
	if j := strings.IndexByte(name[start:], '.'); j >= 0 {
		return name[:start+j]
	}
	return name
}

// isHost reports whether s looks like the host name that starts an import
// path: lower-case letters, digits, dashes and inner dots.
func isHost(s string) bool {
	if !strings.Contains(s, ".") || strings.HasSuffix(s, ".") {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}
