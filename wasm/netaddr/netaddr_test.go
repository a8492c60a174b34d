package netaddr

import (
	"strings"
	"testing"
)

func TestPrivate(t *testing.T) {
	private := []string{
		// IPv4 blocks
		"127.0.0.1", "127.255.0.9", "0.0.0.0", "0.1.2.3", "10.1.2.3", "172.16.0.1", "172.31.255.255",
		"192.168.1.1", "100.64.0.1", "100.127.255.254", "169.254.169.254", "224.0.0.251", "239.255.255.250",
		"240.0.0.1", "255.255.255.255",
		// IPv6 and the forms that carry IPv4
		"::1", "[::1]", "::", "fd00::1", "fc12:3456::1", "fe80::1", "fe80::1%eth0", "fec0::1", "ff02::1",
		"::ffff:127.0.0.1", "[::ffff:7f00:1]", "::ffff:10.0.0.1", "::127.0.0.1", "64:ff9b::a00:1",
		// IPv4 in the other notations browsers accept
		"2130706433", "0x7f000001", "0x7f.1", "0177.0.0.1", "127.1", "127.0.1", "0x7f.0.0.1", "0", "0x",
		"3232235777", "012.1.2.3", "167772161",
		// malformed numeric hosts a browser refuses
		"1.2.3.4.5", "256.1.1.1", "4294967296", "09.1.1.1", "1.2.3.0x100",
		// names
		"localhost", "LOCALHOST.", "app.localhost", "printer.local", "router.lan", "nas.home.arpa",
		"metadata.google.internal", "intranet", "router", "wiki.", "",
		// what a browser's IDNA mapping turns into the above
		"１２７.０.０.１", "127。0。0。1", "127｡0｡0｡1", "ｌｏｃａｌｈｏｓｔ", "127.0.0.1\u00ad", "loc\u200balhost",
		"０ｘ７Ｆ.1", "𝟏𝟐𝟕.𝟎.𝟎.𝟏", "①②⑦.0.0.1", "𝟖.𝟖.𝟖.𝟖",
	}
	for _, h := range private {
		if Private(h) == "" {
			t.Errorf("%q counted as public", h)
		}
	}
	public := []string{
		"example.com", "docs.example.org", "8.8.8.8", "172.32.0.1", "100.128.0.1", "100.63.255.255",
		"169.255.0.1", "2001:db8::1", "[2606:4700::1111]", "64:ff9b::808:808", "::ffff:8.8.8.8",
		"134744072", "0x08080808", "local.example.com", "lan.example.com", "internal.example.com",
		"example.localhost.com", "xn--bcher-kva.example", "1e100.net",
		"ｅｘａｍｐｌｅ.com", "example。com", "bücher.example", "例え.jp",
	}
	for _, h := range public {
		if r := Private(h); r != "" {
			t.Errorf("%q counted as private: %s", h, r)
		}
	}
}

func TestPrivateReasons(t *testing.T) {
	for host, want := range map[string]string{
		"100.64.1.1":      "carrier-grade NAT",
		"169.254.169.254": "link-local",
		"router":          "single-label",
		"x.home.arpa":     ".home.arpa",
		"2130706433":      "loopback",
		"1.2.3.4.5":       "malformed",
		"fd00::1":         "unique-local",
	} {
		if got := Private(host); !strings.Contains(got, want) {
			t.Errorf("Private(%q) = %q, want it to mention %q", host, got, want)
		}
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"2130706433":       "127.0.0.1",
		"0x7f.1":           "127.0.0.1",
		"0177.0.0.01":      "127.0.0.1",
		"192.168.257":      "192.168.1.1",
		"Example.COM.":     "example.com",
		"[::FFFF:7f00:1]":  "::ffff:127.0.0.1",
		"[2001:DB8:0::1]":  "2001:db8::1",
		"1.2.3.4.5":        "1.2.3.4.5",
		"router.lan":       "router.lan",
		"0x":               "0.0.0.0",
		"10.0.0.0x1":       "10.0.0.1",
		"999999999999999":  "999999999999999",
		"4294967295":       "255.255.255.255",
		"intranet.example": "intranet.example",
		"１２７.０.０.１":        "127.0.0.1",
		"Ｅｘａｍｐｌｅ。ＣＯＭ":      "example.com",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}
