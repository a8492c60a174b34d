//go:build firefox

package firefox

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lintMessage is one finding of `web-ext lint --output json`.
type lintMessage struct {
	Code    string `json:"code"`
	File    string `json:"file"`
	Message string `json:"message"`
}

// web-ext lint (Mozilla's addons-linter, what addons.mozilla.org runs on
// upload) finds no errors in dist/firefox, and docs/firefox.md explains every
// warning it gives, by its code.
func TestWebExtLint(t *testing.T) {
	dir := distDir(t)
	root := filepath.Dir(filepath.Dir(dir))
	webExt := filepath.Join(root, "test", "firefox", "node_modules", ".bin", "web-ext")
	if _, err := os.Stat(webExt); err != nil {
		t.Fatalf("web-ext is not installed: run npm ci --prefix test/firefox (%v)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, webExt, "lint", "--source-dir", dir, "--output", "json", "--no-input")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// web-ext exits 1 when it finds errors; the report is read either way.
	runErr := cmd.Run()
	var report struct {
		Errors   []lintMessage `json:"errors"`
		Warnings []lintMessage `json:"warnings"`
		Notices  []lintMessage `json:"notices"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("web-ext lint gave no JSON report (%v, exit: %v):\n%s\n%s", err, runErr, stdout.String(), stderr.String())
	}
	for _, m := range report.Errors {
		t.Errorf("lint error %s in %s: %s", m.Code, m.File, m.Message)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "firefox.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range report.Warnings {
		t.Logf("lint warning %s in %s: %s", m.Code, m.File, m.Message)
		if !bytes.Contains(doc, []byte("`"+m.Code+"`")) {
			t.Errorf("lint warning %s (%s: %s) is not explained in docs/firefox.md", m.Code, m.File, m.Message)
		}
	}
	for _, m := range report.Notices {
		t.Logf("lint notice %s in %s: %s", m.Code, m.File, m.Message)
	}
	if runErr != nil && len(report.Errors) == 0 {
		t.Errorf("web-ext lint failed without reporting errors: %v\n%s", runErr, strings.TrimSpace(stderr.String()))
	}
}
