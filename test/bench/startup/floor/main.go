//go:build js

// Command floor is the least a Go worker can be: the startup bench builds
// it into a third extension whose service worker answers the bench's
// message with one storage read made from Go through syscall/js. Its wake
// is the cost of the Go runtime alone, the floor under WebBrain's.
package main

import "syscall/js"

func main() {
	local := js.Global().Get("chrome").Get("storage").Get("local")
	// floorHandle() returns the storage read's promise; floor.js replies with it.
	js.Global().Set("floorHandle", js.FuncOf(func(js.Value, []js.Value) any {
		return local.Call("get", "settings")
	}))
	js.Global().Call("floorReady")
	select {}
}
