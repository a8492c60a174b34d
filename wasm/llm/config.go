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
	// Vision: the model reads images, so runs send it screenshots of the tab.
	Vision bool `json:"vision"`
}
