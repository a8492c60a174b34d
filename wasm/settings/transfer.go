package settings

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Format names the config transfer document.
const Format = "webbrain-config/1"

// Document is a webbrain-config/1 export. API keys travel in plain text:
// users move their own setup between browsers. Conversations and run
// journals are not part of it.
type Document struct {
	Format     string   `json:"format"`
	ExportedAt string   `json:"exportedAt"`
	Settings   Settings `json:"settings"`
}

// MaskKey shortens an API key for display: its first 3 and last 4
// characters ("sk-…1234"); a key under 12 characters, which that would
// mostly reveal, is only "…"; no key stays "".
func MaskKey(key string) string {
	r := []rune(key)
	switch {
	case len(r) == 0:
		return ""
	case len(r) < 12:
		return "…"
	}
	return string(r[:3]) + "…" + string(r[len(r)-4:])
}

// Export wraps s in a transfer document stamped with now (UTC, RFC 3339).
func Export(s Settings, now time.Time) Document {
	return Document{Format: Format, ExportedAt: now.UTC().Format(time.RFC3339), Settings: s}
}

// Import parses a transfer document and validates it as a whole before
// returning its settings; field paths start at the document
// ("settings.providers[0].baseUrl").
func Import(doc json.RawMessage) (Settings, error) {
	s, _, err := ImportWithReport(doc)
	return s, err
}

// ImportWithReport is Import that also accepts the original product's
// export (its "schema" field says webbrain-config/1) and says what was
// imported and what was skipped, and why.
func ImportWithReport(doc json.RawMessage) (Settings, Report, error) {
	var head struct {
		Format   *string         `json:"format"`
		Schema   *string         `json:"schema"`
		Version  string          `json:"webbrainVersion"`
		Settings json.RawMessage `json:"settings"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		return Settings{}, Report{}, &FieldError{Message: "This is not a WebBrain configuration: it is not a JSON object."}
	}
	if head.Format == nil && head.Schema != nil && *head.Schema == Format {
		return importOriginal(head.Settings, head.Version)
	}
	if head.Format == nil || *head.Format != Format {
		return Settings{}, Report{}, &FieldError{Field: "format", Message: fmt.Sprintf("This is not a %s document.", Format)}
	}
	s, err := decode(head.Settings, "settings")
	if err != nil {
		return Settings{}, Report{}, err
	}
	if err := s.validate("settings", true); err != nil {
		return Settings{}, Report{}, err
	}
	// The panel shows the export with masked keys: a copy of that text
	// would store "sk-…1234" as the key.
	for i, p := range s.Providers {
		if strings.Contains(p.APIKey, "…") {
			return Settings{}, Report{}, &FieldError{Field: fmt.Sprintf("settings.providers[%d].apiKey", i),
				Message: "This API key is masked (it contains …). Import the downloaded file, or copy the configuration after Reveal keys."}
		}
	}
	if strings.Contains(s.CaptchaSolverKey, "…") {
		return Settings{}, Report{}, &FieldError{Field: "settings.captchaSolverKey",
			Message: "This CAPTCHA solver key is masked (it contains …). Import the downloaded file, or copy the configuration after Reveal keys."}
	}
	rep := Report{Source: "webbrain"}
	for _, p := range s.Providers {
		note := ""
		if p.APIKey != "" {
			note = "API key included."
		}
		rep.took("settings.providers."+p.ID, "providers."+p.ID, note)
	}
	rep.took("settings", "settings", "Every other setting of the file.")
	return s, rep, nil
}
