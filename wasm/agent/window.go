package agent

import (
	"net/url"
	"strings"

	"github.com/webbrain/webbrain/wasm/llm"
)

// Context windows assumed when a provider does not set one (spec: 16k for
// local backends, 128k for cloud and routers).
const (
	localContextWindow = 16 * 1024
	cloudContextWindow = 128 * 1024
)

// ContextWindow is the provider's context window in tokens: the
// configured one, else the default for a server on this machine or in the
// cloud.
func ContextWindow(cfg llm.Config) int {
	if cfg.ContextWindow > 0 {
		return cfg.ContextWindow
	}
	if isLocal(cfg.BaseURL) {
		return localContextWindow
	}
	return cloudContextWindow
}

func isLocal(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || h == "::1" || h == "0.0.0.0" || strings.HasPrefix(h, "127.")
}
