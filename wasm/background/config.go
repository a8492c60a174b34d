package background

import (
	"context"
	"encoding/json"
	"time"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/settings"
)

// providerTestTimeout bounds provider_test: a server that never answers
// must not leave the settings page waiting forever.
const providerTestTimeout = 30 * time.Second

// settingsGet returns the settings; damaged stored settings come back as
// the defaults with a warning the settings page shows.
func (r *Router) settingsGet(ctx context.Context) reply {
	s, problem := settings.Load(ctx, r.p.Local)
	out := okReply("settings", s)
	if problem != nil {
		out["warning"] = problem.Error() + "; showing the defaults until you save."
	}
	return out
}

func (r *Router) settingsSave(ctx context.Context, m message) reply {
	s, err := settings.Decode(m.Settings)
	if err == nil {
		err = settings.Save(ctx, r.p.Local, s)
	}
	if err != nil {
		return errReply(err)
	}
	return okReply()
}

func (r *Router) providerTest(ctx context.Context, m message) reply {
	var cfg llm.Config
	if len(m.Provider) == 0 || json.Unmarshal(m.Provider, &cfg) != nil {
		return errReply(&settings.FieldError{Field: "provider", Message: "The provider to test is missing or not an object."})
	}
	if err := settings.ValidateProvider(cfg, "provider"); err != nil {
		return errReply(err)
	}
	prov, err := llm.New(cfg, r.p.Fetch)
	if err != nil {
		return errReply(err)
	}
	ctx, cancel := context.WithTimeout(ctx, providerTestTimeout)
	defer cancel()
	model, err := prov.Test(ctx)
	if err != nil {
		return errReply(err)
	}
	return okReply("model", model)
}

// configExport exports the settings in effect: the defaults, with a
// warning, when the stored ones are damaged.
func (r *Router) configExport(ctx context.Context) reply {
	s, problem := settings.Load(ctx, r.p.Local)
	out := okReply("config", settings.Export(s, r.p.Clock.Now()))
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
	s, err := settings.Import(doc)
	if err == nil {
		err = settings.Save(ctx, r.p.Local, s)
	}
	if err != nil {
		return errReply(err)
	}
	return okReply()
}
