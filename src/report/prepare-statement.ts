/**
 * Preparing the one statement of a text (statement-count.ts has checked there is one). DuckDB
 * cannot prepare a PIVOT without an IN list as it is: it runs one as statements of its own, a
 * CREATE TYPE of the values found, then the PIVOT over that type, and refuses to prepare several
 * at once. Those CREATE statements are run first (the types are temporary, gone with the
 * connection, and allowed on a read-only database), then the PIVOT is prepared, its columns known.
 */
import {
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  StatementType,
} from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";

/** The prepared statement of `text`, which holds one as written; the caller destroys it. */
export async function prepareStatement(
  connection: DuckDBConnection,
  text: string,
): Promise<DuckDBPreparedStatement> {
  const extracted = await connection.extractStatements(text);
  for (let i = 0; i < extracted.count - 1; i++) {
    const created = await extracted.prepare(i);
    try {
      // Only DuckDB's own CREATE TYPEs come before the one written (statement-count.ts has
      // checked that); anything else is refused rather than run unseen.
      if (created.statementType !== StatementType.CREATE) {
        throw new LmsExportError(
          "bad-input",
          `the text holds ${extracted.count} statements, not one: give exactly one SQL statement`,
        );
      }
      await created.run();
    } finally {
      created.destroySync();
    }
  }
  return extracted.prepare(extracted.count - 1);
}
