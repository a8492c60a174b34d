package background

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

// visionCache keeps what detection found per provider and model
// (docs/decisions/vision.md). A provider with an empty model field asks
// its server each run: the loaded model may have changed.
type visionCache struct {
	mu   sync.Mutex
	seen map[string]llm.VisionResult
}

func visionKey(cfg llm.Config) string {
	return strings.Join([]string{cfg.Kind, strings.TrimRight(cfg.BaseURL, "/"), cfg.Model, cfg.Deployment}, "\x00")
}

// vision resolves whether runs with cfg send screenshots: the user's
// always or never, else a cached or fresh detection (at most three
// seconds; no answer means no screenshots).
func (r *Router) vision(ctx context.Context, cfg llm.Config) llm.VisionResult {
	if cfg.Vision() != llm.VisionAuto {
		return llm.DetectVision(ctx, cfg, r.p.Fetch)
	}
	key := visionKey(cfg)
	r.visionSeen.mu.Lock()
	got, ok := r.visionSeen.seen[key]
	r.visionSeen.mu.Unlock()
	if ok && cfg.Model != "" {
		return got
	}
	got = llm.DetectVision(ctx, cfg, r.p.Fetch)
	if cfg.Model != "" && ctx.Err() == nil {
		r.visionSeen.mu.Lock()
		if r.visionSeen.seen == nil {
			r.visionSeen.seen = map[string]llm.VisionResult{}
		}
		r.visionSeen.seen[key] = got
		r.visionSeen.mu.Unlock()
	}
	return got
}

// providerVision answers the settings page: what detection says about the
// provider it shows (the stored key when the page has none typed), and
// the mode in effect. A detection asked for by the page is always fresh.
func (r *Router) providerVision(ctx context.Context, m message) reply {
	var cfg llm.Config
	var flag keySet
	if len(m.Provider) == 0 || json.Unmarshal(m.Provider, &cfg) != nil || json.Unmarshal(m.Provider, &flag) != nil {
		return errReply(&settings.FieldError{Field: "provider", Message: "The provider to ask about is missing or not an object."})
	}
	// The page may ask while the form is half filled: only the fields
	// that decide where the question goes must be right.
	check := cfg
	if check.ID == "" {
		check.ID = "provider"
	}
	if check.Name == "" {
		check.Name = "provider"
	}
	if check.Tier == "" {
		check.Tier = protocol.TierMid
	}
	if check.Kind == protocol.KindBedrock && check.Model == "" {
		check.Model = "model"
	}
	if err := settings.ValidateProvider(check, "provider"); err != nil {
		return errReply(err)
	}
	if cfg.APIKey == "" && flag.APIKeySet {
		cfg.APIKey = r.storedKey(ctx, cfg.ID)
	}
	mode := cfg.Vision()
	cfg.VisionMode, cfg.LegacyVision = llm.VisionAuto, false
	detected := llm.DetectVision(ctx, cfg, r.p.Fetch)
	if cfg.Model != "" {
		r.visionSeen.mu.Lock()
		if r.visionSeen.seen == nil {
			r.visionSeen.seen = map[string]llm.VisionResult{}
		}
		r.visionSeen.seen[visionKey(cfg)] = detected
		r.visionSeen.mu.Unlock()
	}
	effective := detected.Vision
	switch mode {
	case llm.VisionAlways:
		effective = true
	case llm.VisionNever:
		effective = false
	}
	return okReply("vision", effective, "detected", detected.Vision, "source", detected.Source, "model", detected.Model, "visionMode", mode)
}

// providerPresets lists the provider presets (llm.Presets) for the
// settings page.
func (r *Router) providerPresets() reply { return okReply("presets", llm.Presets) }
