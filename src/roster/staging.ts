/**
 * The table a roster is loaded into before it touches `user`: the shape of `user` (base columns
 * typed, extras VARCHAR, keyed on user_id), filled through DuckDB data chunks. A leftover from an
 * interrupted import is replaced by the next one.
 */
import { BIGINT, type DuckDBConnection, DuckDBDataChunk, VARCHAR } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { createUserTableSql, USER_BASE_COLUMNS } from "../load/user-table.js";

export const ROSTER_STAGING = "_roster_staging";

/** One DuckDB vector's worth of rows per chunk. */
const CHUNK_ROWS = 2048;

/** Creates the staging table anew with the base columns and `extras` (VARCHAR). */
export async function createStaging(
  connection: DuckDBConnection,
  extras: readonly string[],
): Promise<string[]> {
  await connection.run(`DROP TABLE IF EXISTS ${quoteIdent(ROSTER_STAGING)}`);
  await connection.run(createUserTableSql(ROSTER_STAGING, false));
  for (const name of extras) {
    await connection.run(
      `ALTER TABLE ${quoteIdent(ROSTER_STAGING)} ADD COLUMN ${quoteIdent(name)} VARCHAR`,
    );
  }
  return [...USER_BASE_COLUMNS, ...extras];
}

export async function dropStaging(connection: DuckDBConnection): Promise<void> {
  await connection.run(`DROP TABLE IF EXISTS ${quoteIdent(ROSTER_STAGING)}`);
}

/**
 * Appends rows to the staging table, column-wise in chunks of {@link CHUNK_ROWS}. `sources[c]` is
 * the index in a file row of table column `c` (-1: the file has no such column, null). The first
 * table column is `user_id`, given separately as a bigint.
 */
export class StagingAppender {
  private readonly columns: (string | bigint | null)[][];
  private rows = 0;

  private constructor(
    private readonly appender: Awaited<ReturnType<DuckDBConnection["createAppender"]>>,
    private readonly sources: readonly number[],
  ) {
    this.columns = sources.map(() => []);
  }

  static async open(connection: DuckDBConnection, sources: readonly number[]) {
    return new StagingAppender(await connection.createAppender(ROSTER_STAGING), sources);
  }

  add(id: bigint, values: readonly (string | null)[]): void {
    const { columns, sources } = this;
    (columns[0] as bigint[]).push(id);
    for (let c = 1; c < sources.length; c++) {
      const source = sources[c] as number;
      (columns[c] as (string | null)[]).push(source < 0 ? null : (values[source] ?? null));
    }
    if (++this.rows === CHUNK_ROWS) this.flushChunk();
  }

  /** Appends what is buffered and closes the appender (committing its rows). */
  close(): void {
    this.flushChunk();
    this.appender.closeSync();
  }

  private flushChunk(): void {
    if (this.rows === 0) return;
    const types = this.sources.map((_, c) => (c === 0 ? BIGINT : VARCHAR));
    const chunk = DuckDBDataChunk.create(types, this.rows);
    chunk.setColumns(this.columns);
    this.appender.appendDataChunk(chunk);
    for (const column of this.columns) column.length = 0;
    this.rows = 0;
  }
}
