// What the side panel starts before the rest of its modules have loaded
// (docs/decisions/panel-startup.md). sidepanel.html loads this module with
// async, so it runs as soon as it and its three small imports arrive,
// while the browser still fetches the panel's other modules:
//   - settings_get, which the panel needs anyway: it wakes a stopped
//     background (Chrome's worker takes a few hundred ms to start the Go
//     core) in parallel with the panel's own start instead of after it;
//   - the header record (STORAGE.PANEL_HEADER, no keys), which names the
//     active provider before the background answers;
//   - the interface language's catalogs.
// sidepanel.js imports the same module instance and takes the promises.
import { api, send } from "../common/api.js";
import { preloadI18n } from "../common/i18n.js";
import { ACTION, STORAGE } from "../common/protocol.js";

performance.mark("wb:early");
export const early = {
  settings: send({ action: ACTION.SETTINGS_GET }),
  header: readHeader(),
};
preloadI18n().then(() => performance.mark("wb:catalog"));

async function readHeader() {
  try {
    const got = await api.storage.local.get(STORAGE.PANEL_HEADER);
    const header = got?.[STORAGE.PANEL_HEADER];
    return header && typeof header === "object" && Array.isArray(header.providers) ? header : null;
  } catch {
    return null;
  }
}
