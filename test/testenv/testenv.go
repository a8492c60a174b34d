// Package testenv holds what every browser test suite needs: where the
// repository and the shared test material are, and how to start headless
// Chromium on this kind of machine.
package testenv

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/chromedp/chromedp"
)

// RepoRoot walks up from the working directory to the directory of go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// SharedDir is the shared test material (recorded streams, saved pages),
// which sits beside the repository.
func SharedDir(root string) string {
	return filepath.Join(root, "..", "shared")
}

// Chromium is the browser binary: $CHROMIUM, else Debian's chromium.
func Chromium() string {
	if exe := os.Getenv("CHROMIUM"); exe != "" {
		return exe
	}
	return "/usr/bin/chromium"
}

// ChromiumOptions starts headless Chromium with a fresh profile. Without the
// background-networking flags a machine with no outside network floods the
// browser with refused connections; as root the sandbox must be off.
func ChromiumOptions(profile string, extra ...chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Chromium()),
		chromedp.Flag("headless", "new"),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
	)
	return append(opts, extra...)
}
