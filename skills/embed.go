// Package skills holds WebBrain's packaged default skills as data: one
// Markdown file per skill with a webbrain-skill metadata fence
// (docs/skills.md). Parsing, validation and the catalog live in
// wasm/skills.
package skills

import "embed"

// Files holds every packaged skill, <id>.md.
//
//go:embed *.md
var Files embed.FS
