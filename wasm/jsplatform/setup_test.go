//go:build js

package jsplatform

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall/js"
	"testing"

	"github.com/webbrain/webbrain/test/testenv"
)

// TestMain loads testdata/fake_browser.js and then the real jsglue/host.js
// into the test page, so globalThis.wbHost is the one the extension ships.
func TestMain(m *testing.M) {
	if err := loadHost(); err != nil {
		fmt.Fprintln(os.Stderr, "jsplatform tests:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func loadHost() error {
	root, err := testenv.RepoRoot()
	if err != nil {
		return err
	}
	for _, f := range []string{"wasm/jsplatform/testdata/fake_browser.js", "jsglue/host.js"} {
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return err
		}
		js.Global().Call("eval", string(src))
	}
	return nil
}

// fake returns the page's fakeBrowser record.
func fake() js.Value { return js.Global().Get("fakeBrowser") }
