/**
 * The HTML report through runReports on a real DuckDB: headline figures from the summary query,
 * the 1,000-row cut with its pointer to the full file of the same run, formatted values, escaped
 * text, chart columns checked against the query before anything is written, and the e-mail
 * variant (inline styles, charts as cid images that resvg turns into PNG).
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Catalog } from "../../../src/report/catalog.js";
import { renderReportEmail } from "../../../src/report/html/render-document.js";
import { runReports } from "../../../src/report/run-report.js";
import { createLmsDatabase } from "../../fixtures/lms-dataset.js";
import { reportDocumentByName, writeTestCatalog } from "../../helpers/test-catalog.js";

const NOW = new Date("2026-03-10T09:00:00Z");
const HOSTILE = `<script>alert("pwned")</script>`;

const QUERIES: Record<string, string> = {
  many: `-- title: Many users
-- description: 1,500 rows of every kind of value.
SELECT i AS user_id,
       CASE WHEN i = 0 THEN '${HOSTILE.replaceAll("'", "''")}' ELSE 'User ' || i END AS lastname,
       DATE '2026-01-05' + CAST(i AS INTEGER) AS due_date,
       TIMESTAMP '2026-03-10 08:15:42' AS last_activity,
       i / 1500 AS completion_rate,
       i * 1000 AS points
FROM range(1500) AS t(i)
ORDER BY i
`,
  trend: `-- title: Weekly trend
-- description: Completion rate per week.
SELECT DATE '2026-01-05' + CAST(7 * i AS INTEGER) AS week, 0.4 + i * 0.05 AS completion_rate
FROM range(8) AS t(i)
ORDER BY week
`,
  heat: `-- title: Rates by product
-- description: Long product titles, so that the heatmap's labels are turned.
SELECT 'Product with a long descriptive title ' || p AS product_title, 'Group ' || g AS group_name,
       (p + g) / 20 AS completion_rate
FROM range(10) AS a(p), range(3) AS b(g)
`,
  "compliance-summary": `-- title: Summary
-- description: Overall and per group figures.
SELECT 'group' AS scope, 0.5 AS completion_rate, 1 AS overdue, 1 AS failed
UNION ALL SELECT 'overall', 0.625, 1234, 3
`,
};

function report(charts: unknown[], formats = ["html", "csv"]) {
  return JSON.stringify({
    title: `Dashboard ${HOSTILE}`,
    description: "For tests.",
    queries: ["compliance-summary", "trend", "many"],
    formats,
    fileName: "{report}-{date}",
    charts,
  });
}

const LINE = { query: "trend", type: "line", x: "week", y: ["completion_rate"], title: "Trend" };
const BAR = { query: "many", type: "bar", x: "lastname", y: ["points"] };

let dir: string;
let db: Awaited<ReturnType<typeof createLmsDatabase>>;
let catalog: Catalog;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-html-"));
  const reports: Record<string, string> = {
    dash: report([LINE, BAR]),
    "html-only": report([LINE], ["html"]),
    heatmap: JSON.stringify({
      title: "Heatmap",
      description: "For tests.",
      queries: ["heat"],
      formats: ["html"],
      fileName: "{report}-{date}",
      charts: [
        {
          query: "heat",
          type: "heatmap",
          x: "product_title",
          y: "group_name",
          value: "completion_rate",
        },
      ],
    }),
    "bad-column": report([LINE, { ...BAR, y: ["foo"] }]),
    "bad-kind": report([
      { ...LINE, y: ["completion_rate"], x: "week" },
      { ...BAR, y: ["lastname"], x: "user_id" },
    ]),
  };
  catalog = await writeTestCatalog(dir, QUERIES, reports);
  db = await createLmsDatabase();
});
afterAll(async () => {
  db?.close();
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, out: string) {
  const [result] = await runReports(db, [name], { outDir: join(dir, out), catalog, now: NOW });
  return result;
}

describe("the HTML file", () => {
  let html: string;
  beforeAll(async () => {
    const result = await write("dash", "dash");
    expect(result?.files.map((f) => f.slice(f.lastIndexOf("/") + 1))).toEqual([
      "dash-2026-03-10.html",
      "dash-2026-03-10-compliance-summary.csv",
      "dash-2026-03-10-trend.csv",
      "dash-2026-03-10-many.csv",
    ]);
    html = await readFile(join(dir, "dash", "dash-2026-03-10.html"), "utf8");
  });

  test("headline figures from the summary's overall row, only the columns it has", () => {
    const figures = [
      ...html.matchAll(
        /<span class="headline-value">([^<]*)<\/span><span class="headline-label">([^<]*)</g,
      ),
    ].map((m) => `${m[2]}: ${m[1]}`);
    expect(figures).toEqual(["Completion rate: 62.5%", "Overdue: 1,234", "Failed: 3"]);
  });

  test("the first 1,000 rows and a line pointing to the full CSV of the same run", async () => {
    const table = html.slice(html.indexOf('id="table-many"'));
    expect((table.match(/<tr>/g) ?? []).length).toBe(1 + 1000);
    expect(table).toContain(
      "The first 1,000 of 1,500 rows are shown. Every row is in dash-2026-03-10-many.csv, written with this page.",
    );
    const csv = await readFile(join(dir, "dash", "dash-2026-03-10-many.csv"), "utf8");
    expect(csv.trimEnd().split("\n")).toHaveLength(1501);
    expect(html).toContain('<p class="note">8 rows.</p>');
  });

  test("labels, dates, times, percentages and numbers are formatted", () => {
    const head = html.slice(html.indexOf('id="table-many"'));
    expect(head).toContain(
      '<th scope="col" class="num">User ID</th><th scope="col">Last name</th><th scope="col">Due date</th><th scope="col">Last activity</th><th scope="col" class="num">Completion rate</th><th scope="col" class="num">Points</th>',
    );
    // row i = 750
    expect(head).toContain(
      '<td class="num">750</td><td class="short">User 750</td><td class="time">2028-01-25</td><td class="time">2026-03-10 08:15</td><td class="num">50.0%</td><td class="num">750,000</td>',
    );
  });

  test("hostile text from the data and the definition shows as text", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(
      '<td class="short">&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;</td>',
    );
    expect(html).toContain("<title>Dashboard &lt;script&gt;");
  });

  test("self-contained: a stylesheet with print and phone rules, inline SVG charts, nothing to fetch", () => {
    expect(html).toContain("@media print");
    expect(html).toContain("@media (max-width: 600px)");
    expect((html.match(/<figure class="chart">/g) ?? []).length).toBe(2);
    expect(html).not.toMatch(/\b(src|href)=/);
    expect(html).not.toMatch(/@import|url\((?!#)/);
  });

  test("without an Excel or CSV file in the run, the pointer says how to get every row", async () => {
    await write("html-only", "only");
    expect(await readdir(join(dir, "only"))).toEqual(["html-only-2026-03-10.html"]);
    const only = await readFile(join(dir, "only", "html-only-2026-03-10.html"), "utf8");
    expect(only).toContain(
      "The first 1,000 of 1,500 rows are shown. Write the report with --format xlsx or csv for every row.",
    );
  });
});

describe("chart columns are checked against the query before anything is written", () => {
  test("a column the query does not produce", async () => {
    await expect(write("bad-column", "bad1")).rejects.toThrow(
      `${dir}/catalog/reports/bad-column.json: field charts[1].y[0]: column "foo" is not a column of query "many"; its columns: user_id, lastname, due_date, last_activity, completion_rate, points`,
    );
    expect(existsSync(join(dir, "bad1")) ? await readdir(join(dir, "bad1")) : []).toEqual([]);
  });

  test("a text column where a chart needs numbers", async () => {
    await expect(write("bad-kind", "bad2")).rejects.toThrow(
      `${dir}/catalog/reports/bad-kind.json: field charts[1].y[0]: column "lastname" of query "many" holds text values; a bar chart's y must hold numbers`,
    );
    expect(existsSync(join(dir, "bad2")) ? await readdir(join(dir, "bad2")) : []).toEqual([]);
  });
});

describe("the e-mail variant", () => {
  test("inline styles, charts as cid images matching the returned SVGs, which resvg turns into PNG", async () => {
    const document = await reportDocumentByName(db, catalog, "dash", { cwd: dir, now: NOW });
    const email = renderReportEmail(document);
    expect(email.html).not.toMatch(/<svg|<style|class=/);
    expect(email.html).toContain('<table style="border-collapse:collapse;');
    const cids = [...email.html.matchAll(/<img src="cid:([^"]+)"/g)].map((m) => m[1]);
    expect(cids).toEqual(["chart-1", "chart-2"]);
    expect(email.images.map((i) => i.cid)).toEqual(cids);
    for (const image of email.images) expect(image.svg.startsWith("<svg xmlns=")).toBe(true);

    const rendered = new Resvg(email.images[0]?.svg ?? "", { background: "white" }).render();
    const png = rendered.asPng();
    expect(png.length).toBeGreaterThan(0);
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(rendered.width).toBe(800);
    const pixels = rendered.pixels;
    const first = pixels.readUInt32BE(0);
    let differ = 0;
    for (let i = 0; i < pixels.length; i += 4) if (pixels.readUInt32BE(i) !== first) differ++;
    expect(differ).toBeGreaterThan(1000);
  });

  test("an image's width and height are whole numbers, as HTML requires", async () => {
    const document = await reportDocumentByName(db, catalog, "heatmap", { cwd: dir, now: NOW });
    const [chart] = document.charts;
    // The heatmap's turned labels give its SVG a height in tenths of a pixel.
    expect(Number.isInteger(chart?.chart.height)).toBe(false);
    const email = renderReportEmail(document);
    const sizes = [...email.html.matchAll(/<img [^>]*\bwidth="([^"]*)" height="([^"]*)"/g)];
    expect(sizes.map((m) => [m[1], m[2]])).toEqual([
      [String(Math.round(chart?.chart.width ?? 0)), String(Math.round(chart?.chart.height ?? 0))],
    ]);
    for (const [, width, height] of sizes) {
      expect(width).toMatch(/^\d+$/);
      expect(height).toMatch(/^\d+$/);
    }
  });
});
