// Teacher mode in the panel (docs/decisions/workflows.md): /teach --start
// records what the user does in the tab, /teach --end [name] saves it as a
// workflow, /teach --cancel drops it. A banner shows while the bound tab
// records, with Stop (save) and Cancel.
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION } from "../common/protocol.js";
import { savedText } from "./workflows.js";
import { t, tp } from "../common/i18n.js";

let banner = null; // the panel's one banner

// TeachBanner is the "Recording" strip; report(text, error) puts the
// outcome of its buttons in the transcript.
export class TeachBanner {
  constructor(node, report) {
    this.node = node;
    this.report = report;
    this.tabId = null;
    const stop = el("button", { type: "button", text: t("teach_stop_save") });
    const cancel = el("button", { type: "button", text: t("common_cancel") });
    stop.addEventListener("click", () => this.finish(ACTION.TEACH_END));
    cancel.addEventListener("click", () => this.finish(ACTION.TEACH_CANCEL));
    this.count = el("span", { className: "teach-count" });
    node.replaceChildren(el("span", { text: t("teach_recording") }), this.count, stop, cancel);
    banner = this;
  }

  // show binds the banner to a tab and asks whether it records.
  async show(tabId) {
    this.tabId = tabId;
    const reply = await send({ action: ACTION.TEACH_STATE, tabId });
    if (this.tabId !== tabId) return;
    this.node.hidden = !(reply.ok && reply.teaching);
    this.count.textContent = reply.steps ? ` ${tp("teach_actions", reply.steps)}` : "";
  }

  async finish(action, title = "") {
    const tabId = this.tabId;
    const reply = await send({ action, tabId, title });
    await this.show(tabId);
    if (!reply.ok) return this.report(t("teach_error", { error: reply.error }), true);
    this.report(action === ACTION.TEACH_END ? savedText(reply.workflow, reply.warnings) : t("teach_cancelled"));
  }
}

// teachCommand handles "/teach …" typed in the composer.
export async function teachCommand(arg, ctx) {
  const m = /^--(start|end|cancel)(?:\s+([\s\S]*))?$/.exec(arg);
  const add = (text, error) => ctx.session.transcript.add({ role: error ? "error" : "notice", text, ephemeral: true });
  if (!m || (m[1] !== "end" && m[2]?.trim())) return add(t("teach_use"));
  const tabId = ctx.session.tabId;
  if (m[1] !== "start") {
    banner.tabId = tabId;
    return banner.finish(m[1] === "end" ? ACTION.TEACH_END : ACTION.TEACH_CANCEL, (m[2] ?? "").trim());
  }
  const reply = await send({ action: ACTION.TEACH_START, tabId });
  await banner.show(tabId);
  if (!reply.ok) return add(t("teach_error", { error: reply.error }), true);
  add(t("teach_started"));
}
