package llm

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// VisionTimeout bounds one detection: the spec gives it three seconds,
// and a detection that does not finish counts as "no vision".
const VisionTimeout = 3 * time.Second

// Where a vision answer came from (VisionResult.Source).
const (
	VisionFromSetting    = "setting"    // the user chose always or never
	VisionFromOllama     = "ollama"     // /api/show capabilities
	VisionFromLlamaCpp   = "llama.cpp"  // /props modalities
	VisionFromLMStudio   = "lmstudio"   // /api/v0/models type vlm
	VisionFromOpenRouter = "openrouter" // the model list's input modalities
	VisionFromModelName  = "model-name" // a known family of a cloud API
	VisionFromUnknown    = "unknown"    // nothing said so: no screenshots
)

// VisionResult is whether cfg's model reads images and how that is known.
type VisionResult struct {
	Vision bool   `json:"vision"`
	Source string `json:"source"`
	Model  string `json:"model,omitempty"` // the model asked about
}

// DetectVision asks what cfg's server says about its model, in the
// provider's own metadata: Ollama's /api/show capabilities, llama.cpp's
// /props modalities, LM Studio's /api/v0/models type, OpenRouter's model
// architecture; a cloud API without such metadata is judged by known
// model families. A user's always/never wins without asking. Errors and
// silence are "no vision" (fail closed): detection never fails a run.
func DetectVision(ctx context.Context, cfg Config, f platform.Fetcher) VisionResult {
	switch cfg.Vision() {
	case VisionAlways:
		return VisionResult{Vision: true, Source: VisionFromSetting, Model: cfg.Model}
	case VisionNever:
		return VisionResult{Source: VisionFromSetting, Model: cfg.Model}
	}
	ctx, cancel := context.WithTimeout(ctx, VisionTimeout)
	defer cancel()
	d := detector{cfg: cfg, f: f}
	return d.detect(ctx)
}

type detector struct {
	cfg Config
	f   platform.Fetcher
}

func (d detector) detect(ctx context.Context) VisionResult {
	cfg := d.cfg
	model := cfg.Model
	if cfg.Kind == protocol.KindAzure && model == "" {
		model = cfg.Deployment
	}
	base := strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	u, err := url.Parse(base)
	if cfg.Kind != protocol.KindOpenAIChat || err != nil || u.Host == "" {
		return byName(model)
	}
	host := strings.ToLower(u.Hostname())
	if host == "openrouter.ai" || strings.HasSuffix(host, ".openrouter.ai") {
		if r, ok := d.openRouter(ctx, base, model); ok {
			return r
		}
		return byName(model)
	}
	if !localServer(u.Hostname()) {
		return byName(model)
	}
	// A server on this machine or network: ask it, by what it is.
	root := strings.TrimSuffix(base, "/v1")
	if model == "" {
		model = d.firstModel(ctx, base)
	}
	if r, ok := d.ollama(ctx, root, model); ok {
		return r
	}
	if r, ok := d.llamaCpp(ctx, root, model); ok {
		return r
	}
	if r, ok := d.lmStudio(ctx, root, model); ok {
		return r
	}
	return VisionResult{Source: VisionFromUnknown, Model: model}
}

// get fetches a small JSON document; ok is false for anything else.
func (d detector) get(ctx context.Context, method, rawURL string, body []byte) ([]byte, bool) {
	h := map[string]string{"Accept": "application/json"}
	if body != nil {
		h["Content-Type"] = "application/json"
	}
	if d.cfg.APIKey != "" && d.cfg.Kind == protocol.KindOpenAIChat {
		h["Authorization"] = "Bearer " + d.cfg.APIKey
	}
	resp, err := d.f.Fetch(ctx, &platform.Request{Method: method, URL: rawURL, Header: h, Body: body, Redirect: platform.RedirectError})
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	if resp.Status != 200 {
		return nil, false
	}
	b, err := readAll(ctx, resp.Body, 4<<20)
	if err != nil || !gjson.ValidBytes(b) {
		return nil, false
	}
	return b, true
}

func (d detector) firstModel(ctx context.Context, base string) string {
	b, ok := d.get(ctx, "GET", base+"/models", nil)
	if !ok {
		return ""
	}
	if ids := parseModelList(b); len(ids) > 0 {
		return ids[0]
	}
	return ""
}

// ollama: POST /api/show {"model"} answers capabilities ["completion",
// "tools", "vision", …].
func (d detector) ollama(ctx context.Context, root, model string) (VisionResult, bool) {
	if model == "" {
		return VisionResult{}, false
	}
	body, _ := json.Marshal(map[string]string{"model": model})
	b, ok := d.get(ctx, "POST", root+"/api/show", body)
	if !ok {
		return VisionResult{}, false
	}
	caps := gjson.GetBytes(b, "capabilities")
	if !caps.IsArray() {
		return VisionResult{}, false
	}
	r := VisionResult{Source: VisionFromOllama, Model: model}
	for _, c := range caps.Array() {
		if c.Str == "vision" {
			r.Vision = true
		}
	}
	return r, true
}

// llamaCpp: GET /props answers modalities {"vision": bool} for the
// loaded model (older servers: "multimodal").
func (d detector) llamaCpp(ctx context.Context, root, model string) (VisionResult, bool) {
	b, ok := d.get(ctx, "GET", root+"/props", nil)
	if !ok {
		return VisionResult{}, false
	}
	if v := gjson.GetBytes(b, "modalities.vision"); v.Exists() {
		return VisionResult{Vision: v.Bool(), Source: VisionFromLlamaCpp, Model: model}, true
	}
	if v := gjson.GetBytes(b, "multimodal"); v.Exists() {
		return VisionResult{Vision: v.Bool(), Source: VisionFromLlamaCpp, Model: model}, true
	}
	return VisionResult{}, false
}

// lmStudio: GET /api/v0/models/<model> answers type "vlm" for a model
// that reads images ("llm" for text only).
func (d detector) lmStudio(ctx context.Context, root, model string) (VisionResult, bool) {
	if model == "" {
		return VisionResult{}, false
	}
	b, ok := d.get(ctx, "GET", root+"/api/v0/models/"+url.PathEscape(model), nil)
	if !ok {
		return VisionResult{}, false
	}
	typ := gjson.GetBytes(b, "type").Str
	if typ == "" {
		return VisionResult{}, false
	}
	return VisionResult{Vision: typ == "vlm", Source: VisionFromLMStudio, Model: model}, true
}

// openRouter: the model list gives architecture.input_modalities.
func (d detector) openRouter(ctx context.Context, base, model string) (VisionResult, bool) {
	if model == "" {
		return VisionResult{}, false
	}
	b, ok := d.get(ctx, "GET", base+"/models", nil)
	if !ok {
		return VisionResult{}, false
	}
	for _, m := range gjson.GetBytes(b, "data").Array() {
		if m.Get("id").Str != model {
			continue
		}
		r := VisionResult{Source: VisionFromOpenRouter, Model: model}
		for _, in := range m.Get("architecture.input_modalities").Array() {
			if in.Str == "image" {
				r.Vision = true
			}
		}
		return r, true
	}
	return VisionResult{}, false
}

// byName judges a cloud model by its family.
func byName(model string) VisionResult {
	r := VisionResult{Source: VisionFromUnknown, Model: model}
	if model != "" && visionFamily(model) {
		r.Vision, r.Source = true, VisionFromModelName
	}
	return r
}
