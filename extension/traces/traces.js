// The Traces page (docs/decisions/traces.md): lists the runs the
// background recorded in IndexedDB (common/traces-db.js), shows one run's
// events and exports runs as webbrain-trace/1 JSON.
import { el } from "../common/dom.js";
import { download, manifestVersion } from "../sidepanel/history.js";
import { initI18n, locale, onLanguageChange, t, tp } from "../common/i18n.js";

await initI18n();
onLanguageChange(() => location.reload());

const db = globalThis.wbTraceDB;
const $ = (id) => document.getElementById(id);
let runs = [];
let shown = null;

const when = (iso) => {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? "" : new Date(at).toLocaleString(locale());
};

const seconds = (ms) => ((ms ?? 0) / 1000).toLocaleString(locale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });

async function load() {
  runs = await db.list();
  $("traces-status").textContent = runs.length === 0 ? t("traces_none") : tp("traces_count", runs.length);
  $("traces-export-all").disabled = runs.length === 0;
  $("traces-rows").replaceChildren(...runs.map(row));
  if (shown && !runs.some((r) => r.id === shown.id)) show(null);
}

function row(run) {
  const tr = el(
    "tr",
    { "data-id": run.id, tabindex: "0", "aria-selected": String(shown?.id === run.id) },
    el("td", { text: when(run.startedAt) }),
    el("td", { text: run.site || "—" }),
    el("td", { text: run.finalMode && run.finalMode !== run.mode ? `${run.mode} → ${run.finalMode}` : run.mode }),
    el("td", { text: run.outcome ? `${run.status} (${run.outcome})` : run.status }),
    el("td", { text: String(run.events?.length ?? 0) }),
    el("td", { text: t("duration_s", { s: seconds(run.durationMs) }) }),
    el("td", { text: run.recordedByWebBrainVersion || t("traces_unavailable") }),
  );
  const open = () => show(run);
  tr.addEventListener("click", open);
  tr.addEventListener("keydown", (e) => {
    if (e.key === "Enter") open();
  });
  return tr;
}

// details says what one event holds, without the type and time.
function details(ev) {
  const skip = new Set(["at", "type"]);
  return Object.entries(ev)
    .filter(([k]) => !skip.has(k))
    .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(", ");
}

function show(run) {
  shown = run;
  $("trace-detail").hidden = !run;
  for (const tr of $("traces-rows").children) tr.setAttribute("aria-selected", String(tr.dataset.id === run?.id));
  if (!run) return;
  $("trace-heading").textContent = t("traces_run_on", { site: run.site || t("traces_unknown_site"), when: when(run.startedAt) });
  $("trace-events").replaceChildren(
    ...(run.events ?? []).map((ev) =>
      el(
        "tr",
        {},
        el("td", { text: String(ev.at) }),
        el("td", { text: ev.type }),
        el("td", { className: "details", text: details(ev) }),
      ),
    ),
  );
}

function exportRuns(list, name) {
  const doc = db.exportDoc(list, manifestVersion());
  download(name, JSON.stringify(doc, null, 2), "application/json");
}

$("traces-export-all").addEventListener("click", () => exportRuns(runs, "webbrain-traces.json"));
$("trace-export").addEventListener("click", () => shown && exportRuns([shown], `webbrain-trace-${shown.id}.json`));
$("trace-delete").addEventListener("click", async () => {
  if (!shown) return;
  await db.remove([shown.id]);
  show(null);
  await load();
});
$("traces-delete-all").addEventListener("click", async () => {
  const button = $("traces-delete-all");
  if (button.dataset.confirm !== "true") {
    button.dataset.confirm = "true";
    button.textContent = t("common_delete_all_confirm");
    return;
  }
  delete button.dataset.confirm;
  button.textContent = t("common_delete_all");
  await db.clear();
  await load();
});

load().then(() => {
  document.body.dataset.ready = "true";
});
