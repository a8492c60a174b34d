// The provider presets the form offers. The table is the page's own list
// (kinds.js) until the background offers one: when protocol.js has a
// PROVIDER_PRESETS action, its reply {ok, presets: [{name, kind, baseUrl,
// model, tier, visionMode, local}]} replaces the list, so the presets have
// one source (docs/decisions/settings-page.md).
import { send } from "../common/api.js";
import { ACTION, TIER } from "../common/protocol.js";
import { PRESETS } from "./kinds.js";

// isLocal tells a server on this computer from a cloud service.
export function isLocal(baseUrl) {
  try {
    const host = new URL(baseUrl).hostname;
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
  } catch {
    return false;
  }
}

// withTier gives a preset the tier the specification sets when it has
// none: Mid for local servers, Full for cloud providers.
function normalize(p) {
  const local = p.local ?? isLocal(p.baseUrl);
  return { ...p, local, tier: p.tier || (local ? TIER.MID : TIER.FULL) };
}

export async function loadPresets() {
  if (ACTION.PROVIDER_PRESETS) {
    const reply = await send({ action: ACTION.PROVIDER_PRESETS });
    if (reply.ok && Array.isArray(reply.presets) && reply.presets.length) return reply.presets.map(normalize);
  }
  return PRESETS.map(normalize);
}
