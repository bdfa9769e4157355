/**
 * Streams one DuckDB table into a PostgreSQL table through `COPY … FROM STDIN` (text format):
 * DuckDB renders each row as a finished line, a chunk of lines becomes one buffer, and the copy
 * stream's backpressure paces the reading, so memory stays flat whatever the table's size. The
 * reading is checked to have reached the table's end (stream-completion.ts).
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import type { Client } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { quoteIdent } from "../../load/ddl.js";
import { withCompletionCheck } from "../../load/stream-completion.js";
import type { PublishedTable } from "../published-tables.js";
import { copyLinesSql } from "./pg-columns.js";

/**
 * The rows of `table` as COPY lines, a buffer per chunk. A read that failed part-way (a damaged
 * block of the database file, memory) ends as if the table had no more rows: `completed` tells
 * (stream-completion.ts), and such a read throws, so the COPY fails rather than store a shortened
 * table.
 */
async function* lines(
  duck: DuckDBConnection,
  table: PublishedTable,
  counted: { rows: number },
  withNul: ReadonlySet<string>,
  completed: () => Promise<boolean>,
): AsyncGenerator<Buffer> {
  const result = await duck.stream(copyLinesSql(table.name, table.columns, withNul));
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const values = chunk.getColumnValues(0) as string[];
    counted.rows += values.length;
    yield Buffer.from(`${values.join("\n")}\n`);
  }
  if (await completed()) return;
  throw new Error(
    `reading ${table.name} from the database stopped after ${counted.rows} rows, and DuckDB's client library does not pass on why: run SELECT * FROM ${quoteIdent(table.name)} in the duckdb shell to see the error`,
  );
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
  return withCompletionCheck(duck, async (completed) => {
    const counted = { rows: 0 };
    const source = lines(duck, table, counted, withNul, completed);
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
  });
}
