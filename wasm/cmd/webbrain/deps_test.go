package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The wasm module must not link net/http: it triples the module's size and
// start-up time. Fetch goes through the browser via package jsplatform.
// Nor crypto/rand, which brings the FIPS module (0.17 MB): the runtime's
// generator behind math/rand/v2 is seeded from the system's entropy.
func TestModuleLinksNoNetHTTP(t *testing.T) {
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
	for _, forbidden := range []string{"net/http", "crypto/rand", "github.com/webbrain/webbrain/wasm/platform/nativefetch"} {
		if slices.Contains(deps, forbidden) {
			t.Errorf("the wasm module links %s", forbidden)
		}
	}
	if !slices.Contains(deps, "github.com/webbrain/webbrain/wasm/jsplatform") {
		t.Errorf("the wasm module does not link jsplatform; deps: %v", deps)
	}
}
