// Package adapters holds WebBrain's packaged site adapters as data: one
// JSON file per site (docs/site-adapters.md). Loading, validation and URL
// matching live in wasm/adapters.
package adapters

import "embed"

// Files holds every packaged adapter, <id>.json.
//
//go:embed *.json
var Files embed.FS
