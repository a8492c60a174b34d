// The History view (docs/decisions/chat-history.md): past conversations of
// this browser, archived by the background when a conversation is cleared
// or its tab closes. Open shows one read-only; Continue here makes it the
// tab's conversation again. Also the downloads of /export and
// /export --traces.
import { api, send } from "../common/api.js";
import { el } from "../common/dom.js";
import { ACTION } from "../common/protocol.js";
import { Transcript } from "./transcript.js";
import { loadMarkdown } from "../common/markdown.js";
import { locale, t, tp } from "../common/i18n.js";

const dateFormat = (when) => new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" }).format(when);

export class HistoryView {
  // els: {root, list, status, deleteAll, close, view, viewTitle, viewMeta,
  // viewTranscript, back, restore, exportOne}; hooks: {tabId(), onShow(shown),
  // beforeRestore(), afterRestore(ok)}.
  constructor(els, hooks) {
    this.els = els;
    this.hooks = hooks;
    this.openId = null;
    this.readOnly = new Transcript(els.viewTranscript, {
      onClarifyAnswer() {},
      onApprovalAnswer() {},
      onPlanAnswer() {},
    });
    els.close.addEventListener("click", () => this.hide());
    els.back.addEventListener("click", () => this.showList());
    els.deleteAll.addEventListener("click", () => this.deleteAll());
    els.restore.addEventListener("click", () => this.restore());
    els.exportOne.addEventListener("click", () => exportMarkdown({ action: ACTION.CONVERSATION_EXPORT, id: this.openId }));
  }

  get shown() {
    return !this.els.root.hidden;
  }

  async show() {
    this.els.root.hidden = false;
    this.hooks.onShow(true);
    await this.showList();
  }

  hide() {
    this.els.root.hidden = true;
    this.openId = null;
    this.hooks.onShow(false);
  }

  say(text) {
    this.els.status.textContent = text;
  }

  async showList() {
    this.openId = null;
    this.els.view.hidden = true;
    this.els.list.hidden = false;
    this.resetDeleteAll();
    const reply = await send({ action: ACTION.HISTORY_LIST });
    if (!reply.ok) return this.say(reply.error);
    this.render(reply.entries);
  }

  render(entries) {
    this.els.deleteAll.hidden = entries.length === 0;
    this.say(entries.length === 0 ? t("history_empty") : tp("history_count", entries.length));
    this.els.list.replaceChildren(...entries.map((entry) => this.row(entry)));
  }

  row(entry) {
    const open = el("button", { type: "button", className: "link history-open", text: entry.title });
    open.addEventListener("click", () => this.open(entry));
    const del = el("button", {
      type: "button",
      className: "history-delete danger",
      "aria-label": t("history_delete_one", { title: entry.title }),
      text: t("common_delete"),
    });
    del.addEventListener("click", () => this.delete(entry.id));
    return el(
      "li",
      { className: "history-item", "data-id": entry.id },
      open,
      el("span", { className: "history-meta", text: describe(entry) }),
      del,
    );
  }

  async open(entry) {
    const [reply] = await Promise.all([send({ action: ACTION.HISTORY_GET, id: entry.id }), loadMarkdown()]);
    if (!reply.ok) return this.say(reply.error);
    this.openId = entry.id;
    this.els.list.hidden = true;
    this.els.deleteAll.hidden = true;
    this.els.view.hidden = false;
    this.els.viewTitle.textContent = entry.title;
    this.els.viewMeta.textContent = describe(entry);
    this.say("");
    // Cards of an archived run can no longer be answered.
    const items = (reply.transcript?.items ?? []).map((item) => {
      const copy = { ...item };
      if (
        ["clarify", "approval", "plan", "allowance"].includes(copy.role) &&
        copy.decision === undefined &&
        copy.answer === undefined
      ) {
        copy.expired = true;
      }
      delete copy.editing;
      return copy;
    });
    this.readOnly.reset(items);
    this.els.back.focus();
  }

  async delete(id) {
    const reply = await send({ action: ACTION.HISTORY_DELETE, id });
    if (!reply.ok) return this.say(reply.error);
    this.render(reply.entries);
  }

  // deleteAll asks once more on the button itself before deleting.
  async deleteAll() {
    const button = this.els.deleteAll;
    if (button.dataset.confirm !== "true") {
      button.dataset.confirm = "true";
      button.textContent = t("common_delete_all_confirm");
      return;
    }
    this.resetDeleteAll();
    const reply = await send({ action: ACTION.HISTORY_DELETE, all: true });
    if (!reply.ok) return this.say(reply.error);
    this.render(reply.entries);
  }

  resetDeleteAll() {
    delete this.els.deleteAll.dataset.confirm;
    this.els.deleteAll.textContent = t("common_delete_all");
  }

  async restore() {
    const tabId = this.hooks.tabId();
    if (tabId == null || !this.openId) return;
    this.hooks.beforeRestore();
    const reply = await send({ action: ACTION.HISTORY_RESTORE, id: this.openId, tabId });
    this.hooks.afterRestore(reply.ok);
    if (!reply.ok) return this.say(reply.error);
    this.hide();
  }
}

function describe(entry) {
  const when = Date.parse(entry.archivedAt);
  return [entry.site || t("history_no_site"), Number.isNaN(when) ? "" : dateFormat(when), (entry.modes ?? []).join(", ")]
    .filter(Boolean)
    .join(" · ");
}

// download offers text as a file.
export function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a", { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// exportMarkdown asks the background for a conversation as Markdown
// (secrets masked there) and downloads it; it resolves to the reply.
export async function exportMarkdown(message) {
  const reply = await send(message);
  if (reply.ok) download(reply.filename, reply.markdown, "text/markdown");
  return reply;
}

export function manifestVersion() {
  return api.runtime.getManifest?.().version ?? "unknown";
}

// exportTraces downloads the recorded traces of one tab as
// webbrain-trace/1; it resolves to how many runs it held.
export async function exportTraces(tabId) {
  const db = globalThis.wbTraceDB;
  if (!db) return 0;
  const runs = await db.list(tabId);
  if (runs.length === 0) return 0;
  const doc = db.exportDoc(runs, manifestVersion());
  const stamp = doc.exportedAt.replace(/[-:]/g, "").replace(/\..*$/, "");
  download(`webbrain-trace-tab${tabId}-${stamp}.json`, JSON.stringify(doc, null, 2), "application/json");
  return runs.length;
}
