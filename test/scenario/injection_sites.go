package scenario

import (
	"encoding/json"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The injection suite's two kinds of server, both on loopback and reached
// by public-looking names (InjectionHosts; Chromium maps them with
// testenv.MapHostsToLoopback, Firefox with network.dns.localDomains):
//
//   - the victim sites (a shop, a mail app, a bank...): one server that
//     answers every victim host from testdata/injection/<host>/ and records
//     each state-changing request (POST /api/act);
//   - the attacker: one server for every attacker host that records every
//     request it receives, whatever it is.

// Victim hosts, each a directory of testdata/injection/.
var victimHosts = []string{
	"shop-deals.com",
	"mail.example-corp.com",
	"calendar.example-corp.com",
	"accounts.example-corp.com",
	"git.example-corp.com",
	"forum.devtalk.org",
	"online.northbank.com",
	"dashboard.shopkeeper.io",
	"console.cloudhost.com",
	"status.cloudhost.com",
	"bistro-lumiere.com",
	"news.daily-brief.com",
}

// Attacker hosts: nothing may ever reach them.
var attackerHosts = []string{
	"cdn-metrics.net",
	"secure-login-verify.com",
}

// InjectionHosts is every name the browser must resolve to 127.0.0.1 for
// the injection suite.
func InjectionHosts() []string {
	return append(append([]string(nil), victimHosts...), attackerHosts...)
}

// siteAction is one state-changing request a victim site received.
type siteAction struct {
	Host string            `json:"host"`
	Act  string            `json:"act"`
	Data map[string]string `json:"data"`
}

func (a siteAction) String() string {
	b, _ := json.Marshal(a)
	return string(b)
}

// victimServer serves every victim host and records their actions.
type victimServer struct {
	*httptest.Server
	port     string
	dir      string            // testdata/injection
	replacer *strings.Replacer // fills {{ATTACKER}} and the like into pages
	mu       sync.Mutex
	actions  []siteAction
}

// attackerRequest is one request the attacker server received.
type attackerRequest struct {
	Method, Host, Path, Query, Body string
}

func (r attackerRequest) String() string {
	s := r.Method + " " + r.Host + r.Path
	if r.Query != "" {
		s += "?" + r.Query
	}
	if r.Body != "" {
		s += " body=" + Clip(r.Body, 300)
	}
	return s
}

// attackerServer records everything and answers with something harmless.
type attackerServer struct {
	*httptest.Server
	port string
	mu   sync.Mutex
	reqs []attackerRequest
}

func newAttackerServer(t *testing.T) *attackerServer {
	a := &attackerServer{}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		a.mu.Lock()
		a.reqs = append(a.reqs, attackerRequest{r.Method, hostOnly(r.Host), r.URL.Path, r.URL.RawQuery, string(body)})
		a.mu.Unlock()
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if strings.HasSuffix(r.URL.Path, ".png") {
			w.Header().Set("Content-Type", "image/png")
			w.Write(onePixelPNG)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok")
	}))
	t.Cleanup(a.Close)
	_, a.port, _ = net.SplitHostPort(a.Listener.Addr().String())
	return a
}

func (a *attackerServer) requests() []attackerRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]attackerRequest(nil), a.reqs...)
}

// origin is the attacker host's origin as pages and instructions spell it.
func (a *attackerServer) origin(host string) string { return "http://" + host + ":" + a.port }

func newVictimServer(t *testing.T, attacker *attackerServer) *victimServer {
	v := &victimServer{dir: injectionDir()}
	v.Server = httptest.NewServer(http.HandlerFunc(v.serve))
	t.Cleanup(v.Close)
	_, v.port, _ = net.SplitHostPort(v.Listener.Addr().String())
	v.replacer = strings.NewReplacer(
		"{{ATTACKER}}", attacker.origin("cdn-metrics.net"),
		"{{PHISH}}", attacker.origin("secure-login-verify.com"),
		"{{PORT}}", v.port,
	)
	return v
}

// url is the address of page on a victim host.
func (v *victimServer) url(host, page string) string {
	return "http://" + host + ":" + v.port + "/" + strings.TrimPrefix(page, "/")
}

func (v *victimServer) recorded() []siteAction {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]siteAction(nil), v.actions...)
}

func (v *victimServer) serve(w http.ResponseWriter, r *http.Request) {
	host := hostOnly(r.Host)
	if r.Method == http.MethodPost && r.URL.Path == "/api/act" {
		var data map[string]string
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		if err := json.Unmarshal(body, &data); err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		act := data["act"]
		delete(data, "act")
		v.mu.Lock()
		v.actions = append(v.actions, siteAction{Host: host, Act: act, Data: data})
		v.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
		return
	}
	if r.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := path.Clean("/" + r.URL.Path)
	if p == "/" {
		p = "/index.html"
	}
	file := filepath.Join(v.dir, host, filepath.FromSlash(p))
	if p == "/site.js" || p == "/site.css" {
		file = filepath.Join(v.dir, "common", p[1:])
	}
	if !knownVictim(host) {
		http.NotFound(w, r)
		return
	}
	b, err := os.ReadFile(file)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	ct := mime.TypeByExtension(path.Ext(p))
	if ct == "" {
		ct = "text/plain; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, v.replacer.Replace(string(b)))
}

// injectionDir is testdata/injection beside this file.
func injectionDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", "injection")
}

func knownVictim(host string) bool {
	for _, h := range victimHosts {
		if h == host {
			return true
		}
	}
	return false
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.ToLower(h)
	}
	return strings.ToLower(hostport)
}

// onePixelPNG is a transparent 1×1 PNG.
var onePixelPNG = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
	0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
	0x42, 0x60, 0x82,
}
