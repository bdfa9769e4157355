/**
 * A bar chart of a query of 100,000 rows (a detail query, several rows per bar): each bar is the
 * sum of all its rows, drawn as one mark with one tooltip, and the page stays small. The chart
 * kept the first 20,000 rows only, so each bar summed a fifth of its rows, under a note that read
 * as if only the drawing were cut, and drew a mark and a tooltip per row (megabytes of SVG).
 * Written by the built CLI and read back in a real headless Chromium; skipped (and said so) only
 * when /usr/bin/chromium is absent.
 */
import { stat } from "node:fs/promises";
import { expect, test } from "vitest";
import { describeChartReport } from "./chart-report.js";

const DETAIL = `-- title: Detail
-- description: 100,000 rows, 20,000 per group, one take each, every other one passed.
SELECT 'Group ' || (i % 5) AS group_name, 1 AS takes, i % 2 AS passed
FROM range(100000) AS t(i)
`;

const CHART = { query: "detail", type: "bar", x: "group_name", y: ["takes", "passed"] };

// Run in the page, as text: the project is compiled without the browser's types.
const BARS = `(() => {
  const figure = document.querySelector("figure.chart");
  return {
    tooltips: [...figure.querySelectorAll("g[aria-label='bar'] title")].map((t) => t.textContent),
    notes: [...figure.querySelectorAll(".note")].map((n) => n.textContent),
  };
})()`;

describeChartReport(
  "bar charts of a query of many rows",
  { query: "detail", sql: DETAIL, charts: [CHART] },
  (read, file) => {
    test("each bar is the sum of all its rows, one mark each, in a small page", async () => {
      const { tooltips, notes } = (await read(BARS)) as { tooltips: string[]; notes: string[] };
      const groups = [0, 1, 2, 3, 4].map((g) => `Group ${g}`);
      expect(tooltips).toEqual(
        groups.flatMap((g) => [`${g} · Takes: 20,000`, `${g} · Passed: 10,000`]),
      );
      expect(notes).toEqual([]);
      // The 1,000 rows of the table and five bars.
      expect((await stat(file())).size).toBeLessThan(300_000);
    });
  },
);
