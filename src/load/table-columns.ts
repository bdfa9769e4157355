/**
 * The columns a table has, in the connection's current database and schema only, since another
 * database attached to the instance (an extract's side file) can hold a table of the same name:
 * read from DuckDB's catalog for a table that may be missing, looked up by name (as a query names
 * a table, the current database first) for tables known to be there.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteLiteral } from "./ddl.js";

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

/**
 * The column names of each of `tables`, which must exist, in table order, in one query: each
 * looked up by name the way a query names it (the connection's current database first). Why not
 * `duckdb_columns()`: it scans the whole catalog, 10-20 ms the first time on an instance, which
 * every extract's start paid for each file's tables and for each staging writer it opens; a
 * lookup by name takes about 1 ms.
 */
export async function columnsByTable(
  connection: DuckDBConnection,
  tables: readonly string[],
): Promise<Map<string, string[]>> {
  const found = new Map(tables.map((table): [string, string[]] => [table, []]));
  if (tables.length === 0) return found;
  const lookups = tables.map(
    (table) =>
      `SELECT ${quoteLiteral(table)} AS t, cid, name FROM pragma_table_info(${quoteLiteral(table)})`,
  );
  const reader = await connection.runAndReadAll(
    `SELECT t, name FROM (${lookups.join(" UNION ALL ")}) ORDER BY t, cid`,
  );
  for (const [table, column] of reader.getRows()) found.get(String(table))?.push(String(column));
  return found;
}

/** Whether `table` exists in the connection's current database and schema (a side file's aside). */
export async function tableExists(connection: DuckDBConnection, table: string): Promise<boolean> {
  const reader = await connection.runAndReadAll(
    `SELECT count(*) FROM information_schema.tables WHERE table_name = $1
     AND table_catalog = current_database() AND table_schema = current_schema()`,
    [table],
  );
  return Number(reader.getRows()[0]?.[0] ?? 0) > 0;
}
