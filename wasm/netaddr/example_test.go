package netaddr_test

import (
	"fmt"

	"github.com/webbrain/webbrain/wasm/netaddr"
)

// Private reads a host as a browser would: the other IPv4 notations a
// browser accepts are the address they stand for.
func ExamplePrivate() {
	for _, host := range []string{"example.com", "2130706433", "0x7f.1", "printer.local", "intranet", "[::1]"} {
		reason := netaddr.Private(host)
		if reason == "" {
			reason = "public"
		}
		fmt.Printf("%s: %s\n", host, reason)
	}
	// Output:
	// example.com: public
	// 2130706433: the loopback address of this computer
	// 0x7f.1: the loopback address of this computer
	// printer.local: a local-network name (.local)
	// intranet: a single-label intranet name
	// [::1]: the loopback address of this computer
}
