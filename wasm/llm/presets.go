package llm

import "github.com/webbrain/webbrain/wasm/protocol"

// Auth styles of a preset: how its key travels.
const (
	AuthBearer = "bearer"    // Authorization: Bearer <key>
	AuthXAPI   = "x-api-key" // Anthropic
	AuthAPIKey = "api-key"   // Azure's api-key header
	AuthAWS    = "aws"       // a Bedrock API key, or an access key signed with SigV4
	AuthNone   = "none"      // a local server: no key
)

// Preset is a provider the settings page offers ready-made: its wire
// format, where it lives, how it authenticates and its default tier
// (local servers Mid, cloud APIs Full, as the spec says).
type Preset struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	BaseURL string `json:"baseUrl"`
	Auth    string `json:"auth"`
	Local   bool   `json:"local"`
	Tier    string `json:"tier"`
	// Note says what the user must do beyond the key, if anything.
	Note string `json:"note,omitempty"`
}

func cloud(id, name, kind, base, auth string) Preset {
	return Preset{ID: id, Name: name, Kind: kind, BaseURL: base, Auth: auth, Tier: protocol.TierFull}
}

func local(id, name, base, note string) Preset {
	return Preset{ID: id, Name: name, Kind: protocol.KindOpenAIChat, BaseURL: base, Auth: AuthNone, Local: true, Tier: protocol.TierMid, Note: note}
}

// Presets is the one list of provider presets; provider_presets sends it
// to the settings page. The spec's provider families, less WebBrain's own
// hosted service and the in-browser WebGPU models, which are not HTTP
// providers one can point at; plus a few more compatible APIs.
var Presets = []Preset{
	cloud("openai", "OpenAI", protocol.KindOpenAIChat, "https://api.openai.com/v1", AuthBearer),
	cloud("openai-responses", "OpenAI (Responses API)", protocol.KindOpenAIResponses, "https://api.openai.com/v1", AuthBearer),
	cloud("anthropic", "Anthropic", protocol.KindAnthropic, "https://api.anthropic.com", AuthXAPI),
	withNote(cloud("azure", "Azure OpenAI", protocol.KindAzure, "https://<resource>.openai.azure.com", AuthAPIKey),
		"Fill in your resource name, the deployment and the API version."),
	withNote(cloud("bedrock", "Amazon Bedrock", protocol.KindBedrock, "https://bedrock-runtime.us-east-1.amazonaws.com", AuthAWS),
		"The key is a Bedrock API key, or ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]; the region is in the address. The model is a model or inference profile id."),
	cloud("gemini", "Google Gemini", protocol.KindOpenAIChat, "https://generativelanguage.googleapis.com/v1beta/openai", AuthBearer),
	cloud("deepseek", "DeepSeek", protocol.KindOpenAIChat, "https://api.deepseek.com/v1", AuthBearer),
	cloud("xai", "xAI", protocol.KindOpenAIChat, "https://api.x.ai/v1", AuthBearer),
	cloud("mistral", "Mistral", protocol.KindOpenAIChat, "https://api.mistral.ai/v1", AuthBearer),
	cloud("nvidia", "NVIDIA NIM", protocol.KindOpenAIChat, "https://integrate.api.nvidia.com/v1", AuthBearer),
	cloud("groq", "Groq", protocol.KindOpenAIChat, "https://api.groq.com/openai/v1", AuthBearer),
	cloud("together", "Together AI", protocol.KindOpenAIChat, "https://api.together.xyz/v1", AuthBearer),
	cloud("fireworks", "Fireworks AI", protocol.KindOpenAIChat, "https://api.fireworks.ai/inference/v1", AuthBearer),
	cloud("zai", "z.ai (GLM)", protocol.KindOpenAIChat, "https://api.z.ai/api/paas/v4", AuthBearer),
	cloud("openrouter", "OpenRouter", protocol.KindOpenAIChat, "https://openrouter.ai/api/v1", AuthBearer),
	cloud("alibaba", "Alibaba Cloud (Qwen, DashScope)", protocol.KindOpenAIChat, "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", AuthBearer),
	cloud("perplexity", "Perplexity", protocol.KindOpenAIChat, "https://api.perplexity.ai", AuthBearer),
	cloud("cerebras", "Cerebras", protocol.KindOpenAIChat, "https://api.cerebras.ai/v1", AuthBearer),
	cloud("deepinfra", "DeepInfra", protocol.KindOpenAIChat, "https://api.deepinfra.com/v1/openai", AuthBearer),
	cloud("huggingface", "Hugging Face (router)", protocol.KindOpenAIChat, "https://router.huggingface.co/v1", AuthBearer),
	cloud("moonshot", "Moonshot (Kimi)", protocol.KindOpenAIChat, "https://api.moonshot.ai/v1", AuthBearer),
	cloud("zhipu", "Zhipu GLM (China)", protocol.KindOpenAIChat, "https://open.bigmodel.cn/api/paas/v4", AuthBearer),
	local("ollama", "Ollama (local)", "http://127.0.0.1:11434/v1",
		"Start Ollama with OLLAMA_ORIGINS='chrome-extension://*,moz-extension://*'."),
	local("lmstudio", "LM Studio (local)", "http://127.0.0.1:1234/v1", "Enable CORS in LM Studio's server settings."),
	local("llamacpp", "llama.cpp server (local)", "http://127.0.0.1:8080/v1",
		"No key. Leave the model empty to use the model llama-server loaded."),
	local("jan", "Jan (local)", "http://127.0.0.1:1337/v1", ""),
	local("vllm", "vLLM (local)", "http://127.0.0.1:8000/v1", ""),
	local("sglang", "SGLang (local)", "http://127.0.0.1:30000/v1", ""),
	local("localai", "LocalAI (local)", "http://127.0.0.1:8080/v1", ""),
}

func withNote(p Preset, note string) Preset {
	p.Note = note
	return p
}
