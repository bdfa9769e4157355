/** Running `roster import` in-process and reading the database back with a DuckDB of its own. */
import { DuckDBInstance } from "@duckdb/node-api";

export { type InProcessRun as CliRun, runInProcess as cli } from "../helpers/in-process-cli.js";
export { withTempDir } from "../helpers/temp-dir.js";

/** Every row of `sql` on the database file, through a DuckDB instance opened for this read only. */
export async function query(dbPath: string, sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(dbPath, { access_mode: "READ_ONLY" });
  try {
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(sql);
      return reader.getRowObjectsJS() as Record<string, unknown>[];
    } finally {
      // An open connection keeps the file locked after the instance is closed.
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/** The `user` table (ordered by user_id) and its column names. */
export async function users(
  dbPath: string,
): Promise<{ columns: string[]; rows: Record<string, unknown>[] }> {
  const rows = await query(dbPath, 'SELECT * FROM "user" ORDER BY user_id');
  const columns = (
    await query(
      dbPath,
      "SELECT column_name FROM duckdb_columns() WHERE table_name = 'user' ORDER BY column_index",
    )
  ).map((row) => String(row.column_name));
  return { columns, rows };
}

/** The `_roster_imports` rows, oldest first. */
export function imports(dbPath: string): Promise<Record<string, unknown>[]> {
  return query(dbPath, "SELECT * FROM _roster_imports ORDER BY import_id");
}

/**
 * `stderr` without the warnings of a roster that has no name or no e-mail column, which the files
 * of tests about other things (ids and departments only) get.
 */
export function besidesMissingFields(stderr: string): string {
  return stderr
    .split("\n")
    .filter((line) => !/has no (name|e-mail) column \(no header meaning/.test(line))
    .join("\n");
}
