// Browser API access shared by the side panel and the settings page.
// Firefox exposes promise-based `browser`; Chrome MV3's `chrome` returns
// promises too, so both are used the same way.
export const api = globalThis.browser ?? globalThis.chrome;

const NO_BACKGROUND = "WebBrain's background isn't answering. Reload the extension and try again.";

// send posts one message to the background and always resolves to a reply
// object ({ok: true, ...} or {ok: false, error}), so callers handle one shape.
export async function send(message) {
  try {
    const reply = await api.runtime.sendMessage(message);
    if (reply && typeof reply === "object") return reply;
    return { ok: false, error: NO_BACKGROUND };
  } catch (err) {
    return { ok: false, error: NO_BACKGROUND, transport: String(err?.message ?? err) };
  }
}
