/**
 * A database is published only once an extract has succeeded in it. An extract that fails or is
 * interrupted before its first success leaves a database whose tables exist but are empty (its
 * `_runs` row is written at the start); publishing it would replace the lake's snapshot of the
 * day, or every table of the PostgreSQL schema, with empty ones, and a BI dashboard would show no
 * one as trained. A database that has none of the tables at all is refused the same way.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";

/** The refusal; `naming` says it of a database file the caller knows. */
export class NothingExtractedError extends LmsExportError {
  constructor(path?: string) {
    const database = path === undefined ? "the database" : `the database ${path}`;
    super(
      "refused",
      `${database} holds no successful extract (no run in its _runs succeeded), and publishing it would replace the published tables with empty ones, so nothing was published; run "lms-export extract" until it succeeds, then publish`,
    );
  }

  /** The same refusal naming the database file (only the command knows which it opened). */
  naming(path: string): NothingExtractedError {
    return new NothingExtractedError(path);
  }
}

/** Throws a refusal unless some run in `_runs` of `connection`'s database succeeded. */
export async function checkExtractedOnce(connection: DuckDBConnection): Promise<void> {
  const found = await connection.runAndReadAll(
    `SELECT count(*) FROM duckdb_tables() WHERE table_name = '_runs'
     AND schema_name = current_schema() AND database_name = current_database()`,
  );
  const hasRuns = Number(found.getRowsJS()[0]?.[0] ?? 0) > 0;
  const succeeded = hasRuns
    ? await connection.runAndReadAll("SELECT 1 FROM _runs WHERE status = 'succeeded' LIMIT 1")
    : undefined;
  if (succeeded !== undefined && succeeded.currentRowCount > 0) return;
  throw new NothingExtractedError();
}
