// keepWarm keeps Chrome's service worker running while the user is at the
// open panel. Chrome stops an idle worker after 30 s and the next message
// then pays for starting the Go core again; any event to the worker resets
// that timer, so the panel sends a no-op keep_warm every 20 s while it is
// showing and the user used it in the last 5 minutes, and one as soon as
// the user starts typing after a pause, so a stopped worker starts while
// the message is still being written (docs/decisions/keep-warm.md).
import { api, send } from "../common/api.js";
import { ACTION } from "../common/protocol.js";

const PING_MS = 20_000;
const IDLE_MS = 5 * 60_000;
// A keystroke pings again only when the last ping is this old: typing
// never sends more than one message per interval.
const TYPING_PING_MS = 10_000;

export function keepWarm(doc = document) {
  // Firefox's background page is persistent: nothing to keep.
  if (!api.sidePanel) return;
  let lastActive = Date.now();
  let lastPing = 0;
  const ping = () => {
    lastPing = Date.now();
    send({ action: ACTION.KEEP_WARM });
  };
  const active = () => {
    lastActive = Date.now();
  };
  for (const type of ["pointerdown", "focusin", "wheel"]) doc.addEventListener(type, active, { passive: true });
  doc.addEventListener("keydown", () => {
    active();
    if (Date.now() - lastPing >= TYPING_PING_MS) ping();
  });
  doc.addEventListener("visibilitychange", () => {
    if (doc.visibilityState === "visible") active();
  });
  setInterval(() => {
    if (doc.visibilityState === "visible" && Date.now() - lastActive < IDLE_MS) ping();
  }, PING_MS);
}
