/**
 * The rows a chart draws, gathered while its query streams: only the columns it reads, and only
 * as many categories as a chart can show legibly (the first ones in the query's order), and a bar
 * chart's rows summed per bar, so a query of a million rows still makes a chart of bounded size.
 * What is left out is said in a note.
 */

import type { ColumnKind, PlainValue } from "../present/column-kind.js";
import { columnLabel } from "../present/column-label.js";
import type { BarChartSpec, ChartSpec } from "./chart-spec.js";
import { gapNote, hasGaps } from "./heatmap-gaps.js";
import { sharedColourNote } from "./series-colours.js";
import { formatValue } from "./value-format.js";

/** Rows of one chart, keyed by column name, with the kinds of those columns. */
export interface ChartData {
  readonly kinds: ReadonlyMap<string, ColumnKind>;
  /** The places of its DECIMAL columns, by name, so values read as in the report's table. */
  readonly scales?: ReadonlyMap<string, number>;
  readonly rows: readonly Record<string, PlainValue>[];
  /** The query's own column labels (its `-- label` lines), which win over the built-in rule. */
  readonly labels?: ReadonlyMap<string, string>;
  /** Sentences about what the chart leaves out. */
  readonly notes: readonly string[];
  /**
   * A column whose value names each measure's line along with the measure ("north · Overdue"):
   * the portal, when a line chart of several measures is drawn over several portals.
   */
  readonly measureOwner?: string;
  /**
   * A heatmap some pair of whose categories has no number (heatmap-gaps.ts): decided here once,
   * so that the grey ground drawn and the note saying what it means never disagree.
   */
  readonly gaps?: boolean;
}

/**
 * Most categories shown on a chart axis, and most values of a series column (colours): as many
 * as Plot's palette (observable10) has colours. At 12, the 11th and 12th lines took the 1st's and
 * 2nd's colours, two products drawn as one in the legend. (Measures are not capped: each is a
 * column the definition names; series-colours.ts gives more than ten of them their own colour.)
 */
export const MAX_CATEGORIES = { bar: 30, heatmap: 40, series: 10 } as const;
/** Most points a line chart or heatmap draws (a bar chart draws one per bar). */
export const MAX_POINTS = 20_000;
/** Distinct values counted for the notes; past it a note says "more than". */
const MAX_COUNTED = 10_000;

interface Cap {
  column: string;
  max: number;
  kept: Set<string>;
  seen: Set<string>;
}

function categoryCaps(chart: ChartSpec): Cap[] {
  const caps: { column: string; max: number }[] = [];
  if (chart.type === "heatmap") {
    caps.push({ column: chart.x, max: MAX_CATEGORIES.heatmap });
    caps.push({ column: chart.y, max: MAX_CATEGORIES.heatmap });
  } else {
    if (chart.type === "bar") caps.push({ column: chart.x, max: MAX_CATEGORIES.bar });
    if (chart.series !== undefined) {
      caps.push({ column: chart.series, max: MAX_CATEGORIES.series });
    }
  }
  return caps.map((c) => ({ ...c, kept: new Set(), seen: new Set() }));
}

function chartColumns(chart: ChartSpec): string[] {
  if (chart.type === "heatmap") return [chart.x, chart.y, chart.value];
  return [chart.x, ...chart.y, ...(chart.series === undefined ? [] : [chart.series])];
}

/** Two values of a measure added up; an empty one (NULL) adds nothing. */
function sum(a: PlainValue, b: PlainValue): PlainValue {
  if (typeof b !== "number") return a;
  return typeof a === "number" ? a + b : b;
}

/** The column a query over several portals adds to each row (src/report/portal-scopes.ts). */
const PORTAL = "portal";

/** How a chart is drawn over several portals; see portalChart. */
interface PortalDrawing {
  readonly chart: ChartSpec;
  /** The column whose values are prefixed with the portal, if any. */
  readonly prefixed: string | undefined;
  /** Each measure gets a line per portal (a line chart of several measures and no series). */
  readonly measuresByPortal: boolean;
}

/**
 * Over several portals, where the portal goes so that two portals' rows are never drawn as one:
 * a line chart's series (when it has none and one measure), the line of each measure (when it
 * has several: a series would take one only), else the category each row is of (a line's series,
 * a bar's x, a heatmap's y), prefixed with the portal.
 */
function portalChart(chart: ChartSpec): PortalDrawing {
  if (chart.type === "line" && chart.series === undefined) {
    return chart.y.length === 1
      ? { chart: { ...chart, series: PORTAL }, prefixed: undefined, measuresByPortal: false }
      : { chart, prefixed: undefined, measuresByPortal: true };
  }
  const prefixed =
    chart.type === "line" ? chart.series : chart.type === "heatmap" ? chart.y : chart.x;
  return { chart, prefixed, measuresByPortal: false };
}

/**
 * Gathers one chart's rows; `add` takes each result row by column name. `byPortal`: the rows are
 * several portals' (each with a `portal` column).
 */
export class ChartCollector {
  readonly chart: ChartSpec;
  readonly #columns: string[];
  readonly #caps: Cap[];
  readonly #rows: Record<string, PlainValue>[] = [];
  /** A bar chart's row of each bar (category, and colour when it has a series), by key. */
  readonly #bars = new Map<string, Record<string, PlainValue>>();
  readonly #prefixed: string | undefined;
  readonly #measuresByPortal: boolean;
  #dropped = 0;

  constructor(chart: ChartSpec, options: { byPortal?: boolean } = {}) {
    const drawn: PortalDrawing = options.byPortal
      ? portalChart(chart)
      : { chart, prefixed: undefined, measuresByPortal: false };
    this.chart = drawn.chart;
    this.#prefixed = drawn.prefixed;
    this.#measuresByPortal = drawn.measuresByPortal;
    this.#columns = chartColumns(this.chart);
    this.#caps = categoryCaps(this.chart);
  }

  /** The column names this chart reads. */
  get columns(): readonly string[] {
    return this.#columns;
  }

  add(read: (column: string) => PlainValue): void {
    const prefixed = this.#prefixed;
    // Categories are told apart by portal too; the label itself is made in result().
    const value =
      prefixed === undefined
        ? read
        : (column: string) =>
            column === prefixed
              ? `${String(read(PORTAL))}\u0000${String(read(column))}`
              : read(column);
    let keep = true;
    for (const cap of this.#caps) {
      const key = String(value(cap.column));
      if (cap.seen.size < MAX_COUNTED) cap.seen.add(key);
      if (!cap.kept.has(key)) {
        if (cap.kept.size < cap.max) cap.kept.add(key);
        else keep = false;
      }
    }
    if (!keep) return;
    if (this.chart.type === "bar") {
      this.#addToBar(this.chart, value, read);
      return;
    }
    if (this.#rows.length >= MAX_POINTS) {
      this.#dropped++;
      return;
    }
    this.#rows.push(this.#rowOf(read));
  }

  /**
   * A bar shows the sum of its rows (Plot stacks the rows of one category and colour): summed
   * here as they stream, every row of the query counts, however many, and the chart holds one
   * row per bar. Kept as rows, a detail query's bars summed its first 20,000 rows only, and drew
   * a mark with a tooltip for each.
   */
  #addToBar(
    chart: BarChartSpec,
    key: (column: string) => PlainValue,
    read: (column: string) => PlainValue,
  ): void {
    const series = chart.series === undefined ? "" : String(key(chart.series));
    const id = `${String(key(chart.x))}\u0001${series}`;
    const bar = this.#bars.get(id);
    if (bar === undefined) {
      const row = this.#rowOf(read);
      this.#bars.set(id, row);
      this.#rows.push(row);
      return;
    }
    for (const y of chart.y) bar[y] = sum(bar[y] ?? null, read(y));
  }

  /**
   * A sentence per measure that is empty (NULL) on every row: the chart then shows axes and no
   * line, or bars of no height, which reads as a chart that failed or as zero. A trend before any
   * required product, or of a group with none, has a rate on no week.
   */
  #emptyMeasureNotes(labels: ReadonlyMap<string, string>): string[] {
    if (this.#rows.length === 0) return [];
    const measures = this.chart.type === "heatmap" ? [this.chart.value] : this.chart.y;
    return measures
      .filter((column) => this.#rows.every((row) => (row[column] ?? null) === null))
      .map((column) => `${columnLabel(column, labels)} is empty on every row: nothing to draw.`);
  }

  /**
   * How many series (colours) the chart draws: the values of its series column, else its
   * measures, each portal's own when the measures are drawn per portal.
   */
  #seriesCount(): number {
    const chart = this.chart;
    if (chart.type === "heatmap") return 0;
    const distinctOf = (column: string) => new Set(this.#rows.map((row) => row[column])).size;
    if (chart.series !== undefined) return distinctOf(chart.series);
    return chart.y.length * (this.#measuresByPortal ? distinctOf(PORTAL) : 1);
  }

  /** The columns the chart reads of one result row (and its portal, when that names it). */
  #rowOf(read: (column: string) => PlainValue): Record<string, PlainValue> {
    const row: Record<string, PlainValue> = {};
    for (const column of this.#columns) row[column] = read(column);
    if (this.#prefixed !== undefined || this.#measuresByPortal) row[PORTAL] = read(PORTAL);
    return row;
  }

  /**
   * The gathered rows; `kinds` are the kinds of the query's columns, `labels` its own labels,
   * `scales` its DECIMAL columns' places.
   */
  result(
    kinds: ReadonlyMap<string, ColumnKind>,
    labels: ReadonlyMap<string, string> = new Map(),
    scales: ReadonlyMap<string, number> = new Map(),
  ): ChartData {
    const notes: string[] = [];
    for (const cap of this.#caps) {
      if (cap.seen.size > cap.kept.size) {
        notes.push(
          `${columnLabel(cap.column, labels)}: the first ${cap.kept.size} of ${cap.seen.size >= MAX_COUNTED ? "more than " : ""}${cap.seen.size.toLocaleString("en")} values are shown.`,
        );
      }
    }
    if (this.#dropped > 0) {
      notes.push(`The first ${MAX_POINTS.toLocaleString("en")} rows are drawn.`);
    }
    notes.push(...this.#emptyMeasureNotes(labels));
    const shared = sharedColourNote(this.#seriesCount());
    if (shared !== undefined) notes.push(shared);
    const chart = this.chart;
    const gaps =
      chart.type === "heatmap" &&
      hasGaps(
        this.#rows.map((row) => ({ x: row[chart.x], y: row[chart.y], value: row[chart.value] })),
      );
    if (gaps) notes.push(gapNote(columnLabel(chart.value, labels)));
    const own = new Map<string, ColumnKind>();
    for (const column of this.#columns) own.set(column, kinds.get(column) ?? "text");
    const prefixed = this.#prefixed;
    const common = { kinds: own, scales, labels, notes, ...(gaps ? { gaps } : {}) };
    if (this.#measuresByPortal) return { ...common, rows: this.#rows, measureOwner: PORTAL };
    if (prefixed === undefined) return { ...common, rows: this.#rows };
    const kind = own.get(prefixed) ?? "text";
    own.set(prefixed, "text");
    const rows = this.#rows.map((row) => {
      const label = row[prefixed] ?? null;
      const text = label === null ? "(none)" : formatValue(label, kind, scales.get(prefixed));
      return { ...row, [prefixed]: `${String(row[PORTAL])} · ${text}` };
    });
    return { ...common, rows };
  }
}
