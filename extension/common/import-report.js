// Turns a config_import report (docs/PROTOCOL.md) into text: what was
// imported and what was skipped, grouped by reason, so nothing of the
// file goes unmentioned. Field names only; the report holds no values.
// Its words are in the interface language; the fields and the reasons
// (from the background) stay as the report has them.
import { t } from "./i18n.js";

export const REPORT_TEXT = {
  fromOriginal: (version) => (version ? t("report_from_original_version", { version }) : t("report_from_original")),
  get fromOwn() {
    return t("report_from_own");
  },
  imported: (count) => t("report_imported", { count }),
  skipped: (count) => t("report_skipped", { count }),
  to: (field, to) => (to && to !== field ? `${field} → ${to}` : field),
  summary: (imported, skipped) => t("report_summary", { imported, skipped }),
};

// groupSkipped returns [[reason, [fields]]] in the report's order.
export function groupSkipped(report) {
  const groups = new Map();
  for (const item of report?.skipped ?? []) {
    if (!groups.has(item.reason)) groups.set(item.reason, []);
    groups.get(item.reason).push(item.field);
  }
  return [...groups];
}

// reportLines is the report as plain lines, for the side panel.
export function reportLines(report) {
  if (!report) return [];
  const imported = report.imported ?? [];
  const skipped = report.skipped ?? [];
  const lines = [
    report.source === "original" ? REPORT_TEXT.fromOriginal(report.sourceVersion) : REPORT_TEXT.fromOwn,
    REPORT_TEXT.summary(imported.length, skipped.length),
  ];
  if (imported.length) {
    lines.push(`${REPORT_TEXT.imported(imported.length)}:`);
    for (const i of imported) lines.push(`• ${REPORT_TEXT.to(i.field, i.to)}${i.note ? ` (${i.note})` : ""}`);
  }
  if (skipped.length) {
    lines.push(`${REPORT_TEXT.skipped(skipped.length)}:`);
    for (const [reason, fields] of groupSkipped(report)) lines.push(`• ${fields.join(", ")}: ${reason}`);
  }
  return lines;
}
