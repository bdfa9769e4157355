/**
 * The table a roster is loaded into before it touches `user`: the shape of `user` (base columns
 * typed, extras VARCHAR, keyed on user_id), filled through DuckDB's appender. A leftover from an
 * interrupted import is replaced by the next one.
 */
import type { DuckDBAppender, DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import { createUserTableSql, USER_BASE_COLUMNS } from "../load/user-table.js";

export const ROSTER_STAGING = "_roster_staging";

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
 * Appends rows to the staging table. `sources[c]` is the index in a file row of table column `c`
 * (-1: the file has no such column, null). The first table column is `user_id`, given separately
 * as a bigint. Row by row through the appender: measured here, about twice as fast for text as
 * filling data chunks from JavaScript arrays.
 */
export class StagingAppender {
  private constructor(
    private readonly appender: DuckDBAppender,
    private readonly sources: readonly number[],
  ) {}

  static async open(connection: DuckDBConnection, sources: readonly number[]) {
    return new StagingAppender(await connection.createAppender(ROSTER_STAGING), sources);
  }

  add(id: bigint, values: readonly (string | null)[]): void {
    const { appender, sources } = this;
    appender.appendBigInt(id);
    for (let c = 1; c < sources.length; c++) {
      const value = values[sources[c] as number] ?? null;
      if (value === null) appender.appendNull();
      else appender.appendVarchar(value);
    }
    appender.endRow();
  }

  /** Flushes and closes the appender (committing its rows). */
  close(): void {
    this.appender.closeSync();
  }
}
