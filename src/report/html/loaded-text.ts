/**
 * When a report's data was loaded, as its readers see it in the HTML file, the mail and its text
 * part: one time; each run's tables' when they were last loaded by different runs (after
 * `extract --only take`, the takes' time would otherwise stand for week-old groups); or over
 * several portals each portal's, so a portal whose extracts have been failing shows its old
 * data's day instead of hiding behind the others' fresh one.
 */
import type { ReportDocument, TablesLoaded } from "./report-document.js";

const NONE = "no successful extract recorded";

/** A time as the report shows it: YYYY-MM-DD HH:MM UTC. */
export function utcText(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "take 2026-11-27 11:41 UTC, others 2026-11-27 11:32 UTC". */
function byTablesText(runs: readonly TablesLoaded[]): string {
  return runs.map(({ tables, at }) => `${tables} ${at ? utcText(at) : NONE}`).join(", ");
}

/**
 * "2026-11-23 06:10 UTC"; "take 2026-11-27 11:41 UTC, others 2026-11-27 11:32 UTC" when the
 * tables read were last loaded by different runs; or "north 2026-11-23 06:10 UTC, south no
 * successful extract recorded", a portal's runs in brackets when different runs loaded its tables
 * ("south (take 2026-11-27 11:41 UTC, others 2026-11-27 11:32 UTC)").
 */
export function loadedText(
  doc: Pick<ReportDocument, "loadedAt" | "loadedByPortal" | "loadedByTables">,
): string {
  if (doc.loadedByTables) return byTablesText(doc.loadedByTables);
  if (doc.loadedByPortal) {
    return doc.loadedByPortal
      .map(({ portal, at, tables }) => {
        if (tables) return `${portal} (${byTablesText(tables)})`;
        return `${portal} ${at ? utcText(at) : NONE}`;
      })
      .join(", ");
  }
  return doc.loadedAt ? utcText(doc.loadedAt) : NONE;
}
