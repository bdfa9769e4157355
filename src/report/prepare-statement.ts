/**
 * Preparing the one statement of a text (statement-count.ts has checked there is one). DuckDB
 * cannot prepare a PIVOT without an IN list as it is: it runs one as statements of its own, a
 * CREATE TYPE of the values found, then the PIVOT over that type, and refuses to prepare several
 * at once. Those CREATE statements are run first (the types are temporary, gone with the
 * connection, and allowed on a read-only database), then the PIVOT is prepared, its columns known.
 */
import type { DuckDBConnection, DuckDBPreparedStatement } from "@duckdb/node-api";

/** The prepared statement of `text`, which holds one as written; the caller destroys it. */
export async function prepareStatement(
  connection: DuckDBConnection,
  text: string,
): Promise<DuckDBPreparedStatement> {
  const extracted = await connection.extractStatements(text);
  for (let i = 0; i < extracted.count - 1; i++) {
    const created = await extracted.prepare(i);
    try {
      await created.run();
    } finally {
      created.destroySync();
    }
  }
  return extracted.prepare(extracted.count - 1);
}
