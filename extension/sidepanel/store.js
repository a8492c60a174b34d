// Persistence of the visible transcript in storage.session `tabChat:<tabId>`
// so a reopened panel shows earlier turns. Only data is stored, never HTML.
import { api } from "../common/api.js";
import { STORAGE, tabKey } from "../common/protocol.js";

const MAX_BYTES = 256 * 1024;
const MAX_TOOL_FIELD = 8000; // tool results reach the model capped at 8 KB too
const MAX_TEXT = 64 * 1024;
const MAX_RUNS = 20;

const key = (tabId) => tabKey(STORAGE.TAB_CHAT, tabId);

export async function loadChat(tabId) {
  try {
    const got = await api.storage.session.get(key(tabId));
    const chat = got?.[key(tabId)];
    return chat && Array.isArray(chat.items) ? chat : null;
  } catch {
    return null;
  }
}

export async function saveChat(tabId, chat) {
  try {
    await api.storage.session.set({ [key(tabId)]: pack(chat) });
  } catch {
    // Storage full or unavailable: the live panel still shows everything.
  }
}

export async function removeChat(tabId) {
  try {
    await api.storage.session.remove(key(tabId));
  } catch {
    // Nothing stored.
  }
}

// pack drops ephemeral items, shortens long fields and then the oldest
// items until the record fits MAX_BYTES.
export function pack({ items, runs, current, mode, queue = [] }) {
  const kept = items.filter((i) => !i.ephemeral).map(trimItem);
  const runIds = Object.keys(runs).slice(-MAX_RUNS);
  const record = { v: 1, mode, current, queue, runs: Object.fromEntries(runIds.map((id) => [id, runs[id]])), items: kept };
  let size = JSON.stringify(record).length;
  while (size > MAX_BYTES && kept.length) size -= JSON.stringify(kept.shift()).length + 1;
  return record;
}

function trimItem(item) {
  const out = {};
  for (const [k, v] of Object.entries(item)) {
    const max = k === "args" || k === "result" ? MAX_TOOL_FIELD : MAX_TEXT;
    out[k] = typeof v === "string" && v.length > max ? `${v.slice(0, max)}… [shortened]` : v;
  }
  return out;
}
