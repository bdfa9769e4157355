/**
 * Each chart type drawn by Plot on the server: an SVG document with marks (counted as rect and
 * path elements), legends drawn in SVG, rates as percentages, hostile text shown as text, and
 * the category caps that keep a chart legible.
 */
import { describe, expect, test } from "vitest";
import { chartPng } from "../../../src/mail/chart-png.js";
import { ChartCollector, MAX_CATEGORIES } from "../../../src/report/html/chart-data.js";
import type { ChartSpec } from "../../../src/report/html/chart-spec.js";
import { chartSvgFromRows, renderChartSvg } from "../../../src/report/html/chart-svg.js";
import type { ColumnKind, PlainValue } from "../../../src/report/present/column-kind.js";
import { decodePng, PNG_SIGNATURE } from "../../mail/png-pixels.js";

const KINDS = new Map<string, ColumnKind>([
  ["group_name", "text"],
  ["product_title", "text"],
  ["completion_rate", "percent"],
  ["overdue", "integer"],
  ["completed", "integer"],
  ["week", "date"],
  ["status", "text"],
]);

function draw(chart: ChartSpec, rows: Record<string, PlainValue>[]) {
  const collector = new ChartCollector(chart);
  for (const row of rows) collector.add((column) => row[column] ?? null);
  const data = collector.result(KINDS);
  const drawn = renderChartSvg(chart, data, { id: "t" });
  // The entry point for rows read elsewhere draws the same chart.
  expect(chartSvgFromRows(chart, rows, KINDS, { id: "t" })).toEqual(drawn);
  return { ...drawn, notes: data.notes };
}

const count = (svg: string, tag: string) =>
  (svg.match(new RegExp(`<${tag}[\\s>/]`, "g")) ?? []).length;

const GROUPS = ["Sales", "North", "Support"];
const PRODUCTS = ["Fire safety", "Data protection"];
const grid = GROUPS.flatMap((group_name, g) =>
  PRODUCTS.map((product_title, p) => ({
    group_name,
    product_title,
    completion_rate: (g + 1) / 4 - p / 8,
    overdue: 3 * g + p + 1,
    completed: g + p,
  })),
);
const weeks = Array.from({ length: 8 }, (_, i) => ({
  week: new Date(Date.UTC(2026, 0, 5 + 7 * i)),
  completion_rate: 0.3 + i * 0.05,
}));

/** Overdue per group, a bar per product beside each other. */
const GROUPED_BAR: ChartSpec = {
  type: "bar",
  query: "q",
  x: "group_name",
  y: ["overdue"],
  series: "product_title",
  stacked: false,
};

/** Charts whose categories and series show text from the data. */
const TEXT_CHARTS: ChartSpec[] = [
  { type: "bar", query: "q", x: "group_name", y: ["overdue"], stacked: false },
  { type: "heatmap", query: "q", x: "product_title", y: "group_name", value: "completion_rate" },
  {
    type: "bar",
    query: "q",
    x: "product_title",
    y: ["overdue"],
    series: "group_name",
    stacked: true,
  },
];

describe("renderChartSvg", () => {
  test("a bar chart: one rect per bar plus the background, an SVG document", () => {
    const rows = GROUPS.map((group_name, i) => ({ group_name, overdue: i + 2 }));
    const { svg, width, height } = draw(
      { type: "bar", query: "q", x: "group_name", y: ["overdue"], stacked: false },
      rows,
    );
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="800" height="\d+"/);
    expect(svg.endsWith("</svg>")).toBe(true);
    expect(width).toBe(800);
    expect(height).toBeGreaterThan(100);
    expect(count(svg, "rect")).toBe(1 + GROUPS.length);
    for (const g of GROUPS) expect(svg).toContain(`>${g}</text>`);
  });

  test("a grouped bar chart has a bar per group and series and a swatch legend", () => {
    const { svg } = draw(GROUPED_BAR, grid);
    // background + bars + one swatch per series
    expect(count(svg, "rect")).toBe(1 + grid.length + PRODUCTS.length);
    for (const p of PRODUCTS) expect(svg).toContain(`>${p}</text>`);
  });

  test("a stacked bar chart of several y columns names each in its legend", () => {
    const { svg } = draw(
      { type: "bar", query: "q", x: "group_name", y: ["overdue", "completed"], stacked: true },
      grid.slice(0, 3),
    );
    // Two groups (Sales has two rows, summed into one bar per measure), two measures, two swatches.
    expect(count(svg, "rect")).toBe(1 + 2 * 2 + 2);
    expect(svg).toContain(">Overdue</text>");
    expect(svg).toContain(">Completed</text>");
  });

  test("a line over DATE weeks with a _rate y: a path, a dot per week, a percent axis", () => {
    const { svg } = draw({ type: "line", query: "q", x: "week", y: ["completion_rate"] }, weeks);
    expect(count(svg, "path")).toBeGreaterThanOrEqual(1);
    expect(count(svg, "circle")).toBe(weeks.length);
    expect(svg).toMatch(/>\d+%<\/text>/);
    expect(svg).toContain("Completion rate");
  });

  test("a heatmap: a cell per row and a colour ramp legend drawn as an SVG gradient", () => {
    const { svg } = draw(
      {
        type: "heatmap",
        query: "q",
        x: "product_title",
        y: "group_name",
        value: "completion_rate",
      },
      grid,
    );
    expect(count(svg, "rect")).toBe(1 + grid.length + 1);
    expect(svg).toContain('<linearGradient id="t-ramp"');
    expect(svg).toContain(">0%</text>");
    expect(svg).toContain(">100%</text>");
  });

  test("hostile text shows as text, never as markup", () => {
    const evil = `<script>alert("x")</script> & <img src=x onerror=alert(1)>`;
    const rows = [
      { group_name: evil, product_title: evil, completion_rate: 0.5, overdue: 2 },
      { group_name: "Sales", product_title: "B", completion_rate: 0.2, overdue: 1 },
    ];
    for (const chart of TEXT_CHARTS) {
      const { svg } = draw(chart, rows);
      expect(svg).not.toContain("<script");
      expect(svg).not.toContain("<img");
      expect(svg).toContain("&lt;script&gt;");
    }
  });

  test("a control character in the data is drawn as U+FFFD, so that the mail's PNG renders", () => {
    const rows = [
      { group_name: "Sales\u0000north", product_title: "Fire\u000bsafety", overdue: 2 },
      { group_name: "Support\u0001", product_title: "B", overdue: 1 },
    ];
    const rates = rows.map((row, i) => ({ ...row, completion_rate: i / 2 }));
    for (const chart of TEXT_CHARTS) {
      const { svg } = draw(chart, rates);
      expect(svg).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
      expect(svg).toContain("Sales\ufffdnorth");
      const png = chartPng(svg);
      expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    }
  });

  test("past the category cap, the first categories are drawn and a note says so", () => {
    const rows = Array.from({ length: MAX_CATEGORIES.bar + 5 }, (_, i) => ({
      group_name: `Group ${i}`,
      overdue: i,
    }));
    const { svg, notes } = draw(
      { type: "bar", query: "q", x: "group_name", y: ["overdue"], stacked: false },
      rows,
    );
    expect(count(svg, "rect")).toBe(1 + MAX_CATEGORIES.bar);
    expect(notes).toEqual([`Group name: the first ${MAX_CATEGORIES.bar} of 35 values are shown.`]);
  });

  test("no rows: a small SVG that says so", () => {
    const { svg } = draw({ type: "line", query: "q", x: "week", y: ["completion_rate"] }, []);
    expect(svg).toContain("No rows to draw.");
  });
});

describe("charts over several portals", () => {
  const collect = (chart: ChartSpec, rows: Record<string, PlainValue>[]) => {
    const collector = new ChartCollector(chart, { byPortal: true });
    for (const row of rows) collector.add((column) => row[column] ?? null);
    return { chart: collector.chart, data: collector.result(KINDS) };
  };

  test("two portals' groups of one name are two bars, each named with its portal", () => {
    const rows = [
      { portal: "north", group_name: "Sales", overdue: 2 },
      { portal: "south", group_name: "Sales", overdue: 1 },
    ];
    const bar: ChartSpec = {
      type: "bar",
      query: "q",
      x: "group_name",
      y: ["overdue"],
      stacked: false,
    };
    const { chart, data } = collect(bar, rows);
    expect(data.rows.map((r) => [r.group_name, r.overdue])).toEqual([
      ["north · Sales", 2],
      ["south · Sales", 1],
    ]);
    const { svg } = renderChartSvg(chart, data, { id: "t" });
    expect(svg).toContain("north · Sales");
    expect(svg).toContain("south · Sales");
  });

  test("a heatmap's rows and a line chart's series are per portal", () => {
    const heat = collect(
      { type: "heatmap", query: "q", x: "product_title", y: "group_name", value: "completed" },
      [
        { portal: "north", group_name: "Sales", product_title: "Fire safety", completed: 1 },
        { portal: "south", group_name: "Sales", product_title: "Fire safety", completed: 0 },
      ],
    );
    expect(heat.data.rows.map((r) => r.group_name)).toEqual(["north · Sales", "south · Sales"]);
    const line = collect(
      { type: "line", query: "q", x: "week", y: ["completion_rate"] },
      weeks.flatMap((w) => [
        { ...w, portal: "north" },
        { ...w, portal: "south", completion_rate: 0.1 },
      ]),
    );
    expect(line.chart).toMatchObject({ series: "portal" });
    const { svg } = renderChartSvg(line.chart, line.data, { id: "t" });
    expect(count(svg, "path")).toBeGreaterThanOrEqual(2);
    expect(svg).toContain(">north<");
    expect(svg).toContain(">south<");
  });
});

describe("a line chart's value axis", () => {
  /** The y-axis tick labels Plot wrote, in order. */
  const yTicks = (svg: string) => {
    const group = svg.slice(svg.indexOf('aria-label="y-axis tick label"'));
    return [...group.slice(0, group.indexOf("</g>")).matchAll(/>([^<>]+)<\/text>/g)].map(
      (m) => m[1],
    );
  };

  test("starts at zero, so a small change in a rate is drawn small", () => {
    const close = weeks.map((w, i) => ({ ...w, completion_rate: 0.775 + i * 0.008 }));
    const { svg } = draw({ type: "line", query: "q", x: "week", y: ["completion_rate"] }, close);
    const ticks = yTicks(svg);
    expect(ticks[0]).toBe("0%");
    expect(ticks.at(-1)).toBe("90%");
  });

  test("starts at zero for counts too", () => {
    const counts = weeks.map((w, i) => ({ week: w.week, overdue: 177 + 7 * i }));
    const { svg } = draw({ type: "line", query: "q", x: "week", y: ["overdue"] }, counts);
    expect(yTicks(svg)[0]).toBe("0");
  });
});

describe("a value axis's labels fit in the chart", () => {
  /** The y-axis tick labels Plot wrote and the x each one ends at (right-aligned). */
  const yLabels = (svg: string) => {
    const start = svg.indexOf('aria-label="y-axis tick label"');
    const open = svg.lastIndexOf("<g", start);
    const group = svg.slice(open, svg.indexOf("</g>", start));
    const shift = Number(/translate\((-?[\d.]+)/.exec(group)?.[1] ?? 0);
    return [...group.matchAll(/translate\(([\d.]+),[^)]*\)" y="[^"]*">([^<]+)<\/text>/g)].map(
      (m) => ({ text: m[2] ?? "", end: Number(m[1]) + shift }),
    );
  };
  /** Columns of the PNG from its left edge with a dark pixel (drawn text or line) in them. */
  const darkColumns = (png: Buffer, columns: number) => {
    const image = decodePng(png);
    const dark: number[] = [];
    for (let x = 0; x < columns; x++) {
      for (let y = 0; y < image.height; y++) {
        const at = (y * image.width + x) * image.channels;
        const [r = 0, g = 0, b = 0] = image.pixels.subarray(at, at + 3);
        if (r < 100 && g < 100 && b < 100) {
          dark.push(x);
          break;
        }
      }
    }
    return dark;
  };
  const groups = (high: number) =>
    Array.from({ length: 8 }, (_, i) => ({
      group_name: `group ${i}`,
      overdue: Math.round(((i + 1) * high) / 8),
    }));

  test.each([
    ["twelve million", 12_000_000, "12,000,000"],
    ["near a billion", 950_000_000, "900,000,000"],
  ])("bars up to %s: every tick label whole and right of the left edge", (_, high, top) => {
    const { svg } = draw(
      { type: "bar", query: "q", x: "group_name", y: ["overdue"], stacked: false },
      groups(high),
    );
    const labels = yLabels(svg);
    expect(labels.map((l) => l.text)).toContain(top);
    for (const { text, end } of labels) {
      expect(text).toMatch(/^\d{1,3}(,\d{3})*$/);
      // Digits are at most 0.64 em wide in DejaVu Sans, the PNG's font; commas 0.32 em.
      const width =
        10 * (0.64 * text.replace(/,/g, "").length + 0.32 * (text.split(",").length - 1));
      expect(end - width, text).toBeGreaterThanOrEqual(0);
    }
    // Drawn to PNG (twice the size), no label is cut by the image's left edge.
    expect(darkColumns(chartPng(svg), 4)).toEqual([]);
  });

  test("a line over weeks and a grouped bar chart of big values leave room for them too", () => {
    const line = weeks.map((w, i) => ({ week: w.week, overdue: 150_000_000 + i * 100_000_000 }));
    const grouped = grid.map((row) => ({ ...row, overdue: row.overdue * 123_456_789 }));
    for (const { svg } of [
      draw({ type: "line", query: "q", x: "week", y: ["overdue"] }, line),
      draw(GROUPED_BAR, grouped),
    ]) {
      expect(yLabels(svg).at(-1)?.text).toMatch(/^\d{3},000,000$/);
      expect(darkColumns(chartPng(svg), 4)).toEqual([]);
    }
  });
});

describe("a measure empty on every row", () => {
  test("says so under the chart rather than show bare axes", () => {
    const weeks = [0, 1, 2].map((i) => ({ week: new Date(Date.UTC(2026, 0, 5 + 7 * i)) }));
    const line = draw(
      { type: "line", query: "q", x: "week", y: ["completion_rate", "overdue"] },
      weeks.map((row, i) => ({ ...row, completion_rate: null, overdue: i })),
    );
    expect(line.notes).toEqual(["Completion rate is empty on every row: nothing to draw."]);
    const bars = draw(
      { type: "bar", query: "q", x: "group_name", y: ["overdue"], stacked: false },
      GROUPS.map((group_name) => ({ group_name, overdue: null })),
    );
    expect(bars.notes).toEqual(["Overdue is empty on every row: nothing to draw."]);
    const cells = draw(
      {
        type: "heatmap",
        query: "q",
        x: "product_title",
        y: "group_name",
        value: "completion_rate",
      },
      grid.map((row) => ({ ...row, completion_rate: null })),
    );
    expect(cells.notes).toEqual([
      "Completion rate is empty on every row: nothing to draw.",
      "A grey cell has no Completion rate (no row for that pair): it is not 0.",
    ]);
    const none = { type: "bar", query: "q", x: "group_name", y: ["overdue"], stacked: false };
    expect(draw(none as ChartSpec, []).notes).toEqual([]);
  });
});

describe("a line chart of many series", () => {
  test("gives each line drawn a colour of its own, and says which are left out", () => {
    const rows = Array.from({ length: 15 }, (_, s) =>
      [0, 1].map((w) => ({
        status: `Product ${s}`,
        week: new Date(Date.UTC(2026, 0, 5 + 7 * w)),
        completion_rate: 0.5,
      })),
    ).flat();
    const { svg, notes } = draw(
      { type: "line", query: "q", x: "week", y: ["completion_rate"], series: "status" },
      rows,
    );
    const lines = svg.match(/<g[^>]*aria-label="line"[^>]*>.*?<\/g>/s)?.[0] ?? "";
    const strokes = [...lines.matchAll(/<path[^>]* stroke="([^"]+)"/g)].map((m) => m[1]);
    expect(strokes).toHaveLength(MAX_CATEGORIES.series);
    expect(new Set(strokes).size).toBe(strokes.length);
    expect(notes).toEqual([`Status: the first ${MAX_CATEGORIES.series} of 15 values are shown.`]);
  });
});
