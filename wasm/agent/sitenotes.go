package agent

import (
	"strings"

	"github.com/webbrain/webbrain/wasm/adapters"
	"github.com/webbrain/webbrain/wasm/llm"
)

// The label and trust note that open a site adapter's notes. The notes
// are WebBrain's own data, so they travel outside any untrusted block.
const (
	siteNotesLabel = "Site notes from WebBrain for "
	siteNotesTrust = " (WebBrain's own guidance for this site, not page content):\n"
)

// siteNotes formats an adapter's notes for the model.
func siteNotes(a *adapters.Adapter) string {
	return "\n\n" + siteNotesLabel + a.Name + siteNotesTrust + a.Notes
}

// setSite records the adapter of the page at pageURL as the current site
// and returns it (nil when none matches or adapters are off).
func (r *run) setSite(pageURL string) *adapters.Adapter {
	r.site = ""
	if r.opts.SiteAdapter == nil || pageURL == "" {
		return nil
	}
	a := r.opts.SiteAdapter(pageURL)
	if a != nil {
		r.site = a.ID
	}
	return a
}

// siteNotesFor returns the notes to add for a page the run is now on: the
// adapter's notes the first time this turn meets that adapter, else "".
func (r *run) siteNotesFor(pageURL string) string {
	prev := r.site
	a := r.setSite(pageURL)
	if a == nil {
		return ""
	}
	injected := !r.siteShown[a.Name]
	if r.opts.SiteMatched != nil && (a.ID != prev || injected) {
		r.opts.SiteMatched(a, injected)
	}
	if !injected {
		return ""
	}
	r.siteShown[a.Name] = true
	return siteNotes(a)
}

// siteChange returns the notes to add after a tool moved the tab from
// before to after: only when it lands on a different matched site.
func (r *run) siteChange(before, after string) string {
	if after == before {
		return ""
	}
	prev := r.site
	notes := r.siteNotesFor(after)
	if r.site == prev {
		return ""
	}
	return notes
}

// shownSites finds the sites whose notes a resumed turn already carries,
// by name, so a restart does not add them again.
func shownSites(turn []llm.Message) map[string]bool {
	shown := map[string]bool{}
	for _, m := range turn {
		for rest := m.Content; ; {
			_, after, ok := strings.Cut(rest, siteNotesLabel)
			if !ok {
				break
			}
			name, tail, ok := strings.Cut(after, siteNotesTrust)
			if ok {
				shown[name] = true
			}
			rest = tail
		}
	}
	return shown
}
