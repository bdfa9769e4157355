/**
 * A chart of more than ten series (measures, or measures over portals) gives each its own
 * colour, in the lines or bars drawn and in the legend: Plot's palette has ten, and the 11th
 * series took the 1st's colour. Past twenty colours repeat, and the chart's note says so.
 */
import { describe, expect, it } from "vitest";
import { ChartCollector } from "../../../src/report/html/chart-data.js";
import type { ChartSpec } from "../../../src/report/html/chart-spec.js";
import { renderChartSvg } from "../../../src/report/html/chart-svg.js";
import type { ColumnKind, PlainValue } from "../../../src/report/present/column-kind.js";

/** `count` measures m1…mN over four weeks. */
function measures(count: number) {
  const names = Array.from({ length: count }, (_, i) => `m${i + 1}`);
  const kinds = new Map<string, ColumnKind>([["week", "date"]]);
  for (const name of names) kinds.set(name, "integer");
  const rows = Array.from({ length: 4 }, (_, w) => {
    const row: Record<string, PlainValue> = { week: new Date(Date.UTC(2026, 0, 5 + 7 * w)) };
    names.forEach((name, i) => {
      row[name] = (i + 1) * (w + 2);
    });
    return row;
  });
  return { names, kinds, rows };
}

function draw(type: "line" | "bar", count: number) {
  const { names, kinds, rows } = measures(count);
  const chart: ChartSpec =
    type === "line"
      ? { type, query: "q", x: "week", y: names }
      : { type, query: "q", x: "week", y: names, stacked: false };
  const collector = new ChartCollector(chart);
  for (const row of rows) collector.add((column) => row[column] ?? null);
  const data = collector.result(kinds);
  return { svg: renderChartSvg(chart, data, { id: "c" }).svg, notes: data.notes };
}

/** The colours of the legend's swatches, in order. */
const legendColours = (svg: string) =>
  [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="12" height="12" fill="([^"]+)"/g)].map(
    (m) => m[1],
  );

/** The colours of the chart's lines, each line once. */
const lineColours = (svg: string) =>
  [...svg.matchAll(/<path [^>]*>/g)]
    .filter((m) => m[0].includes(' d="M'))
    .flatMap((m) => /stroke="(#[0-9a-f]{6})"/.exec(m[0])?.[1] ?? []);

describe("a chart of many series", () => {
  it("draws 12 measures as lines of 12 colours, the legend naming each colour once", () => {
    const { svg, notes } = draw("line", 12);
    const legend = legendColours(svg);
    expect(legend.length).toBe(12);
    expect(new Set(legend).size).toBe(12);
    const lines = lineColours(svg);
    expect(lines.length).toBe(12);
    expect(new Set(lines).size).toBe(12);
    expect(notes).toEqual([]);
  });

  it("draws 12 measures as bars of 12 colours", () => {
    const { svg } = draw("bar", 12);
    expect(new Set(legendColours(svg)).size).toBe(12);
    const barFills = [...svg.matchAll(/<g[^>]*aria-label="bar"[^>]*>([\s\S]*?)<\/g>/g)].flatMap(
      (group) => [...(group[1] ?? "").matchAll(/fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]),
    );
    expect(new Set(barFills).size).toBe(12);
  });

  it("past twenty series uses twenty colours and says in a note that they repeat", () => {
    const { svg, notes } = draw("line", 24);
    expect(new Set(legendColours(svg)).size).toBe(20);
    expect(notes).toEqual([
      "24 series share 20 colours: from the 21st on, each has the colour of the one 20 before it in the legend.",
    ]);
  });

  it("keeps Plot's own ten colours for ten series", () => {
    const { svg, notes } = draw("line", 10);
    expect(new Set(legendColours(svg)).size).toBe(10);
    expect(legendColours(svg)[0]).toBe("#4269d0");
    expect(notes).toEqual([]);
  });
});
