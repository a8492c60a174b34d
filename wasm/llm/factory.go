package llm

import (
	"net/netip"
	"net/url"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/webbrain/webbrain/wasm/platform"
	"github.com/webbrain/webbrain/wasm/protocol"
	"github.com/webbrain/webbrain/wasm/uitext"
)

// Default endpoints when the base URL is left empty.
const (
	defaultOpenAIBase    = "https://api.openai.com/v1"
	defaultAnthropicBase = "https://api.anthropic.com/v1"
	defaultAzureVersion  = "2024-10-21"
	anthropicVersion     = "2023-06-01"
)

// New returns the client for cfg's wire format. A config that cannot work
// (unknown kind, bad URL, a cloud provider without key, Azure without
// deployment) is an *Error of KindConfig naming the field to fix.
func New(cfg Config, f platform.Fetcher) (Provider, error) {
	if f == nil {
		return nil, configError("no fetcher to reach the provider with")
	}
	base := strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	switch cfg.Kind {
	case protocol.KindOpenAIChat, protocol.KindOpenAIResponses:
		if base == "" {
			base = defaultOpenAIBase
		}
	case protocol.KindAnthropic:
		if base == "" {
			base = defaultAnthropicBase
		}
		if !strings.HasSuffix(base, "/v1") {
			base += "/v1" // accept https://api.anthropic.com as well
		}
	case protocol.KindAzure:
		if base == "" {
			return nil, configError("Azure OpenAI needs the resource's base URL (https://<resource>.openai.azure.com).")
		}
		if strings.TrimSpace(cfg.Deployment) == "" {
			return nil, configError("Azure OpenAI needs the deployment name.")
		}
		if cfg.APIVersion == "" {
			cfg.APIVersion = defaultAzureVersion
		}
	case protocol.KindBedrock:
		if strings.TrimSpace(cfg.Model) == "" {
			return nil, configError("Bedrock needs the model id (for example anthropic.claude-3-5-haiku-20241022-v1:0).")
		}
		if strings.TrimSpace(cfg.APIKey) == "" {
			return nil, configError("Bedrock needs a Bedrock API key, or an access key as ACCESS_KEY_ID:SECRET_ACCESS_KEY (with :SESSION_TOKEN for temporary credentials).")
		}
		if base == "" {
			base = "https://bedrock-runtime." + bedrockRegion(cfg) + ".amazonaws.com"
		}
	case "":
		return nil, configError("The provider has no kind; choose openai-chat, openai-responses, anthropic, azure or bedrock.")
	default:
		return nil, configError("Unknown provider kind %q; choose openai-chat, openai-responses, anthropic, azure or bedrock.", cfg.Kind)
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, configError("The base URL %q is not an http(s) address.", cfg.BaseURL)
	}
	cfg.BaseURL = base
	if cfg.APIKey == "" && needsKey(cfg.Kind, u.Hostname()) {
		t := uitext.T("bg_err_needs_key", "$host$ needs an API key.", "host", u.Hostname())
		return nil, &Error{Kind: KindConfig, Message: t.English, UI: t.Msg}
	}
	c := &client{cfg: cfg, fetch: f, policy: defaultRetry,
		textCalls: cfg.Kind == protocol.KindOpenAIChat && localServer(u.Hostname())}
	host := strings.ToLower(u.Hostname())
	if cfg.Kind == protocol.KindOpenAIChat && host == "api.openai.com" && ResponsesOnly(cfg.Model) {
		// The spec's rule: these official models speak only (or best)
		// the Responses API; the user need not know.
		cfg.Kind = protocol.KindOpenAIResponses
		c.cfg = cfg
	}
	switch cfg.Kind {
	case protocol.KindOpenAIChat:
		c.wire = &chatWire{endpoints: endpoints{cfg: cfg, url: base + "/chat/completions", models: base + "/models"},
			official: host == "api.openai.com", toolStream: host == "api.z.ai" || host == "open.bigmodel.cn",
			noToolStream: strings.HasPrefix(host, "dashscope")}
	case protocol.KindAzure:
		q := url.Values{"api-version": {cfg.APIVersion}}.Encode()
		prefix := strings.TrimSuffix(base, "/openai")
		c.wire = &chatWire{azure: true,
			endpoints: endpoints{cfg: cfg, url: prefix + "/openai/deployments/" + url.PathEscape(cfg.Deployment) + "/chat/completions?" + q}}
	case protocol.KindOpenAIResponses:
		c.wire = &responsesWire{endpoints{cfg: cfg, url: base + "/responses", models: base + "/models"}}
	case protocol.KindAnthropic:
		c.wire = &anthropicWire{endpoints{cfg: cfg, url: base + "/messages", models: base + "/models"}}
	case protocol.KindBedrock:
		c.wire = newBedrockWire(cfg)
	}
	return c, nil
}

// needsKey reports whether a hosted service is sure to refuse a request
// without a key; local and self-hosted servers usually take none.
func needsKey(kind, host string) bool {
	switch kind {
	case protocol.KindAnthropic, protocol.KindAzure, protocol.KindBedrock:
		return true
	}
	return host == "api.openai.com"
}

// localServer reports whether host is this machine or a local network,
// where Ollama, LM Studio and llama.cpp serve small models that write tool
// calls as text. Hosted APIs have native tool calling, so their text is
// never read as calls: a model quoting a page would otherwise act on it.
func localServer(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if ip, err := netip.ParseAddr(h); err == nil {
		ip = ip.Unmap()
		return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast()
	}
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasSuffix(h, ".local") ||
		!strings.Contains(h, ".") // a single-label name: a LAN or container host
}

// parseModelList reads {"data":[{"id"}]} (OpenAI, Anthropic, compatible
// servers) or Ollama's native {"models":[{"name"}]}.
func parseModelList(body []byte) []string {
	var ids []string
	for _, path := range []string{"data.#.id", "models.#.name", "models.#.id"} {
		for _, v := range gjson.GetBytes(body, path).Array() {
			if v.Str != "" {
				ids = append(ids, v.Str)
			}
		}
		if len(ids) > 0 {
			break
		}
	}
	return ids
}

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return "the provider"
}
