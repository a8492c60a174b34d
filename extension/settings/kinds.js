// Provider kinds and presets: where each kind's server usually lives.
import { PROVIDER_KIND } from "../common/protocol.js";

export const KIND_DEFAULTS = {
  [PROVIDER_KIND.OPENAI_CHAT]: "https://api.openai.com/v1",
  [PROVIDER_KIND.OPENAI_RESPONSES]: "https://api.openai.com/v1",
  [PROVIDER_KIND.ANTHROPIC]: "https://api.anthropic.com",
  [PROVIDER_KIND.AZURE]: "https://<resource>.openai.azure.com",
};

// Every preset except Anthropic speaks the OpenAI chat-completions format.
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
