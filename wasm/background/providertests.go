package background

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

// testRecord is the last Test result of a saved provider, kept in
// storage.local (protocol.KeyProviderTests) so the settings page shows it
// when reopened. Error is the plain-language message, which never holds
// the key (package llm redacts it).
type testRecord struct {
	OK     bool   `json:"ok"`
	Model  string `json:"model,omitempty"`
	Error  string `json:"error,omitempty"`
	Reason string `json:"reason,omitempty"`
	At     int64  `json:"at"` // ms since the epoch
}

// Why a provider test failed, in a word the settings page turns into its
// own short text ("failing: no API key").
const (
	reasonNoKey         = "no_key"
	reasonOllamaOrigins = "ollama_origins"
	reasonAuth          = "auth"
	reasonModelNotFound = "model_not_found"
	reasonNotFound      = "not_found"
	reasonNetwork       = "network"
	reasonConfig        = "config"
	reasonRateLimit     = "rate_limit"
	reasonServer        = "server"
	reasonOther         = "other"
)

// testReason classifies a failed provider test.
func testReason(cfg llm.Config, err error) string {
	var fe *settings.FieldError
	if errors.As(err, &fe) {
		return reasonConfig
	}
	var le *llm.Error
	if !errors.As(err, &le) {
		return reasonOther
	}
	switch {
	case le.Status == 401 && cfg.APIKey == "":
		return reasonNoKey
	case le.Status == 403 && strings.Contains(le.Message, "OLLAMA_ORIGINS"):
		return reasonOllamaOrigins
	case le.Kind == llm.KindAuth:
		return reasonAuth
	case le.Kind == llm.KindNotFound && le.Status == 0:
		return reasonModelNotFound // the server's list lacks the model
	case le.Kind == llm.KindNotFound:
		return reasonNotFound
	case le.Kind == llm.KindNetwork:
		return reasonNetwork
	case le.Kind == llm.KindConfig:
		return reasonConfig
	case le.Kind == llm.KindRateLimit:
		return reasonRateLimit
	case le.Kind == llm.KindServer:
		return reasonServer
	}
	return reasonOther
}

func (r *Router) loadTests(ctx context.Context) map[string]testRecord {
	return testsFrom(r.p.Local.Get(ctx, protocol.KeyProviderTests))
}

// testsFrom reads the test records out of a storage read that asked for
// protocol.KeyProviderTests among other keys.
func testsFrom(got map[string]json.RawMessage, err error) map[string]testRecord {
	out := map[string]testRecord{}
	if raw, ok := got[protocol.KeyProviderTests]; err == nil && ok {
		_ = json.Unmarshal(raw, &out)
	}
	if out == nil {
		out = map[string]testRecord{}
	}
	return out
}

func (r *Router) storeTests(ctx context.Context, tests map[string]testRecord) {
	raw, err := json.Marshal(tests)
	if err == nil {
		_ = r.p.Local.Set(ctx, map[string]json.RawMessage{protocol.KeyProviderTests: raw})
	}
}

// forgetStaleTests drops the test results of providers that are gone or
// whose connection changed (format, address, model, Azure fields, key):
// the old result no longer says anything about them.
func (r *Router) forgetStaleTests(ctx context.Context, before, after settings.Settings) {
	tests := r.loadTests(ctx)
	if len(tests) == 0 {
		return
	}
	old := map[string]llm.Config{}
	for _, p := range before.Providers {
		old[p.ID] = p
	}
	kept := map[string]testRecord{}
	for _, p := range after.Providers {
		rec, ok := tests[p.ID]
		o, had := old[p.ID]
		if ok && had && sameConnection(o, p) {
			kept[p.ID] = rec
		}
	}
	if len(kept) != len(tests) {
		r.storeTests(ctx, kept)
	}
}

func sameConnection(a, b llm.Config) bool {
	return a.Kind == b.Kind && a.BaseURL == b.BaseURL && a.Model == b.Model && a.APIKey == b.APIKey &&
		a.Deployment == b.Deployment && a.APIVersion == b.APIVersion
}

// providerTestSaved tests the saved provider with id and records the result.
func (r *Router) providerTestSaved(ctx context.Context, id string) reply {
	s, _ := settings.Load(ctx, r.p.Local)
	var cfg llm.Config
	found := false
	for _, p := range s.Providers {
		if p.ID == id {
			cfg, found = p, true
		}
	}
	if !found {
		return errReply(&settings.FieldError{Field: "id", Message: "There is no saved provider " + quote(id) + "."})
	}
	model, err := r.testConfig(ctx, cfg)
	rec := testRecord{OK: err == nil, Model: model, At: r.p.Clock.Now().UnixMilli()}
	if err != nil {
		rec.Error = errReply(err)["error"].(string)
		rec.Reason = testReason(cfg, err)
	}
	tests := r.loadTests(ctx)
	tests[id] = rec
	r.storeTests(ctx, tests)
	if err != nil {
		out := errReply(err)
		out["reason"] = rec.Reason
		out["test"] = rec
		return out
	}
	return okReply("model", model, "test", rec)
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
