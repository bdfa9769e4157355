/**
 * The columns a table has, read from DuckDB's catalog: in the connection's current database and
 * schema only, since another database attached to the instance (an extract's side file) can hold
 * a table of the same name.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

/** Column names of `table`, in table order; empty when there is no such table. */
export async function tableColumns(connection: DuckDBConnection, table: string): Promise<string[]> {
  const reader = await connection.runAndReadAll(
    "SELECT column_name FROM duckdb_columns() WHERE table_name = $1 AND database_name = current_database() AND schema_name = current_schema() ORDER BY column_index",
    [table],
  );
  return reader.getRows().map((row) => String(row[0]));
}

/** The same names as a set, for checks of which columns a table lacks. */
export async function existingColumns(
  connection: DuckDBConnection,
  table: string,
): Promise<Set<string>> {
  return new Set(await tableColumns(connection, table));
}
