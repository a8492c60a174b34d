// Plain-language help around errors and the active provider.
import { t } from "../common/i18n.js";

const NETWORK =
  /network|failed to fetch|fetch failed|could ?n[o']t (connect|reach)|can(no|')t reach|unreachable|connection refused|econnrefused|not answering|timed? ?out/i;
const OLLAMA_START = "OLLAMA_ORIGINS='chrome-extension://*,moz-extension://*' ollama serve";

// activeProvider returns the provider the runs use, or null.
export function activeProvider(settings) {
  const providers = settings?.providers ?? [];
  return providers.find((p) => p.id === settings.activeProvider) ?? null;
}

// providerLabel describes the active provider for the panel header.
export function providerLabel(settings) {
  const p = activeProvider(settings);
  if (!p) return { text: t("provider_missing"), missing: true };
  return { text: `${p.name || p.id} · ${p.model || t("provider_first_model")}`, missing: false };
}

function isLocal(baseUrl) {
  try {
    return ["127.0.0.1", "localhost", "[::1]"].includes(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

function isOllama(baseUrl) {
  try {
    return isLocal(baseUrl) && new URL(baseUrl).port === "11434";
  } catch {
    return false;
  }
}

// describeError makes the transcript item for a failed run. A network
// failure against a local server adds how to start it: that is the usual
// first-run problem, and only then is it worth mentioning.
export function describeError(text, provider) {
  const item = { role: "error", text: text || t("error_unknown") };
  if (!provider || !NETWORK.test(item.text)) return item;
  if (isOllama(provider.baseUrl)) {
    item.hint = { text: t("error_ollama_hint"), code: OLLAMA_START };
  } else if (isLocal(provider.baseUrl)) {
    item.hint = { text: t("error_local_hint", { url: provider.baseUrl }) };
  }
  return item;
}
