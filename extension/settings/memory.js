// The Memory section of the settings page: what WebBrain remembers about
// the user (wb_user_memory_v1), edited through the background's memory_*
// actions so the panel, this page and the learner never overwrite each
// other.
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { N_, initI18n, t, tp } from "../common/i18n.js";
import { ACTION } from "../common/protocol.js";

await initI18n();

const $ = (id) => document.getElementById(id);

const KIND_LABELS = {
  preference: N_("settings_memory_kind_preference"),
  profile_hint: N_("settings_memory_kind_profile"),
  workflow_preference: N_("settings_memory_kind_workflow"),
};

let records = [];

// apply shows a reply's memory, or its error.
function apply(reply) {
  const error = $("memory-error");
  if (!reply.ok) {
    error.textContent = reply.error;
    error.hidden = false;
    return false;
  }
  error.hidden = true;
  records = reply.memory?.records ?? [];
  render();
  return true;
}

function render() {
  const list = $("memory-list");
  if (records.length === 0) {
    list.replaceChildren(el("li", { className: "help", text: t("settings_nothing_yet") }));
    return;
  }
  list.replaceChildren(...records.map(row));
}

function row(r) {
  const text = el("input", { type: "text", value: r.text, "aria-label": t("settings_memory_label", { text: r.text }) });
  const save = el("button", {
    type: "button",
    text: t("settings_save"),
    "aria-label": t("settings_save_label", { text: r.text }),
  });
  const forget = el("button", {
    type: "button",
    className: "danger",
    text: t("settings_forget"),
    "aria-label": t("settings_forget_label", { text: r.text }),
  });
  save.addEventListener("click", async () => {
    apply(await send({ action: ACTION.MEMORY_EDIT, id: r.id, text: text.value }));
  });
  forget.addEventListener("click", async () => {
    apply(await send({ action: ACTION.MEMORY_FORGET, id: r.id }));
  });
  const label = KIND_LABELS[r.kind] ? t(KIND_LABELS[r.kind]) : r.kind;
  const kind = `${label}${r.source === "learned" ? ` · ${t("memory_learned")}` : ""}`;
  return el(
    "li",
    { className: "memory-row", "data-id": r.id },
    el("span", { className: "help", text: kind }),
    el("div", { className: "row" }, text, save, forget),
  );
}

$("memory-add-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = $("memory-new");
  if (apply(await send({ action: ACTION.MEMORY_ADD, text: input.value }))) input.value = "";
});

$("memory-clear").addEventListener("click", async () => {
  if (records.length === 0) return;
  if (!window.confirm(tp("settings_memory_forget_all", records.length))) return;
  apply(await send({ action: ACTION.MEMORY_CLEAR }));
});

$("memory-export").addEventListener("click", async () => {
  const reply = await send({ action: ACTION.MEMORY_LIST });
  if (!apply(reply)) return;
  const blob = new Blob([JSON.stringify(reply.memory, null, 2)], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: "webbrain-memory.json" });
  a.click();
  URL.revokeObjectURL(a.href);
});

$("memory-import").addEventListener("click", () => $("memory-file").click());
$("memory-file").addEventListener("change", async (e) => {
  const file = e.target.files?.[0];
  e.target.value = "";
  if (!file) return;
  let memory;
  try {
    memory = JSON.parse(await file.text());
  } catch (err) {
    apply({ ok: false, error: t("settings_not_json", { error: err.message }) });
    return;
  }
  apply(await send({ action: ACTION.MEMORY_IMPORT, memory }));
});

send({ action: ACTION.MEMORY_LIST }).then(apply);
