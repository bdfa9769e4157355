/**
 * The tooltip of each bar of a chart of several measures shows its value as its own column's
 * values are shown: a rate as a percentage, a mean with its decimals. Every bar was formatted as
 * the chart's first measure, so beside a count a rate of 45 % read "0" and a mean score of 72.46
 * read "72". Written by the built CLI and read back in a real headless Chromium; skipped (and
 * said so) only when /usr/bin/chromium is absent.
 */
import { expect, test } from "vitest";
import { describeChartReport } from "./chart-report.js";

const MIXED = `-- title: Mixed
-- description: A count, a rate and a mean per group.
SELECT 'Sales' AS group_name, 3 AS completed, 0.45 AS completion_rate, 72.46 AS mean_score
`;

const CHART = {
  query: "mixed",
  type: "bar",
  x: "group_name",
  y: ["completed", "completion_rate", "mean_score"],
};

// Run in the page, as text: the project is compiled without the browser's types.
const TOOLTIPS = `[...document.querySelectorAll("figure.chart g[aria-label='bar'] title")]
  .map((t) => t.textContent)`;

describeChartReport(
  "bar tooltips of several measures",
  { query: "mixed", sql: MIXED, charts: [CHART] },
  (read) => {
    test("each bar's value is shown as its own column's values are", async () => {
      const tooltips = (await read(TOOLTIPS)) as string[];
      expect(tooltips).toEqual([
        "Sales · Completed: 3",
        "Sales · Completion rate: 45.0%",
        "Sales · Mean score: 72.46",
      ]);
    });
  },
);
