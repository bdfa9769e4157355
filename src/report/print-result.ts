/**
 * Printing a query result for the `sql` command: an aligned text table for people, CSV (RFC 4180,
 * same formula neutralisation as the exports) or JSON (an array of row objects) for scripts.
 */
import type { Writable } from "node:stream";
import type { DuckDBResult, DuckDBTypeId, DuckDBValue } from "@duckdb/node-api";
import { cellText } from "./cell-text.js";
import { jsonValue } from "./json-value.js";
import { isNumericType } from "./numeric-types.js";
import { csvHeader, csvLine } from "./print-csv.js";
import { BatchedOutput, forEachRow, gone } from "./print-output.js";

/** Output formats of the `sql` command. */
export type PrintFormat = "table" | "csv" | "json";

const MAX_TABLE_CELL = 60;

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
   * closing `]` of JSON, any of the table): throws when the statement did not run to its end, so
   * that a result cut short by a failure never reads as whole.
   */
  readonly atEnd?: (rows: number) => Promise<void>;
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
  if (format === "csv") return printCsv(result, out, columns, options.neutraliseFormulas, atEnd);
  if (format === "json") return printJson(result, out, columns, atEnd);
  return printTable(result, out, columns, atEnd);
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
  const count = await streamRows(result, batch, out, (row, index) => {
    const object = Object.fromEntries(
      names.map((name, c) => {
        return [name, jsonValue(row[c] ?? null)];
      }),
    );
    return `${index === 0 ? "\n" : ",\n"}${JSON.stringify(object)}`;
  });
  // Checked before the closing bracket: a document cut short stays one no JSON reader accepts.
  await atEnd(count);
  batch.add(count === 0 ? "]\n" : "\n]\n");
  await batch.flush();
  return count;
}

/** Every row is read before the first is written: the column widths depend on all of them. */
async function printTable(
  result: DuckDBResult,
  out: Writable,
  { names, types }: Columns,
  atEnd: AtEnd,
): Promise<number> {
  const cells: string[][] = [];
  await forEachRow(result, out, (row) => {
    cells.push(row.map((value) => (value === null ? "NULL" : clip(cellText(value)))));
    return undefined;
  });
  await atEnd(cells.length);
  // A loop, not Math.max(...all): spreading 130,000 values overflows the call stack.
  const widths = names.map((name, c) =>
    cells.reduce((widest, row) => Math.max(widest, (row[c] ?? "").length), name.length),
  );
  const line = (values: readonly string[], header: boolean) =>
    values
      .map((v, c) =>
        !header && isNumericType(types[c] as DuckDBTypeId) && v !== "NULL"
          ? v.padStart(widths[c] ?? 0)
          : v.padEnd(widths[c] ?? 0),
      )
      .join(" | ")
      .trimEnd();
  out.write(`${line(names, true)}\n`);
  out.write(`${widths.map((w) => "-".repeat(w)).join("-+-")}\n`);
  for (const row of cells) out.write(`${line(row, false)}\n`);
  out.write(`(${cells.length} row${cells.length === 1 ? "" : "s"})\n`);
  return cells.length;
}

function clip(value: string): string {
  const oneLine = value.replace(/\r?\n/g, "\\n");
  return oneLine.length > MAX_TABLE_CELL ? `${oneLine.slice(0, MAX_TABLE_CELL - 1)}…` : oneLine;
}
