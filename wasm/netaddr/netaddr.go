// Package netaddr is the one rule that decides whether a host is on the
// user's machine or a local network. fetch_url and navigate (package
// tools) refuse such hosts unless the user named them; the settings
// (package settings) allow plain http only for them. It is its own package
// so both can use it without importing each other.
package netaddr

import (
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Private says why host (a URL's host name, without port, or an address a
// resolver returned) names this computer or a local network, as a noun
// phrase ("a private network address"), or returns "" for a public host.
// Host names are judged as a browser reads them: IPv4 addresses in the other notations a browser accepts
// (2130706433, 0x7f.1, 0177.0.0.1, 127.1) count as the address they stand
// for, and a host a browser would refuse as a malformed address is
// refused here too.
func Private(host string) (reason string) {
	h := Canonical(host)
	if h == "" {
		return "no host name"
	}
	if ip, err := netip.ParseAddr(h); err == nil {
		return privateAddr(ip)
	}
	if numericLast(h) {
		// A browser reads it as IPv4 and fails; Canonical left it as it was.
		return "a malformed numeric address"
	}
	if numericLast(strings.Map(otherDigits, h)) {
		// The browser's IDNA mapping turns 𝟏 or ① into 1: an address in
		// disguise, whichever it is.
		return "a numeric address written with look-alike digits"
	}
	switch {
	case h == "localhost" || strings.HasSuffix(h, ".localhost"):
		return "a name for this computer"
	case !strings.Contains(h, "."):
		return "a single-label intranet name"
	}
	for _, suffix := range localSuffixes {
		if strings.HasSuffix(h, suffix) {
			return "a local-network name (" + suffix + ")"
		}
	}
	return ""
}

// localSuffixes are the name suffixes reserved for, or by custom used on,
// local networks: mDNS (.local, RFC 6762), home networks (.home.arpa,
// RFC 8375), routers' .lan and the private-use .internal.
var localSuffixes = []string{".local", ".home.arpa", ".lan", ".internal"}

// Canonical returns host as a browser would write it: lower case, without
// brackets or a trailing dot, with IPv4 in dotted decimal whatever
// notation it was written in, and IPv6 in its compressed form. A host a
// browser would reject stays as it was (lower-cased).
func Canonical(host string) string {
	h := strings.TrimSuffix(fold(strings.ToLower(strings.Trim(host, "[]"))), ".")
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip.String()
	}
	if ip, ok := parseIPv4(h); ok {
		return ip.String()
	}
	return h
}

// fold applies the part of a browser's IDNA mapping (UTS 46) that can
// turn a host into an address or a local name: fullwidth ASCII becomes
// ASCII (１２７ is 127, ｌｏｃａｌｈｏｓｔ is localhost), the ideographic
// full stops become dots, and invisible format characters (soft hyphen,
// zero-width space) are dropped.
func fold(h string) string {
	ascii := true
	for i := 0; i < len(h) && ascii; i++ {
		ascii = h[i] < utf8.RuneSelf
	}
	if ascii {
		return h
	}
	return strings.ToLower(strings.Map(func(r rune) rune {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			return r - 0xFEE0
		case r == 0x3002 || r == 0xFF61:
			return '.'
		case unicode.Is(unicode.Cf, r):
			return -1
		}
		return r
	}, h))
}

// otherDigits stands any non-ASCII number (mathematical, circled,
// superscript digits) in for a digit, to see whether the host would be
// numeric once the browser maps them.
func otherDigits(r rune) rune {
	if r >= utf8.RuneSelf && unicode.IsNumber(r) {
		return '0'
	}
	return r
}

// privateAddr classifies one address; IPv6 forms that carry an IPv4
// address (mapped, compatible, NAT64) are judged by that address.
func privateAddr(ip netip.Addr) string {
	ip = ip.WithZone("")
	if ip.Is6() {
		b := ip.As16()
		switch {
		case ip.Is4In6():
			return privateAddr(ip.Unmap())
		case ip.IsLoopback():
			return "the loopback address of this computer"
		case ip.IsUnspecified():
			return "the unspecified address"
		case isZero(b[:12]):
			// ::a.b.c.d, the deprecated IPv4-compatible form.
			return privateAddr(netip.AddrFrom4([4]byte(b[12:])))
		case nat64().Contains(ip):
			return privateAddr(netip.AddrFrom4([4]byte(b[12:])))
		}
	}
	for _, r := range privateRanges() {
		if r.prefix.Contains(ip) {
			return r.reason
		}
	}
	return ""
}

var nat64 = sync.OnceValue(func() netip.Prefix { return netip.MustParsePrefix("64:ff9b::/96") })

// privateRanges are the address blocks fetch_url and navigate keep away
// from: the machine itself, local networks, and addresses that are no
// single host on the internet. Parsed on first use, not at every wake.
var privateRanges = sync.OnceValue(func() []privateRange {
	return []privateRange{
		{netip.MustParsePrefix("127.0.0.0/8"), "the loopback address of this computer"},
		{netip.MustParsePrefix("0.0.0.0/8"), "a \"this network\" address (0.0.0.0/8)"},
		{netip.MustParsePrefix("10.0.0.0/8"), "a private network address"},
		{netip.MustParsePrefix("172.16.0.0/12"), "a private network address"},
		{netip.MustParsePrefix("192.168.0.0/16"), "a private network address"},
		{netip.MustParsePrefix("100.64.0.0/10"), "a shared (carrier-grade NAT) address, used inside a provider's or a VPN's network"},
		{netip.MustParsePrefix("169.254.0.0/16"), "a link-local address (cloud metadata services live there)"},
		{netip.MustParsePrefix("224.0.0.0/4"), "a multicast address"},
		{netip.MustParsePrefix("240.0.0.0/4"), "a reserved or broadcast address"},
		{netip.MustParsePrefix("fc00::/7"), "a unique-local IPv6 address (a private network)"},
		{netip.MustParsePrefix("fe80::/10"), "a link-local IPv6 address"},
		{netip.MustParsePrefix("fec0::/10"), "a site-local IPv6 address (a private network)"},
		{netip.MustParsePrefix("ff00::/8"), "a multicast address"},
	}
})

type privateRange struct {
	prefix netip.Prefix
	reason string
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// numericLast reports whether the last label of h is a number, which makes
// a browser parse the whole host as IPv4 (WHATWG URL, "ends in a number").
func numericLast(h string) bool {
	last := h[strings.LastIndexByte(h, '.')+1:]
	if rest, ok := strings.CutPrefix(last, "0x"); ok {
		return strings.Trim(rest, "0123456789abcdef") == ""
	}
	return last != "" && strings.Trim(last, "0123456789") == ""
}

// parseIPv4 reads h the way the WHATWG URL standard's IPv4 parser does:
// one to four parts, each decimal, octal (leading 0) or hex (0x), the last
// filling the bytes the others left. h has no trailing dot.
func parseIPv4(h string) (netip.Addr, bool) {
	if !numericLast(h) {
		return netip.Addr{}, false
	}
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// ipv4Number parses one part; "0x" alone is 0, as in browsers.
func ipv4Number(p string) (uint64, bool) {
	base := 10
	switch {
	case strings.HasPrefix(p, "0x"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	case p == "":
		return 0, false
	}
	n, err := strconv.ParseUint(p, base, 40)
	return n, err == nil
}
