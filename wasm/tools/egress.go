package tools

import (
	"context"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/webbrain/webbrain/wasm/netaddr"
)

// resolveTimeout bounds a DNS lookup before fetch_url or navigate; a
// lookup is local and usually cached.
const resolveTimeout = 5 * time.Second

// PrivateHost says why u's host is on this computer or a local network
// (for example "a private network address"), or returns "" for a public
// host. It is the one rule fetch_url and navigate apply; the host is read
// as a browser reads it, so 2130706433 is 127.0.0.1.
func PrivateHost(u *url.URL) (reason string) {
	return netaddr.Private(u.Hostname())
}

// AllowHosts names the hosts the user's own words named, each a host name
// or address with or without a port ("localhost:3000", "192.168.1.1",
// "router"). navigate and fetch_url open such a host even when it is
// private; a host without a port allows every port of it. The list
// replaces any earlier one.
func (d *Dispatcher) AllowHosts(hosts []string) *Dispatcher {
	d.allowed = nil
	for _, h := range hosts {
		h = strings.TrimSpace(h)
		if i := strings.Index(h, "://"); i >= 0 {
			h = h[i+3:]
		}
		h, _, _ = strings.Cut(h, "/")
		u := &url.URL{Host: h}
		if name := netaddr.Canonical(u.Hostname()); name != "" {
			d.allowed = append(d.allowed, allowedHost{name: name, port: u.Port()})
		}
	}
	return d
}

// allowedHost is one AllowHosts entry; an empty port matches any.
type allowedHost struct{ name, port string }

// checkHost refuses u when its host is on this computer or a local network
// and neither the user named it (AllowHosts) nor the tab shows it. With a
// resolver (Firefox) a name is looked up too, and refused when any of its
// addresses is private: a public-looking name may lead inside. tool names
// the caller in the error.
func (d *Dispatcher) checkHost(ctx context.Context, tool string, u *url.URL, tabURL string) error {
	if d.hostAllowed(u, tabURL) {
		return nil
	}
	if reason := PrivateHost(u); reason != "" {
		return hostRefusal(tool, u, u.Hostname()+" is "+reason)
	}
	if d.p.Resolve == nil {
		return nil
	}
	host := netaddr.Canonical(u.Hostname()) // as the browser will look it up
	if _, err := netip.ParseAddr(host); err == nil {
		return nil // an address needs no lookup, and PrivateHost judged it
	}
	rctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := d.p.Resolve.Resolve(rctx, host)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		// A name that does not resolve here cannot lead inside through
		// this resolver; the browser's own request reports the failure.
		return nil
	}
	for _, a := range addrs {
		if reason := netaddr.Private(a); reason != "" {
			return hostRefusal(tool, u, fmt.Sprintf("%s resolves to %s, %s", host, a, reason))
		}
	}
	return nil
}

// hostAllowed reports whether u's host was named by the user or is the
// host (and port) the tab shows: a local app the user opened may read and
// open its own pages.
func (d *Dispatcher) hostAllowed(u *url.URL, tabURL string) bool {
	name := netaddr.Canonical(u.Hostname())
	for _, a := range d.allowed {
		if a.name == name && (a.port == "" || a.port == port(u)) {
			return true
		}
	}
	t, err := url.Parse(tabURL)
	return err == nil && (t.Scheme == "http" || t.Scheme == "https") && sameHost(u, t)
}

// hostRefusal is the error the model sees: why, and that only the user
// can open the way, so it neither retries another spelling nor gives up
// on the task silently.
func hostRefusal(tool string, u *url.URL, why string) error {
	return fmt.Errorf("%s: refused %s because %s. WebBrain reaches hosts on this computer or the local network only when the user's own message names them (or the tab already shows that host). Do not try another form of the address; tell the user, who can ask again naming %s", tool, u.Redacted(), why, u.Host)
}

// sameHost compares host names as a browser writes them, and effective
// ports.
func sameHost(a, b *url.URL) bool {
	return netaddr.Canonical(a.Hostname()) == netaddr.Canonical(b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}
