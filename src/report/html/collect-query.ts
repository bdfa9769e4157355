/**
 * One pass over a query's streamed result for the HTML report: the first rows of its table, the
 * count of all its rows, the rows of each chart drawn from it, and (for the summary query) its
 * overall row. Past the table's first rows only the columns the charts read are converted, so a
 * large result streams through in bounded memory. The table and the overall row keep a DECIMAL
 * exact (they are shown as text); charts take doubles, which is all a drawing needs.
 */
import type { DuckDBResult, DuckDBValue } from "@duckdb/node-api";
import { checkSignal } from "../interruption.js";
import {
  type ColumnKind,
  columnKind,
  decimalScale,
  type PlainValue,
  plainConverter,
  type ShownValue,
  shownConverter,
} from "../present/column-kind.js";
import type { ChartCollector } from "./chart-data.js";

type Converter<T> = (value: DuckDBValue) => T;

/** `convert`, answering null for DuckDB's nulls (the converters are not given them). */
function orNull<T>(convert: Converter<T>): Converter<T | null> {
  return (value) => (value === null ? null : convert(value));
}

/** Rows of a table shown in the HTML report; more are counted, not kept. */
export const MAX_TABLE_ROWS = 1_000;

/** What one pass over a result gathered. */
export interface CollectedQuery {
  /** Each column; `scale` is a DECIMAL column's places (decimalScale). */
  readonly columns: readonly { name: string; kind: ColumnKind; scale?: number }[];
  readonly kinds: ReadonlyMap<string, ColumnKind>;
  /** The places of each DECIMAL column, by name. */
  readonly scales: ReadonlyMap<string, number>;
  readonly rows: ShownValue[][];
  readonly totalRows: number;
  /**
   * The rows whose `scope` column is "overall", when asked for: one, or one per portal when the
   * query ran over several (each with its `portal`).
   */
  readonly overall: readonly Readonly<Record<string, ShownValue>>[];
}

/**
 * Reads `result` to its end, feeding `charts`. `wantOverall` keeps the row whose `scope` is
 * "overall". `queryError` turns a failure while reading into the caller's error; `atEnd`, given
 * the rows read once the result gave its last one, throws when the query failed part-way.
 */
export async function collectQuery(
  result: DuckDBResult,
  charts: readonly ChartCollector[],
  options: {
    wantOverall: boolean;
    queryError: (error: unknown) => unknown;
    /** Checked before each chunk: once it fires, an "interrupted" error. */
    signal?: AbortSignal;
    atEnd?: (rows: number) => Promise<void>;
  },
): Promise<CollectedQuery> {
  const names = result.deduplicatedColumnNames();
  const columns = names.map((name, i) => {
    const type = result.columnType(i);
    return { name, kind: columnKind(name, type), scale: decimalScale(type) };
  });
  const plain = columns.map((c, i) => orNull(plainConverter(c.kind, result.columnType(i))));
  const shown = columns.map((c, i) => orNull(shownConverter(c.kind, result.columnType(i))));
  const index = new Map(names.map((name, i) => [name, i]));
  const scope = index.get("scope");
  const rows: ShownValue[][] = [];
  const overall: Record<string, ShownValue>[] = [];
  let total = 0;
  for (;;) {
    checkSignal(options.signal, "query");
    const chunk = await result.fetchChunk().catch((error: unknown) => {
      throw options.queryError(error);
    });
    if (!chunk || chunk.rowCount === 0) break;
    const vectors = names.map((_, c) => chunk.getColumnVector(c));
    const item = (r: number, c: number) => (vectors[c] as (typeof vectors)[number]).getItem(r);
    const cell = (r: number, c: number) => (shown[c] as Converter<ShownValue>)(item(r, c));
    for (let r = 0; r < chunk.rowCount; r++) {
      if (rows.length < MAX_TABLE_ROWS) rows.push(names.map((_, c) => cell(r, c)));
      if (options.wantOverall && scope !== undefined && cell(r, scope) === "overall") {
        overall.push(Object.fromEntries(names.map((name, c) => [name, cell(r, c)])));
      }
      for (const chart of charts) {
        chart.add((column) => {
          const c = index.get(column);
          return c === undefined ? null : (plain[c] as Converter<PlainValue>)(item(r, c));
        });
      }
      total++;
    }
  }
  await options.atEnd?.(total);
  const kinds = new Map(columns.map((c) => [c.name, c.kind]));
  const scales = new Map(
    columns.flatMap((c) => (c.scale === undefined ? [] : [[c.name, c.scale]])),
  );
  return { columns, kinds, scales, rows, totalRows: total, overall };
}
