// Provider kinds and presets: where each kind's server usually lives.
import { PROVIDER_KIND } from "../common/protocol.js";

export const KIND_DEFAULTS = {
  [PROVIDER_KIND.OPENAI_CHAT]: "https://api.openai.com/v1",
  [PROVIDER_KIND.OPENAI_RESPONSES]: "https://api.openai.com/v1",
  [PROVIDER_KIND.ANTHROPIC]: "https://api.anthropic.com",
  [PROVIDER_KIND.AZURE]: "https://<resource>.openai.azure.com",
  [PROVIDER_KIND.BEDROCK]: "https://bedrock-runtime.us-east-1.amazonaws.com",
};

// Presets of the providers people use most: all but Anthropic, Azure and the
// Responses preset speak the OpenAI chat-completions format (the kind).
export const PRESETS = [
  { name: "OpenAI", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://api.openai.com/v1" },
  { name: "Anthropic", kind: PROVIDER_KIND.ANTHROPIC, baseUrl: "https://api.anthropic.com" },
  { name: "Ollama (local)", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "http://127.0.0.1:11434/v1" },
  { name: "LM Studio (local)", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "http://127.0.0.1:1234/v1" },
  { name: "llama.cpp server (local)", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "http://127.0.0.1:8080/v1" },
  { name: "OpenRouter", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://openrouter.ai/api/v1" },
  { name: "Groq", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://api.groq.com/openai/v1" },
  { name: "DeepSeek", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://api.deepseek.com/v1" },
  { name: "xAI", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://api.x.ai/v1" },
  { name: "Mistral", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://api.mistral.ai/v1" },
  {
    name: "Google Gemini (OpenAI endpoint)",
    kind: PROVIDER_KIND.OPENAI_CHAT,
    baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
  },
  { name: "OpenAI (Responses API)", kind: PROVIDER_KIND.OPENAI_RESPONSES, baseUrl: "https://api.openai.com/v1" },
  { name: "Azure OpenAI", kind: PROVIDER_KIND.AZURE, baseUrl: "https://<resource>.openai.azure.com" },
  { name: "Together AI", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://api.together.xyz/v1" },
  { name: "Fireworks AI", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://api.fireworks.ai/inference/v1" },
  { name: "Perplexity", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://api.perplexity.ai" },
  { name: "Cerebras", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://api.cerebras.ai/v1" },
  { name: "DeepInfra", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://api.deepinfra.com/v1/openai" },
  { name: "NVIDIA NIM", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://integrate.api.nvidia.com/v1" },
  { name: "Hugging Face (router)", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://router.huggingface.co/v1" },
  { name: "Moonshot (Kimi)", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://api.moonshot.ai/v1" },
  {
    name: "Alibaba Qwen (DashScope)",
    kind: PROVIDER_KIND.OPENAI_CHAT,
    baseUrl: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
  },
  { name: "Zhipu GLM", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "https://open.bigmodel.cn/api/paas/v4" },
  { name: "vLLM (local)", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "http://127.0.0.1:8000/v1" },
  { name: "Jan (local)", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "http://127.0.0.1:1337/v1" },
  { name: "LocalAI (local)", kind: PROVIDER_KIND.OPENAI_CHAT, baseUrl: "http://127.0.0.1:8080/v1" },
];

const KNOWN_URLS = new Set([...Object.values(KIND_DEFAULTS), ...PRESETS.map((p) => p.baseUrl)]);

// isDefaultUrl tells whether a base URL is one this page filled in (or
// empty), so changing the kind may replace it without losing user input.
export function isDefaultUrl(url) {
  return !url.trim() || KNOWN_URLS.has(url.trim());
}

export function isPresetName(name) {
  return PRESETS.some((p) => p.name === name);
}
