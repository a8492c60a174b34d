// Package testenv holds what every browser test suite needs: where the
// repository and its test pages are, the content scripts as the build
// makes them, and how to start headless Chromium on this kind of machine.
// The repository's place (this file) is all a js/wasm test can use: the
// rest drives a browser from outside and builds only natively.
package testenv

import (
	"errors"
	"os"
	"path/filepath"
)

// RepoRoot walks up from the working directory (a test's is its package's
// directory) to the directory of go.mod. Where the working directory
// cannot be read (js/wasm in a browser) the walk goes up from ".".
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	up := filepath.Dir
	if err != nil {
		dir, up = ".", func(d string) string { return filepath.Join(d, "..") }
	}
	for range 32 {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		dir = up(dir)
	}
	return "", errors.New("no go.mod above the working directory")
}

// EdgePages is the folder of small automation edge-case pages (every input
// type, iframes, shadow DOM, an obstructed checkbox, a long page) that the
// suites serve as /edge/; SOURCES.md there says where they come from.
func EdgePages(root string) string {
	return filepath.Join(root, "test", "testdata", "edge-pages")
}
