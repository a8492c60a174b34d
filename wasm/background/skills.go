package background

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/webbrain/webbrain/wasm/agent"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/skills"
	"github.com/webbrain/webbrain/wasm/tools"
)

// skillView is one skill as Settings → Skills lists it.
type skillView struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Summary  string   `json:"summary"`
	Modes    []string `json:"modes"`
	Packaged bool     `json:"packaged"` // WebBrain's own: cannot be edited or deleted
	Enabled  bool     `json:"enabled"`
	// Tools name the skill's network tools and where each sends its
	// requests ("find_notes: GET api.notes.example").
	Tools    []string `json:"tools,omitempty"`
	Markdown string   `json:"markdown,omitempty"` // the user's own skills
	Error    string   `json:"error,omitempty"`    // why a stored skill is not offered
}

// skillsAction answers skills_list, skill_save ({skill: {id, markdown,
// enabled}}) and skill_delete ({id}) (docs/PROTOCOL.md).
func (r *Router) skillsAction(ctx context.Context, m message) reply {
	r.skillsMu.Lock()
	defer r.skillsMu.Unlock()
	user, err := skills.LoadUser(ctx, r.p.Local)
	if err != nil {
		return errReply(err)
	}
	switch m.Action {
	case protocol.ActionSkillSave:
		var s skills.Stored
		if len(m.Skill) == 0 || json.Unmarshal(m.Skill, &s) != nil {
			return failf("The skill to save is missing or not an object.")
		}
		if user, _, err = skills.Put(user, s); err != nil {
			return sentenceError(err)
		}
	case protocol.ActionSkillDelete:
		i := slices.IndexFunc(user, func(s skills.Stored) bool { return s.ID == m.ID })
		if i < 0 {
			return sentenceError(errors.New("there is no skill of yours with this id"))
		}
		user = slices.Delete(user, i, i+1)
	}
	if m.Action != protocol.ActionSkillsList {
		if err := skills.SaveUser(ctx, r.p.Local, user); err != nil {
			return failf("WebBrain could not save the skills: %v.", err)
		}
	}
	return okReply("skills", skillViews(user))
}

func skillViews(user []skills.Stored) []skillView {
	var out []skillView
	all, _ := skills.Packaged()
	for _, s := range all {
		out = append(out, skillView{ID: s.ID, Name: s.Name, Summary: s.Summary, Modes: s.Modes, Packaged: true, Enabled: true, Tools: toolLines(s)})
	}
	for _, u := range user {
		v := skillView{ID: u.ID, Enabled: u.Enabled, Markdown: u.Markdown}
		if s, err := skills.ParseUser(u.ID, u.Markdown); err != nil {
			v.Error = err.Error()
		} else {
			v.Name, v.Summary, v.Modes, v.Tools = s.Name, s.Summary, s.Modes, toolLines(s)
		}
		out = append(out, v)
	}
	return out
}

// toolLines describes a skill's network tools for Settings.
func toolLines(s skills.Skill) []string {
	var out []string
	for _, t := range s.Tools {
		out = append(out, t.Name+": "+t.Method+" "+t.Host())
	}
	return out
}

// skillCatalog is the catalog of a run: the packaged skills and the
// user's enabled ones, for the mode and tier.
func (r *Router) skillCatalog(ctx context.Context, mode, tier string) []skills.Skill {
	user, _ := skills.LoadUser(ctx, r.p.Local)
	return skills.Catalog(user, mode, tier)
}

// The run's dispatcher sends the requests of skills' network tools.
var _ agent.SkillExecutor = (*tools.Dispatcher)(nil)
