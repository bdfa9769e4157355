/**
 * Overdue rows stand out in the HTML page and the mail body, as they do in the workbook: the
 * weekly report says "overdue first (highlighted)", the workbook shades the rows whose
 * days_overdue is above 0, and the page had plain rows. A row is overdue by the workbook's own
 * rule (present/overdue.ts); it gets a bar at its start and its days in bold (seen without
 * colour, and in print), and a tint. Rendered in a real Chromium: the file with its stylesheet,
 * the mail body with its inline styles.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Catalog } from "../../../src/report/catalog.js";
import { overdueHighlight } from "../../../src/report/export/xlsx-layout.js";
import { renderReportEmail, renderReportFile } from "../../../src/report/html/render-document.js";
import type { ReportDocument } from "../../../src/report/html/report-document.js";
import { createLmsDatabase } from "../../fixtures/lms-dataset.js";
import { describeInChromium } from "../../helpers/chromium.js";
import { reportDocumentByName, writeTestCatalog } from "../../helpers/test-catalog.js";

const NOW = new Date("2026-03-10T09:00:00Z");

const QUERIES = {
  due: `-- title: Due items
-- description: People and how many days each item is overdue.
SELECT * FROM (VALUES ('Ann', 3), ('Bob', 0), ('Cy', NULL), ('Di', 12), ('Ed', -4))
  AS t(lastname, days_overdue)
`,
};
const REPORT = JSON.stringify({
  title: "Due",
  description: "For tests.",
  queries: ["due"],
  formats: ["html"],
  fileName: "{report}-{date}",
});

let dir: string;
let db: Awaited<ReturnType<typeof createLmsDatabase>>;
let catalog: Catalog;
let document: ReportDocument;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-overdue-rows-"));
  catalog = await writeTestCatalog(dir, QUERIES, { "due-report": REPORT });
  db = await createLmsDatabase();
  document = await reportDocumentByName(db, catalog, "due-report", { cwd: dir, now: NOW });
});
afterAll(async () => {
  db?.close();
  await rm(dir, { recursive: true, force: true });
});

// Run in the page, as text: the project is compiled without the browser's types.
/** Per body row: its name, its first cell's left border width, its days cell's font weight. */
const ROW_LOOKS = `[...document.querySelectorAll("tbody tr")].map((tr) => {
  const cells = tr.querySelectorAll("td");
  return [cells[0].textContent, getComputedStyle(cells[0]).borderLeftWidth,
    getComputedStyle(cells[1]).fontWeight];
})`;

const EXPECTED = [
  ["Ann", "4px", "700"],
  ["Bob", "0px", "400"],
  ["Cy", "0px", "400"],
  ["Di", "4px", "700"],
  ["Ed", "0px", "400"],
];

test("the rows marked are those the workbook's conditional format fills", () => {
  // The workbook's rule tests the same column: B (days_overdue) above 0.
  expect(overdueHighlight(["lastname", "days_overdue"], 5)?.rules[0]).toMatchObject({
    formulae: ["$B2>0"],
  });
  const html = renderReportFile(document);
  const marked = [...html.matchAll(/<tr class="overdue"><td[^>]*>([^<]*)</g)].map((m) => m[1]);
  expect(marked).toEqual(["Ann", "Di"]);
});

describeInChromium("overdue rows in Chromium", (browser) => {
  test("the page: a bar and bold days on overdue rows only", async () => {
    const page = await browser().newPage();
    await page.setContent(renderReportFile(document));
    expect(await page.evaluate(ROW_LOOKS)).toEqual(EXPECTED);
    await page.close();
  });

  test("the mail body, inline styles only: the same rows marked the same way", async () => {
    const page = await browser().newPage();
    const { html } = renderReportEmail(document);
    expect(html).not.toContain("<style");
    await page.setContent(html);
    expect(await page.evaluate(ROW_LOOKS)).toEqual(EXPECTED);
    await page.close();
  });
});
