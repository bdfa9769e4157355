/**
 * The catalog the demo writes its reports from: the shipped one, where each report that declares
 * charts is also written as HTML, so that a first run shows the pictures and not only the
 * workbooks. Scheduled and hand-run reports keep the formats their definitions name.
 */
import type { Catalog } from "../report/model.js";

export function demoCatalog(catalog: Catalog): Catalog {
  const reports = new Map(
    [...catalog.reports].map(([name, report]) => {
      const charted = report.charts.length > 0 && !report.formats.includes("html");
      return [
        name,
        charted ? { ...report, formats: [...report.formats, "html" as const] } : report,
      ];
    }),
  );
  return { ...catalog, reports };
}
