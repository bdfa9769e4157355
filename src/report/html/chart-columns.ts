/**
 * The check of a report's charts against its queries' real result columns, made on the database
 * before any file of the report is written (DuckDB plans each query with LIMIT 0; nothing runs).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type ColumnKind, columnKind } from "../present/column-kind.js";
import { type BoundQuery, describeColumns } from "../run-query.js";
import { type ChartSpec, checkChartColumns } from "./chart-spec.js";

/** Throws a bad-input error naming `file` and the field when a chart reads a column it cannot. */
export async function checkChartsOnDatabase(
  connection: DuckDBConnection,
  file: string,
  charts: readonly ChartSpec[],
  bound: readonly BoundQuery[],
): Promise<void> {
  if (charts.length === 0) return;
  const columns = new Map<string, Map<string, ColumnKind>>();
  for (const b of bound) {
    if (!charts.some((c) => c.query === b.query.name)) continue;
    const described = await describeColumns(connection, b);
    columns.set(b.query.name, new Map(described.map((c) => [c.name, columnKind(c.name, c.type)])));
  }
  checkChartColumns(file, charts, (query) => columns.get(query) ?? new Map());
}
