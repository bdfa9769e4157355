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
 * The column names of each of `tables`, which must exist, in one query: each looked up by name the
 * way a query names it (the connection's current database first). Why not `duckdb_columns()`: it
 * scans the whole catalog, 10-20 ms the first time on an instance, at every extract's start.
 */
export async function columnsByTable(
  connection: DuckDBConnection,
  tables: readonly string[],
): Promise<Map<string, Set<string>>> {
  const found = new Map(tables.map((table) => [table, new Set<string>()]));
  if (tables.length === 0) return found;
  const reader = await connection.runAndReadAll(
    tables
      .map(
        (table) =>
          `SELECT ${quoteLiteral(table)} AS t, name FROM pragma_table_info(${quoteLiteral(table)})`,
      )
      .join(" UNION ALL "),
  );
  for (const [table, column] of reader.getRows()) found.get(String(table))?.add(String(column));
  return found;
}

/**
 * Column names of `table`, which must exist, in table order, looked up by name the way a query
 * names it (the connection's current database first). Why not `tableColumns`: a lookup of one
 * table takes about 1 ms, where `duckdb_columns()` scans the whole catalog (10-20 ms the first
 * time on an instance), which every staging writer of a run would do at once at its start.
 */
export async function columnsOfTable(
  connection: DuckDBConnection,
  table: string,
): Promise<string[]> {
  const reader = await connection.runAndReadAll(
    `SELECT name FROM pragma_table_info(${quoteLiteral(table)}) ORDER BY cid`,
  );
  return reader.getRows().map((row) => String(row[0]));
}
