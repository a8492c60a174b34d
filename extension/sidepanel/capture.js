// A message may end with a run-capture suffix (docs/decisions/run-capture.md):
//   … /screenshot [--save-as <name>]   the tab before and after the run
//   … /record [--save-as <name>]       a video of the tab during the run (Chrome)
// The suffixes are left out of /help and the autocomplete on purpose.
import { api } from "../common/api.js";
import { t } from "../common/i18n.js";
import { CAPTURE } from "../common/protocol.js";

const SUFFIX = /\s+\/(screenshot|record)(?:\s+--save-as\s+(\S+))?\s*$/i;

// Recording films the tab through DevTools' screencast and an offscreen
// document: Chrome only.
const canRecord = Boolean(api.offscreen && api.debugger);

// runCapture splits the suffix off text: the message to send, what to
// capture, the files' name; error says why the message cannot go.
export function runCapture(text) {
  const m = SUFFIX.exec(text);
  if (!m) return { text };
  const body = text.slice(0, m.index).trim();
  const record = m[1].toLowerCase() === "record";
  if (record && !canRecord) return { text: body, error: t("capture_record_unavailable") };
  if (!body) return { text: body, error: t("capture_write_first") };
  return { text: body, capture: record ? CAPTURE.RECORD : CAPTURE.SCREENSHOT, saveAs: m[2] ?? "" };
}
