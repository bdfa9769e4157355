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

/** A document of one table, "People", of these text columns (name, label) and rows. */
export function peopleDocument(
  columns: readonly (readonly [string, string])[],
  rows: string[][],
): ReportDocument {
  return mailDocument({ title: "People", description: "Names as the roster has them." }, [
    {
      query: "people",
      title: "People",
      columns: columns.map(([name, label]) => ({ name, label, kind: "text" as const })),
      rows,
      totalRows: rows.length,
      fullFile: undefined,
    },
  ]);
}
