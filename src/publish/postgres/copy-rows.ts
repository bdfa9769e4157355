/**
 * Streams one DuckDB table into a PostgreSQL table through `COPY … FROM STDIN` (text format):
 * DuckDB renders each row as a finished line, a chunk of lines becomes one buffer, and the copy
 * stream's backpressure paces the reading, so memory stays flat whatever the table's size.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import type { Client } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { PublishedTable } from "../published-tables.js";
import { copyLinesSql } from "./pg-columns.js";

async function* lines(
  duck: DuckDBConnection,
  table: PublishedTable,
  counted: { rows: number },
  withNul: ReadonlySet<string>,
): AsyncGenerator<Buffer> {
  const result = await duck.stream(copyLinesSql(table.name, table.columns, withNul));
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return;
    const values = chunk.getColumnValues(0) as string[];
    counted.rows += values.length;
    yield Buffer.from(`${values.join("\n")}\n`);
  }
}

/**
 * The server's refusal of a value, naming the table and column it names (its `where`, e.g.
 * `COPY take__lms_export_next, line 7, column _extra: "…"`) and its detail: pg's message alone
 * ("unsupported Unicode escape sequence") says neither which table nor why.
 */
function copyFailure(table: string, error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const { detail, where } = error as Error & { detail?: string; where?: string };
  if (where === undefined) return error;
  const column = /COPY \S+, line \d+, column ([^:]+):/.exec(where)?.[1];
  const place = column === undefined ? table : `${table}.${column}`;
  const why = detail ? ` (${detail})` : "";
  return new Error(`copying ${place}: ${error.message}${why}`, { cause: error });
}

/**
 * Copies every row of `table` into `target` (a quoted, qualified name); answers the rows. The
 * columns named in `withNul` have values holding NUL characters (nul-characters.ts).
 */
export async function copyRows(
  duck: DuckDBConnection,
  pg: Client,
  table: PublishedTable,
  target: string,
  withNul: ReadonlySet<string> = new Set(),
): Promise<number> {
  const counted = { rows: 0 };
  const source = lines(duck, table, counted, withNul);
  const copy = pg.query(copyFrom(`COPY ${target} FROM STDIN`));
  try {
    await pipeline(Readable.from(source), copy);
  } catch (error) {
    // The pipeline settles as soon as the copy fails (a dropped connection, Ctrl-C), while the
    // reader may still be inside a DuckDB call on a worker thread. The caller then closes the
    // connection and the database under that call, and the process dies of SIGSEGV. return()
    // waits its turn behind the call, so nothing of DuckDB is running once this throws.
    await source.return(undefined).catch(() => undefined);
    throw copyFailure(table.name, error);
  }
  if (copy.rowCount !== counted.rows) {
    throw new Error(
      `PostgreSQL stored ${copy.rowCount} rows of ${table.name}, ${counted.rows} sent`,
    );
  }
  return counted.rows;
}
