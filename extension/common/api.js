// Browser API access shared by the side panel and the settings page.
// Firefox exposes promise-based `browser`; Chrome MV3's `chrome` returns
// promises too, so both are used the same way.
import { t } from "./i18n.js";

export const api = globalThis.browser ?? globalThis.chrome;

// English until the page has loaded its language (initI18n).
const noBackground = () => {
  const text = t("error_no_background");
  return text === "error_no_background" ? "WebBrain's background isn't answering. Reload the extension and try again." : text;
};

// send posts one message to the background and always resolves to a reply
// object ({ok: true, ...} or {ok: false, error}), so callers handle one shape.
export async function send(message) {
  try {
    const reply = await api.runtime.sendMessage(message);
    if (reply && typeof reply === "object") return reply;
    return { ok: false, error: noBackground() };
  } catch (err) {
    return { ok: false, error: noBackground(), transport: String(err?.message ?? err) };
  }
}
