package background

import (
	"context"

	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/settings"
	"github.com/webbrain/webbrain/wasm/trace"
)

// traced starts the run's trace when "Record traces" is on and the
// browser can keep it, and returns the provider whose requests it records.
// A hand-off to Act goes on in the same trace.
func (r *Router) traced(ru *run, s settings.Settings, cfg llm.Config, prov llm.Provider) llm.Provider {
	if !s.Traces || r.p.Traces == nil {
		return prov
	}
	if ru.trace == nil {
		var site string
		ctx, cancel := context.WithTimeout(ru.ctx, storageWriteTimeout)
		if tab, err := r.p.Tabs.Get(ctx, ru.tabID); err == nil {
			site = tab.URL
		}
		cancel()
		ru.trace = trace.Start(r.p.Clock, r.p.Traces, trace.Run{
			ID: ru.requestID, TabID: ru.tabID, Site: site, Mode: ru.mode,
			RecordedByWebBrainVersion: r.p.Self.Version,
			Provider:                  trace.Provider{Kind: cfg.Kind, Tier: cfg.Tier, Vision: r.vision(ru.ctx, cfg).Vision},
		})
		rec := ru.trace
		ru.j.observeWith(func(e Entry) { rec.Observe(e.Event, e.Mode) })
	}
	// Requests are made on the run's goroutine, the one that changes its mode.
	return ru.trace.Provider(prov, cfg.Tier, func() string { return ru.mode })
}

// afterTurn notes the finished turn for the history and ends its trace.
func (r *Router) afterTurn(ru *run) {
	// Like the run itself (runGuarded), a panic here must not end the
	// module and every tab's run with it; the note and trace are lost.
	defer func() { _ = recover() }()
	r.noteTurn(ru)
	if ru.trace != nil {
		ru.trace.End(ru.j.status(), ru.mode)
	}
}
