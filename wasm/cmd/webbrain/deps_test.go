package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The wasm module must not link net/http: it triples the module's size and
// start-up time. Fetch goes through the browser via package jsplatform.
// Nor crypto/rand, which brings the FIPS module (0.17 MB): the runtime's
// generator behind math/rand/v2 is seeded from the system's entropy.
// Nor regexp, which with the Unicode tables it references is half a
// megabyte of the module and part of every wake (package ascii does the
// few shapes the core checks).
func TestModuleLinksNoNetHTTP(t *testing.T) {
	consultSources(t)
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list -deps printed nothing")
	}
	for _, forbidden := range []string{"net/http", "crypto/rand", "regexp", "github.com/webbrain/webbrain/wasm/platform/nativefetch"} {
		if slices.Contains(deps, forbidden) {
			t.Errorf("the wasm module links %s", forbidden)
		}
	}
	if !slices.Contains(deps, "github.com/webbrain/webbrain/wasm/jsplatform") {
		t.Errorf("the wasm module does not link jsplatform; deps: %v", deps)
	}
}

// Package initialisation runs on every wake of the worker, so what the
// core's packages build there must stay small: tables, schemas, price
// lists and patterns are built on first use. GODEBUG=inittrace=1 makes
// the Go runtime print each package's init with its allocations; Node
// runs the module until its main, which fails without a browser.
func TestPackageInitBuildsLittle(t *testing.T) {
	consultSources(t)
	const maxAllocs, maxBytes = 100, 64 << 10
	wasm := filepath.Join(t.TempDir(), "webbrain.wasm")
	build := exec.Command("go", "build", "-o", wasm, ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	run := exec.Command("node", filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec_node.js"), wasm)
	run.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, _ := run.CombinedOutput() // main fails outside a browser
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		// init github.com/webbrain/webbrain/wasm/guard @79 ms, 2.8 ms clock, 17800 bytes, 60 allocs
		f := strings.Fields(strings.ReplaceAll(sc.Text(), ",", ""))
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes" || f[10] != "allocs" {
			continue
		}
		seen++
		if !strings.HasPrefix(f[1], "github.com/webbrain/") {
			continue
		}
		n, _ := strconv.Atoi(f[7])
		allocs, _ := strconv.Atoi(f[9])
		if allocs > maxAllocs || n > maxBytes {
			t.Errorf("%s allocates %d bytes in %d allocations at init; build it on first use", f[1], n, allocs)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace printed:\n%s", out)
	}
}

// consultSources looks at every Go file of the module's core. These tests
// build the module with the go command, whose inputs go test's cache does
// not see; files the test itself looks at are part of the cache key, so a
// change anywhere in wasm/ runs them again instead of reusing a pass.
func consultSources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
