/**
 * Printing a query result for the `sql` command: an aligned text table for people, CSV (RFC 4180,
 * same formula neutralisation as the exports) or JSON (an array of row objects) for scripts.
 */
import type { Writable } from "node:stream";
import type { DuckDBResult, DuckDBTypeId, DuckDBValue } from "@duckdb/node-api";
import { csvHeader, csvLine } from "./print-csv.js";
import { jsonObjectText } from "./print-json.js";
import { BatchedOutput, forEachRow, gone } from "./print-output.js";
import { printTable } from "./print-table.js";

/** Output formats of the `sql` command. */
export type PrintFormat = "table" | "csv" | "json";

/** What every format needs to know of the result's columns. */
interface Columns {
  names: string[];
  types: DuckDBTypeId[];
}

/** How {@link printResult} prints. */
export interface PrintOptions {
  readonly neutraliseFormulas: boolean;
  /**
   * The column types of the statement `result` wraps (print-statement.ts): a TIMESTAMPTZ it wrote
   * as text is no text cell, and "-infinity" stays as it is.
   */
  readonly types?: readonly DuckDBTypeId[] | undefined;
  /**
   * Called with the row count once the last row is read, before the output is finished (the
   * closing `]` of JSON, the table's row count, and its rows when they are one block): throws
   * when the statement did not run to its end, so that a result cut short never reads as whole.
   */
  readonly atEnd?: (rows: number) => Promise<void>;
  /**
   * Called once output has begun (CSV's header, JSON's `[`, the table's first block): from then
   * on, a failure leaves output cut short; before it, nothing was printed.
   */
  readonly onOutput?: () => void;
}

/**
 * Writes every row of `result` to `out` in `format`; answers the row count. CSV text cells are
 * neutralised unless `neutraliseFormulas` is false.
 */
export async function printResult(
  result: DuckDBResult,
  out: Writable,
  format: PrintFormat,
  options: PrintOptions,
): Promise<number> {
  const columns: Columns = {
    names: result.deduplicatedColumnNames(),
    types: options.types ? [...options.types] : result.columnTypes().map((t) => t.typeId),
  };
  const atEnd = async (rows: number) => {
    // A reader that went away stopped the reading: the statement's end was never reached.
    if (!gone(out)) await options.atEnd?.(rows);
  };
  const onOutput = options.onOutput ?? (() => {});
  if (format === "table") return printTable(result, out, columns, { onOutput, atEnd });
  onOutput();
  if (format === "csv") return printCsv(result, out, columns, options.neutraliseFormulas, atEnd);
  return printJson(result, out, columns, atEnd);
}

type AtEnd = (rows: number) => Promise<void>;

/**
 * Adds each row as `format` turns it into text (`index` counts from 0) to `batch` as soon as it
 * is read, so a large result is never held whole; answers the row count. The rows read before a
 * failure are written too: the error then says the output is incomplete, and it is these rows.
 */
async function streamRows(
  result: DuckDBResult,
  batch: BatchedOutput,
  out: Writable,
  format: (row: DuckDBValue[], index: number) => string,
): Promise<number> {
  try {
    return await forEachRow(result, out, (row, index) => batch.add(format(row, index)));
  } finally {
    await batch.flush();
  }
}

async function printCsv(
  result: DuckDBResult,
  out: Writable,
  { names, types }: Columns,
  neutraliseFormulas: boolean,
  atEnd: AtEnd,
): Promise<number> {
  const batch = new BatchedOutput(out);
  await batch.add(csvHeader(names));
  const count = await streamRows(result, batch, out, csvLine(types, neutraliseFormulas));
  await atEnd(count);
  return count;
}

async function printJson(
  result: DuckDBResult,
  out: Writable,
  { names }: Columns,
  atEnd: AtEnd,
): Promise<number> {
  const batch = new BatchedOutput(out);
  batch.add("[");
  const object = jsonObjectText(names);
  const count = await streamRows(result, batch, out, (row, index) => {
    return `${index === 0 ? "\n" : ",\n"}${object(row)}`;
  });
  // Checked before the closing bracket: a document cut short stays one no JSON reader accepts.
  await atEnd(count);
  batch.add(count === 0 ? "]\n" : "\n]\n");
  await batch.flush();
  return count;
}
