/**
 * Charts whose values span no range (every group at 0 overdue, a rate at 0 % all along, a column
 * of NULLs), written by the built CLI and measured in a real headless Chromium: a bar of 0 has no
 * height, a line of 0 lies on the zero tick, a heatmap of 0 has the ramp's lightest colour, and
 * no tick reads "0.000000". Plot draws a scale of one value across the whole plot: the bars of a
 * report in which nobody is overdue reached from its top to its bottom. Skipped (and said so)
 * only when /usr/bin/chromium is absent.
 */
import { expect, test } from "vitest";
import { describeChartReport } from "./chart-report.js";

const CALM = `-- title: Calm
-- description: Nobody is overdue, nothing is rated.
SELECT 'Group ' || i AS group_name, 'Product ' || (i % 2) AS product_title,
       0 AS overdue, NULL::INTEGER AS failed, 0.0 AS completion_rate,
       DATE '2026-01-05' + CAST(7 * i AS INTEGER) AS week
FROM range(4) AS t(i)
`;

const CHARTS = [
  { query: "calm", type: "bar", x: "group_name", y: ["overdue"], title: "zero bars" },
  { query: "calm", type: "bar", x: "group_name", y: ["failed"], title: "null bars" },
  { query: "calm", type: "line", x: "week", y: ["completion_rate"], title: "zero line" },
  {
    query: "calm",
    type: "heatmap",
    x: "product_title",
    y: "group_name",
    value: "overdue",
    title: "zero heatmap",
  },
];

// Run in the page, as text: the project is compiled without the browser's types.
/** Per chart: its bars' heights, its dots' centres and the zero tick's height on screen, its ticks. */
const MEASURE = `[...document.querySelectorAll("figure.chart")].map((figure) => {
  const plot = figure.querySelector(".chart-box > svg > svg");
  const centre = (el) => { const b = el.getBoundingClientRect(); return b.top + b.height / 2; };
  const ticks = [...plot.querySelectorAll("g[aria-label='y-axis tick label'] text")];
  const zero = ticks.find((t) => t.textContent === "0" || t.textContent === "0%");
  return {
    bars: [...plot.querySelectorAll("g[aria-label='bar'] rect")].map((r) => r.getBoundingClientRect().height),
    dots: [...plot.querySelectorAll("g[aria-label='dot'] circle")].map(centre),
    zero: zero ? centre(zero) : null,
    ticks: ticks.map((t) => t.textContent),
    cells: [...plot.querySelectorAll("g[aria-label='cell'] rect")].map((r) => getComputedStyle(r).fill),
    lightest: getComputedStyle(figure.querySelector("linearGradient stop") ?? document.body).stopColor,
  };
})`;

interface Measured {
  bars: number[];
  dots: number[];
  zero: number | null;
  ticks: string[];
  cells: string[];
  lightest: string;
}

describeChartReport(
  "charts of values with no range",
  { query: "calm", sql: CALM, charts: CHARTS },
  (read) => {
    test("a bar of 0 or NULL has no height, a line of 0 lies on the zero tick, a heatmap of 0 is the lightest", async () => {
      const [zeroBars, nullBars, zeroLine, heatmap] = (await read(MEASURE)) as Measured[];
      for (const chart of [zeroBars, nullBars, zeroLine]) {
        expect(chart?.ticks).toHaveLength(2);
        expect(chart?.ticks.join(" ")).not.toContain("0.0000");
      }
      expect(zeroBars?.bars).toHaveLength(4);
      for (const height of zeroBars?.bars ?? []) expect(height).toBeLessThan(1);
      for (const height of nullBars?.bars ?? []) expect(height).toBeLessThan(1);
      expect(zeroLine?.dots).toHaveLength(4);
      for (const y of zeroLine?.dots ?? [])
        expect(Math.abs(y - (zeroLine?.zero ?? 0))).toBeLessThan(1);
      expect(heatmap?.cells).toHaveLength(4);
      for (const fill of heatmap?.cells ?? []) expect(fill).toBe(heatmap?.lightest);
    });
  },
);
