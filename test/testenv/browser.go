//go:build !js

package testenv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

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

// MapHostsToLoopback makes Chromium resolve each host name to 127.0.0.1
// (--host-resolver-rules), so a test server on loopback can be reached as
// an ordinary public-looking site: http://shop-deals.com:<port>/ keeps its
// port and reaches the server listening on 127.0.0.1:<port>. Only these
// names are mapped; IP literals (the fake model, fixtures) are untouched.
func MapHostsToLoopback(hosts ...string) chromedp.ExecAllocatorOption {
	return MapHosts(nil, hosts...)
}

// MapHosts is MapHostsToLoopback plus names mapped to a loopback address
// with its port (name → "127.0.0.1:port"): a server that must answer on
// the name's default port, as https://chatgpt.com/ does for research
// escalation's fixed address.
func MapHosts(toAddr map[string]string, hosts ...string) chromedp.ExecAllocatorOption {
	var rules []string
	for _, h := range hosts {
		rules = append(rules, "MAP "+h+" 127.0.0.1")
	}
	for h, addr := range toAddr {
		rules = append(rules, "MAP "+h+" "+addr)
	}
	return chromedp.Flag("host-resolver-rules", strings.Join(rules, ", "))
}

// BuiltExtension is dist/chrome, or an error that says to build it first.
func BuiltExtension(root string) (string, error) {
	dir := filepath.Join(root, "dist", "chrome")
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		return "", fmt.Errorf("%s has no manifest.json: run ./build.sh first", dir)
	}
	return dir, nil
}

// ExtensionOptions starts headless Chromium with the unpacked extension in
// extDir loaded (the allocator's defaults disable extensions).
func ExtensionOptions(profile, extDir string, extra ...chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	return ChromiumOptions(profile, append([]chromedp.ExecAllocatorOption{
		chromedp.Flag("disable-extensions", false),
		chromedp.Flag("load-extension", extDir),
		chromedp.Flag("disable-extensions-except", extDir),
	}, extra...)...)
}

// IsExtensionWorker reports whether a target is WebBrain's service worker
// (chrome-extension://<id>/background.js).
func IsExtensionWorker(info *target.Info) bool {
	rest, ok := strings.CutPrefix(info.URL, "chrome-extension://")
	_, path, _ := strings.Cut(rest, "/")
	return ok && info.Type == "service_worker" && path == "background.js"
}

// ExtensionWorker waits for the extension's service worker and returns its
// target and the extension's id.
func ExtensionWorker(browser context.Context, timeout time.Duration) (*target.Info, string, error) {
	deadline := time.Now().Add(timeout)
	for {
		infos, err := chromedp.Targets(browser)
		if err != nil {
			return nil, "", err
		}
		for _, info := range infos {
			if IsExtensionWorker(info) {
				id, _, _ := strings.Cut(strings.TrimPrefix(info.URL, "chrome-extension://"), "/")
				return info, id, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, "", errors.New("the extension's service worker never appeared: does dist/chrome load (a file the manifest names may be missing)?")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ExtensionBrowser is headless Chromium running the built extension.
type ExtensionBrowser struct {
	Root   string          // the repository root
	Ctx    context.Context // chromedp context owning the browser
	ExtID  string          // the extension's id
	Worker *target.Info    // its service worker target
	// Downloads is the folder the profile saves downloads in, without
	// asking: a folder of the run, not the user's.
	Downloads string
	close     func()
}

// StartExtensionBrowser starts Chromium with dist/chrome loaded in a fresh
// profile and waits for the extension's service worker. Close ends it.
func StartExtensionBrowser(extra ...chromedp.ExecAllocatorOption) (*ExtensionBrowser, error) {
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	extDir, err := BuiltExtension(root)
	if err != nil {
		return nil, err
	}
	profile, err := os.MkdirTemp("", "webbrain-chromium-")
	if err != nil {
		return nil, err
	}
	downloads, err := downloadsPrefs(profile)
	if err != nil {
		os.RemoveAll(profile)
		return nil, err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), ExtensionOptions(profile, extDir, extra...)...)
	ctx, cancelBrowser := chromedp.NewContext(alloc)
	b := &ExtensionBrowser{Root: root, Ctx: ctx, Downloads: downloads, close: func() {
		cancelBrowser()
		cancelAlloc()
		os.RemoveAll(profile)
	}}
	if err := chromedp.Do(ctx); err != nil {
		b.Close()
		return nil, fmt.Errorf("start chromium: %w", err)
	}
	if b.Worker, b.ExtID, err = ExtensionWorker(ctx, 20*time.Second); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// downloadsPrefs makes the profile save downloads in a folder of its own
// without asking, the way a user's setting does. The profile's preference
// is used rather than DevTools' Browser.setDownloadBehavior, which
// overrides the names an extension gives its downloads.
func downloadsPrefs(profile string) (string, error) {
	dir := filepath.Join(profile, "Downloads")
	if err := os.MkdirAll(filepath.Join(profile, "Default"), 0o755); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	prefs, err := json.Marshal(map[string]any{"download": map[string]any{"default_directory": dir, "prompt_for_download": false, "directory_upgrade": true}})
	if err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(profile, "Default", "Preferences"), prefs, 0o644)
}

// Close stops the browser and removes its profile.
func (b *ExtensionBrowser) Close() { b.close() }

// Scripts are the content scripts as the build bundles them.
type Scripts struct {
	Tree      string // accessibility-tree.js, injected by the background
	Content   string // content.js, injected after it
	Listeners string // click-listeners.js, which runs in the page's world before its scripts
}

// ContentScripts bundles the content scripts as the build does
// (./build.sh content, which installs esbuild first when it is missing).
func ContentScripts(root string) (Scripts, error) {
	dir, err := os.MkdirTemp("", "webbrain-content-scripts-")
	if err != nil {
		return Scripts{}, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("bash", filepath.Join(root, "build.sh"), "content", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return Scripts{}, fmt.Errorf("./build.sh content: %v\n%s", err, out)
	}
	var s Scripts
	for _, f := range []struct {
		name string
		to   *string
	}{{"accessibility-tree.js", &s.Tree}, {"content.js", &s.Content}, {"click-listeners.js", &s.Listeners}} {
		b, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			return Scripts{}, err
		}
		*f.to = string(b)
	}
	return s, nil
}
