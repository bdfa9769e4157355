/**
 * A chart of a report as one self-contained SVG string, rendered on the server by Observable Plot
 * over linkedom's DOM: no script, no canvas and nothing fetched to show it. The same string is
 * inlined in the HTML file and converted to PNG for e-mail. Legends are drawn by chart-legend.ts.
 */
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import type { ColumnKind, PlainValue } from "../present/column-kind.js";
import { columnLabel } from "../present/column-label.js";
import { ChartCollector, type ChartData } from "./chart-data.js";
import { legendOf } from "./chart-legend.js";
import type { BarChartSpec, ChartSpec, HeatmapSpec, LineChartSpec } from "./chart-spec.js";
import { DATE_AXIS_MARGIN, dateAxis } from "./date-ticks.js";
import { escapeHtml, xmlSafe } from "./escape.js";
import { colourFlatScale, zeroBasedFlatScale } from "./flat-scale.js";
import { GAP_FILL } from "./heatmap-gaps.js";
import { labelWidth } from "./label-width.js";
import { seriesColour } from "./series-colours.js";
import { shortLabel } from "./short-label.js";
import { withValueAxisRoom } from "./value-axis-room.js";
import { formatValue } from "./value-format.js";

/** A rendered chart: the SVG document and its size in pixels. */
export interface ChartSvg {
  readonly svg: string;
  readonly width: number;
  readonly height: number;
}

/** Size and identity of a chart; `id` must be unique in the page or mail that shows it. */
export interface ChartSvgOptions {
  readonly id: string;
  /** Its name for a screen reader, the heading (an untitled chart's says what it shows). */
  readonly label?: string;
  readonly width?: number;
  readonly height?: number;
}

type Row = Record<string, PlainValue>;
/** A chart's rows in the form Plot draws: category text, a series name, a number. */
interface Point {
  x: string | number | Date | null;
  y?: string;
  series?: string;
  value: number | null;
  /** The column the value is of (a bar's tooltip shows it as that column's values are shown). */
  measure?: string;
}

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
/** Average width of a 10px tick label glyph, in pixels (no canvas to measure with). */
const CHAR_WIDTH = 6;
const LABEL_CHARS = 28;
/** Plot draws tick labels at 10 px. */
const TICK_FONT_PX = 10;
/** The least left margin of a bar or line chart; wider when its value axis's labels need it. */
const VALUE_MARGIN = 60;
const SERIES_KEY = "series";
/** Plot's right margin of a line chart. */
const LINE_MARGIN_RIGHT = 20;

type PlotDocument = NonNullable<Plot.PlotOptions["document"]>;

let serverDocument: PlotDocument | undefined;
function plotDocument(): PlotDocument {
  serverDocument ??= parseHTML("<!doctype html><html><body></body></html>")
    .document as unknown as PlotDocument;
  return serverDocument;
}

/** A long label cut in its middle (short-label.ts). */
function shorten(text: string): string {
  return shortLabel(text, LABEL_CHARS);
}

/** A measure of `column` as the report's table shows it, for a tooltip. */
function valueText(data: ChartData, column: string, value: number): string {
  return formatValue(value, data.kinds.get(column) ?? "decimal", data.scales?.get(column));
}

function categoryText(data: ChartData, column: string, value: PlainValue): string {
  if (value === null) return "(none)";
  return formatValue(value, data.kinds.get(column) ?? "text", data.scales?.get(column));
}

function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

function toNumberOrNull(value: PlainValue): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/**
 * Room under the x axis and the rotation its labels need to fit `innerWidth`. The labels are
 * measured as drawn (label-width.ts), shortened: counted in characters, a label of capitals
 * ("QUALITY ASSURANCE DEPARTMENT") is a quarter wider than the count says, and rotated it ran
 * past the bottom of the chart over the axis's title.
 */
function categoryAxis(labels: readonly string[], innerWidth: number) {
  const longest = Math.max(CHAR_WIDTH, ...labels.map((l) => labelWidth(shorten(l), TICK_FONT_PX)));
  const fits = labels.length * (longest + 8) <= innerWidth;
  // Rotated by 40°, a label reaches down by about 0.65 of its width (under the tick's 9 px and
  // over the axis title's line, 25 px together) and left of its tick by about three quarters.
  return fits
    ? { tickRotate: 0, marginBottom: 40, reachLeft: 0, tickFormat: shorten }
    : {
        tickRotate: -40,
        marginBottom: 34 + longest * 0.65,
        reachLeft: longest * 0.77,
        tickFormat: shorten,
      };
}

function percentFormat(kinds: readonly ColumnKind[]) {
  return kinds.length > 0 && kinds.every((k) => k === "percent") ? "%" : undefined;
}

/** What a person reads for column `name` of the chart's query. */
function labelOf(data: ChartData, name: string): string {
  return columnLabel(name, data.labels);
}

function measureLabel(data: ChartData, columns: readonly string[]): string {
  return columns.map((c) => labelOf(data, c)).join(", ");
}

/** Bar or line rows as points: one per row and y column, named by the series column or y. */
function points(
  chart: BarChartSpec | LineChartSpec,
  data: ChartData,
  xValue: (row: Row) => Point["x"],
): Point[] {
  const out: Point[] = [];
  for (const row of data.rows) {
    for (const y of chart.y) {
      const point: Point = { x: xValue(row), value: toNumberOrNull(row[y] ?? null), measure: y };
      if (chart.series !== undefined) {
        point.series = categoryText(data, chart.series, row[chart.series] ?? null);
      } else if (chart.y.length > 1) {
        const owner = data.measureOwner === undefined ? null : (row[data.measureOwner] ?? null);
        point.series = `${owner === null ? "" : `${String(owner)} · `}${labelOf(data, y)}`;
      }
      out.push(point);
    }
  }
  return out;
}

/**
 * A bar's or a line's point's tooltip: its category or day as the table shows it, its series,
 * and its value. A line chart's dots had none, so a week's rate was read off the axis only.
 */
function pointTitle(data: ChartData, xText: (p: Point) => string) {
  return (p: Point) =>
    `${xText(p)}${p.series ? ` · ${p.series}` : ""}: ${p.value === null ? "" : valueText(data, p.measure ?? "", p.value)}`;
}

function barPlot(chart: BarChartSpec, data: ChartData, width: number, height: number) {
  const data2 = points(chart, data, (row) => categoryText(data, chart.x, row[chart.x] ?? null));
  const xs = distinct(data2.map((p) => p.x as string));
  const grouped = data2.some((p) => p.series !== undefined);
  const axis = categoryAxis(xs, width - 70);
  const title = pointTitle(data, (p) => String(p.x));
  const base = {
    document: plotDocument(),
    width,
    height,
    marginBottom: axis.marginBottom,
    y: {
      label: measureLabel(data, chart.y),
      grid: true,
      tickFormat: percentFormat(chart.y.map((y) => data.kinds.get(y) ?? "text")),
      ...zeroBasedFlatScale(data2.map((p) => p.value)),
    },
  };
  const categories = {
    domain: xs,
    label: labelOf(data, chart.x),
    tickRotate: axis.tickRotate,
    tickFormat: axis.tickFormat,
  };
  const least = Math.max(VALUE_MARGIN, axis.reachLeft);
  if (grouped && !chart.stacked) {
    const series = distinct(data2.map((p) => p.series as string));
    return withValueAxisRoom(least, (marginLeft) =>
      Plot.plot({
        ...base,
        marginLeft,
        fx: { ...categories, axis: "bottom" },
        x: { domain: series, axis: null },
        color: seriesColour(series),
        marks: [
          Plot.barY(data2, { fx: "x", x: SERIES_KEY, y: "value", fill: SERIES_KEY, title }),
          Plot.ruleY([0]),
        ],
      }),
    );
  }
  return withValueAxisRoom(least, (marginLeft) =>
    Plot.plot({
      ...base,
      marginLeft,
      x: categories,
      ...(grouped ? { color: seriesColour(data2.map((p) => p.series as string)) } : {}),
      marks: [
        Plot.barY(data2, {
          x: "x",
          y: "value",
          fill: grouped ? SERIES_KEY : "#4269d0",
          title,
        }),
        Plot.ruleY([0]),
      ],
    }),
  );
}

function linePlot(chart: LineChartSpec, data: ChartData, width: number, height: number) {
  const data2 = points(chart, data, (row) => {
    const value = row[chart.x] ?? null;
    return value instanceof Date || typeof value === "number" ? value : null;
  })
    .filter((p) => p.x !== null)
    .sort((a, b) => Number(a.x) - Number(b.x));
  const grouped = data2.some((p) => p.series !== undefined);
  const xKind = data.kinds.get(chart.x) ?? "text";
  const dates = xKind === "date" || xKind === "timestamp";
  const channels = {
    x: "x",
    y: "value",
    ...(grouped ? { stroke: SERIES_KEY, z: SERIES_KEY } : {}),
  };
  return withValueAxisRoom(VALUE_MARGIN, (marginLeft) =>
    Plot.plot({
      document: plotDocument(),
      width,
      height,
      marginLeft,
      ...(dates ? { marginBottom: DATE_AXIS_MARGIN } : {}),
      x: {
        label: labelOf(data, chart.x),
        // On the data's dates (date-ticks.ts), in the room right of the value axis.
        ...(dates
          ? dateAxis(
              data2.map((p) => p.x as Date),
              width - marginLeft - LINE_MARGIN_RIGHT,
            )
          : {}),
      },
      y: {
        label: measureLabel(data, chart.y),
        grid: true,
        // From zero, as bars are: an axis cut to the data's range makes a rise from 77 % to 83 %
        // look like one from nothing to everything.
        zero: true,
        nice: true,
        tickFormat: percentFormat(chart.y.map((y) => data.kinds.get(y) ?? "text")),
        ...zeroBasedFlatScale(data2.map((p) => p.value)),
      },
      ...(grouped ? { color: seriesColour(data2.map((p) => p.series as string)) } : {}),
      marks: [
        Plot.lineY(data2, {
          ...channels,
          strokeWidth: 2,
          ...(grouped ? {} : { stroke: "#4269d0" }),
        }),
        Plot.dot(data2, {
          ...channels,
          r: 2.5,
          fill: grouped ? SERIES_KEY : "#4269d0",
          title: pointTitle(data, (p) => categoryText(data, chart.x, p.x)),
        }),
      ],
    }),
  );
}

function heatmapPlot(chart: HeatmapSpec, data: ChartData, width: number) {
  const valueKind = data.kinds.get(chart.value) ?? "decimal";
  const cells: Point[] = data.rows.map((row) => ({
    x: categoryText(data, chart.x, row[chart.x] ?? null),
    y: categoryText(data, chart.y, row[chart.y] ?? null),
    value: toNumberOrNull(row[chart.value] ?? null),
  }));
  const xs = distinct(cells.map((c) => c.x as string));
  const ys = distinct(cells.map((c) => c.y as string));
  const longestY = Math.max(CHAR_WIDTH, ...ys.map((y) => labelWidth(shorten(y), TICK_FONT_PX)));
  // The tick and its gap (9 px) and the rotated axis title beside the labels (about 20 px).
  const marginLeft = 34 + longestY;
  const axis = categoryAxis(xs, width - marginLeft - 20);
  const cell = Math.max(12, Math.min(28, Math.floor(560 / Math.max(1, ys.length))));
  return Plot.plot({
    document: plotDocument(),
    width,
    height: 30 + axis.marginBottom + cell * ys.length,
    marginLeft: Math.max(marginLeft, axis.reachLeft),
    marginTop: 20,
    marginBottom: axis.marginBottom,
    x: {
      domain: xs,
      label: labelOf(data, chart.x),
      tickRotate: axis.tickRotate,
      tickFormat: axis.tickFormat,
    },
    y: { domain: ys, label: labelOf(data, chart.y), tickFormat: shorten },
    color: {
      type: "linear",
      scheme: "blues",
      domain: valueKind === "percent" ? [0, 1] : colourFlatScale(cells.map((c) => c.value))?.domain,
    },
    marks: [
      ...(data.gaps ? [Plot.frame({ fill: GAP_FILL })] : []),
      Plot.cell(cells, {
        x: "x",
        y: "y",
        fill: "value",
        inset: 0.5,
        title: (c: Point) =>
          `${c.y} · ${c.x}: ${c.value === null ? "" : valueText(data, chart.value, c.value)}`,
      }),
    ],
  });
}

function emptyChart(width: number): ChartSvg {
  const height = 60;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">` +
    `<text x="10" y="34" font-size="13" fill="#555">No rows to draw.</text></svg>`;
  return { svg, width, height };
}

/**
 * `chart` drawn from plain rows (column name → value, e.g. from a query already read) whose
 * columns are of `kinds`: the same categories kept and the same drawing as the report's.
 */
export function chartSvgFromRows(
  chart: ChartSpec,
  rows: Iterable<Readonly<Record<string, PlainValue>>>,
  kinds: ReadonlyMap<string, ColumnKind>,
  options: ChartSvgOptions,
): ChartSvg {
  const collector = new ChartCollector(chart);
  for (const row of rows) collector.add((column) => row[column] ?? null);
  return renderChartSvg(chart, collector.result(kinds), options);
}

/** `chart` drawn from `data` as a standalone SVG document. */
export function renderChartSvg(
  chart: ChartSpec,
  data: ChartData,
  options: ChartSvgOptions,
): ChartSvg {
  const width = options.width ?? 800;
  if (data.rows.length === 0) return emptyChart(width);
  const height = options.height ?? 400;
  const plot =
    chart.type === "bar"
      ? barPlot(chart, data, width, height)
      : chart.type === "line"
        ? linePlot(chart, data, width, height)
        : heatmapPlot(chart, data, width);
  const legend = legendOf(plot, chart, data, { id: options.id, width });
  const top = legend ? legend.height + 8 : 0;
  const plotHeight = Number(plot.getAttribute("height") ?? height);
  plot.setAttribute("y", String(top));
  const total = top + plotHeight;
  const label = options.label ?? chart.title ?? "";
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${total}" viewBox="0 0 ${width} ${total}"` +
    ` role="img" aria-label="${escapeHtml(label)}" fill="currentColor" font-family="${FONT}" font-size="10">` +
    `<rect width="${width}" height="${total}" fill="#ffffff"/>` +
    (legend ? `<g transform="translate(10,4)">${legend.svg}</g>` : "") +
    plot.outerHTML +
    "</svg>";
  // The chart library writes the data's text as it is; the mail's PNG renderer reads it as XML.
  return { svg: xmlSafe(svg), width, height: total };
}
