package settings

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/webbrain/webbrain/wasm/ascii"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/protocol"
)

// The original product exports its settings as webbrain-config/1 too, but
// with another shape: {"schema": "webbrain-config/1", "webbrainVersion",
// "settings": {...}} where settings is a flat, default-resolved object of
// its storage keys and providers is an object keyed by provider id. Import
// maps what has a counterpart here and reports every other key with the
// reason it was skipped (docs/decisions/settings-page.md).

// Report says what an import took and what it left out. Values never
// appear in it, only field names, so a report never shows a secret.
type Report struct {
	// Source is "webbrain" (this product's own export) or "original" (the
	// original product's export).
	Source        string       `json:"source"`
	SourceVersion string       `json:"sourceVersion,omitempty"`
	Imported      []ReportItem `json:"imported"`
	Skipped       []ReportItem `json:"skipped"`
	// Memory is the original's wb_user_memory_v1 value, which is not a
	// setting: the caller adds its records to the memory store and
	// completes the report (Settle).
	Memory json.RawMessage `json:"-"`
}

// Settle replaces the report's line for field: imported with note, or,
// when reason is not empty, skipped for that reason.
func (r *Report) Settle(field, note, reason string) {
	for i, it := range r.Imported {
		if it.Field != field {
			continue
		}
		if reason == "" {
			r.Imported[i].Note = note
			return
		}
		r.Imported = append(r.Imported[:i], r.Imported[i+1:]...)
		r.skip(field, reason)
		return
	}
}

// ReportItem names one field of the imported file: where it went (To) or
// why it was skipped (Reason), with an optional note.
type ReportItem struct {
	Field  string `json:"field"`
	To     string `json:"to,omitempty"`
	Reason string `json:"reason,omitempty"`
	Note   string `json:"note,omitempty"`
}

func (r *Report) took(field, to, note string) {
	r.Imported = append(r.Imported, ReportItem{Field: field, To: to, Note: note})
}

func (r *Report) skip(field, reason string) {
	r.Skipped = append(r.Skipped, ReportItem{Field: field, Reason: reason})
}

// Reasons shared by many skipped keys.
const (
	reasonNoCounterpart = "WebBrain has no such setting."
	reasonOtherSecret   = "A key for a service WebBrain does not use; it was not imported."
	reasonSeparate      = "Not part of the settings here: import it on its own page."
)

// originalKeyReasons explains keys of the original export that are
// skipped for a reason more specific than having no counterpart.
var originalKeyReasons = map[string]string{
	"wbLocale":                      "The language follows the browser's.",
	"customSkills":                  "Skills are imported one at a time from their Markdown: Settings → Skills → Import.",
	"defaultSkillsRemoved":          "WebBrain's own skills cannot be removed here.",
	"wb_permissions":                "Site permissions are granted again when a run first needs them.",
	"costAllowanceSessionUsd":       "The allowances here are per day and per run; a session allowance does not translate. Set them in Usage and cost.",
	"costAllowanceTotalUsd":         "The allowances here are per day and per run; a lifetime total does not translate. Set them in Usage and cost.",
	"planReviewConfidenceThreshold": "Plans are not reviewed by a confidence threshold here.",
	"visionModel":                   "A separate vision model is not supported; each provider has its own Vision setting.",
	"transcriptionModel":            "Voice transcription is not supported.",
	"imageGenModel":                 "Image generation is not supported.",
	"helpImproveWebBrain":           "WebBrain sends no usage data anywhere.",
}

// otherSecretKeys are secrets of services WebBrain does not use.
var otherSecretKeys = map[string]bool{
	"twoCaptchaApiKey": true, "capmonsterApiKey": true, "solveCaptchaApiKey": true, "antiCaptchaApiKey": true,
	"nopechaApiKey": true, "nonecapApiKey": true, "typesafeApiKey": true,
}

// importOriginal maps the settings object of the original product's
// export onto this product's defaults.
func importOriginal(raw json.RawMessage, version string) (Settings, Report, error) {
	rep := Report{Source: "original", SourceVersion: version}
	var src map[string]json.RawMessage
	if err := json.Unmarshal(raw, &src); err != nil || src == nil {
		return Settings{}, rep, &FieldError{Field: "settings", Message: "The configuration's settings must be a JSON object."}
	}
	s := Defaults()
	keys := make([]string, 0, len(src))
	for k := range src {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	var active string
	_ = json.Unmarshal(src["activeProvider"], &active)
	providers := importOriginalProviders(src["providers"], active, &rep)

	for _, k := range keys {
		v := src[k]
		switch k {
		case "providers":
			// Reported provider by provider above.
		case "activeProvider":
			switch {
			case len(providers) == 0:
				rep.skip(k, "No provider could be imported, so the selection stays on the default provider.")
			case active != "" && hasProvider(providers, originalID(active)):
				s.ActiveProvider = originalID(active)
				rep.took(k, "activeProvider", "")
			default:
				rep.skip(k, fmt.Sprintf("The selected provider %q was not imported; %q is selected instead.", active, providers[0].Name))
			}
		case "maxAgentSteps":
			var n float64
			if !number(v, &n) {
				rep.skip(k, "Not a number.")
				continue
			}
			steps := int(math.Round(n))
			note := ""
			if steps < 1 || steps > 200 {
				steps = min(max(steps, 1), 200)
				note = fmt.Sprintf("Limited to %d (the range here is 1–200).", steps)
			}
			s.MaxSteps = steps
			rep.took(k, "maxSteps", note)
		case "useSiteAdapters":
			boolSetting(&rep, k, v, "siteAdapters", &s.SiteAdapters)
		case "askBeforeConsequentialActions":
			boolSetting(&rep, k, v, "askBeforeActions", &s.AskBeforeActions)
		case "researchEscalationEnabled":
			boolSetting(&rep, k, v, "researchEscalationEnabled", &s.ResearchEscalation)
		case "scheduledTasksEnabled":
			boolSetting(&rep, k, v, "scheduledTasksEnabled", &s.ScheduledTasks)
		case "webMcpEnabled":
			boolSetting(&rep, k, v, "experimentalWebMCP", &s.ExperimentalWebMCP)
		case "tracingEnabled":
			boolSetting(&rep, k, v, "traces", &s.Traces)
		case "userMemoryEnabled":
			boolSetting(&rep, k, v, "memory", &s.Memory)
		case "userMemoryAutoCaptureEnabled":
			boolSetting(&rep, k, v, "memoryAutoLearn", &s.MemoryAutoLearn)
		case "planBeforeActMode":
			var mode string
			if json.Unmarshal(v, &mode) != nil || !oneOf(mode, protocol.Planners) {
				rep.skip(k, "Not one of off, try or strict.")
				continue
			}
			s.Planner = mode
			rep.took(k, "planner", "")
		case "planBeforeAct":
			var on bool
			switch {
			case json.Unmarshal(v, &on) != nil:
				rep.skip(k, "Not true or false.")
			case src["planBeforeActMode"] != nil:
				rep.skip(k, "An older form of planBeforeActMode, which the file also has.")
			case !on:
				s.Planner = protocol.PlannerOff
				rep.took(k, "planner", "Off.")
			default:
				rep.took(k, "planner", "Try.")
			}
		case "planReviewMode":
			var mode string
			if json.Unmarshal(v, &mode) != nil {
				rep.skip(k, "Not text.")
				continue
			}
			switch mode {
			case protocol.ReviewAlways, protocol.ReviewStrict:
				s.PlanReview = mode
				rep.took(k, "planReview", "")
			default:
				rep.took(k, "planReview", fmt.Sprintf("%q has no counterpart: plans are shown for review only with Strict planning.", mode))
			}
		case "researchEscalationEngine":
			var engine string
			if json.Unmarshal(v, &engine) == nil && engine == "chatgpt" {
				rep.took(k, "researchEscalationEnabled", "Research goes to ChatGPT, the only engine here.")
			} else {
				rep.skip(k, "Only ChatGPT is supported for research.")
			}
		case "themeMode":
			var theme string
			if json.Unmarshal(v, &theme) == nil && oneOf(theme, []string{protocol.ThemeSystem, protocol.ThemeLight, protocol.ThemeDark}) {
				s.Theme = theme
				rep.took(k, "theme", "")
			} else {
				rep.skip(k, "Not one of system, light or dark.")
			}
		case "capsolverApiKey":
			var key string
			var enabled *bool
			_ = json.Unmarshal(src["captchaSolverEnabled"], &enabled)
			switch {
			case json.Unmarshal(v, &key) != nil:
				rep.skip(k, "Not text.")
			case strings.TrimSpace(key) == "":
				rep.skip(k, "Empty: no key to import.")
			case enabled != nil && !*enabled:
				rep.skip(k, "The CAPTCHA solver was off in the original; a saved key turns it on here, so the key was left out.")
			default:
				s.CaptchaSolverKey = strings.TrimSpace(key)
				rep.took(k, "captchaSolverKey", "Saved like the provider keys; it never shows on a page.")
			}
		case protocol.KeyUserMemory:
			rep.Memory = v
			rep.took(k, "memory", "Its records are added to what WebBrain remembers.")
		case "captchaSolverEnabled":
			rep.took(k, "captchaSolverKey", "The solver is on here when its key is saved.")
		default:
			switch {
			case otherSecretKeys[k]:
				rep.skip(k, reasonOtherSecret)
			case originalKeyReasons[k] != "":
				rep.skip(k, originalKeyReasons[k])
			default:
				rep.skip(k, reasonNoCounterpart)
			}
		}
	}
	if len(providers) > 0 {
		s.Providers = providers
		if !hasProvider(providers, s.ActiveProvider) {
			s.ActiveProvider = providers[0].ID
		}
	}
	if err := s.validate("settings", true); err != nil {
		return Settings{}, rep, err
	}
	return s, rep, nil
}

func boolSetting(rep *Report, key string, v json.RawMessage, to string, dst *bool) {
	var b bool
	if json.Unmarshal(v, &b) != nil {
		rep.skip(key, "Not true or false.")
		return
	}
	*dst = b
	rep.took(key, to, "")
}

func number(v json.RawMessage, n *float64) bool {
	return json.Unmarshal(v, n) == nil && !math.IsNaN(*n) && !math.IsInf(*n, 0)
}

func hasProvider(ps []llm.Config, id string) bool {
	for _, p := range ps {
		if p.ID == id {
			return true
		}
	}
	return false
}

// originalProvider is the part of the original's provider object that
// has a counterpart here.
type originalProvider struct {
	Type            string  `json:"type"`
	Category        string  `json:"category"`
	Label           string  `json:"label"`
	BaseURL         string  `json:"baseUrl"`
	Model           string  `json:"model"`
	APIKey          string  `json:"apiKey"`
	APIVersion      string  `json:"apiVersion"`
	ContextWindow   float64 `json:"contextWindow"`
	PromptTier      string  `json:"promptTier"`
	UseCompact      bool    `json:"useCompactPrompt"`
	VisionMode      string  `json:"visionMode"`
	SupportsVision  *bool   `json:"supportsVision"`
	Configured      *bool   `json:"configured"`
	AccessKeyID     string  `json:"accessKeyId"`
	SecretAccessKey string  `json:"secretAccessKey"`
}

// placeholderKeys are the stand-in keys the original gives local servers
// that need none.
var placeholderKeys = map[string]bool{"ollama": true, "lm-studio": true}

var unsupportedTypes = map[string]string{
	"aws_bedrock":      "AWS Bedrock providers are not supported by this version.",
	"anthropic_oauth":  "Signing in with a Claude subscription is not supported; add an Anthropic provider with an API key.",
	"vertex_anthropic": "Claude on Google Vertex AI is not supported.",
}

// originalID turns the original's provider id ("azure_openai") into an id
// of the kind this product uses ("azure-openai").
func originalID(id string) string {
	idChar := ascii.Or(ascii.Lower, ascii.Digit, ascii.Bytes("-"))
	lower := strings.ToLower(id)
	var b strings.Builder
	for i, c := range []byte(lower) {
		switch {
		case idChar(c):
			b.WriteByte(c)
		case i == 0 || idChar(lower[i-1]):
			b.WriteByte('-') // one for each run of other characters
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return "provider"
	}
	return out
}

// importOriginalProviders maps the original's providers object. A provider
// the user never set up (configured false, the original's default entries)
// is skipped as such; every other one is imported or skipped with its
// reason, in id order.
func importOriginalProviders(raw json.RawMessage, active string, rep *Report) []llm.Config {
	if raw == nil {
		return nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil || all == nil {
		rep.skip("providers", "Not an object of providers.")
		return nil
	}
	ids := make([]string, 0, len(all))
	for id := range all {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []llm.Config
	var unused []string
	for _, id := range ids {
		field := "providers." + id
		var p originalProvider
		if err := json.Unmarshal(all[id], &p); err != nil {
			rep.skip(field, "Not a provider object.")
			continue
		}
		if id == "webbrain_cloud" {
			rep.skip(field, "WebBrain Cloud is the original's hosted service, tied to one device; it has no counterpart here.")
			continue
		}
		key := strings.TrimSpace(p.APIKey)
		if placeholderKeys[key] {
			key = ""
		}
		setUp := p.Configured != nil && *p.Configured ||
			p.Configured == nil && (id == active || key != "" || p.AccessKeyID != "")
		if !setUp {
			unused = append(unused, id)
			continue
		}
		if reason := unsupportedTypes[p.Type]; reason != "" {
			rep.skip(field, reason)
			continue
		}
		cfg := llm.Config{
			ID:            originalID(id),
			Name:          strings.TrimSpace(p.Label),
			BaseURL:       strings.TrimRight(strings.TrimSpace(p.BaseURL), "/"),
			APIKey:        key,
			Model:         strings.TrimSpace(p.Model),
			ContextWindow: max(0, int(p.ContextWindow)),
		}
		if cfg.Name == "" {
			cfg.Name = id
		}
		var notes []string
		switch p.Type {
		case "openai", "":
			cfg.Kind = protocol.KindOpenAIChat
		case "anthropic":
			cfg.Kind = protocol.KindAnthropic
		case "azure_openai":
			cfg.Kind = protocol.KindAzure
			cfg.Deployment, cfg.Model = cfg.Model, ""
			cfg.APIVersion = strings.TrimSpace(p.APIVersion)
			notes = append(notes, "Its model became the Azure deployment.")
		case "llamacpp":
			cfg.Kind = protocol.KindOpenAIChat
			if !strings.HasSuffix(cfg.BaseURL, "/v1") {
				cfg.BaseURL += "/v1"
				notes = append(notes, "Talks to llama.cpp's OpenAI-compatible endpoint (/v1).")
			}
		default:
			rep.skip(field, fmt.Sprintf("The provider type %q is not supported.", p.Type))
			continue
		}
		cfg.Tier, notes = originalTier(p, notes)
		mode := originalVisionMode(p)
		setVisionMode(&cfg, mode)
		notes = append(notes, "Vision: "+visionModeLabel[mode]+".")
		if key != "" {
			notes = append(notes, "API key included.")
		}
		if hasProvider(out, cfg.ID) {
			rep.skip(field, fmt.Sprintf("Another provider of the file already has the id %q.", cfg.ID))
			continue
		}
		if err := validateProvider(cfg, field, true); err != nil {
			rep.skip(field, err.(*FieldError).Message)
			continue
		}
		out = append(out, cfg)
		rep.took(field, "providers."+cfg.ID, strings.Join(notes, " "))
	}
	if len(unused) > 0 {
		rep.skip("providers."+strings.Join(unused, ", "), "Never set up in the original (its built-in entries without a key or a selection).")
	}
	return out
}

// originalTier: the original's promptTier, else its legacy
// useCompactPrompt flag (Compact), else Mid for local servers and Full for
// cloud providers, as the original resolves it.
func originalTier(p originalProvider, notes []string) (string, []string) {
	switch {
	case oneOf(p.PromptTier, protocol.Tiers):
		return p.PromptTier, notes
	case p.UseCompact:
		return protocol.TierCompact, append(notes, "Tier Compact (from useCompactPrompt).")
	case p.Category == "local" || p.Type == "llamacpp":
		return protocol.TierMid, append(notes, "Tier Mid (a local server).")
	}
	return protocol.TierFull, append(notes, "Tier Full (a cloud provider).")
}

// Vision modes of a provider's visionMode field.
const (
	VisionAuto   = llm.VisionAuto
	VisionAlways = llm.VisionAlways
	VisionNever  = llm.VisionNever
)

var visionModeLabel = map[string]string{VisionAuto: "Automatic", VisionAlways: "Always", VisionNever: "Never"}

// originalVisionMode maps the original's visionMode (auto, on, off) or
// its older supportsVision flag.
func originalVisionMode(p originalProvider) string {
	switch p.VisionMode {
	case "on", VisionAlways:
		return VisionAlways
	case "off", VisionNever:
		return VisionNever
	case VisionAuto:
		return VisionAuto
	}
	if p.SupportsVision != nil {
		if *p.SupportsVision {
			return VisionAlways
		}
		return VisionNever
	}
	return VisionAuto
}

// setVisionMode records a provider's vision mode in its visionMode field.
func setVisionMode(cfg *llm.Config, mode string) {
	cfg.VisionMode = mode
}
