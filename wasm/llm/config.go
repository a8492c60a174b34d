package llm

// Config is one provider as the user configured it (docs/PROTOCOL.md).
type Config struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Kind          string `json:"kind"`
	BaseURL       string `json:"baseUrl"`
	APIKey        string `json:"apiKey"`
	Model         string `json:"model"`
	Tier          string `json:"tier"`
	ContextWindow int    `json:"contextWindow"`
	Deployment    string `json:"deployment,omitempty"` // azure
	APIVersion    string `json:"apiVersion,omitempty"` // azure
	// Region is the AWS region of a bedrock provider; empty: the one in
	// its base URL, else us-east-1.
	Region string `json:"region,omitempty"`
	// VisionMode says whether the model reads images, so runs send it
	// screenshots of the tab: VisionAuto (detected, the default),
	// VisionAlways or VisionNever (docs/decisions/vision.md).
	VisionMode string `json:"visionMode,omitempty"`
	// Vision is the older switch: true still loads as VisionAlways.
	LegacyVision bool `json:"vision,omitempty"`
}

// Vision modes of a provider.
const (
	VisionAuto   = "auto"
	VisionAlways = "always"
	VisionNever  = "never"
)

// VisionModes lists them, the default first.
var VisionModes = []string{VisionAuto, VisionAlways, VisionNever}

// Vision is cfg's vision mode: visionMode when set, else "always" for a
// stored vision: true, else "auto".
func (cfg Config) Vision() string {
	switch cfg.VisionMode {
	case VisionAuto, VisionAlways, VisionNever:
		return cfg.VisionMode
	}
	if cfg.LegacyVision {
		return VisionAlways
	}
	return VisionAuto
}
