/** A database that fails to record apply's outcomes, as one that fails writes would. */
import { DuckDBInstance } from "@duckdb/node-api";
import { META_TABLES_SQL } from "../../src/load/meta-ddl.js";

/**
 * Makes `_changes` of the database `db` refuse the outcome `applied` of the rows of `file` (or,
 * with null, take them again), as a database that fails writes. Rows of earlier tests stay.
 */
export async function refuseApplied(db: string, file: string | null): Promise<void> {
  const ddl = META_TABLES_SQL.find((sql) => sql.includes("EXISTS _changes ("));
  if (!ddl) throw new Error("no _changes table in META_TABLES_SQL");
  const instance = await DuckDBInstance.create(db);
  const connection = await instance.connect();
  try {
    await connection.run("CREATE TABLE _changes_kept AS SELECT * FROM _changes");
    await connection.run("DROP TABLE _changes");
    await connection.run(
      file === null
        ? ddl
        : ddl.replace(/\n\)$/, `,\n  CHECK (outcome <> 'applied' OR file <> '${file}')\n)`),
    );
    await connection.run("INSERT INTO _changes SELECT * FROM _changes_kept");
    await connection.run("DROP TABLE _changes_kept");
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
