/**
 * Printing a query result for the `sql` command: an aligned text table for people, CSV (RFC 4180,
 * same formula neutralisation as the exports) or JSON (an array of row objects) for scripts.
 */
import type { Writable } from "node:stream";
import { type DuckDBResult, DuckDBTypeId, type DuckDBValue } from "@duckdb/node-api";
import { infinityText } from "./duckdb-time.js";
import { holdsText, isTextTypeId, neutraliseText } from "./export/formula-injection.js";
import { jsonValue } from "./json-value.js";
import { isNumericType } from "./numeric-types.js";
import { BatchedOutput, gone } from "./print-output.js";
import { utcText } from "./utc-text.js";

/** Output formats of the `sql` command. */
export type PrintFormat = "table" | "csv" | "json";

const MAX_TABLE_CELL = 60;

/**
 * DuckDB's own text for a value (timestamps as "2026-03-05 10:22:13", lists as "[1, 2]"), an
 * infinite date or timestamp as "infinity" or "-infinity" as DuckDB writes it. The table shows a
 * TIMESTAMPTZ in the machine's zone, for people; CSV in UTC, in a list or struct too, as a
 * TIMESTAMPTZ column of its own is (print-statement.ts).
 */
function text(value: DuckDBValue, utc = false): string {
  if (typeof value === "string") return value;
  return infinityText(value) ?? (utc ? utcText(value) : String(value));
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The rows of `result`, until the reader of `out` has gone away. */
async function* rowsOf(result: DuckDBResult, out: Writable): AsyncGenerator<DuckDBValue[]> {
  for await (const chunk of result) {
    if (gone(out)) return;
    for (let r = 0; r < chunk.rowCount; r++) yield chunk.getRowValues(r);
  }
}

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
  let count = 0;
  try {
    for await (const row of rowsOf(result, out)) {
      const written = batch.add(format(row, count));
      count++;
      if (written) await written;
    }
  } finally {
    await batch.flush();
  }
  return count;
}

async function printCsv(
  result: DuckDBResult,
  out: Writable,
  { names, types }: Columns,
  neutraliseFormulas: boolean,
  atEnd: AtEnd,
): Promise<number> {
  const batch = new BatchedOutput(out);
  await batch.add(`${names.map(csvField).join(",")}\r\n`);
  const count = await streamRows(result, batch, out, (row) => {
    const fields = row.map((value, c) => {
      if (value === null) return "";
      const t = text(value, true);
      // A union prints as its member's text: a text member may be a formula as any text can.
      const type = types[c] as DuckDBTypeId;
      const isText = isTextTypeId(type) || (type === DuckDBTypeId.UNION && holdsText(value));
      return csvField(isText && neutraliseFormulas ? neutraliseText(t) : t);
    });
    return `${fields.join(",")}\r\n`;
  });
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
  for await (const row of rowsOf(result, out)) {
    cells.push(row.map((value) => (value === null ? "NULL" : clip(text(value)))));
  }
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
