/**
 * A line chart's dots have a tooltip, as a bar and a heatmap cell have: the day as the table
 * shows it, the series, and the value as its column's values are shown. They had none, so a
 * week's completion rate could only be read off the value axis.
 */
import { expect, test } from "vitest";
import type { ChartSpec } from "../../../src/report/html/chart-spec.js";
import { chartSvgFromRows } from "../../../src/report/html/chart-svg.js";
import type { ColumnKind } from "../../../src/report/present/column-kind.js";

const KINDS = new Map<string, ColumnKind>([
  ["week", "date"],
  ["portal", "text"],
  ["completion_rate", "percent"],
]);

const ROWS = [
  { week: new Date("2025-12-28T00:00:00Z"), portal: "north", completion_rate: 0.5 },
  { week: new Date("2026-01-04T00:00:00Z"), portal: "north", completion_rate: 0.9996 },
  { week: new Date("2025-12-28T00:00:00Z"), portal: "<south>", completion_rate: 0.25 },
];

const CHART: ChartSpec = {
  type: "line",
  query: "trend",
  x: "week",
  y: ["completion_rate"],
  series: "portal",
};

test("each dot of a line chart names its day, its series and its value", () => {
  const { svg } = chartSvgFromRows(CHART, ROWS, KINDS, { id: "t" });
  const dots = [...svg.matchAll(/<circle[^>]*>(?:<title>(.*?)<\/title>)?/g)].map((m) => m[1]);
  expect(dots.sort()).toEqual(
    [
      "2025-12-28 · &lt;south&gt;: 25.0%",
      "2025-12-28 · north: 50.0%",
      "2026-01-04 · north: &gt;99.9%",
    ].sort(),
  );
});
