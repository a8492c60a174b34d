// Package settings holds the user's portable configuration (providers, the
// active provider, the step limit, site adapters, asking before actions,
// planning),
// its validation, its storage under the "settings" key of storage.local and
// the webbrain-config/1 transfer format.
package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/webbrain/webbrain/wasm/cost"
	"github.com/webbrain/webbrain/wasm/jsonw"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Settings is the object docs/PROTOCOL.md describes. Decoding ignores
// unknown fields and saving writes only these, so stray fields never persist.
type Settings struct {
	Providers      []llm.Config `json:"providers"`
	ActiveProvider string       `json:"activeProvider"`
	MaxSteps       int          `json:"maxSteps"`
	// SiteAdapters adds WebBrain's notes for known sites (adapters/) to
	// the agent's messages. Absent in a stored or imported object: true.
	SiteAdapters bool `json:"siteAdapters"`
	// AskBeforeActions makes the action gate stop before consequential
	// page actions and ask the user (an approval card). Absent: true.
	AskBeforeActions bool `json:"askBeforeActions"`
	// Planner is how an Act run plans before it acts: protocol.PlannerOff,
	// PlannerTry or PlannerStrict. Absent: Try; an explicit Off stays Off.
	Planner string `json:"planner"`
	// PlanReview says when a Try plan is shown for review:
	// protocol.ReviewStrict (only Strict plans) or ReviewAlways. Absent:
	// ReviewStrict.
	PlanReview string `json:"planReview"`
	// DecisionProvider is the id of the provider that answers closed
	// questions about the user's words (package decide); "" for none.
	DecisionProvider string `json:"decisionProvider"`
	// Memory gives the model what the user asked WebBrain to remember
	// (package memory). Absent: true.
	Memory bool `json:"memory"`
	// MemoryAutoLearn lets WebBrain note lasting preferences the user
	// states in a request, after the run succeeds. Absent: true.
	MemoryAutoLearn bool `json:"memoryAutoLearn"`
	// ScheduledTasks lets due scheduled jobs run; off, they pause when
	// their time comes. Absent: true.
	ScheduledTasks bool `json:"scheduledTasksEnabled"`
	// NotifySound lets a watch started with /beep play its alert tone
	// when the event happens. Absent: true.
	NotifySound bool `json:"notifySound"`
	// ResearchEscalation offers delegate_research in Ask: with the user's
	// approval each time, a question goes to ChatGPT in their signed-in
	// tab. Off by default.
	ResearchEscalation bool `json:"researchEscalationEnabled"`
	// ExperimentalWebMCP offers list_webmcp_tools and execute_webmcp_tool
	// in Chrome (off by default).
	ExperimentalWebMCP bool `json:"experimentalWebMCP"`
	// CaptchaSolverKey is the user's CapSolver key for solve_captcha; ""
	// for none. Like a provider's key, it never goes back to a page.
	CaptchaSolverKey string `json:"captchaSolverKey"`
	// Traces ("Record traces") records each run's privacy-safe trace in
	// the background's IndexedDB (docs/decisions/traces.md). Absent: false.
	Traces bool `json:"traces"`
	// Theme is the panel's and settings page's look: protocol.ThemeSystem
	// (the browser's preference), ThemeLight or ThemeDark. Absent: System.
	Theme string `json:"theme"`
	// DailyAllowanceUSD is what priced model calls may cost per day
	// before a run pauses to ask (docs/decisions/cost.md); 0: no limit,
	// the default.
	DailyAllowanceUSD float64 `json:"dailyAllowanceUsd"`
	// RunAllowanceUSD is the same limit for one run; 0: none.
	RunAllowanceUSD float64 `json:"runAllowanceUsd"`
	// Prices are the user's own prices by model id, in USD per million
	// tokens; they win over the built-in table and over the rule that a
	// local server is free.
	Prices map[string]cost.Price `json:"prices,omitempty"`
}

// Allowance is the cost allowance the settings set.
func (s Settings) Allowance() cost.Allowance {
	return cost.Allowance{DayUSD: s.DailyAllowanceUSD, RunUSD: s.RunAllowanceUSD}
}

// DefaultMaxSteps is the step limit of a first start.
const DefaultMaxSteps = 130

// Defaults is the first-start configuration: a local Ollama server.
func Defaults() Settings {
	return Settings{
		Providers: []llm.Config{{
			ID:      "ollama",
			Name:    "Ollama (local)",
			Kind:    protocol.KindOpenAIChat,
			BaseURL: "http://127.0.0.1:11434/v1",
			Tier:    protocol.TierMid,
		}},
		ActiveProvider:   "ollama",
		MaxSteps:         DefaultMaxSteps,
		SiteAdapters:     true,
		AskBeforeActions: true,
		Planner:          protocol.PlannerTry,
		PlanReview:       protocol.ReviewStrict,
		Memory:           true,
		MemoryAutoLearn:  true,
		ScheduledTasks:   true,
		NotifySound:      true,
	}
}

// Decision returns the configuration of the decision model, if one is set.
func (s Settings) Decision() (llm.Config, bool) {
	for _, p := range s.Providers {
		if s.DecisionProvider != "" && p.ID == s.DecisionProvider && !remoteHTTP(p.BaseURL) {
			return p, true
		}
	}
	return llm.Config{}, false
}

// PlannerLevel is the planner setting, Try when it is unset.
func (s Settings) PlannerLevel() string {
	if s.Planner == "" {
		return protocol.PlannerTry
	}
	return s.Planner
}

// ReviewsPlan says whether a plan made at level is shown for review.
func (s Settings) ReviewsPlan(level string) bool {
	return level == protocol.PlannerStrict || level == protocol.PlannerTry && s.PlanReview == protocol.ReviewAlways
}

// Active returns the configuration of the active provider. One that would
// send its requests in clear to a remote host is refused here, as stored
// settings load without that rule (see validate).
func (s Settings) Active() (llm.Config, error) {
	for i, p := range s.Providers {
		if p.ID == s.ActiveProvider {
			if remoteHTTP(p.BaseURL) {
				return llm.Config{}, transportError(fmt.Sprintf("providers[%d].baseUrl", i))
			}
			return p, nil
		}
	}
	if s.ActiveProvider == "" {
		t := uitext.T("bg_err_no_provider", "No provider is selected. Open Settings and choose one.")
		return llm.Config{}, &FieldError{Field: "activeProvider", Message: t.English, UI: t.Msg}
	}
	t := uitext.T("bg_err_provider_gone", "The selected provider \"$id$\" does not exist. Open Settings and choose one.", "id", s.ActiveProvider)
	return llm.Config{}, &FieldError{Field: "activeProvider", Message: t.English, UI: t.Msg}
}

// LoadError says why stored settings could not be used.
type LoadError struct{ Reason string }

func (e *LoadError) Error() string {
	return "The saved settings are damaged or unreadable (" + e.Reason + ")"
}

// Load reads the stored settings. Absent settings give Defaults. Settings
// that cannot be read or are invalid also give Defaults, together with a
// *LoadError the caller reports; Load never fails harder than that.
func Load(ctx context.Context, st platform.Storage) (Settings, error) {
	got, err := st.Get(ctx, protocol.KeySettings)
	return FromStored(got, err)
}

// FromStored is Load over a storage read (got, err) that asked for
// protocol.KeySettings among other keys, so a caller that needs more than
// the settings reads them all in one storage call.
func FromStored(got map[string]json.RawMessage, err error) (Settings, error) {
	if err != nil {
		return Defaults(), &LoadError{Reason: err.Error()}
	}
	raw, ok := got[protocol.KeySettings]
	if !ok || isNull(raw) {
		return Defaults(), nil
	}
	s, err := decode(raw, "")
	if err == nil {
		err = s.validate("", false)
	}
	if err != nil {
		return Defaults(), &LoadError{Reason: err.Error()}
	}
	return s, nil
}

// Save validates s as a whole and stores it with a single write, so an
// invalid value changes nothing.
func Save(ctx context.Context, st platform.Storage, s Settings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	header, err := json.Marshal(HeaderOf(s))
	if err != nil {
		return err
	}
	return st.Set(ctx, map[string]json.RawMessage{protocol.KeySettings: raw, protocol.KeyPanelHeader: header})
}

// Header is what the side panel's header shows before the background
// answers (protocol.KeyPanelHeader): the theme and the active provider's
// id, name and model. It holds no key, address or other setting, so the
// panel may read it from storage itself; its shape is a subset of the
// settings object, so the panel labels it with the same code.
type Header struct {
	Theme          string           `json:"theme"`
	ActiveProvider string           `json:"activeProvider"`
	Providers      []HeaderProvider `json:"providers"`
}

// HeaderProvider is the active provider as the header names it.
type HeaderProvider struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Model string `json:"model"`
}

// HeaderOf is s's Header.
func HeaderOf(s Settings) Header {
	h := Header{Theme: s.Theme, ActiveProvider: s.ActiveProvider, Providers: []HeaderProvider{}}
	for _, p := range s.Providers {
		if p.ID == s.ActiveProvider {
			h.Providers = append(h.Providers, HeaderProvider{ID: p.ID, Name: p.Name, Model: p.Model})
			break
		}
	}
	return h
}

// Decode parses a settings object as sent by the settings page, reporting
// a value of the wrong type as a FieldError. It does not validate.
func Decode(raw json.RawMessage) (Settings, error) { return decode(raw, "") }

func decode(raw json.RawMessage, prefix string) (Settings, error) {
	// Settings saved before these fields existed keep them on.
	s := Settings{SiteAdapters: true, AskBeforeActions: true, Planner: protocol.PlannerTry, PlanReview: protocol.ReviewStrict,
		Memory: true, MemoryAutoLearn: true, ScheduledTasks: true, NotifySound: true}
	if len(raw) == 0 || isNull(raw) {
		return s, &FieldError{Field: join(prefix, ""), Message: "The settings are missing."}
	}
	if read, ok := readSettings(raw, s); ok {
		s = read
	} else if err := json.Unmarshal(raw, &s); err != nil {
		return Settings{}, decodeError(err, prefix)
	}
	for i := range s.Providers {
		// The older boolean vision: true loads as "always"; only
		// visionMode is saved from now on ("" is "auto").
		p := &s.Providers[i]
		if p.VisionMode == "" && p.LegacyVision {
			p.VisionMode = llm.VisionAlways
		}
		p.LegacyVision = false
	}
	return s, nil
}

func isNull(raw json.RawMessage) bool { return string(raw) == "null" }

// join prefixes a field path: join("settings", "maxSteps") = "settings.maxSteps".
func join(prefix, field string) string {
	switch {
	case prefix == "":
		return field
	case field == "":
		return prefix
	}
	return prefix + "." + field
}

// AppendJSON writes the header as json.Marshal does, without reflection:
// syncHeader writes it on the first settings_get after a wake.
func (h Header) AppendJSON(dst []byte) ([]byte, error) {
	o := jsonw.NewObject(dst).String("theme", h.Theme).String("activeProvider", h.ActiveProvider)
	if h.Providers == nil {
		return o.Value("providers", nil).End()
	}
	list := make([]any, len(h.Providers))
	for i, p := range h.Providers {
		list[i] = p
	}
	return o.Value("providers", list).End()
}

// AppendJSON writes the provider as json.Marshal does.
func (p HeaderProvider) AppendJSON(dst []byte) ([]byte, error) {
	return jsonw.NewObject(dst).String("id", p.ID).String("name", p.Name).String("model", p.Model).End()
}

// ReadHeader reads a stored header record without reflection; false
// leaves it to json.Unmarshal.
func ReadHeader(raw []byte) (Header, bool) {
	var h Header
	ok := jsonw.Members(raw, func(key string, v gjson.Result) bool {
		var ok bool
		switch key {
		case "theme":
			h.Theme, ok = jsonw.String(v)
		case "activeProvider":
			h.ActiveProvider, ok = jsonw.String(v)
		case "providers":
			if v.Type == gjson.Null {
				h.Providers = nil
				return true
			}
			if !v.IsArray() {
				return false
			}
			h.Providers = []HeaderProvider{}
			ok = true
			v.ForEach(func(_, e gjson.Result) bool {
				var p HeaderProvider
				ok = jsonw.Members([]byte(e.Raw), func(key string, v gjson.Result) bool {
					var ok bool
					switch key {
					case "id":
						p.ID, ok = jsonw.String(v)
					case "name":
						p.Name, ok = jsonw.String(v)
					case "model":
						p.Model, ok = jsonw.String(v)
					}
					return ok
				})
				h.Providers = append(h.Providers, p)
				return ok
			})
		}
		return ok
	})
	return h, ok
}

// readSettings reads stored settings over s without reflection (package
// jsonw): Load runs on the first settings_get after a wake. It takes the
// usual shape only (the fields' exact names, plain strings, integer
// numbers, no prices) and reports false for anything else, which
// json.Unmarshal then reads as it always did. TestReadSettingsIsUnmarshal
// holds the two to the same result.
func readSettings(raw []byte, s Settings) (Settings, bool) {
	ok := jsonw.Members(raw, func(key string, v gjson.Result) bool {
		if v.Type == gjson.Null {
			switch key {
			case "providers":
				s.Providers = nil
				return true
			case "prices":
				s.Prices = nil
				return true
			}
			return isSettingsKey(key) // json.Unmarshal leaves the field as it is
		}
		switch key {
		case "providers":
			return readProviders(v, &s.Providers)
		case "activeProvider":
			return jsonw.ReadString(v, &s.ActiveProvider)
		case "maxSteps":
			return jsonw.ReadInt(v, &s.MaxSteps)
		case "siteAdapters":
			return jsonw.ReadBool(v, &s.SiteAdapters)
		case "askBeforeActions":
			return jsonw.ReadBool(v, &s.AskBeforeActions)
		case "planner":
			return jsonw.ReadString(v, &s.Planner)
		case "planReview":
			return jsonw.ReadString(v, &s.PlanReview)
		case "decisionProvider":
			return jsonw.ReadString(v, &s.DecisionProvider)
		case "memory":
			return jsonw.ReadBool(v, &s.Memory)
		case "memoryAutoLearn":
			return jsonw.ReadBool(v, &s.MemoryAutoLearn)
		case "scheduledTasksEnabled":
			return jsonw.ReadBool(v, &s.ScheduledTasks)
		case "notifySound":
			return jsonw.ReadBool(v, &s.NotifySound)
		case "researchEscalationEnabled":
			return jsonw.ReadBool(v, &s.ResearchEscalation)
		case "experimentalWebMCP":
			return jsonw.ReadBool(v, &s.ExperimentalWebMCP)
		case "captchaSolverKey":
			return jsonw.ReadString(v, &s.CaptchaSolverKey)
		case "traces":
			return jsonw.ReadBool(v, &s.Traces)
		case "theme":
			return jsonw.ReadString(v, &s.Theme)
		case "dailyAllowanceUsd":
			return jsonFloat(v, &s.DailyAllowanceUSD)
		case "runAllowanceUsd":
			return jsonFloat(v, &s.RunAllowanceUSD)
		}
		return false // prices, another spelling, or a key Settings lacks
	})
	return s, ok
}

func isSettingsKey(key string) bool {
	switch key {
	case "providers", "activeProvider", "maxSteps", "siteAdapters", "askBeforeActions", "planner", "planReview",
		"decisionProvider", "memory", "memoryAutoLearn", "scheduledTasksEnabled", "notifySound",
		"researchEscalationEnabled", "experimentalWebMCP", "captchaSolverKey", "traces", "theme",
		"dailyAllowanceUsd", "runAllowanceUsd", "prices":
		return true
	}
	return false
}

func readProviders(v gjson.Result, dst *[]llm.Config) bool {
	if !v.IsArray() {
		return false
	}
	list := []llm.Config{}
	ok := true
	v.ForEach(func(_, e gjson.Result) bool {
		var c llm.Config
		ok = jsonw.Members([]byte(e.Raw), func(key string, v gjson.Result) bool {
			if v.Type == gjson.Null {
				switch key {
				case "id", "name", "kind", "baseUrl", "apiKey", "model", "tier", "contextWindow", "deployment",
					"apiVersion", "region", "visionMode", "vision":
					return true
				}
				return false
			}
			switch key {
			case "id":
				return jsonw.ReadString(v, &c.ID)
			case "name":
				return jsonw.ReadString(v, &c.Name)
			case "kind":
				return jsonw.ReadString(v, &c.Kind)
			case "baseUrl":
				return jsonw.ReadString(v, &c.BaseURL)
			case "apiKey":
				return jsonw.ReadString(v, &c.APIKey)
			case "model":
				return jsonw.ReadString(v, &c.Model)
			case "tier":
				return jsonw.ReadString(v, &c.Tier)
			case "contextWindow":
				return jsonw.ReadInt(v, &c.ContextWindow)
			case "deployment":
				return jsonw.ReadString(v, &c.Deployment)
			case "apiVersion":
				return jsonw.ReadString(v, &c.APIVersion)
			case "region":
				return jsonw.ReadString(v, &c.Region)
			case "visionMode":
				return jsonw.ReadString(v, &c.VisionMode)
			case "vision":
				return jsonw.ReadBool(v, &c.LegacyVision)
			}
			return false
		})
		list = append(list, c)
		return ok
	})
	*dst = list
	return ok
}

// jsonFloat reads a number as json.Unmarshal does into a float64.
func jsonFloat(v gjson.Result, dst *float64) bool {
	if v.Type != gjson.Number {
		return false
	}
	f, err := strconv.ParseFloat(v.Raw, 64)
	*dst = f
	return err == nil
}
