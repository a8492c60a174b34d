//go:build firefox

package firefox

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/webbrain/webbrain/test/scenario"
)

// firefoxPath is the Debian package's binary; FIREFOX overrides it.
const firefoxPath = "firefox-esr"

// geckoID is browser_specific_settings.gecko.id in firefox/manifest.json,
// and addonUUID the moz-extension:// host the profile pins it to, so tests
// know the extension's origin before it is installed.
const (
	geckoID   = "webbrain@webbrain.dev"
	addonUUID = "7c0b4f2e-3d1a-4e8b-9f60-1a2b3c4d5e6f"
	extOrigin = "moz-extension://" + addonUUID
)

// firefox is one running browser with a BiDi session.
type firefox struct {
	cmd     *exec.Cmd
	profile string
	// downloads is the folder the browser saves downloads in, inside the
	// profile.
	downloads string
	bidi      *bidi
	log       *lineLog // stdout and stderr, with the add-on's console
	exited    chan struct{}
}

// profilePrefs keep a headless test browser quiet on a closed network,
// pin the add-on's UUID and save downloads in the folder downloads.
func profilePrefs(downloads string) string {
	uuids, _ := json.Marshal(map[string]string{geckoID: addonUUID})
	prefs := []struct {
		name  string
		value any
	}{
		{"extensions.webextensions.uuids", string(uuids)},
		// The add-on's console.* lines go to stdout, for failure reports.
		{"devtools.console.stdout.content", true},
		{"browser.shell.checkDefaultBrowser", false},
		{"browser.startup.homepage_override.mstone", "ignore"},
		{"browser.startup.page", 0},
		{"browser.aboutwelcome.enabled", false},
		{"datareporting.policy.dataSubmissionEnabled", false},
		{"datareporting.healthreport.uploadEnabled", false},
		{"toolkit.telemetry.enabled", false},
		{"app.update.auto", false},
		{"app.update.enabled", false},
		{"app.normandy.enabled", false},
		{"extensions.update.enabled", false},
		{"extensions.getAddons.cache.enabled", false},
		{"extensions.blocklist.enabled", false},
		{"browser.safebrowsing.malware.enabled", false},
		{"browser.safebrowsing.phishing.enabled", false},
		{"browser.safebrowsing.downloads.enabled", false},
		{"network.captive-portal-service.enabled", false},
		{"network.connectivity-service.enabled", false},
		{"browser.newtabpage.enabled", false},
		{"services.settings.server", "http://127.0.0.1:9/"},
		{"dom.disable_open_during_load", false},
		// Public-looking names that Firefox resolves to this computer: one
		// for the dns.resolve check of fetch_url (egress_test.go), and the
		// injection suite's sites, over plain http with their ports.
		{"network.dns.localDomains", strings.Join(append([]string{rebindHost}, scenario.InjectionHosts()...), ",")},
		{"dom.security.https_first", false},
		{"dom.security.https_first_schemeless", false},
		{"browser.download.dir", downloads},
		{"browser.download.folderList", 2},
		{"browser.download.useDownloadDir", true},
		{"browser.download.always_ask_before_handling_new_types", false},
		{"browser.download.panel.shown", true},
	}
	var b strings.Builder
	for _, p := range prefs {
		v, _ := json.Marshal(p.value)
		fmt.Fprintf(&b, "user_pref(%q, %s);\n", p.name, v)
	}
	return b.String()
}

var bidiListening = regexp.MustCompile(`WebDriver BiDi listening on (ws://\S+)`)

// startFirefox starts firefox-esr headless on a fresh profile, connects to
// its BiDi endpoint and opens a session.
func startFirefox(ctx context.Context) (*firefox, error) {
	profile, err := os.MkdirTemp("", "webbrain-firefox-")
	if err != nil {
		return nil, err
	}
	downloads := filepath.Join(profile, "downloads")
	if err := os.Mkdir(downloads, 0o755); err != nil {
		os.RemoveAll(profile)
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(profile, "user.js"), []byte(profilePrefs(downloads)), 0o644); err != nil {
		os.RemoveAll(profile)
		return nil, err
	}
	exe := os.Getenv("FIREFOX")
	if exe == "" {
		exe = firefoxPath
	}
	// System access lets BiDi script the browser window (chrome scope).
	args := []string{"--headless", "--no-remote", "--profile", profile, "--remote-debugging-port=0", "--remote-allow-system-access"}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "MOZ_CRASHREPORTER_DISABLE=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		os.RemoveAll(profile)
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(profile)
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(profile)
		return nil, fmt.Errorf("start %s: %w", exe, err)
	}
	f := &firefox{cmd: cmd, profile: profile, downloads: downloads, log: &lineLog{}, exited: make(chan struct{})}
	wsURL := make(chan string, 1)
	findEndpoint := func(line string) {
		if m := bidiListening.FindStringSubmatch(line); m != nil {
			select {
			case wsURL <- m[1]:
			default:
			}
		}
	}
	go f.log.scan(stderr, findEndpoint)
	go f.log.scan(stdout, findEndpoint)
	go func() {
		cmd.Wait()
		close(f.exited)
	}()

	var endpoint string
	select {
	case endpoint = <-wsURL:
	case <-f.exited:
		f.cleanup()
		return nil, fmt.Errorf("firefox exited before BiDi listened:\n%s", f.log.String())
	case <-ctx.Done():
		f.close()
		return nil, fmt.Errorf("waiting for %q on firefox's stderr: %w\n%s", "WebDriver BiDi listening", ctx.Err(), f.log.String())
	}
	f.bidi, err = dialBiDi(ctx, endpoint+"/session")
	if err != nil {
		f.close()
		return nil, fmt.Errorf("connect to %s/session: %w", endpoint, err)
	}
	if err := f.bidi.call(ctx, "session.new", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		f.close()
		return nil, err
	}
	return f, nil
}

// installAddon installs dir as a temporary add-on and returns its id.
func (f *firefox) installAddon(ctx context.Context, dir string) (string, error) {
	var res struct {
		Extension string `json:"extension"`
	}
	err := f.bidi.call(ctx, "webExtension.install", map[string]any{
		"extensionData": map[string]any{"type": "path", "path": dir},
	}, &res)
	return res.Extension, err
}

func (f *firefox) uninstallAddon(ctx context.Context, id string) error {
	return f.bidi.call(ctx, "webExtension.uninstall", map[string]any{"extension": id}, nil)
}

// close ends the session and the browser and removes the profile.
func (f *firefox) close() {
	if f.bidi != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		f.bidi.call(ctx, "browser.close", nil, nil)
		cancel()
		f.bidi.close()
	}
	select {
	case <-f.exited:
	case <-time.After(5 * time.Second):
		f.cmd.Process.Kill()
		<-f.exited
	}
	f.cleanup()
}

func (f *firefox) cleanup() {
	os.RemoveAll(f.profile)
}

// newTab opens a tab and returns its browsing context id.
func (f *firefox) newTab(ctx context.Context) (string, error) {
	var res struct {
		Context string `json:"context"`
	}
	err := f.bidi.call(ctx, "browsingContext.create", map[string]any{"type": "tab"}, &res)
	return res.Context, err
}

func (f *firefox) navigate(ctx context.Context, bc, target string) error {
	return f.bidi.call(ctx, "browsingContext.navigate", map[string]any{
		"context": bc, "url": target, "wait": "complete",
	}, nil)
}

// eval runs the JavaScript expression expr in browsing context bc, awaits
// it and decodes its JSON-serialised value into out (when not nil).
func (f *firefox) eval(ctx context.Context, bc, expr string, out any) error {
	var res struct {
		Type   string `json:"type"`
		Result struct {
			Type  string `json:"type"`
			Value string `json:"value"`
		} `json:"result"`
		ExceptionDetails struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	err := f.bidi.call(ctx, "script.evaluate", map[string]any{
		"expression":      "(async () => JSON.stringify(await (" + expr + ")) ?? 'null')()",
		"target":          map[string]any{"context": bc},
		"awaitPromise":    true,
		"resultOwnership": "none",
	}, &res)
	if err != nil {
		return err
	}
	if res.Type == "exception" {
		return fmt.Errorf("script threw: %s", res.ExceptionDetails.Text)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal([]byte(res.Result.Value), out)
}

// lineLog keeps what the browser wrote, for failure messages.
type lineLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *lineLog) scan(r io.Reader, each func(string)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		l.mu.Lock()
		l.lines = append(l.lines, line)
		l.mu.Unlock()
		each(line)
	}
}

func (l *lineLog) String() string {
	return strings.Join(l.since(0), "\n")
}

// mark returns a position for since.
func (l *lineLog) mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}

func (l *lineLog) since(mark int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines[mark:])
}

// chromeWindow returns the browsing context of the first browser window in
// chrome scope: privileged script there opens extension pages, which BiDi
// navigation refuses.
func (f *firefox) chromeWindow(ctx context.Context) (string, error) {
	var tree struct {
		Contexts []struct {
			Context string `json:"context"`
			URL     string `json:"url"`
		} `json:"contexts"`
	}
	if err := f.bidi.call(ctx, "browsingContext.getTree", map[string]any{"moz:scope": "chrome"}, &tree); err != nil {
		return "", err
	}
	for _, c := range tree.Contexts {
		if c.URL == "chrome://browser/content/browser.xhtml" {
			return c.Context, nil
		}
	}
	return "", errors.New("no browser window in chrome scope")
}

// pinUUID sets the extensions.webextensions.uuids preference again:
// user.js sets it at start, but uninstalling the add-on drops its entry and
// a reinstall would get a random UUID.
func (f *firefox) pinUUID(ctx context.Context, chromeBC string) error {
	uuids, _ := json.Marshal(map[string]string{geckoID: addonUUID})
	return f.eval(ctx, chromeBC, fmt.Sprintf(`(Services.prefs.setStringPref("extensions.webextensions.uuids", %q), true)`, uuids), nil)
}

// openExtPage opens the extension page at path (e.g. "/settings/settings.html")
// in a background tab and returns its browsing context once it has loaded.
// BiDi sends no load events for extension pages: poll the tree instead.
func (f *firefox) openExtPage(ctx context.Context, chromeBC, path string) (string, error) {
	target := extOrigin + path
	before, err := f.contexts(ctx)
	if err != nil {
		return "", err
	}
	expr := fmt.Sprintf(`(gBrowser.addTab(%q, {triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal()}), true)`, target)
	if err := f.eval(ctx, chromeBC, expr, nil); err != nil {
		return "", fmt.Errorf("open %s: %w", target, err)
	}
	for {
		now, err := f.contexts(ctx)
		if err != nil {
			return "", err
		}
		for bc, u := range now {
			var loaded bool
			if _, old := before[bc]; !old && u == target && f.eval(ctx, bc, `document.readyState === "complete"`, &loaded) == nil && loaded {
				return bc, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("%s never loaded: %w", target, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// contexts maps the top-level content browsing contexts to their URLs.
func (f *firefox) contexts(ctx context.Context) (map[string]string, error) {
	var tree struct {
		Contexts []struct {
			Context string `json:"context"`
			URL     string `json:"url"`
		} `json:"contexts"`
	}
	if err := f.bidi.call(ctx, "browsingContext.getTree", map[string]any{"maxDepth": 0}, &tree); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, c := range tree.Contexts {
		out[c.Context] = c.URL
	}
	return out, nil
}

// openFixture opens base/fixture in a new tab, tagged with the test's name
// so the tab's URL is unique, and returns its browsing context and URL.
func (f *firefox) openFixture(ctx context.Context, base, fixture, test string) (string, string, error) {
	pageURL := base + "/" + fixture + "?test=" + url.QueryEscape(test)
	bc, err := f.openURL(ctx, pageURL)
	return bc, pageURL, err
}

// openURL loads pageURL in a new tab and returns the tab's context.
func (f *firefox) openURL(ctx context.Context, pageURL string) (string, error) {
	bc, err := f.newTab(ctx)
	if err != nil {
		return "", err
	}
	if err := f.navigate(ctx, bc, pageURL); err != nil {
		f.closeContext(bc)
		return "", fmt.Errorf("open %s: %w", pageURL, err)
	}
	return bc, nil
}

// closeContext closes a tab; a tab already gone is not an error worth
// reporting at clean-up.
func (f *firefox) closeContext(bc string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	f.bidi.call(ctx, "browsingContext.close", map[string]any{"context": bc}, nil)
}
