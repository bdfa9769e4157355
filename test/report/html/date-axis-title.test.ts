/**
 * A line chart over dates labels its ticks on two or three lines (the day, then the month where
 * one begins, then the year where one begins), and its x-axis title ("Week ending →") sat on the
 * second line at the right end: whenever the latest week began a month, about one Monday in four,
 * the title was written over that month's name ("Week endingDec"). The page written by the built
 * CLI, measured in a real Chromium.
 */
import { expect, test } from "vitest";
import { describeChartReport } from "./chart-report.js";

const CHART = { query: "trend", type: "line", x: "week", y: ["completion_rate"] };

/** 12 weeks ending on `last`, oldest first. */
const trend = (last: string) => `-- title: Trend
-- description: The rate at the end of each week.
SELECT DATE '${last}' - CAST(7 * i AS INTEGER) AS week, 0.5 + i / 200 AS completion_rate
FROM range(12) AS t(i)
ORDER BY week
`;

// Run in the page, as text: the project is compiled without the browser's types. The x-axis
// title's text, and how many tick labels (each line of them) its box meets.
const OVERLAPS = `(() => {
  const svg = document.querySelector("figure.chart .chart-box > svg");
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const title = svg.querySelector("g[aria-label='x-axis label'] text");
  const box = title.getBoundingClientRect();
  const lines = [...svg.querySelectorAll("g[aria-label='x-axis tick label'] text tspan, g[aria-label='x-axis tick label'] text")]
    .filter((el) => el.tagName === "tspan" || el.children.length === 0)
    .map((el) => el.getBoundingClientRect());
  const svgBox = svg.getBoundingClientRect();
  return { title: title.textContent, met: lines.filter((line) => meet(line, box)).length,
           inside: box.bottom <= svgBox.bottom && box.right <= svgBox.right };
})()`;

for (const [last, what] of [
  ["2026-12-04", "a month (4 Dec)"],
  ["2027-01-01", "a year (1 Jan 2027)"],
] as const) {
  describeChartReport(
    `a trend whose latest week begins ${what}`,
    { query: "trend", sql: trend(last), charts: [CHART] },
    (read) => {
      test("the x-axis title is clear of every tick label and inside the chart", async () => {
        expect(await read(OVERLAPS)).toEqual({ title: "Week →", met: 0, inside: true });
      });
    },
  );
}
