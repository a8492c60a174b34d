// The "Import and export" section: the settings as a webbrain-config/1
// file, and importing one (this product's or the original product's),
// with the background's report of what was imported and what was skipped.
import { send } from "../common/api.js";
import { el } from "../common/dom.js";
import { groupSkipped, REPORT_TEXT } from "../common/import-report.js";
import { ACTION } from "../common/protocol.js";
import { T } from "./strings.js";

const $ = (id) => document.getElementById(id);

function fail(text) {
  $("config-error").textContent = text;
  $("config-error").hidden = false;
}

async function exportConfig() {
  $("config-error").hidden = true;
  const reply = await send({ action: ACTION.CONFIG_EXPORT });
  if (!reply.ok) return fail(reply.error);
  const name = `webbrain-config-${new Date().toISOString().slice(0, 10)}.json`;
  const blob = new Blob([JSON.stringify(reply.config, null, 2)], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  a.click();
  URL.revokeObjectURL(a.href);
  showReport(null, T.exportDone(name));
}

// showReport lists what an import took and what it skipped, grouped by
// the reason; or shows a single line.
function showReport(report, line) {
  const box = $("import-report");
  box.hidden = false;
  if (!report) {
    box.replaceChildren(el("p", { text: line }));
    return;
  }
  const imported = report.imported ?? [];
  const skipped = report.skipped ?? [];
  box.replaceChildren(
    el("h3", { text: report.source === "original" ? REPORT_TEXT.fromOriginal(report.sourceVersion) : REPORT_TEXT.fromOwn }),
    el("p", { className: "report-summary", text: REPORT_TEXT.summary(imported.length, skipped.length) }),
    el(
      "details",
      { open: true, className: "report-imported" },
      el("summary", { text: REPORT_TEXT.imported(imported.length) }),
      el(
        "ul",
        {},
        ...imported.map((i) =>
          el(
            "li",
            { "data-field": i.field },
            el("code", { text: REPORT_TEXT.to(i.field, i.to) }),
            i.note ? el("span", { className: "reason", text: ` ${i.note}` }) : null,
          ),
        ),
      ),
    ),
    skipped.length
      ? el(
          "details",
          { open: true, className: "report-skipped" },
          el("summary", { text: REPORT_TEXT.skipped(skipped.length) }),
          el(
            "ul",
            {},
            ...groupSkipped(report).map(([reason, fields]) =>
              el(
                "li",
                { "data-fields": fields.join(" ") },
                el("code", { text: fields.join(", ") }),
                el("span", { className: "reason", text: ` ${reason}` }),
              ),
            ),
          ),
        )
      : null,
  );
  box.focus();
}

export function setupTransfer(reload) {
  $("config-export").addEventListener("click", exportConfig);
  $("config-import").addEventListener("click", () => $("config-file").click());
  $("config-file").addEventListener("change", async (e) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    $("config-error").hidden = true;
    let config;
    try {
      config = JSON.parse(await file.text());
    } catch (err) {
      return fail(T.notJson(err.message));
    }
    const reply = await send({ action: ACTION.CONFIG_IMPORT, config });
    if (!reply.ok) return fail(T.importFailed(reply.error, reply.field));
    await reload();
    showReport(reply.report ?? { source: "webbrain", imported: [], skipped: [] });
  });
}
