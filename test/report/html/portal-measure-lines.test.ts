/**
 * A line chart of several measures in `report --all-portals`: each portal's measure is a line of
 * its own, named with the portal ("north · Completed"), as README's "Several portals" says of
 * every chart. The portal went only into a line chart's series, which a chart of several measures
 * cannot have: both portals' weeks were joined into one line per measure, which ran back and
 * forth across the weeks. Written by the built CLI over two portals' databases and read back in
 * a real headless Chromium; skipped (and said so) only when /usr/bin/chromium is absent.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect, test } from "vitest";
import { describeChartReport } from "./chart-report.js";

/** Four weeks whose figures grow with the portal's number of groups. */
const TREND = `-- title: Trend
-- description: Completed and overdue per week.
SELECT DATE '2026-01-05' + CAST(7 * i AS INTEGER) AS week,
       i * (SELECT count(*) FROM grp) AS completed,
       10 - i AS overdue
FROM range(4) AS t(i)
ORDER BY week
`;

const CHART = { query: "trend", type: "line", x: "week", y: ["completed", "overdue"] };

// Run in the page, as text: the project is compiled without the browser's types.
/** The chart's lines (as their path data) and its legend's labels. */
const LINES = `(() => {
  const chart = document.querySelector("figure.chart .chart-box > svg");
  return {
    paths: [...chart.querySelectorAll("g[aria-label='line'] path")].map((p) => p.getAttribute("d")),
    legend: [...chart.querySelectorAll(":scope > g text")].map((t) => t.textContent),
  };
})()`;

/** The x of each point of an SVG path made of M and L commands. */
function xs(path: string): number[] {
  return [...path.matchAll(/[ML](-?[\d.]+),/g)].map((m) => Number(m[1]));
}

async function portalDatabase(path: string, groups: number): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE grp AS SELECT i AS grp_id FROM range(${groups}) AS t(i)`);
  connection.closeSync();
  instance.closeSync();
}

/** Two portals' databases (three groups and one) and a config file naming them. */
async function twoPortals(dir: string): Promise<void> {
  await portalDatabase(join(dir, "lms-north.duckdb"), 3);
  await portalDatabase(join(dir, "lms-south.duckdb"), 1);
  const portals = { north: { baseUrl: "https://north.example/api-v2" }, south: {} };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
}

const REPORT = {
  ...{ query: "trend", sql: TREND, charts: [CHART] },
  ...{ args: ["--all-portals"], prepare: twoPortals },
};

describeChartReport("lines of several measures over portals", REPORT, (read) => {
  test("each portal's measure is a line of its own, running forward through the weeks", async () => {
    const { paths, legend } = (await read(LINES)) as { paths: string[]; legend: string[] };
    expect(legend).toEqual([
      "north · Completed",
      "north · Overdue",
      "south · Completed",
      "south · Overdue",
    ]);
    expect(paths).toHaveLength(4);
    for (const path of paths) {
      const points = xs(path);
      expect(points).toHaveLength(4);
      for (let i = 1; i < points.length; i++) {
        expect(points[i]).toBeGreaterThan(points[i - 1] ?? Number.POSITIVE_INFINITY);
      }
    }
  });
});
