/** A report document for the body renderer's tests: a title and tables, nothing else to show. */
import type { DocumentTable, ReportDocument } from "../../src/report/html/report-document.js";

export function mailDocument(
  heading: { title: string; description: string },
  tables: DocumentTable[],
): ReportDocument {
  return {
    ...heading,
    generatedAt: new Date("2026-11-23T06:00:00Z"),
    loadedAt: null,
    params: [],
    headlines: [],
    charts: [],
    tables,
  };
}
