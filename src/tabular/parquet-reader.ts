/**
 * Parquet files, read by DuckDB's `read_parquet` in a private in-memory database, every column
 * cast to text (DuckDB's own text for numbers, dates, lists and structs). Rows are numbered from 1.
 * A file that fails to decode part-way is refused whole, never read as its first rows.
 */

import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { errorText } from "../errors/error-text.js";
import { withCompletionCheck } from "../load/stream-completion.js";
import { type CellNotes, TabularError, type TabularRow, type TabularSource } from "./types.js";

function firstLine(error: unknown): string {
  const message = errorText(error);
  return message.split("\n", 1)[0] ?? message;
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * A column's values as text. A whole number in a floating-point column reads as its digits:
 * pandas stores an integer column with a missing value as float64, and id 12345 must not be sent
 * as "12345.0" to a text field. Past 2^53 a double holds no exact integer, so it keeps DuckDB's text.
 */
function asText(column: string, type: string): string {
  if (type !== "DOUBLE" && type !== "FLOAT") return `CAST(${column} AS VARCHAR)`;
  return `CASE WHEN isfinite(${column}) AND ${column} = trunc(${column}) AND abs(${column}) <= ${Number.MAX_SAFE_INTEGER} THEN CAST(CAST(${column} AS BIGINT) AS VARCHAR) ELSE CAST(${column} AS VARCHAR) END`;
}

/** Types whose text is what the file holds: text, and integers as their digits. */
const TEXTUAL = /^(VARCHAR|U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT))$/;

/**
 * Whether a value of a column of `type` reads as text the file does not hold (see the CellNote
 * `column-type`): a whole number in a floating-point column does not (see asText).
 */
function typedValue(type: string, text: string): boolean {
  if (TEXTUAL.test(type)) return false;
  return !((type === "DOUBLE" || type === "FLOAT") && /^-?\d+$/.test(text));
}

/** The notes of the values of columns typed other than text (a CellNote per such value). */
function typeNotes(rows: readonly TabularRow[], types: readonly string[]): CellNotes {
  const notes = new Map<number, Map<number, { kind: "column-type"; type: string }>>();
  if (types.every((type) => TEXTUAL.test(type))) return notes;
  for (const row of rows) {
    row.values.forEach((text, index) => {
      const type = types[index] ?? "";
      if (text === null || !typedValue(type, text)) return;
      const noted = notes.get(row.line) ?? new Map();
      notes.set(row.line, noted.set(index, { kind: "column-type", type }));
    });
  }
  return notes;
}

type ParquetRead = { columns: string[]; rows: TabularRow[]; notes: CellNotes };

/** Every row of the file at `path` as text, read whole (a roster is small beside memory). */
async function readAll(path: string): Promise<ParquetRead> {
  const instance = await DuckDBInstance.create(":memory:");
  try {
    const connection = await instance.connect();
    const described = await connection.runAndReadAll(
      "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet($path))",
      { path },
    );
    const columns = described.getRows().map((row) => String(row[0]));
    const types = described.getRows().map((row) => String(row[1]));
    const select = columns.map((name, i) => asText(quote(name), types[i] ?? "")).join(", ");
    const sql = `SELECT ${select} FROM read_parquet($path)`;
    const read = await withCompletionCheck(connection, async (completed) => {
      const rows = await streamRows(connection, sql, path);
      return { rows, whole: await completed() };
    });
    if (!read.whole) throw await partWayError(connection, sql, path, read.rows.length);
    return { columns, rows: read.rows, notes: typeNotes(read.rows, types) };
  } finally {
    instance.closeSync();
  }
}

/** The rows of `sql` as DuckDB streams them, numbered from 1. */
async function streamRows(
  connection: DuckDBConnection,
  sql: string,
  path: string,
): Promise<TabularRow[]> {
  const result = await connection.stream(sql, { path });
  const rows: TabularRow[] = [];
  for (let chunk = await result.fetchChunk(); chunk; chunk = await result.fetchChunk()) {
    if (chunk.rowCount === 0) break;
    for (const values of chunk.getRows()) {
      rows.push({
        line: rows.length + 1,
        values: values.map((value) => (value === null || value === "" ? null : String(value))),
      });
    }
  }
  return rows;
}

/**
 * Why a read stopped part-way (a row group that does not decode): a stream ends then as if the
 * file had no more rows, without DuckDB's error (stream-completion.ts). Reading the file again
 * not streamed gives that error; should the second read succeed, the rows the first stopped after.
 */
async function partWayError(
  connection: DuckDBConnection,
  sql: string,
  path: string,
  rows: number,
): Promise<unknown> {
  try {
    await connection.run(sql, { path });
  } catch (error) {
    return error;
  }
  return new Error(`reading stopped after ${rows} rows, without a reason; read it again`);
}

/**
 * `read_parquet` takes its path as a glob: a file named `roster_*.parquet` would also read every
 * file its name matches. Such a file is read from a copy under a plain name.
 */
async function readExactly(path: string): Promise<ParquetRead> {
  if (!/[*?[\]{}]/.test(path)) return readAll(path);
  const dir = await mkdtemp(join(tmpdir(), "lms-parquet-"));
  try {
    const copy = join(dir, "file.parquet");
    await copyFile(path, copy);
    return await readAll(copy);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function openParquet(path: string, file: string): Promise<TabularSource> {
  let read: ParquetRead;
  try {
    read = await readExactly(path);
  } catch (error) {
    throw new TabularError(`${file} cannot be read as Parquet (${firstLine(error)})`, {
      cause: error,
    });
  }
  return {
    format: "parquet",
    columns: read.columns,
    unit: "row",
    detail: "Parquet",
    rows: () => read.rows,
    notes: read.notes,
  };
}
