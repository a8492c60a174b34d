package background

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/webbrain/webbrain/wasm/jsonw"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/memory"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/settings"
)

// providerTestTimeout bounds provider_test: a server that never answers
// must not leave the settings page waiting forever.
const providerTestTimeout = 30 * time.Second

// providerView is a provider as extension pages see it: whether it has an
// API key, never the key. A page that a model's output or a page's content
// could subvert then has no key to leak.
type providerView struct {
	llm.Config
	APIKeySet bool `json:"apiKeySet"`
}

// settingsView is the settings object of settings_get.
type settingsView struct {
	settings.Settings
	Providers           []providerView `json:"providers"`
	CaptchaSolverKeySet bool           `json:"captchaSolverKeySet"`
}

func viewOf(s settings.Settings) settingsView {
	v := settingsView{Settings: s, Providers: make([]providerView, len(s.Providers)), CaptchaSolverKeySet: s.CaptchaSolverKey != ""}
	v.CaptchaSolverKey = ""
	for i, p := range s.Providers {
		v.Providers[i] = providerView{Config: p, APIKeySet: p.APIKey != ""}
		v.Providers[i].APIKey = ""
	}
	return v
}

// AppendJSON writes the view as json.Marshal does (the settings' fields
// in their order, less the shadowed providers, then the view's own),
// without reflection: settings_get is usually the first message after a
// wake. TestSettingsViewJSON holds it to json.Marshal.
func (v settingsView) AppendJSON(dst []byte) ([]byte, error) {
	s := v.Settings
	o := jsonw.NewObject(dst).String("activeProvider", s.ActiveProvider).Int("maxSteps", int64(s.MaxSteps)).
		Bool("siteAdapters", s.SiteAdapters).Bool("askBeforeActions", s.AskBeforeActions).
		String("planner", s.Planner).String("planReview", s.PlanReview).String("decisionProvider", s.DecisionProvider).
		Bool("memory", s.Memory).Bool("memoryAutoLearn", s.MemoryAutoLearn).Bool("scheduledTasksEnabled", s.ScheduledTasks).
		Bool("notifySound", s.NotifySound).Bool("researchEscalationEnabled", s.ResearchEscalation).
		Bool("experimentalWebMCP", s.ExperimentalWebMCP).String("captchaSolverKey", s.CaptchaSolverKey).
		Bool("traces", s.Traces).String("theme", s.Theme).
		Float("dailyAllowanceUsd", s.DailyAllowanceUSD).Float("runAllowanceUsd", s.RunAllowanceUSD)
	if len(s.Prices) > 0 {
		o.Value("prices", s.Prices) // rare: json.Marshal
	}
	if v.Providers == nil {
		o.Value("providers", nil)
	} else {
		list := make([]any, len(v.Providers))
		for i, p := range v.Providers {
			list[i] = p
		}
		o.Value("providers", list)
	}
	return o.Bool("captchaSolverKeySet", v.CaptchaSolverKeySet).End()
}

// AppendJSON writes the provider as json.Marshal does.
func (p providerView) AppendJSON(dst []byte) ([]byte, error) {
	c := p.Config
	o := jsonw.NewObject(dst).String("id", c.ID).String("name", c.Name).String("kind", c.Kind).
		String("baseUrl", c.BaseURL).String("apiKey", c.APIKey).String("model", c.Model).String("tier", c.Tier).
		Int("contextWindow", int64(c.ContextWindow))
	if c.Deployment != "" {
		o.String("deployment", c.Deployment)
	}
	if c.APIVersion != "" {
		o.String("apiVersion", c.APIVersion)
	}
	if c.Region != "" {
		o.String("region", c.Region)
	}
	if c.VisionMode != "" {
		o.String("visionMode", c.VisionMode)
	}
	if c.LegacyVision {
		o.Bool("vision", c.LegacyVision)
	}
	return o.Bool("apiKeySet", p.APIKeySet).End()
}

// testRecords are the provider tests of settings_get; none, the usual
// case, is written without reflection.
type testRecords map[string]testRecord

func (t testRecords) AppendJSON(dst []byte) ([]byte, error) {
	if t != nil && len(t) == 0 {
		return append(dst, "{}"...), nil
	}
	return jsonw.Append(dst, map[string]testRecord(t))
}

// keySet is the part of a provider object that says "keep the stored key".
type keySet struct {
	ID        string `json:"id"`
	APIKeySet bool   `json:"apiKeySet"`
}

// storedKey returns the stored API key of the provider with id, or "".
func (r *Router) storedKey(ctx context.Context, id string) string {
	s, _ := settings.Load(ctx, r.p.Local)
	for _, p := range s.Providers {
		if p.ID == id {
			return p.APIKey
		}
	}
	return ""
}

// settingsGet returns the settings without API keys; damaged stored
// settings come back as the defaults with a warning the settings page shows.
func (r *Router) settingsGet(ctx context.Context) reply {
	// One storage call for all three: each is a round trip to the browser.
	got, err := r.p.Local.Get(ctx, protocol.KeySettings, protocol.KeyProviderTests, protocol.KeyPanelHeader)
	s, problem := settings.FromStored(got, err)
	if err == nil {
		r.syncHeader(ctx, s, got)
	}
	out := okReply("settings", viewOf(s), "providerTests", testRecords(testsFrom(got, err)),
		"defaults", map[string]any{"maxSteps": settings.Defaults().MaxSteps})
	if problem != nil {
		out["warning"] = problem.Error() + "; showing the defaults until you save."
	}
	return out
}

// syncHeader writes the panel's header record (protocol.KeyPanelHeader)
// when it is missing or differs from the settings the panel is shown:
// settings stored before the record existed, or the defaults. Once per
// worker life while they do not change. stored is a storage read that
// asked for protocol.KeyPanelHeader.
func (r *Router) syncHeader(ctx context.Context, s settings.Settings, stored map[string]json.RawMessage) {
	want, err := jsonw.Marshal(settings.HeaderOf(s))
	if err != nil || string(want) == r.header.Load() {
		return
	}
	if have, ok := stored[protocol.KeyPanelHeader]; !ok || !sameHeader(have, want) {
		if err := r.p.Local.Set(ctx, map[string]json.RawMessage{protocol.KeyPanelHeader: want}); err != nil {
			return
		}
	}
	r.header.Store(string(want))
}

// sameHeader says whether the stored record have holds the header want
// (Chrome's storage gives objects back with their keys sorted, so the
// record is read into a Header and written the way want was).
func sameHeader(have, want json.RawMessage) bool {
	h, read := settings.ReadHeader(have)
	if !read && json.Unmarshal(have, &h) != nil {
		return false
	}
	again, err := jsonw.Marshal(h)
	return err == nil && bytes.Equal(again, want)
}

// atomicString is a string read and written from several goroutines.
type atomicString struct{ v atomic.Value }

func (a *atomicString) Load() string {
	s, _ := a.v.Load().(string)
	return s
}

func (a *atomicString) Store(s string) { a.v.Store(s) }

// settingsSave stores the settings. A provider with an empty apiKey and
// apiKeySet keeps its stored key; an empty apiKey without apiKeySet
// removes it.
func (r *Router) settingsSave(ctx context.Context, m message) reply {
	s, err := settings.Decode(m.Settings)
	if err != nil {
		return errReply(err)
	}
	var flags struct {
		Providers           []keySet `json:"providers"`
		CaptchaSolverKeySet bool     `json:"captchaSolverKeySet"`
	}
	_ = json.Unmarshal(m.Settings, &flags) // Decode accepted its shape
	if s.CaptchaSolverKey == "" && flags.CaptchaSolverKeySet {
		stored, _ := settings.Load(ctx, r.p.Local)
		s.CaptchaSolverKey = stored.CaptchaSolverKey
	}
	for i := range s.Providers {
		p := &s.Providers[i]
		if p.APIKey == "" && i < len(flags.Providers) && flags.Providers[i].APIKeySet {
			p.APIKey = r.storedKey(ctx, p.ID)
		}
	}
	before, _ := settings.Load(ctx, r.p.Local)
	if err := settings.Save(ctx, r.p.Local, s); err != nil {
		return errReply(err)
	}
	r.forgetStaleTests(ctx, before, s)
	return okReply()
}

// providerTest tests a provider with a tiny real request (the server's
// model list, or a one-token request for Azure). With id it tests that
// saved provider and records the result for the settings page; with
// provider it tests the form as shown, without and with apiKeySet the
// stored key of that provider.
func (r *Router) providerTest(ctx context.Context, m message) reply {
	if len(m.Provider) == 0 && m.ID != "" {
		return r.providerTestSaved(ctx, m.ID)
	}
	var cfg llm.Config
	var flag keySet
	if len(m.Provider) == 0 || json.Unmarshal(m.Provider, &cfg) != nil || json.Unmarshal(m.Provider, &flag) != nil {
		return errReply(&settings.FieldError{Field: "provider", Message: "The provider to test is missing or not an object."})
	}
	if err := settings.ValidateProvider(cfg, "provider"); err != nil {
		return errReply(err)
	}
	if cfg.APIKey == "" && flag.APIKeySet {
		cfg.APIKey = r.storedKey(ctx, cfg.ID)
	}
	model, err := r.testConfig(ctx, cfg)
	if err != nil {
		out := errReply(err)
		out["reason"] = testReason(cfg, err)
		return out
	}
	return okReply("model", model)
}

// testConfig runs the provider's test request, bounded in time.
func (r *Router) testConfig(ctx context.Context, cfg llm.Config) (string, error) {
	if err := settings.ValidateProvider(cfg, "provider"); err != nil {
		return "", err
	}
	prov, err := llm.New(cfg, r.p.Fetch)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, providerTestTimeout)
	defer cancel()
	model, err := prov.Test(ctx)
	var le *llm.Error
	if err != nil && errors.As(err, &le) && le.Status == 401 && cfg.APIKey == "" {
		err = &llm.Error{Kind: le.Kind, Status: 401, Message: "No API key is saved for this provider, and its server wants one (HTTP 401). Add the key and save."}
	}
	return model, err
}

// configExport exports the settings in effect: the defaults, with a
// warning, when the stored ones are damaged. The user asked for the whole
// file (keys included: they move their setup); `masked` is the same document
// with keys shortened, which the panel shows until the user reveals it.
func (r *Router) configExport(ctx context.Context) reply {
	s, problem := settings.Load(ctx, r.p.Local)
	doc := settings.Export(s, r.p.Clock.Now())
	masked := doc
	masked.Settings.Providers = make([]llm.Config, len(s.Providers))
	for i, p := range s.Providers {
		p.APIKey = settings.MaskKey(p.APIKey)
		masked.Settings.Providers[i] = p
	}
	masked.Settings.CaptchaSolverKey = settings.MaskKey(s.CaptchaSolverKey)
	out := okReply("config", doc, "masked", masked)
	if problem != nil {
		out["warning"] = problem.Error() + "; exporting the defaults."
	}
	return out
}

func (r *Router) configImport(ctx context.Context, m message) reply {
	if len(m.Config) == 0 {
		return errReply(&settings.FieldError{Message: "There is no configuration to import."})
	}
	doc := m.Config
	// The panel's "/import <json>" may pass the document as text.
	var text string
	if json.Unmarshal(doc, &text) == nil {
		doc = json.RawMessage(text)
	}
	s, report, err := settings.ImportWithReport(doc)
	before, _ := settings.Load(ctx, r.p.Local)
	if err == nil {
		err = settings.Save(ctx, r.p.Local, s)
	}
	if err != nil {
		return errReply(err)
	}
	r.forgetStaleTests(ctx, before, s)
	if report.Memory != nil {
		r.importOriginalMemory(ctx, &report)
	}
	return okReply("report", report)
}

// importOriginalMemory adds the records of the original product's memory
// (in its configuration file) to the user's memory, as memory_import does,
// and says in the report how many were added.
func (r *Router) importOriginalMemory(ctx context.Context, report *settings.Report) {
	const field = protocol.KeyUserMemory
	r.memMu.Lock()
	defer r.memMu.Unlock()
	s, _ := memory.Load(ctx, r.p.Local)
	now := r.p.Clock.Now()
	added, err := importMemory(&s, report.Memory, now)
	if err == nil && added > 0 {
		err = memory.Save(ctx, r.p.Local, s, now)
	}
	var in struct {
		Records []struct {
			ArchivedAt int64 `json:"archivedAt"`
		} `json:"records"`
	}
	_ = json.Unmarshal(report.Memory, &in)
	live := 0
	for _, rec := range in.Records {
		if rec.ArchivedAt == 0 {
			live++
		}
	}
	switch {
	case err != nil:
		report.Settle(field, "", "The memory in the file could not be read: "+err.Error()+".")
	case live == 0:
		report.Settle(field, "", "The file's memory is empty.")
	default:
		report.Settle(field, fmt.Sprintf("%d of %d records added; the others were already remembered, or hold something WebBrain never keeps (a password, code or card number).", added, live), "")
	}
}
