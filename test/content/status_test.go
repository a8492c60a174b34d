//go:build browser

package content

import (
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/tools"
)

// wb_status reports each visible message with its structure and no
// reading of its words: a field's message tied by aria-errormessage (not
// listed twice), a field without a message, an alert inside a form with an
// invalid field, messages the site's class or state marks as errors,
// alerts and statuses, an alert inside a status region, and a message too
// long to read. The older errors and notices lists keep their sorting.
func TestStatusReportsStructuralEvidence(t *testing.T) {
	p := open(t, "/status.html")
	r := evalJS[struct {
		OK     bool             `json:"ok"`
		Result tools.PageStatus `json:"result"`
	}](p, `window.__wbRunTool("wb_status", {})`)
	if !r.OK {
		t.Fatal("wb_status failed")
	}
	got := map[string]tools.StatusMessage{}
	for _, m := range r.Result.Messages {
		key := m.Text
		if m.Field != "" {
			key = m.Field + ": " + m.Text
		}
		if _, dup := got[key]; dup {
			t.Errorf("%q listed twice", key)
		}
		got[key] = m
	}
	want := map[string]string{
		"Courriel: Adresse invalide.":        "field tied form alert",
		"Pseudo: ":                           "field",
		"Veuillez vérifier le formulaire.":   "form alert",
		"Le serveur ne répond pas.":          "marked",
		"Échec de l'envoi.":                  "marked",
		"Merci, votre message a été envoyé.": "alert",
		"Enregistrement en cours…":           "status",
		"Dans une zone de statut.":           "alert status",
		"Statut : Dans une zone de statut.":  "status",
	}
	for text, ev := range want {
		m, ok := got[text]
		if !ok {
			t.Errorf("no message %q in %+v", text, r.Result.Messages)
			continue
		}
		if strings.Join(m.Evidence, " ") != ev || m.Long {
			t.Errorf("%q: evidence %q long %v, want %q", text, m.Evidence, m.Long, ev)
		}
	}
	long := false
	for _, m := range r.Result.Messages {
		if strings.HasPrefix(m.Text, "Long.") {
			long = m.Long && len([]rune(m.Text)) <= 300 && strings.Join(m.Evidence, " ") == "status"
		}
		if strings.Contains(m.Text, "Caché") {
			t.Error("a hidden alert was reported")
		}
	}
	if !long {
		t.Error("the long status is not marked long")
	}
	if len(r.Result.Messages) != len(want)+1 {
		t.Errorf("%d messages: %+v", len(r.Result.Messages), r.Result.Messages)
	}
	errs := strings.Join(r.Result.Errors, "|")
	for _, e := range []string{"Courriel: Adresse invalide.", "Pseudo: marked invalid", "Veuillez vérifier le formulaire.", "Merci, votre message a été envoyé."} {
		if !strings.Contains(errs, e) {
			t.Errorf("errors %q lack %q", errs, e)
		}
	}
	if n := strings.Join(r.Result.Notices, "|"); !strings.Contains(n, "Enregistrement en cours") || !strings.Contains(n, "|Dans une zone de statut.") {
		t.Errorf("notices %q", n)
	}
}
