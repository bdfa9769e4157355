/**
 * A query's `-- label` lines name its columns in the HTML report and the e-mail as they do in the
 * workbook: table headers, headline figures, chart titles, axes, legends and notes.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Catalog } from "../../../src/report/catalog.js";
import { renderReportEmail } from "../../../src/report/html/render-document.js";
import { runReports } from "../../../src/report/run-report.js";
import { createLmsDatabase } from "../../fixtures/lms-dataset.js";
import { reportDocumentByName, writeTestCatalog } from "../../helpers/test-catalog.js";

const NOW = new Date("2026-03-10T09:00:00Z");

const QUERIES: Record<string, string> = {
  "compliance-summary": `-- title: Summary
-- description: Overall figures.
-- label overdue: Items past due
SELECT 'overall' AS scope, 0.5 AS completion_rate, 7 AS overdue
`,
  trend: `-- title: Trend
-- description: Required items week by week.
-- label week: Week ending
-- label required: Required items
-- label team_code: Team
SELECT DATE '2026-01-05' + CAST(7 * (i // 2) AS INTEGER) AS week,
       CASE WHEN i % 2 = 0 THEN 'north' ELSE 'south' END AS team_code,
       10 + i AS required
FROM range(8) AS t(i)
ORDER BY week
`,
};

const REPORT = {
  title: "Labelled",
  description: "For tests.",
  queries: ["compliance-summary", "trend"],
  formats: ["html"],
  fileName: "{report}-{date}",
  charts: [
    { query: "trend", type: "line", x: "week", y: ["required"], series: "team_code" },
    { query: "trend", type: "bar", x: "team_code", y: ["required"] },
  ],
};

let dir: string;
let db: Awaited<ReturnType<typeof createLmsDatabase>>;
let catalog: Catalog;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-html-labels-"));
  catalog = await writeTestCatalog(dir, QUERIES, { labelled: JSON.stringify(REPORT) });
  db = await createLmsDatabase();
});
afterAll(async () => {
  db?.close();
  await rm(dir, { recursive: true, force: true });
});

function headers(html: string, query: string): string[] {
  const table = html.slice(html.indexOf(`id="table-${query}"`));
  const head = table.slice(0, table.indexOf("</thead>"));
  return [...head.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1] ?? "");
}

describe("the query's own labels", () => {
  let html: string;
  beforeAll(async () => {
    await runReports(db, ["labelled"], { outDir: join(dir, "out"), catalog, now: NOW });
    html = await readFile(join(dir, "out", "labelled-2026-03-10.html"), "utf8");
  });

  test("head the HTML file's tables", () => {
    expect(headers(html, "trend")).toEqual(["Week ending", "Team", "Required items"]);
  });

  test("name the headline figures", () => {
    expect(html).toContain('<span class="headline-label">Items past due</span>');
  });

  test("title the charts and label their axes", () => {
    expect(html).toContain("Required items by Week ending</h2>");
    expect(html).toContain("Required items by Team</h2>");
    // Plot writes the axis labels as text of the SVG.
    expect(html).toContain("Week ending");
    expect(html).toMatch(/>[^<]*Required items[^<]*<\/text>/);
    expect(html).not.toMatch(/>[^<]*Team code[^<]*</);
    expect(html).not.toMatch(/>[^<]*\bWeek\b(?! ending)[^<]*</);
  });

  test("head the e-mail's tables as well", async () => {
    const document = await reportDocumentByName(db, catalog, "labelled", { cwd: dir, now: NOW });
    const email = renderReportEmail(document);
    const heads = [...email.html.matchAll(/<th scope="col"[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(heads).toEqual([
      "Scope",
      "Completion rate",
      "Items past due",
      "Week ending",
      "Team",
      "Required items",
    ]);
  });
});
