/**
 * The plain-text alternative of a report mail: what the HTML part says, line for line, for
 * clients that show no HTML. Charts are named, with a pointer to the HTML part that shows them.
 */
import { loadedText, utcText } from "../report/html/loaded-text.js";
import { emailCountLine } from "../report/html/render-document.js";
import type { DocumentTable, ReportDocument } from "../report/html/report-document.js";
import { columnFormatter } from "../report/html/value-format.js";
import { textCell } from "./text-cell.js";

function headerLines(doc: ReportDocument): string[] {
  const loaded = loadedText(doc);
  // One setting to a line, as the HTML part lists them.
  const settings =
    doc.params.length === 0
      ? ["Settings: none"]
      : ["Settings:", ...doc.params.map((p) => `- ${p.label}: ${p.value}`)];
  return [
    doc.title,
    "=".repeat(Math.min(doc.title.length, 72)),
    doc.description,
    ...(doc.portal === undefined ? [] : [`Portal: ${doc.portal}`]),
    `Data loaded: ${loaded} · generated ${utcText(doc.generatedAt)}`,
    ...settings,
    ...(doc.roster === undefined ? [] : [doc.roster]),
    ...(doc.leftPeople === undefined ? [] : [doc.leftPeople]),
  ];
}

function tableLines(t: DocumentTable, maxRows: number): string[] {
  const shown = t.rows.slice(0, Math.max(0, maxRows));
  const format = t.columns.map((c) => columnFormatter(c.name, c.kind, c.scale));
  const rows = shown.map((row) =>
    row.map((value, i) => textCell(format[i]?.(value) ?? "")).join(" | "),
  );
  return [
    "",
    t.title,
    "-".repeat(Math.min(t.title.length, 72)),
    emailCountLine(t, shown.length),
    ...(shown.length > 0 ? [t.columns.map((c) => textCell(c.label)).join(" | "), ...rows] : []),
  ];
}

/** The text part; `lead` and `foot` are the lines the HTML part adds under its header and last. */
export function renderReportText(
  doc: ReportDocument,
  options: { maxRows: number; lead: readonly string[]; foot: readonly string[] },
): string {
  const lines = [...headerLines(doc), ...options.lead];
  if (doc.headlines.length > 0) {
    lines.push("", ...doc.headlines.map((h) => `${h.label}: ${h.text}`));
  }
  for (const chart of doc.charts) {
    lines.push("", `Chart: ${chart.title} (an image in the HTML version of this message)`);
    lines.push(...chart.notes);
  }
  for (const t of doc.tables) lines.push(...tableLines(t, options.maxRows));
  if (options.foot.length > 0) lines.push("", ...options.foot);
  return `${lines.join("\n")}\n`;
}
