//go:build e2e

package e2e

import "github.com/webbrain/webbrain/test/scenario"

// The fake model's script helpers, shared with the Firefox suite; see
// test/scenario/model.go.
var (
	callTool       = scenario.CallTool
	answer         = scenario.Answer
	scriptFailed   = scenario.ScriptFailed
	lastToolResult = scenario.LastToolResult
	findRef        = scenario.FindRef
	clip           = scenario.Clip
)
