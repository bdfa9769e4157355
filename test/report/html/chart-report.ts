/**
 * An HTML report of one query of a test's own and the charts it declares, written by the built
 * CLI as a user writes it (the query and a report definition in a catalog folder, then `report`)
 * and read in a real headless Chromium.
 */
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { beforeAll } from "vitest";
import { builtReportFile } from "../../helpers/built-cli.js";
import { describeInChromium } from "../../helpers/chromium.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { writeTestCatalog } from "../../helpers/test-catalog.js";

export interface ChartReport {
  /** The query's name, and its SQL with its header. */
  readonly query: string;
  readonly sql: string;
  /** The definition's `charts`, each naming `query`. */
  readonly charts: readonly Readonly<Record<string, unknown>>[];
  /** More arguments of `report` (e.g. --all-portals). */
  readonly args?: readonly string[];
  /**
   * Makes the databases and settings the report reads in the test's folder; without it an empty
   * database is made (the query reads no table).
   */
  readonly prepare?: (dir: string) => Promise<void>;
}

/** Writes the report `QUERY-charts` into `dir/out` with the built CLI; answers its file. */
export async function builtChartReport(dir: string, report: ChartReport): Promise<string> {
  const name = `${report.query}-charts`;
  const definition = {
    title: `Charts of ${report.query}`,
    description: "For tests.",
    queries: [report.query],
    formats: ["html"],
    fileName: "{report}-{date}",
    charts: report.charts,
  };
  await writeTestCatalog(
    dir,
    { [report.query]: report.sql },
    { [name]: JSON.stringify(definition) },
  );
  if (report.prepare) await report.prepare(dir);
  else (await DuckDBInstance.create(join(dir, "lms.duckdb"))).closeSync();
  return builtReportFile([name, "--catalog", "catalog", ...(report.args ?? [])], dir);
}

/** Runs `script` (a page script, as text) in the written page at a desktop width. */
export type ReadPage = (script: string) => Promise<unknown>;

/**
 * Tests of the page of `report`, written once before them by the built CLI; `read` runs a script
 * in it, opened in Chromium. Skipped (and said so) where Chromium is absent.
 */
export function describeChartReport(
  title: string,
  report: ChartReport,
  body: (read: ReadPage, file: () => string) => void,
): void {
  describeInChromium(title, (browser) => {
    const dir = tempDirForFile("lms-chart-report-");
    let file = "";
    beforeAll(async () => {
      file = await builtChartReport(dir, report);
    });
    const read: ReadPage = async (script) => {
      const page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
      try {
        await page.goto(`file://${file}`);
        return await page.evaluate(script);
      } finally {
        await page.close();
      }
    };
    body(read, () => file);
  });
}
