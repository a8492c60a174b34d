package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/webbrain/webbrain/wasm/cost"
	"github.com/webbrain/webbrain/wasm/llm"
	"github.com/webbrain/webbrain/wasm/netaddr"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// FieldError names the invalid value by its dotted path (for example
// "providers[1].baseUrl") and says in plain language what is wrong.
type FieldError struct {
	Field   string
	Message string
	// UI is Message as a catalog key for the panel; nil when it has none.
	UI *uitext.Msg
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}

// Limits of maxSteps.
const (
	MinSteps = 1
	MaxSteps = 200
)

// Validate checks the whole object and returns the first problem found.
func (s Settings) Validate() error { return s.validate("", true) }

// validate checks s; transport says whether plain http to a remote host
// is an error. Loading leaves that rule to Active, so settings stored
// before the rule existed still load for the user to fix rather than
// being replaced by the defaults.
func (s Settings) validate(prefix string, transport bool) error {
	if len(s.Providers) == 0 {
		return &FieldError{Field: join(prefix, "providers"), Message: "Add at least one provider."}
	}
	seen := map[string]bool{}
	for i, p := range s.Providers {
		path := join(prefix, fmt.Sprintf("providers[%d]", i))
		if err := validateProvider(p, path, transport); err != nil {
			return err
		}
		if seen[p.ID] {
			return &FieldError{Field: path + ".id", Message: fmt.Sprintf("Another provider already uses the id %q; ids must be unique.", p.ID)}
		}
		seen[p.ID] = true
	}
	if !seen[s.ActiveProvider] {
		return &FieldError{Field: join(prefix, "activeProvider"), Message: fmt.Sprintf("The active provider %q is not in the provider list.", s.ActiveProvider)}
	}
	if s.MaxSteps < MinSteps || s.MaxSteps > MaxSteps {
		return &FieldError{Field: join(prefix, "maxSteps"), Message: fmt.Sprintf("The step limit must be between %d and %d.", MinSteps, MaxSteps)}
	}
	if s.DecisionProvider != "" && !seen[s.DecisionProvider] {
		return &FieldError{Field: join(prefix, "decisionProvider"), Message: fmt.Sprintf("The decision model %q is not in the provider list.", s.DecisionProvider)}
	}
	// "" is the setting left unset: the defaults apply (PlannerLevel).
	if s.Planner != "" && !oneOf(s.Planner, protocol.Planners) {
		return &FieldError{Field: join(prefix, "planner"), Message: fmt.Sprintf("Unknown planner setting %q; use one of %s.", s.Planner, strings.Join(protocol.Planners, ", "))}
	}
	if s.PlanReview != "" && !oneOf(s.PlanReview, protocol.Reviews) {
		return &FieldError{Field: join(prefix, "planReview"), Message: fmt.Sprintf("Unknown plan review setting %q; use one of %s.", s.PlanReview, strings.Join(protocol.Reviews, ", "))}
	}
	if s.Theme != "" && !oneOf(s.Theme, protocol.Themes) {
		return &FieldError{Field: join(prefix, "theme"), Message: fmt.Sprintf("Unknown theme %q; use one of %s.", s.Theme, strings.Join(protocol.Themes, ", "))}
	}
	return s.validateCost(prefix)
}

// maxAllowanceUSD bounds an allowance: a larger one is a typing mistake.
const maxAllowanceUSD = 100000

// validateCost checks the allowances and the user's prices.
func (s Settings) validateCost(prefix string) error {
	for _, a := range []struct {
		field string
		usd   float64
	}{{"dailyAllowanceUsd", s.DailyAllowanceUSD}, {"runAllowanceUsd", s.RunAllowanceUSD}} {
		if !cost.ValidAmount(a.usd) || a.usd > maxAllowanceUSD {
			return &FieldError{Field: join(prefix, a.field), Message: fmt.Sprintf("An allowance is an amount in US dollars from 0 (no limit) to %d.", maxAllowanceUSD)}
		}
	}
	for model, p := range s.Prices {
		if strings.TrimSpace(model) == "" || strings.TrimSpace(model) != model {
			return &FieldError{Field: join(prefix, "prices"), Message: fmt.Sprintf("The price for %q needs a model id without spaces around it.", model)}
		}
		if !p.Valid() {
			return &FieldError{Field: join(prefix, "prices."+model), Message: "Prices are amounts in US dollars per million tokens, 0 or more."}
		}
	}
	return nil
}

// ValidateProvider checks one provider; path prefixes the field names
// ("providers[0]", or "provider" for a provider tested on its own).
func ValidateProvider(p llm.Config, path string) error { return validateProvider(p, path, true) }

func validateProvider(p llm.Config, path string, transport bool) error {
	field := func(name string) string { return join(path, name) }
	switch {
	case strings.TrimSpace(p.ID) == "":
		return &FieldError{Field: field("id"), Message: "The provider needs an id."}
	case strings.TrimSpace(p.Name) == "":
		return &FieldError{Field: field("name"), Message: "The provider needs a name."}
	case !oneOf(p.Kind, protocol.Kinds):
		return &FieldError{Field: field("kind"), Message: fmt.Sprintf("Unknown provider kind %q; use one of %s.", p.Kind, strings.Join(protocol.Kinds, ", "))}
	case !httpURL(p.BaseURL):
		return &FieldError{Field: field("baseUrl"), Message: "The base URL must be a full address starting with http:// or https://."}
	case transport && remoteHTTP(p.BaseURL):
		return transportError(field("baseUrl"))
	case !oneOf(p.Tier, protocol.Tiers):
		return &FieldError{Field: field("tier"), Message: fmt.Sprintf("Unknown tier %q; use one of %s.", p.Tier, strings.Join(protocol.Tiers, ", "))}
	case p.ContextWindow < 0:
		return &FieldError{Field: field("contextWindow"), Message: "The context window cannot be negative (0 means the default)."}
	case p.Kind == protocol.KindAzure && strings.TrimSpace(p.Deployment) == "":
		return &FieldError{Field: field("deployment"), Message: "Azure needs the deployment name."}
	case p.Kind == protocol.KindAzure && strings.TrimSpace(p.APIVersion) == "":
		return &FieldError{Field: field("apiVersion"), Message: "Azure needs the API version (for example 2024-10-21)."}
	case p.Kind == protocol.KindBedrock && strings.TrimSpace(p.Model) == "":
		return &FieldError{Field: field("model"), Message: "Bedrock needs the model id (for example anthropic.claude-3-5-haiku-20241022-v1:0)."}
	case p.VisionMode != "" && !oneOf(p.VisionMode, llm.VisionModes):
		return &FieldError{Field: field("visionMode"), Message: fmt.Sprintf("Unknown vision setting %q; use one of %s.", p.VisionMode, strings.Join(llm.VisionModes, ", "))}
	}
	return nil
}

func oneOf(v string, set []string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// remoteHTTP reports whether base sends requests (and the API key) in
// clear over the internet: http to a host that is not on this computer
// or the local network, by the same rule fetch_url applies (netaddr).
func remoteHTTP(base string) bool {
	u, err := url.Parse(base)
	return err == nil && u.Scheme == "http" && netaddr.Private(u.Hostname()) == ""
}

func transportError(field string) *FieldError {
	return &FieldError{Field: field, Message: "Use https:// for remote providers; http is only for servers on this computer or your local network " +
		"(an address such as 127.0.0.1, 192.168.x.x, 10.x.x.x or 100.64–127.x.x, or a name such as localhost, gpu-box or gpu-box.local)."}
}

// decodeError turns a JSON decoding failure into a FieldError.
func decodeError(err error, prefix string) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return &FieldError{Field: join(prefix, te.Field), Message: fmt.Sprintf("This value must be a %s, not a %s.", jsonType(te.Type.Kind().String()), te.Value)}
	}
	return &FieldError{Field: prefix, Message: "The settings are not a valid JSON object."}
}

func jsonType(goKind string) string {
	switch goKind {
	case "int", "int64", "float64":
		return "number"
	case "slice":
		return "list"
	case "struct", "map":
		return "object"
	}
	return goKind
}
