/**
 * Charts a report definition declares (`"charts": [...]`): their shape, checked when the
 * definition loads, and their columns, checked against the query's result columns before a report
 * is written (a query's columns are known only once DuckDB has planned it on a database).
 */
import { z } from "zod";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { type ColumnKind, isNumberKind, isTimeKind } from "../present/column-kind.js";

export const CHART_TYPES = ["bar", "line", "heatmap"] as const;

const column = z.string().min(1, "must name a column");
const common = {
  query: z.string().min(1, "must name one of the report's queries"),
  title: z.string().trim().min(1, "must be a non-empty text").optional(),
};

const LineChart = z.strictObject({
  type: z.literal("line"),
  ...common,
  x: column,
  y: z.array(column).min(1, "must name at least one column"),
  series: column.optional(),
});

const BarChart = LineChart.extend({
  type: z.literal("bar"),
  stacked: z.boolean().default(false),
});

const Heatmap = z.strictObject({
  type: z.literal("heatmap"),
  ...common,
  x: column,
  y: column,
  value: column,
});

/** One chart as a definition file writes it. */
export const ChartJson = z.discriminatedUnion("type", [BarChart, LineChart, Heatmap], {
  error: (issue) =>
    issue.code === "invalid_union" ? `must be one of ${CHART_TYPES.join(", ")}` : undefined,
});

export type BarChartSpec = z.infer<typeof BarChart>;
export type LineChartSpec = z.infer<typeof LineChart>;
export type HeatmapSpec = z.infer<typeof Heatmap>;
/** A checked chart of a report definition. */
export type ChartSpec = z.infer<typeof ChartJson>;

/** Where a field of the chart is (for messages) and what the column must hold. */
interface ColumnUse {
  field: string;
  name: string;
  must: "number" | "category" | "axis";
}

/** Every column a chart reads, with its field path and what it must hold. */
export function chartColumnUses(chart: ChartSpec): ColumnUse[] {
  const uses: ColumnUse[] = [];
  if (chart.type === "heatmap") {
    uses.push({ field: "x", name: chart.x, must: "category" });
    uses.push({ field: "y", name: chart.y, must: "category" });
    uses.push({ field: "value", name: chart.value, must: "number" });
    return uses;
  }
  uses.push({ field: "x", name: chart.x, must: chart.type === "line" ? "axis" : "category" });
  chart.y.forEach((name, i) => {
    uses.push({ field: `y[${i}]`, name, must: "number" });
  });
  if (chart.series !== undefined) {
    uses.push({ field: "series", name: chart.series, must: "category" });
  }
  return uses;
}

/** Why a chart's shape is wrong beyond what the schema says: [field, message], or undefined. */
export function chartShapeProblem(chart: ChartSpec): [string, string] | undefined {
  if (chart.type !== "heatmap" && chart.series !== undefined && chart.y.length > 1) {
    return ["y", `a ${chart.type} chart with "series" takes exactly one y column`];
  }
  const uses = chartColumnUses(chart);
  const again = uses.find((use, i) => uses.findIndex((u) => u.name === use.name) !== i);
  if (again !== undefined) {
    const first = uses.find((u) => u.name === again.name) as ColumnUse;
    return [again.field, `column "${again.name}" is already the chart's ${first.field}`];
  }
  return undefined;
}

const MUST_TEXT = {
  number: "numbers",
  axis: "dates, times or numbers",
  category: "values to group by",
} as const;

function fits(kind: ColumnKind, must: ColumnUse["must"]): boolean {
  if (must === "number") return isNumberKind(kind);
  if (must === "axis") return isNumberKind(kind) || isTimeKind(kind);
  return true;
}

/**
 * Checks each chart's columns against its query's result columns (name → kind). Throws a
 * bad-input error naming the file and the field, e.g.
 * `reports/x.json: field charts[0].y[0]: column "foo" is not a column of query "completion"`.
 */
export function checkChartColumns(
  file: string,
  charts: readonly ChartSpec[],
  columnsOf: (query: string) => ReadonlyMap<string, ColumnKind>,
): void {
  charts.forEach((chart, index) => {
    const columns = columnsOf(chart.query);
    for (const use of chartColumnUses(chart)) {
      const where = `${file}: field charts[${index}].${use.field}`;
      const kind = columns.get(use.name);
      if (kind === undefined) {
        throw new LmsExportError(
          "bad-input",
          `${where}: column "${use.name}" is not a column of query "${chart.query}"; its columns: ${[...columns.keys()].join(", ")}`,
        );
      }
      if (!fits(kind, use.must)) {
        throw new LmsExportError(
          "bad-input",
          `${where}: column "${use.name}" of query "${chart.query}" holds ${kind} values; a ${chart.type} chart's ${use.field.replace(/\[\d+\]$/, "")} must hold ${MUST_TEXT[use.must]}`,
        );
      }
    }
  });
}
