/**
 * Category labels of capitals and wide letters, rotated under a bar chart's x axis and beside a
 * heatmap's y axis: each fits inside the chart and clear of the axes' titles. They were given room
 * by their count of characters at an average width, and a label of capitals ("DEPARTMENT WWW…")
 * ran past the bottom of the chart over the title, and a heatmap's row labels over its y title.
 * Written by the built CLI and measured in a real headless Chromium; skipped (and said so) only
 * when /usr/bin/chromium is absent.
 */
import { expect, test } from "vitest";
import { describeChartReport } from "./chart-report.js";

const WIDE = `-- title: Wide labels
-- description: Twenty departments named in capitals and W's, and a measure per month.
SELECT 'DEPARTMENT WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW ' || i AS department,
       'MMMMMMMMMMMMMMMMMMMM MONTH ' || m AS month, 10 + i AS people
FROM range(20) AS t(i), range(3) AS s(m)
`;

const CHARTS = [
  { query: "wide", type: "bar", x: "department", y: ["people"] },
  { query: "wide", type: "heatmap", x: "department", y: "month", value: "people" },
];

// Run in the page, as text: the project is compiled without the browser's types. For each chart:
// its box, its tick labels' boxes and how many of them overlap an axis title.
const EDGES = `[...document.querySelectorAll("figure.chart .chart-box > svg")].map((svg) => {
  const box = svg.getBoundingClientRect();
  const rects = (label) => [...svg.querySelectorAll("g[aria-label='" + label + "'] text")]
    .map((t) => t.getBoundingClientRect());
  const ticks = [...rects("x-axis tick label"), ...rects("y-axis tick label")];
  const titles = [...rects("x-axis label"), ...rects("y-axis label")];
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return {
    ticks: ticks.length,
    outside: ticks.filter((r) => r.left < box.left || r.right > box.right || r.bottom > box.bottom).length,
    overTitle: ticks.filter((r) => titles.some((t) => meet(r, t))).length,
    titles: titles.length,
  };
})`;

describeChartReport(
  "charts whose category labels are wide letters",
  { query: "wide", sql: WIDE, charts: CHARTS },
  (read) => {
    test("every tick label is inside its chart and clear of the axis titles", async () => {
      const charts = await read(EDGES);
      expect(charts).toEqual([
        { ticks: 20 + 5, outside: 0, overTitle: 0, titles: 2 },
        { ticks: 20 + 3, outside: 0, overTitle: 0, titles: 2 },
      ]);
    });
  },
);
